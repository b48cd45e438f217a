//! Shawe-Taylor against published NIST vectors: the DSA domain parameters of the ACVP
//! DSA PQGVer test set (usnistgov/ACVP-Server, `gen-val/json-files/DSA-PQGVer/
//! internalProjection.json`, test group 31: L = 2048, N = 256, SHA2-256, provable p
//! and q, test cases that NIST marks as passing).
//!
//! FIPS 186-4 A.1.2.1.2 derives q = ST_Random_Prime(N, firstseed) and
//! p0 = ST_Random_Prime(ceil(L/2 + 1), qseed), then searches p = 2 t q p0 + 1 from
//! pseed. The first two calls are primekit's routine; the last loop is written here from
//! the standard with num-bigint, so p, pseed and pgen_counter check p0 and the seed and
//! counter that primekit returns, bit for bit.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use primekit::hazmat::gen::shawe_taylor_random_prime;
use sha2::{Digest, Sha256};

struct Vector {
    tc_id: u32,
    firstseed: &'static str,
    q: &'static str,
    qseed: &'static str,
    qgen_counter: u64,
    p: &'static str,
    pseed: &'static str,
    pgen_counter: u64,
}

const VECTORS: [Vector; 2] = [
    Vector {
        tc_id: 151,
        firstseed: "86373070EE9B819ACF17C371122BD97E6041D278491EC373217D035206E49A9B",
        q: "AC5EFCF86E76C8E9D88A25BBF75DAA0F7B99E568F8C3DAE1FFE96BB979912727",
        qseed: "86373070EE9B819ACF17C371122BD97E6041D278491EC373217D035206E49AFD",
        qgen_counter: 85,
        p: "97E3C0A4F383AAC6F6B5E316AA5FA4A70661092DBF01B0F439C66B38FDADD6E9792FC6E35BE7B7EA2F234A91B85741F43ACC9AED6A8E8AB38504E9E9B3AF2E1EA8ADC68C2ED3EA83C327EA134C868964469582B1EE38943B4FBA54E63F439D94CD5074DBA73B6D7BB4A0711C5FB0801F7CCD9AF62FFAAB07D072CF0B98CBAE0A7F9149703FEFE80C05319F3F4C903FAD2D0DAB72E7F63E993C96E8ECB37876DF50E0D3A4E1C34A237F88E5C47973AB4606B53D99DBC796F3B5046E43FD53F98590977D85D63D06E624E100D031CC2BFD1A2C57BFD6E051043BB89ADA7DAA096290E9D87F1A7072C636258B1B91C2BD2512F964C11DB5309AB244BA9D86ADE5CD",
        pseed: "86373070EE9B819ACF17C371122BD97E6041D278491EC373217D035206E4A83D",
        pgen_counter: 742,
    },
    Vector {
        tc_id: 155,
        firstseed: "90C82234686B3659365346BDD9197DB4A68573FF768DE6A01714C28D6D096C5A",
        q: "83B7F2E3BE74692AFF6EDE7D604CA78747C5851736413F4C224CEE603D9A12EB",
        qseed: "90C82234686B3659365346BDD9197DB4A68573FF768DE6A01714C28D6D096DE8",
        qgen_counter: 392,
        p: "ACC0D8AE80003EAA6F49EC0008712D555D01CC66381E01ACD0ADDA043AA08B1CA54AABEAA98D84BABD82D8822055071FBA79149BF68141BE5D24AFC9BAECBA60ED872945104C662B44A64CA48E641FC135456EE5720A6F9BCB02708F1A1E07460993D45E91B922EE6AF50A2294D678D7691556EAA5075025F32F6D7985971C233B9564987E9AE1917CEFC84DFD22F19217C0FB105F773EF39D23E1A26E8816749C6C5AD7D6B3CE74DA6C3BE07760FF30EC5F21B15120F55FC5ADCD2365144F7E1439975ACEF7AF8835077AB8ABBA66F064B004736D9D12965B7223FEA87615F5AD73E9752ED85506788A7F8412E1D9E3A63EDD459D20D4B965A305F0CEE48511",
        pseed: "90C82234686B3659365346BDD9197DB4A68573FF768DE6A01714C28D6D09722C",
        pgen_counter: 222,
    },
];

const L: u32 = 2048;
const N: u32 = 256;
const SEEDLEN: usize = 256;
const OUTLEN: u32 = 256;

fn hex(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).unwrap()
}

/// Hash of x written big-endian on SEEDLEN bits.
fn hash(x: &BigUint) -> BigUint {
    let x = x % (BigUint::one() << SEEDLEN);
    let be = x.to_bytes_be();
    let mut buf = vec![0u8; SEEDLEN / 8 - be.len()];
    buf.extend_from_slice(&be);
    BigUint::from_bytes_be(&Sha256::digest(&buf))
}

fn hash_stream(seed: &BigUint, iterations: u32) -> BigUint {
    (0..=iterations).fold(BigUint::default(), |acc, i| acc + (hash(&(seed + i)) << (i * OUTLEN)))
}

/// FIPS 186-4 A.1.2.1.2 steps 6-22, from p0 and pseed: (p, pseed, pgen_counter).
fn construct_p(q: &BigUint, p0: &BigUint, mut pseed: BigUint, mut counter: u64) -> (BigUint, BigUint, u64) {
    let iterations = L.div_ceil(OUTLEN) - 1;
    let old_counter = counter;
    let x = hash_stream(&pseed, iterations);
    pseed += iterations + 1;
    let half = BigUint::one() << (L - 1);
    let x = &half + (x % &half);
    let two_q_p0 = (q * p0) << 1u8;
    let mut t = x.div_ceil(&two_q_p0);
    loop {
        if &two_q_p0 * &t + 1u8 > BigUint::one() << L {
            t = half.div_ceil(&two_q_p0);
        }
        let p = &two_q_p0 * &t + 1u8;
        counter += 1;
        let a = hash_stream(&pseed, iterations);
        pseed += iterations + 1;
        let a = (a % (&p - 3u8)) + 2u8;
        let z = a.modpow(&((&t * q) << 1u8), &p);
        if (&z - 1u8).gcd(&p).is_one() && z.modpow(p0, &p).is_one() {
            return (p, pseed, counter);
        }
        assert!(counter <= 4 * u64::from(L) + old_counter, "FAILURE in the p loop");
        t += 1u8;
    }
}

#[test]
fn acvp_provable_dsa_domain_parameters_are_reproduced() {
    for v in &VECTORS {
        let q = shawe_taylor_random_prime(N, &hex(v.firstseed), SEEDLEN).unwrap();
        assert_eq!(q.prime, hex(v.q), "tcId {}: q", v.tc_id);
        assert_eq!(q.prime_seed, hex(v.qseed), "tcId {}: qseed", v.tc_id);
        assert_eq!(q.prime_gen_counter, v.qgen_counter, "tcId {}: qgen_counter", v.tc_id);

        let p0 = shawe_taylor_random_prime((L / 2) + 1, &q.prime_seed, SEEDLEN).unwrap();
        assert_eq!(p0.prime.bits(), u64::from(L / 2 + 1));
        let (p, pseed, pgen_counter) = construct_p(&q.prime, &p0.prime, p0.prime_seed, p0.prime_gen_counter);
        assert_eq!(p, hex(v.p), "tcId {}: p", v.tc_id);
        assert_eq!(pseed, hex(v.pseed), "tcId {}: pseed", v.tc_id);
        assert_eq!(pgen_counter, v.pgen_counter, "tcId {}: pgen_counter", v.tc_id);
    }
}

/// A seed NIST modified (tcId 152, "modify seed") must not give that test case's q.
#[test]
fn a_modified_seed_does_not_reproduce_the_vector() {
    let q = shawe_taylor_random_prime(N, &hex("0FCF4F7BF0CE8C800EB336269CD49C0C71B16C8367EC8EDF990CC57AC4A807C0"), SEEDLEN).unwrap();
    assert_ne!(q.prime, hex("B560582CD2BB97CD5073B5A68F2753B7F06F42EA3045CD6661A3521D7EC32A91"));
}
