//! Result tables kept beside their JSON: every `results/**/paper-scale/*.md` must be what
//! `primekit bench merge` renders from the `.jsonl` of the same name (merging one merged
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
        let out =
            Command::new(env!("CARGO_BIN_EXE_primekit")).args(["bench", "merge"]).arg(&json).output().expect("run primekit bench merge");
        assert!(out.status.success(), "{}: {}", json.display(), String::from_utf8_lossy(&out.stderr));
        let rendered = String::from_utf8(out.stderr).expect("utf-8");
        assert_eq!(rendered, committed, "{} does not match {}: regenerate it with `primekit bench merge`", md.display(), json.display());
        checked += 1;
    }
    assert!(checked >= 2, "expected the committed paper-scale tables, found {checked}");
}
