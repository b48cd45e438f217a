//! Result tables kept beside their JSON: every `results/**/paper-scale/*.md` must be what
//! `primekit-lab bench merge` renders from the `.jsonl` of the same name (merging one merged
//! file re-derives the table), so a figure edited by hand, or a JSON file replaced without
//! its table, fails.

use std::path::Path;
use std::process::Command;

#[test]
fn paper_scale_tables_match_their_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/massimo-paterson-2020/paper-scale");
    let mut checked = 0;
    for entry in std::fs::read_dir(&root).expect("paper-scale results") {
        let json = entry.expect("entry").path();
        if json.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let md = json.with_extension("md");
        let Ok(committed) = std::fs::read_to_string(&md) else { continue };
        let out = Command::new(env!("CARGO_BIN_EXE_primekit-lab"))
            .args(["bench", "merge"])
            .arg(&json)
            .output()
            .expect("run primekit-lab bench merge");
        assert!(out.status.success(), "{}: {}", json.display(), String::from_utf8_lossy(&out.stderr));
        let rendered = String::from_utf8(out.stderr).expect("utf-8");
        assert_eq!(
            rendered,
            committed,
            "{} does not match {}: regenerate it with `primekit-lab bench merge`",
            md.display(),
            json.display()
        );
        checked += 1;
    }
    assert!(checked >= 2, "expected the committed paper-scale tables, found {checked}");
}

/// Every `<!-- render: KIND FILE... -->` block of README.md, docs/research.md and the
/// results READMEs is exactly what `primekit-lab render KIND FILE...` makes of its committed
/// JSON (tools/update_rendered.sh rewrites them).
#[test]
fn rendered_blocks_match_their_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut docs = vec![root.join("README.md"), root.join("docs/research.md")];
    let mut dirs = vec![root.join("results")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("results dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.file_name().is_some_and(|n| n == "README.md") {
                docs.push(p);
            }
        }
    }
    let (begin, end) = ("<!-- render: ", "<!-- end render -->");
    let mut checked = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(doc).expect("doc");
        let mut pos = 0;
        while let Some(i) = text[pos..].find(begin).map(|i| i + pos) {
            let close = text[i..].find(" -->\n").map(|c| c + i).unwrap_or_else(|| panic!("{}: unclosed render marker", doc.display()));
            let args: Vec<&str> = text[i + begin.len()..close].split_whitespace().collect();
            let body_start = close + " -->\n".len();
            let j = text[body_start..]
                .find(end)
                .map(|j| j + body_start)
                .unwrap_or_else(|| panic!("{}: {args:?} has no end marker", doc.display()));
            let out = Command::new(env!("CARGO_BIN_EXE_primekit-lab"))
                .arg("render")
                .args(&args)
                .current_dir(&root)
                .output()
                .expect("run primekit-lab render");
            assert!(out.status.success(), "{}: primekit-lab render {args:?}: {}", doc.display(), String::from_utf8_lossy(&out.stderr));
            let rendered = String::from_utf8(out.stdout).expect("utf-8");
            assert_eq!(
                &text[body_start..j],
                rendered,
                "{}: the block `primekit-lab render {}` differs from its JSON: run tools/update_rendered.sh",
                doc.display(),
                args.join(" ")
            );
            checked += 1;
            pos = j;
        }
    }
    assert!(checked >= 6, "expected the committed render blocks, found {checked}");
}

/// results/hw/README.md is `primekit-lab hw-report` on the committed JSON beside it.
#[test]
fn hardware_report_matches_its_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/hw");
    let tmp = std::env::temp_dir().join(format!("primekit-hw-report-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    for e in std::fs::read_dir(&root).expect("results/hw") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "json" || x == "jsonl") {
            std::fs::copy(&p, tmp.join(p.file_name().expect("name"))).expect("copy");
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_primekit-lab"))
        .args(["hw-report", "--dir"])
        .arg(&tmp)
        .output()
        .expect("run primekit-lab hw-report");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rendered = std::fs::read_to_string(tmp.join("README.md")).expect("rendered README");
    let committed = std::fs::read_to_string(root.join("README.md")).expect("committed README");
    let _ = std::fs::remove_dir_all(&tmp);
    assert_eq!(rendered, committed, "results/hw/README.md differs from `primekit-lab hw-report --dir results/hw`");
}
