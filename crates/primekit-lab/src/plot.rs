//! PNG/SVG figures for the research commands (plotters): a histogram with an acceptance
//! band (Dobrosavljević 2021, Fig. 5.10–5.12) and a runtime heatmap over (r, L) (Fig. 5.1–5.21).

use plotters::coord::Shift;
use plotters::prelude::*;
use std::error::Error as StdError;
use std::path::Path;

type Res = Result<(), Box<dyn StdError>>;

/// Runs `$draw(root)` on an SVG drawing area when `$path` ends in `.svg`, else on a PNG
/// bitmap: the two backends are different types, so the drawing is instantiated twice.
macro_rules! on_backend {
    ($path:expr, $size:expr, |$root:ident| $draw:expr) => {
        if $path.extension().is_some_and(|e| e == "svg") {
            let $root = SVGBackend::new($path, $size).into_drawing_area();
            $draw
        } else {
            let $root = BitMapBackend::new($path, $size).into_drawing_area();
            $draw
        }
    };
}

/// Bars of `counts` labelled `labels`, with horizontal lines at `band.0` and `band.1`.
pub fn histogram(path: &Path, title: &str, x_desc: &str, labels: &[u32], counts: &[u64], band: (f64, f64)) -> Res {
    crate::plots::init_font()?;
    on_backend!(path, (1000, 480), |root| draw_histogram(root, title, x_desc, labels, counts, band))
}

fn draw_histogram<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    x_desc: &str,
    labels: &[u32],
    counts: &[u64],
    band: (f64, f64),
) -> Res
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let n = counts.len() as u32;
    // The axis spans the counts and the band with a margin of half the band's width (not
    // from 0): with millions of samples the band is ±1% of μ and would be invisible.
    let hi = counts.iter().copied().max().unwrap_or(1) as f64;
    let lo = counts.iter().copied().min().unwrap_or(0) as f64;
    let pad = ((band.1 - band.0) * 0.5).max(1.0);
    let ymax = hi.max(band.1) + pad;
    let ymin = (lo.min(band.0) - pad).max(0.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((0..n - 1).into_segmented(), ymin..ymax)?; // n segments
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(x_desc)
        .y_desc("count")
        .x_labels(16)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => labels.get(*i as usize).map(|l| format!("{l:#x}")).unwrap_or_default(),
            SegmentValue::Last => String::new(),
        })
        .draw()?;
    chart.draw_series(counts.iter().enumerate().map(|(i, &c)| {
        let i = i as u32;
        let inside = (c as f64) >= band.0 && (c as f64) <= band.1;
        let color = if inside { BLUE.mix(0.6) } else { RED.mix(0.8) };
        Rectangle::new([(SegmentValue::Exact(i), ymin), (SegmentValue::Exact(i + 1), c as f64)], color.filled())
    }))?;
    for y in [band.0, band.1] {
        chart.draw_series(LineSeries::new([(SegmentValue::Exact(0), y), (SegmentValue::Last, y)], BLACK.stroke_width(2)))?;
    }
    root.present()?;
    Ok(())
}

/// A heatmap of `values[i][j]` (ms; `None` = not measured) over columns `xs` (r) and
/// rows `ys` (L); darker is faster, each cell printed.
pub fn heatmap(path: &Path, title: &str, xs: &[u64], ys: &[u64], y_desc: &str, values: &[Vec<Option<f64>>]) -> Res {
    crate::plots::init_font()?;
    let size = (160 + 90 * xs.len() as u32, 120 + 45 * ys.len() as u32);
    on_backend!(path, size, |root| draw_heatmap(root, title, xs, ys, y_desc, values))
}

fn draw_heatmap<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    xs: &[u64],
    ys: &[u64],
    y_desc: &str,
    values: &[Vec<Option<f64>>],
) -> Res
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (nx, ny) = (xs.len() as u32, ys.len() as u32);
    let all: Vec<f64> = values.iter().flatten().flatten().copied().collect();
    let (lo, hi) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d((0..(nx - 1).max(1)).into_segmented(), (0..(ny - 1).max(1)).into_segmented())?; // nx × ny cells (a lone row or column gets a blank neighbour)
    let label = |v: &SegmentValue<u32>, axis: &[u64]| match v {
        SegmentValue::CenterOf(i) => axis.get(*i as usize).map(|x| x.to_string()).unwrap_or_default(),
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("r (first odd primes sieved)")
        .y_desc(y_desc)
        .x_labels(xs.len())
        .y_labels(ys.len())
        .x_label_formatter(&|v| label(v, xs))
        .y_label_formatter(&|v| label(v, ys))
        .draw()?;
    for (i, col) in values.iter().enumerate() {
        for (j, v) in col.iter().enumerate() {
            let (i, j) = (i as u32, j as u32);
            let cell = [(SegmentValue::Exact(i), SegmentValue::Exact(j)), (SegmentValue::Exact(i + 1), SegmentValue::Exact(j + 1))];
            let Some(v) = v else {
                chart.draw_series([Rectangle::new(cell, RGBColor(230, 230, 230).filled())])?;
                continue;
            };
            let f = if hi > lo { (v - lo) / (hi - lo) } else { 0.0 };
            // Dark blue (fast) to yellow (slow).
            let c = RGBColor((40.0 + 215.0 * f) as u8, (40.0 + 180.0 * f) as u8, (140.0 - 100.0 * f) as u8);
            chart.draw_series([Rectangle::new(cell, c.filled())])?;
            let text_color = if f < 0.5 { WHITE } else { BLACK };
            chart.draw_series([Text::new(
                format!("{v:.1}"),
                (SegmentValue::CenterOf(i), SegmentValue::CenterOf(j)),
                ("sans-serif", 13).into_font().color(&text_color),
            )])?;
        }
    }
    root.present()?;
    Ok(())
}
