//! PEM/DER key parsing: NOT ACTIVE YET. The `keys` module (branch `files`) has not landed;
//! until it does this target only checks that arbitrary bytes survive UTF-8 decoding, and
//! `.ci/fuzz-smoke.sh` skips it. To enable: call the keys parser on `data` here (it must
//! return an error, never panic) and add `pem_parse` to the script's target list.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = String::from_utf8_lossy(data);
});
