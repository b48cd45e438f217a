//! Builders for crafted key files, shared by `primekit/tests/keys.rs` and
//! `primekit-cli/tests/check_cli.rs`: structures DER-encoded with the `der`, `pkcs1` and
//! `pkcs8` crates (never hand-written ASN.1 bytes), wrapped in PEM by `pem-rfc7468`.
#![allow(dead_code)]

use der::asn1::{ObjectIdentifier, UintRef};
use der::Encode;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use primekit::keys::dh::{DhParameter, DomainParameters};
use primekit::RsaPrivateKey as RsaKey;

/// RFC 3526 §3, 2048-bit MODP group 14: safe prime, g = 2 (matches
/// `openssl genpkey -genparam -algorithm DH -pkeyopt group:modp_2048`).
pub const MODP2048_P: &str = "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF";

/// RFC 5114 §2.2: 2048-bit MODP group with a 224-bit prime-order subgroup (matches
/// `openssl genpkey -genparam -algorithm DHX -pkeyopt dh_rfc5114:2`).
pub const RFC5114_P: &str = "AD107E1E9123A9D0D660FAA79559C51FA20D64E5683B9FD1B54B1597B61D0A75E6FA141DF95A56DBAF9A3C407BA1DF15EB3D688A309C180E1DE6B85A1274A0A66D3F8152AD6AC2129037C9EDEFDA4DF8D91E8FEF55B7394B7AD5B7D0B6C12207C9F98D11ED34DBF6C6BA0B2C8BBC27BE6A00E0A0B9C49708B3BF8A317091883681286130BC8985DB1602E714415D9330278273C7DE31EFDC7310F7121FD5A07415987D9ADC0A486DCDF93ACC44328387315D75E198C641A480CD86A1B9E587E8BE60E69CC928B2B9C52172E413042E9B23F10B0E16E79763C9B53DCF4BA80A29E3FB73C16B8E75B97EF363E2FFA31F71CF9DE5384E71B81C0AC4DFFE0C10E64F";
pub const RFC5114_G: &str = "AC4032EF4F2D9AE39DF30B5C8FFDAC506CDEBE7B89998CAF74866A08CFE4FFE3A6824A4E10B9A6F0DD921F01A70C4AFAAB739D7700C29F52C57DB17C620A8652BE5E9001A8D66AD7C17669101999024AF4D027275AC1348BB8A762D0521BC98AE247150422EA1ED409939D54DA7460CDB5F6C6B250717CBEF180EB34118E98D119529A45D6F834566E3025E316A330EFBB77A86F0C1AB15B051AE3D428C8F8ACB70A8137150B8EEB10E183EDD19963DDD9E263E4770589EF6AA21E7F5F2FF381B539CCE3409D13CD566AFBB48D6C019181E1BCFE94B30269EDFE72FE9B6AA4BD7B5A0F1C71CFFF4C19C418E1F6EC017981BC087F2A7065B384B890D3191F2BFA";
pub const RFC5114_Q: &str = "801C0D34C58D93FE997177101F80535A4738CEBCBF389A99B36371EB";

pub fn hex(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).unwrap()
}

pub fn pem(label: &str, der: &[u8]) -> Vec<u8> {
    pem_rfc7468::encode_string(label, pem_rfc7468::LineEnding::LF, der).unwrap().into_bytes()
}

/// PKCS#3 `DH PARAMETERS` file for (p, g).
pub fn pkcs3(p: &BigUint, g: &BigUint) -> Vec<u8> {
    let (pb, gb) = (p.to_bytes_be(), g.to_bytes_be());
    let der =
        DhParameter { prime: UintRef::new(&pb).unwrap(), base: UintRef::new(&gb).unwrap(), private_value_length: None }.to_der().unwrap();
    pem("DH PARAMETERS", &der)
}

/// X9.42 `X9.42 DH PARAMETERS` file for (p, g, q[, j]).
pub fn x942(p: &BigUint, g: &BigUint, q: &BigUint, j: Option<&BigUint>) -> Vec<u8> {
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

pub fn rfc5114() -> (BigUint, BigUint, BigUint) {
    (hex(RFC5114_P), hex(RFC5114_G), hex(RFC5114_Q))
}

pub fn mersenne(k: u32) -> BigUint {
    (BigUint::one() << k) - 1u32
}

/// A two-prime RSA key from primes p, q (the tests use Mersenne primes, prime by
/// Lucas-Lehmer, so independent of the code under test); d and CRT values by num-bigint.
pub fn rsa_key(p: BigUint, q: BigUint) -> RsaKey {
    let e = BigUint::from(65537u32);
    let lambda = (&p - 1u32).lcm(&(&q - 1u32));
    let d = e.modinv(&lambda).unwrap();
    rsa_key_with_d(p, q, e, d)
}

/// The key (p, q, e, d) with n and the CRT values derived from them.
pub fn rsa_key_with_d(p: BigUint, q: BigUint, e: BigUint, d: BigUint) -> RsaKey {
    RsaKey { n: &p * &q, dp: &d % (&p - 1u32), dq: &d % (&q - 1u32), qinv: q.modinv(&p).unwrap_or_default(), e, d, p, q }
}

/// PKCS#1 `RSAPrivateKey` DER of `k`, whatever its values (consistent or not).
pub fn rsa_der(k: &RsaKey) -> Vec<u8> {
    let b: Vec<Vec<u8>> = [&k.n, &k.e, &k.d, &k.p, &k.q, &k.dp, &k.dq, &k.qinv].iter().map(|v| v.to_bytes_be()).collect();
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

/// `RSA PRIVATE KEY` PEM file.
pub fn pkcs1_pem(k: &RsaKey) -> Vec<u8> {
    pem("RSA PRIVATE KEY", &rsa_der(k))
}

/// `PRIVATE KEY` (PKCS#8) PEM file wrapping the PKCS#1 key under algorithm `oid`.
pub fn pkcs8_pem(k: &RsaKey, oid: &str) -> Vec<u8> {
    let der = rsa_der(k);
    let alg = pkcs8::AlgorithmIdentifierRef { oid: ObjectIdentifier::new_unwrap(oid), parameters: Some(der::asn1::AnyRef::NULL) };
    pem("PRIVATE KEY", &pkcs8::PrivateKeyInfo::new(alg, &der).to_der().unwrap())
}

/// 2^1279-1 times 2^2203-1: a 3482-bit modulus, so every check passes outright.
pub fn big_key() -> RsaKey {
    rsa_key(mersenne(2203), mersenne(1279))
}

/// 2^607-1 times 2^521-1: a 1128-bit modulus (n_size warns), cheap to test repeatedly.
pub fn good_key() -> RsaKey {
    rsa_key(mersenne(607), mersenne(521))
}

/// The >= 1000-bit "Safety in Numbers" composites (Galbraith, Massimo, Paterson, PKC
/// 2019; Massimo & Paterson 2020, §1), built to pass OpenSSL's DH checks: Wycheproof via the corpus,
/// flag GaMaPa19.
pub fn safety_in_numbers_composites() -> Vec<BigUint> {
    include_str!("../data/vectors.tsv")
        .lines()
        .filter(|l| l.contains("GaMaPa19"))
        .map(|l| BigUint::parse_bytes(l.split('\t').next().unwrap().as_bytes(), 10).unwrap())
        .filter(|n| n.bits() >= 1000)
        .collect()
}
