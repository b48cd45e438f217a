//! Line charts for `primekit-lab report`, rendered twice from one description: SVG (text as
//! SVG text) and PNG (plotters' bitmap backend, glyphs drawn by ab_glyph from a TrueType
//! font found on the system, so no fontconfig is needed).

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// Where the PNG renderer looks for a sans-serif TrueType font (Debian/Ubuntu, Fedora,
/// Arch, macOS); `PRIMEKIT_FONT` overrides.
const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/Library/Fonts/Arial.ttf",
];

/// Registers a font once per process for both backends' text layout.
pub fn init_font() -> Result<(), String> {
    use std::sync::OnceLock;
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let env = std::env::var("PRIMEKIT_FONT").ok();
        let candidates = env.iter().map(String::as_str).chain(FONT_PATHS.iter().copied());
        for p in candidates {
            if let Ok(bytes) = std::fs::read(p) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return Ok(());
                }
            }
        }
        Err("no TrueType font found for the plots: install fonts-dejavu-core or set PRIMEKIT_FONT=/path/to/font.ttf".into())
    })
    .clone()
}

/// How a series is drawn.
#[derive(Clone, Copy)]
pub enum Style {
    Line,
    Dashed,
    Points,
}

/// One named series of (x, y) points.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub style: Style,
    pub color: RGBColor,
}

/// A whole chart.
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    /// Optional horizontal dashed line (value, label).
    pub hline: Option<(f64, String)>,
    /// Put the legend in the lower right corner (where the curves leave room).
    pub legend_low: bool,
}

pub const BLUE: RGBColor = RGBColor(31, 119, 180);
pub const ORANGE: RGBColor = RGBColor(230, 110, 20);
pub const GREEN: RGBColor = RGBColor(44, 160, 44);
pub const GREY: RGBColor = RGBColor(110, 110, 110);

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, c: &Chart) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| format!("plot {:?}: {x:?}", c.title);
    root.fill(&WHITE).map_err(e)?;
    let pts = c.series.iter().flat_map(|s| s.points.iter()).filter(|p| p.0.is_finite() && p.1.is_finite());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if let Some((h, _)) = c.hline {
        (y0, y1) = (y0.min(h), y1.max(h));
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    let pad = (y1 - y0).max(1e-12) * 0.08;
    let (y0, y1) = ((y0 - pad).max(if y0 >= 0.0 { 0.0 } else { f64::MIN }), y1 + pad);
    let mut chart = ChartBuilder::on(&root)
        .caption(&c.title, ("sans-serif", 26))
        .margin(18)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc(&c.y_label)
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(e)?;
    for s in &c.series {
        let color = s.color;
        let pts: Vec<(f64, f64)> = s.points.iter().copied().filter(|p| p.0.is_finite() && p.1.is_finite()).collect();
        let anno = match s.style {
            Style::Line => chart.draw_series(LineSeries::new(pts, color.stroke_width(2))).map_err(e)?,
            Style::Dashed => chart.draw_series(DashedLineSeries::new(pts, 8, 5, color.stroke_width(2))).map_err(e)?,
            Style::Points => chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 5, color.filled()))).map_err(e)?,
        };
        match s.style {
            Style::Points => anno.label(s.name.clone()).legend(move |(x, y)| Circle::new((x + 11, y), 5, color.filled())),
            _ => anno.label(s.name.clone()).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], color.stroke_width(3))),
        };
    }
    if let Some((h, label)) = &c.hline {
        chart
            .draw_series(DashedLineSeries::new(vec![(x0, *h), (x1, *h)], 6, 6, GREY.stroke_width(1)))
            .map_err(e)?
            .label(label.clone())
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], GREY.stroke_width(1)));
    }
    chart
        .configure_series_labels()
        .position(if c.legend_low { SeriesLabelPosition::LowerRight } else { SeriesLabelPosition::UpperRight })
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .draw()
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}

/// Writes `<stem>.svg` and `<stem>.png` (1000 x 640).
pub fn render(stem: &Path, c: &Chart) -> Result<(), String> {
    init_font()?;
    let svg = stem.with_extension("svg");
    draw(SVGBackend::new(&svg, (1000, 640)).into_drawing_area(), c)?;
    let png = stem.with_extension("png");
    draw(BitMapBackend::new(&png, (1000, 640)).into_drawing_area(), c)?;
    Ok(())
}
