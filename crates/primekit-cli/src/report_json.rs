//! JSON rendering of an audit report (`check-dh` / `check-rsa --json`, `docs/json.md`).
//!
//! Shape (stable; keys are only ever added, never renamed or removed):
//! `{"format": "...", "ok": bool, "checks": [{"name": "...", "status": "pass"|"warn"|
//! "fail"|"skip", "passed": bool, "detail": "..."}]}`. `passed` is true for `pass` and
//! `warn`; `ok` is true when every check passed.

use primekit::keys::CheckReport;
use serde_json::{json, Value};

/// The JSON object described in the module documentation.
pub fn report_json(report: &CheckReport) -> Value {
    let checks: Vec<Value> = report
        .checks
        .iter()
        .map(|c| json!({"name": c.name, "status": c.status.as_str(), "passed": c.passed(), "detail": c.detail}))
        .collect();
    json!({"format": report.format, "ok": report.ok(), "checks": checks})
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use primekit::keys::dh::{check_dh, DhParams};

    /// RFC 3526 2048-bit MODP prime.
    const MODP2048_P: &str = "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF";

    #[test]
    fn json_rendering_has_stable_keys() {
        let p = BigUint::parse_bytes(MODP2048_P.as_bytes(), 16).unwrap() * 3u32;
        // Stated with q = 2 (which divides p - 1), so that p itself is tested.
        let d = DhParams { format: "x9.42", p, g: BigUint::from(2u32), q: Some(BigUint::from(2u32)), j: None, private_value_length: None };
        let r = check_dh(&d).unwrap();
        let v = report_json(&r);
        assert_eq!(v["format"], "x9.42");
        assert_eq!(v["ok"], false);
        let c = &v["checks"][1];
        assert_eq!(c["name"], "p_prime");
        assert_eq!(c["status"], "fail");
        assert_eq!(c["passed"], false);
        assert!(c["detail"].as_str().unwrap().contains("composite"));
        // Exactly these keys, in serde_json's (alphabetical) order.
        let text = v.to_string();
        assert!(text.starts_with(r#"{"checks":[{"detail":"p has 2050 bits: at least the recommended 2048 bits","name":"p_size","passed":true,"status":"pass"},"#), "{text}");
        assert!(text.ends_with(r#"],"format":"x9.42","ok":false}"#), "{text}");
    }
}
