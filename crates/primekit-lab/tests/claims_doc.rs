//! The claims table in docs/research.md is `primekit-lab claims` on the committed results: a
//! figure edited by hand, or a result file changed without regenerating the table, fails.

use std::path::Path;
use std::process::Command;

#[test]
fn claims_table_matches_the_committed_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_primekit-lab"))
        .args(["claims", "--results"])
        .arg(root.join("results"))
        .output()
        .expect("run primekit-lab claims");
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).expect("utf-8");
    assert!(generated.lines().count() >= 10, "{generated}");
    let doc = std::fs::read_to_string(root.join("docs/research.md")).expect("docs/research.md");
    let begin = doc.find("<!-- claims:begin -->\n").expect("claims:begin marker") + "<!-- claims:begin -->\n".len();
    let end = doc.find("<!-- claims:end -->").expect("claims:end marker");
    assert_eq!(&doc[begin..end], generated, "docs/research.md's claims table is stale: run tools/update_claims.sh");
}
