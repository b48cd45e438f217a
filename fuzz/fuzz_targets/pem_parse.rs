//! Key-file audits (`primekit::keys`) on hostile input: every byte string is either a
//! report or an `InputError`, never a panic, a hang or a huge allocation.
//! Layout: [mode][rest]. mode % 5 == 0: `rest` is the whole file. Otherwise `rest` is DER,
//! wrapped here in a well-formed PEM block with the label mode selects (DH PARAMETERS,
//! X9.42 DH PARAMETERS, RSA PRIVATE KEY, PRIVATE KEY), so the fuzzer reaches the DER
//! decoders and the audits instead of spending its time on base64.
#![no_main]

use libfuzzer_sys::fuzz_target;
use primekit::keys::{dh, rsa, MAX_INPUT_BYTES};

const LABELS: [&str; 4] = [dh::PKCS3_LABEL, dh::X942_LABEL, rsa::PKCS1_LABEL, rsa::PKCS8_LABEL];

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let file = match mode % 5 {
        0 => rest.to_vec(),
        k => match pem_rfc7468::encode_string(LABELS[k as usize - 1], pem_rfc7468::LineEnding::LF, rest) {
            Ok(s) => s.into_bytes(),
            Err(_) => return,
        },
    };
    if file.len() > MAX_INPUT_BYTES {
        return;
    }
    // Results are irrelevant; reaching the end without a panic is the property.
    let _ = dh::check_dh_pem(&file);
    let _ = rsa::check_rsa_pem(&file);
});
