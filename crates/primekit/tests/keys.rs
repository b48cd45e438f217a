//! `primekit::keys`: DH parameter and RSA key audits on files crafted here with the
//! `der` crate (good groups from RFCs, and each kind of bad file). Independent oracles:
//! published groups and Mersenne primes (prime by Lucas-Lehmer), num-bigint's own
//! modpow/modinv, and products that are composite by construction. Files made by the
//! system `openssl` CLI are exercised in `primekit-cli/tests/check_cli.rs`.

use der::asn1::{Int, ObjectIdentifier, UintRef};
use der::{Encode, Sequence};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use primekit::keys::dh::{check_dh_pem, DhParameter, DomainParameters};
use primekit::keys::rsa::check_rsa_pem;
use primekit::keys::{CheckReport, InputError, Status, MAX_INPUT_BYTES};

/// RFC 3526 §3, 2048-bit MODP group 14: safe prime, g = 2 (matches
/// `openssl genpkey -genparam -algorithm DH -pkeyopt group:modp_2048`).
const MODP2048_P: &str = "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF";

/// RFC 5114 §2.2: 2048-bit MODP group with a 224-bit prime-order subgroup (matches
/// `openssl genpkey -genparam -algorithm DHX -pkeyopt dh_rfc5114:2`).
const RFC5114_P: &str = "AD107E1E9123A9D0D660FAA79559C51FA20D64E5683B9FD1B54B1597B61D0A75E6FA141DF95A56DBAF9A3C407BA1DF15EB3D688A309C180E1DE6B85A1274A0A66D3F8152AD6AC2129037C9EDEFDA4DF8D91E8FEF55B7394B7AD5B7D0B6C12207C9F98D11ED34DBF6C6BA0B2C8BBC27BE6A00E0A0B9C49708B3BF8A317091883681286130BC8985DB1602E714415D9330278273C7DE31EFDC7310F7121FD5A07415987D9ADC0A486DCDF93ACC44328387315D75E198C641A480CD86A1B9E587E8BE60E69CC928B2B9C52172E413042E9B23F10B0E16E79763C9B53DCF4BA80A29E3FB73C16B8E75B97EF363E2FFA31F71CF9DE5384E71B81C0AC4DFFE0C10E64F";
const RFC5114_G: &str = "AC4032EF4F2D9AE39DF30B5C8FFDAC506CDEBE7B89998CAF74866A08CFE4FFE3A6824A4E10B9A6F0DD921F01A70C4AFAAB739D7700C29F52C57DB17C620A8652BE5E9001A8D66AD7C17669101999024AF4D027275AC1348BB8A762D0521BC98AE247150422EA1ED409939D54DA7460CDB5F6C6B250717CBEF180EB34118E98D119529A45D6F834566E3025E316A330EFBB77A86F0C1AB15B051AE3D428C8F8ACB70A8137150B8EEB10E183EDD19963DDD9E263E4770589EF6AA21E7F5F2FF381B539CCE3409D13CD566AFBB48D6C019181E1BCFE94B30269EDFE72FE9B6AA4BD7B5A0F1C71CFFF4C19C418E1F6EC017981BC087F2A7065B384B890D3191F2BFA";
const RFC5114_Q: &str = "801C0D34C58D93FE997177101F80535A4738CEBCBF389A99B36371EB";

fn hex(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).unwrap()
}

fn pem(label: &str, der: &[u8]) -> Vec<u8> {
    pem_rfc7468::encode_string(label, pem_rfc7468::LineEnding::LF, der).unwrap().into_bytes()
}

/// PKCS#3 `DH PARAMETERS` file for (p, g).
fn pkcs3(p: &BigUint, g: &BigUint) -> Vec<u8> {
    let (pb, gb) = (p.to_bytes_be(), g.to_bytes_be());
    let der = DhParameter { prime: UintRef::new(&pb).unwrap(), base: UintRef::new(&gb).unwrap(), private_value_length: None }
        .to_der()
        .unwrap();
    pem("DH PARAMETERS", &der)
}

/// X9.42 `X9.42 DH PARAMETERS` file for (p, g, q[, j]).
fn x942(p: &BigUint, g: &BigUint, q: &BigUint, j: Option<&BigUint>) -> Vec<u8> {
    let (pb, gb, qb) = (p.to_bytes_be(), g.to_bytes_be(), q.to_bytes_be());
    let jb = j.map(|j| j.to_bytes_be());
    let der = DomainParameters {
        p: UintRef::new(&pb).unwrap(),
        g: UintRef::new(&gb).unwrap(),
        q: UintRef::new(&qb).unwrap(),
        j: jb.as_deref().map(|b| UintRef::new(b).unwrap()),
        validation_params: None,
    }
    .to_der()
    .unwrap();
    pem("X9.42 DH PARAMETERS", &der)
}

fn status(r: &CheckReport, name: &str) -> Status {
    r.get(name).unwrap_or_else(|| panic!("no check {name} in {r:?}")).status
}

fn rfc5114() -> (BigUint, BigUint, BigUint) {
    (hex(RFC5114_P), hex(RFC5114_G), hex(RFC5114_Q))
}

#[test]
fn rfc3526_safe_prime_group_passes_every_check() {
    let r = check_dh_pem(&pkcs3(&hex(MODP2048_P), &BigUint::from(2u32))).unwrap();
    assert_eq!(r.format, "pkcs3");
    let names: Vec<_> = r.checks.iter().map(|c| c.name).collect();
    assert_eq!(names, ["p_size", "p_prime", "p_safe_prime", "g_range", "g_order"]);
    assert!(r.checks.iter().all(|c| c.status == Status::Pass), "{}", r.to_text());
    assert!(r.ok());
}

#[test]
fn rfc5114_x942_group_passes_and_checks_j() {
    let (p, g, q) = rfc5114();
    let j = (&p - 1u32) / &q;
    let r = check_dh_pem(&x942(&p, &g, &q, Some(&j))).unwrap();
    assert_eq!(r.format, "x9.42");
    assert!(r.ok(), "{}", r.to_text());
    assert_eq!(status(&r, "j_cofactor"), Status::Pass);
    let r = check_dh_pem(&x942(&p, &g, &q, Some(&(j + 2u32)))).unwrap();
    assert_eq!(status(&r, "j_cofactor"), Status::Fail);
    assert!(!r.ok());
}

#[test]
fn composite_p_fails() {
    // Composite by construction: a prime times 3.
    let p = hex(MODP2048_P) * 3u32;
    let r = check_dh_pem(&pkcs3(&p, &BigUint::from(2u32))).unwrap();
    assert_eq!(status(&r, "p_prime"), Status::Fail);
    assert_eq!(status(&r, "g_order"), Status::Skip);
    assert!(!r.ok());
}

/// "Safety in Numbers" (Galbraith, Massimo, Paterson, PKC 2019; seed 001 §1): composites
/// built to pass OpenSSL's DH checks, from Wycheproof via the corpus (flag GaMaPa19).
#[test]
fn safety_in_numbers_composites_fail_as_p() {
    let data = include_str!("data/vectors.tsv");
    let mut seen = 0;
    for line in data.lines().filter(|l| l.contains("GaMaPa19")) {
        let p = BigUint::parse_bytes(line.split('\t').next().unwrap().as_bytes(), 10).unwrap();
        if p.bits() < 1000 {
            continue;
        }
        seen += 1;
        let r = check_dh_pem(&pkcs3(&p, &BigUint::from(2u32))).unwrap();
        assert_eq!(status(&r, "p_prime"), Status::Fail, "{line}");
        assert!(!r.ok());
    }
    assert!(seen >= 3, "expected the 1024-bit GaMaPa19 composites in the corpus");
}

#[test]
fn composite_q_fails() {
    // 2q divides p-1 (j is even) but is composite.
    let (p, g, q) = rfc5114();
    let r = check_dh_pem(&x942(&p, &g, &(q * 2u32), None)).unwrap();
    assert_eq!(status(&r, "q_prime"), Status::Fail);
    assert_eq!(status(&r, "q_divides_p_minus_1"), Status::Pass);
    assert_eq!(status(&r, "g_order"), Status::Skip);
    assert!(!r.ok());
}

#[test]
fn q_not_dividing_p_minus_1_fails() {
    let (p, g, _) = rfc5114();
    // A prime that is not q: 2^127 - 1.
    let m127 = (BigUint::one() << 127u32) - 1u32;
    let r = check_dh_pem(&x942(&p, &g, &m127, None)).unwrap();
    assert_eq!(status(&r, "q_prime"), Status::Pass);
    assert_eq!(status(&r, "q_size"), Status::Fail);
    assert_eq!(status(&r, "q_divides_p_minus_1"), Status::Fail);
}

#[test]
fn g_out_of_range_fails() {
    let p = hex(MODP2048_P);
    for g in [BigUint::from(0u32), BigUint::one(), &p - 1u32, p.clone(), &p + 5u32] {
        let r = check_dh_pem(&pkcs3(&p, &g)).unwrap();
        assert_eq!(status(&r, "g_range"), Status::Fail, "g = {g}");
        assert!(!r.ok());
    }
}

#[test]
fn g_of_wrong_order_fails_for_x942() {
    let (p, _, q) = rfc5114();
    let g = BigUint::from(2u32);
    // Oracle: num-bigint says 2 is outside the order-q subgroup.
    assert!(!g.modpow(&q, &p).is_one());
    let r = check_dh_pem(&x942(&p, &g, &q, None)).unwrap();
    assert_eq!(status(&r, "g_range"), Status::Pass);
    assert_eq!(status(&r, "g_order"), Status::Fail);
    assert!(!r.ok());
}

#[test]
fn generator_of_full_safe_prime_group_warns() {
    let p = hex(MODP2048_P);
    let q = (&p - 1u32) >> 1;
    // Smallest g > 2 with g^q = -1 (a quadratic non-residue), found with num-bigint.
    let g = (3u32..).map(BigUint::from).find(|g| g.modpow(&q, &p) == &p - 1u32).unwrap();
    let r = check_dh_pem(&pkcs3(&p, &g)).unwrap();
    assert_eq!(status(&r, "g_order"), Status::Warn);
    assert!(r.ok(), "a warning alone does not fail the report");
}

#[test]
fn small_groups_follow_the_size_policy() {
    // 2^521 - 1 is prime (Lucas-Lehmer) but not safe, and far too small.
    let p = (BigUint::one() << 521u32) - 1u32;
    let r = check_dh_pem(&pkcs3(&p, &BigUint::from(3u32))).unwrap();
    assert_eq!(status(&r, "p_size"), Status::Fail);
    assert_eq!(status(&r, "p_prime"), Status::Pass);
    assert_eq!(status(&r, "p_safe_prime"), Status::Fail);
}

#[test]
fn malformed_dh_input_is_an_error_not_a_report() {
    let good = pkcs3(&hex(MODP2048_P), &BigUint::from(2u32));
    // Truncated PEM: cut in the middle of the base64.
    let cut = &good[..good.len() / 2];
    assert!(matches!(check_dh_pem(cut), Err(InputError::Pem(m)) if m.contains("truncated")));
    // Valid PEM around truncated DER.
    let der = pem_rfc7468::decode_vec(&good).unwrap().1;
    assert!(matches!(check_dh_pem(&pem("DH PARAMETERS", &der[..100])), Err(InputError::Der(_))));
    // Garbage base64.
    let garbage = b"-----BEGIN DH PARAMETERS-----\nMIIB!!!not*base64@@\n-----END DH PARAMETERS-----\n";
    assert!(matches!(check_dh_pem(garbage), Err(InputError::Pem(_))));
    // Wrong label.
    let e = check_dh_pem(&pem("CERTIFICATE", &der)).unwrap_err();
    assert!(matches!(e, InputError::WrongLabel { .. }));
    assert!(e.to_string().contains("found \"CERTIFICATE\""), "{e}");
    // Not PEM at all.
    assert!(matches!(check_dh_pem(&der), Err(InputError::NotPem(_))));
    assert!(matches!(check_dh_pem(b""), Err(InputError::NotPem(_))));
    // An X9.42 label over PKCS#3 content (q missing).
    assert!(matches!(check_dh_pem(&pem("X9.42 DH PARAMETERS", &der)), Err(InputError::Der(_))));
}

#[test]
fn negative_p_is_malformed() {
    #[derive(Sequence)]
    struct SignedParams {
        p: Int,
        g: Int,
    }
    let der = SignedParams { p: Int::new(&[0x80, 1]).unwrap(), g: Int::new(&[2]).unwrap() }.to_der().unwrap();
    assert!(matches!(check_dh_pem(&pem("DH PARAMETERS", &der)), Err(InputError::Der(_))));
}

#[test]
fn oversize_inputs_fail_fast() {
    let t = std::time::Instant::now();
    let garbage = vec![b'A'; 10_000_000];
    assert!(matches!(check_dh_pem(&garbage), Err(InputError::TooLarge { .. })));
    assert!(matches!(check_rsa_pem(&garbage), Err(InputError::TooLarge { .. })));
    assert!(t.elapsed().as_secs_f64() < 1.0, "took {:?}", t.elapsed());
    // Just under the cap: explanatory text then a good block is still read.
    let mut big = vec![b'x'; MAX_INPUT_BYTES - 2000];
    big.push(b'\n');
    big.extend(pkcs3(&hex(MODP2048_P), &BigUint::from(2u32)));
    assert!(check_dh_pem(&big).unwrap().ok());
    // A number beyond the primality test's cap is refused before any work.
    let huge = BigUint::one() << 70_000u32;
    assert!(matches!(
        check_dh_pem(&pkcs3(&(huge + 1u32), &BigUint::from(2u32))),
        Err(InputError::Prime(primekit::Error::InputTooLarge { .. }))
    ));
}

/// A two-prime RSA key from Mersenne primes (prime by Lucas-Lehmer, so independent of
/// the code under test); d, CRT values by num-bigint.
#[derive(Clone)]
struct Key {
    n: BigUint,
    e: BigUint,
    d: BigUint,
    p: BigUint,
    q: BigUint,
    dp: BigUint,
    dq: BigUint,
    qinv: BigUint,
}

fn mersenne(k: u32) -> BigUint {
    (BigUint::one() << k) - 1u32
}

impl Key {
    fn new(p: BigUint, q: BigUint) -> Key {
        let e = BigUint::from(65537u32);
        let lambda = (&p - 1u32).lcm(&(&q - 1u32));
        let d = e.modinv(&lambda).unwrap();
        Key::with_d(p, q, e, d)
    }

    fn with_d(p: BigUint, q: BigUint, e: BigUint, d: BigUint) -> Key {
        Key {
            n: &p * &q,
            dp: &d % (&p - 1u32),
            dq: &d % (&q - 1u32),
            qinv: q.modinv(&p).unwrap_or_default(),
            e,
            d,
            p,
            q,
        }
    }

    fn der(&self) -> Vec<u8> {
        let b: Vec<Vec<u8>> =
            [&self.n, &self.e, &self.d, &self.p, &self.q, &self.dp, &self.dq, &self.qinv].iter().map(|v| v.to_bytes_be()).collect();
        let u = |i: usize| UintRef::new(&b[i]).unwrap();
        pkcs1::RsaPrivateKey {
            modulus: u(0),
            public_exponent: u(1),
            private_exponent: u(2),
            prime1: u(3),
            prime2: u(4),
            exponent1: u(5),
            exponent2: u(6),
            coefficient: u(7),
            other_prime_infos: None,
        }
        .to_der()
        .unwrap()
    }

    fn pkcs1(&self) -> Vec<u8> {
        pem("RSA PRIVATE KEY", &self.der())
    }

    fn pkcs8_with_oid(&self, oid: &str) -> Vec<u8> {
        let der = self.der();
        let alg = pkcs8::AlgorithmIdentifierRef { oid: ObjectIdentifier::new_unwrap(oid), parameters: Some(der::asn1::AnyRef::NULL) };
        pem("PRIVATE KEY", &pkcs8::PrivateKeyInfo::new(alg, &der).to_der().unwrap())
    }
}

/// 2^1279-1 times 2^2203-1: a 3482-bit modulus, so every check passes outright.
fn big_key() -> Key {
    Key::new(mersenne(2203), mersenne(1279))
}

/// 2^607-1 times 2^521-1: a 1128-bit modulus (n_size warns), cheap to test repeatedly.
fn good_key() -> Key {
    Key::new(mersenne(607), mersenne(521))
}

#[test]
fn consistent_rsa_key_passes_in_pkcs1_and_pkcs8() {
    let k = big_key();
    let r = check_rsa_pem(&k.pkcs1()).unwrap();
    assert_eq!(r.format, "pkcs1");
    let names: Vec<_> = r.checks.iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        ["n_size", "p_prime", "q_prime", "n_equals_pq", "pq_distance", "e_valid", "ed_inverse", "dp_crt", "dq_crt", "qinv_crt"]
    );
    assert!(r.checks.iter().all(|c| c.status == Status::Pass), "{}", r.to_text());
    let r = check_rsa_pem(&k.pkcs8_with_oid("1.2.840.113549.1.1.1")).unwrap();
    assert_eq!(r.format, "pkcs8");
    assert!(r.ok(), "{}", r.to_text());
}

#[test]
fn d_in_phi_form_is_accepted() {
    let (p, q) = (mersenne(607), mersenne(521));
    let e = BigUint::from(65537u32);
    let phi = (&p - 1u32) * (&q - 1u32);
    let d = e.modinv(&phi).unwrap();
    let r = check_rsa_pem(&Key::with_d(p, q, e, d).pkcs1()).unwrap();
    assert!(r.ok(), "{}", r.to_text());
}

#[test]
fn n_not_equal_to_pq_fails() {
    let mut k = good_key();
    k.n += 2u32;
    let r = check_rsa_pem(&k.pkcs1()).unwrap();
    assert_eq!(status(&r, "n_equals_pq"), Status::Fail);
    assert!(!r.ok());
}

#[test]
fn wrong_d_fails() {
    let mut k = good_key();
    k.d += 2u32;
    let r = check_rsa_pem(&k.pkcs1()).unwrap();
    assert_eq!(status(&r, "ed_inverse"), Status::Fail);
    assert_eq!(status(&r, "dp_crt"), Status::Fail);
    assert!(r.get("ed_inverse").unwrap().detail.starts_with("NOT"));
}

#[test]
fn wrong_crt_values_fail_one_by_one() {
    for (field, name) in [(0, "dp_crt"), (1, "dq_crt"), (2, "qinv_crt")] {
        let mut k = good_key();
        match field {
            0 => k.dp += 1u32,
            1 => k.dq += 1u32,
            _ => k.qinv += &k.p, // congruent mod p but not reduced
        }
        let r = check_rsa_pem(&k.pkcs1()).unwrap();
        let failed: Vec<_> = r.checks.iter().filter(|c| !c.passed()).map(|c| c.name).collect();
        assert_eq!(failed, [name]);
    }
}

#[test]
fn composite_factor_and_close_factors_fail() {
    // p * 3 is composite by construction; the key is otherwise self-consistent only mod q.
    let mut k = good_key();
    k.p *= 3u32;
    k.n = &k.p * &k.q;
    let r = check_rsa_pem(&k.pkcs1()).unwrap();
    assert_eq!(status(&r, "p_prime"), Status::Fail);
    assert_eq!(status(&r, "q_prime"), Status::Pass);
    // p = q: n = p^2 falls to Fermat (and to a square root).
    let p = mersenne(607);
    let r = check_rsa_pem(&Key::with_d(p.clone(), p.clone(), 65537u32.into(), BigUint::one()).pkcs1()).unwrap();
    assert_eq!(status(&r, "pq_distance"), Status::Fail);
}

#[test]
fn exponent_policy() {
    let (p, q) = (mersenne(607), mersenne(521));
    let lambda = (&p - 1u32).lcm(&(&q - 1u32));
    let e3 = BigUint::from(3u32);
    if let Some(d) = e3.modinv(&lambda) {
        let r = check_rsa_pem(&Key::with_d(p.clone(), q.clone(), e3, d).pkcs1()).unwrap();
        assert_eq!(status(&r, "e_valid"), Status::Warn);
        assert!(r.ok());
    }
    let r = check_rsa_pem(&Key::with_d(p, q, 65536u32.into(), BigUint::one()).pkcs1()).unwrap();
    assert_eq!(status(&r, "e_valid"), Status::Fail);
}

#[test]
fn unsupported_and_malformed_rsa_inputs() {
    let k = good_key();
    // Encrypted PKCS#8 (content irrelevant: refused by label).
    let e = check_rsa_pem(&pem("ENCRYPTED PRIVATE KEY", &k.der())).unwrap_err();
    assert!(matches!(e, InputError::Unsupported(_)) && e.to_string().contains("encrypted keys are unsupported"), "{e}");
    // Legacy encrypted PKCS#1.
    let body = String::from_utf8(k.pkcs1()).unwrap();
    let legacy = body.replacen('\n', "\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00112233445566778899AABBCCDDEEFF\n\n", 1);
    let e = check_rsa_pem(legacy.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("encrypted keys are unsupported"), "{e}");
    // PKCS#8 with a non-RSA algorithm (Ed25519).
    let e = check_rsa_pem(&k.pkcs8_with_oid("1.3.101.112")).unwrap_err();
    assert!(matches!(e, InputError::Unsupported(_)) && e.to_string().contains("Ed25519"), "{e}");
    // A DH file given to the RSA audit, and the reverse.
    let dh = pkcs3(&hex(MODP2048_P), &BigUint::from(2u32));
    assert!(matches!(check_rsa_pem(&dh), Err(InputError::WrongLabel { .. })));
    assert!(matches!(check_dh_pem(&k.pkcs1()), Err(InputError::WrongLabel { .. })));
    // Truncated key.
    let cut = &k.pkcs1()[..300];
    assert!(matches!(check_rsa_pem(cut), Err(InputError::Pem(_))));
}

#[test]
fn json_rendering_has_stable_keys() {
    let r = check_dh_pem(&pkcs3(&(hex(MODP2048_P) * 3u32), &BigUint::from(2u32))).unwrap();
    let v = r.to_json();
    assert_eq!(v["format"], "pkcs3");
    assert_eq!(v["ok"], false);
    let c = &v["checks"][1];
    assert_eq!(c["name"], "p_prime");
    assert_eq!(c["status"], "fail");
    assert_eq!(c["passed"], false);
    assert!(c["detail"].as_str().unwrap().contains("composite"));
    assert!(r.to_text().contains("FAIL  p_prime: p is composite"));
    assert!(r.to_text().contains("result: FAILED"));
}
