//! Gives the shared library a versioned soname (libprimekit.so.0), as cargo-c does, so
//! programs linked against it keep loading the ABI-compatible releases of major 0.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os == "freebsd" || os == "android" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libprimekit.so.{}", std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_default());
    }
    println!("cargo:rerun-if-changed=build.rs");
}
