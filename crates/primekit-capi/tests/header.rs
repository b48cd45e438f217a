//! The committed include/primekit.h is what cbindgen makes from src/lib.rs now: fails
//! when the header is stale or edited by hand. `PRIMEKIT_BLESS=1` rewrites it instead.

use std::path::Path;

#[test]
fn committed_header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut generated);
    let path = crate_dir.join("include/primekit.h");
    if std::env::var_os("PRIMEKIT_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/primekit.h");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/primekit.h is stale: regenerate it with \
         `PRIMEKIT_BLESS=1 cargo test --release -p primekit-capi --test header` and commit it"
    );
}
