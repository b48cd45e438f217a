fn main() {
    println!("cargo:rerun-if-changed=src/memcheck_shim.c");
    cc::Build::new().file("src/memcheck_shim.c").compile("memcheck_shim");
}
