//! ctgrind (A. Langley's technique): run primekit's constant-time primitives under valgrind
//! memcheck with the secret inputs marked *undefined*. memcheck then reports every
//! conditional branch and every memory address that depends on a secret, i.e. exactly the
//! secret-dependent control flow and table indexing a timing attack exploits.
//!
//! Modes (argument 1):
//! - `ct` (default): `MontContext::{mul, sqr}` and `to_mont` (both kernels the CPU has),
//!   `modexp::pow_ct`, `MillerRabin::passes_ct` and the base-2 Fermat test of prime
//!   generation (`fermat_base_two_ct`; the 8-lane IFMA one only where the virtual CPU
//!   has AVX-512); at 576 and 768 bits on the portable, ADX and AVX2 contexts,
//!   `pow2_ct`, `MillerRabin::random_base`, `passes_all_ct` and `passes_ct` (the
//!   timing tests' single-lane targets), and the `MillerRabin` set-up itself (context,
//!   s = v2(n - 1), d, n - 1, n - 3: `MillerRabin::new` on the process kernel at 1024
//!   bits, `from_context` on each kernel's context at 576 and 768 bits); must give zero
//!   memcheck errors.
//! - `leaky-control`: `modexp::pow_vartime` on a secret exponent; must give errors (shows
//!   the check detects a leak).
//! - `secret-s`: `MillerRabin::new` and `passes_ct` with every bit of the candidate
//!   secret but its top byte and bit 0, so s = v2(n-1) too; the set-up counts trailing
//!   zeros and shifts in constant time and the squaring count is fixed, so this must
//!   report 0 errors.
//!
//! What is secret, what is not (see .ci/ctgrind.sh and README "Constant-time check"):
//! - secret: every limb of the modulus (hence m^-1 mod 2^64, R mod m, R^2 mod m), the base
//!   and the exponent; for `MillerRabin`, every bit of n except its top byte and bit 0
//!   (at 576 and 768 bits and in mode `secret-s`; its low byte is public too at 1024
//!   bits in mode `ct`).
//! - public: limb counts and bit lengths (the top byte, whose leading 1 sets the length),
//!   the `exp_bits` argument, a candidate's bit 0 (candidates are odd), and at 1024 bits
//!   in mode `ct` the low byte of n (which fixes s for our test values).
//! - not covered: building the `MontContext`s of the Montgomery, `pow_ct` and `pow2_ct`
//!   checks, the wide lane batches and num-bigint's representation of an argument n:
//!   they run with error reporting off on already-secret inputs, so the values they
//!   produce stay secret for the checked code that follows. (The contexts of the
//!   `MillerRabin` checks are built with reporting on.)
//!
//! Outside valgrind the client requests do nothing and the binary only checks results.

use num_bigint::BigUint;
use primekit::hazmat::gen::fermat_base_two_ct;
use primekit::hazmat::lanes::FermatBatch;
use primekit::hazmat::limbs::{from_limbs, Limb};
use primekit::hazmat::mont::{pow2_ct, pow_ct, pow_vartime};
use primekit::hazmat::mont::{Kernel, MontContext};
use primekit::hazmat::primality::MillerRabin;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

extern "C" {
    fn ctgrind_secret(p: *const u8, len: usize);
    fn ctgrind_public(p: *const u8, len: usize);
    fn ctgrind_errors_off();
    fn ctgrind_errors_on();
    fn ctgrind_error_count() -> u32;
    fn ctgrind_on_valgrind() -> u32;
}

/// Mark bytes `[from, to)` of `limbs` (little-endian byte order) as secret.
fn secret_bytes(limbs: &[Limb], from: usize, to: usize) {
    let bytes = std::mem::size_of_val(limbs);
    assert!(from <= to && to <= bytes);
    // SAFETY: a memcheck client request only changes valgrind's shadow state for the range,
    // which lies inside `limbs`; it neither reads nor writes the memory.
    unsafe { ctgrind_secret((limbs.as_ptr() as *const u8).add(from), to - from) }
}

fn secret(limbs: &[Limb]) {
    secret_bytes(limbs, 0, std::mem::size_of_val(limbs));
}

/// Declassify a result before it is compared (its value is the intended output).
fn public<T: Copy>(x: &[T]) {
    // SAFETY: as in `secret_bytes`.
    unsafe { ctgrind_public(x.as_ptr() as *const u8, std::mem::size_of_val(x)) }
}

/// Declassify a secret-derived bool (the round's verdict, which the caller may reveal).
fn declassify(b: bool) -> bool {
    let cell = [b as u8];
    public(&cell);
    // SAFETY: reads an initialised local; volatile so the marked memory is what is read.
    unsafe { std::ptr::read_volatile(&cell[0]) != 0 }
}

/// Run `f` with memcheck's error reporting off (for the not-constant-time setup code).
fn setup<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: client requests with no memory arguments.
    unsafe { ctgrind_errors_off() };
    let r = f();
    unsafe { ctgrind_errors_on() };
    r
}

/// Deterministic test values (splitmix64); no randomness is needed to expose a branch.
struct Values(u64);
impl Values {
    fn limbs(&mut self, n: usize) -> Vec<Limb> {
        (0..n)
            .map(|_| {
                self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = self.0;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            })
            .collect()
    }
}

const LIMBS: usize = 16; // 1024-bit operands

/// An odd 1024-bit modulus with its top bit set, public top byte, secret everything else.
fn secret_modulus(v: &mut Values) -> Vec<Limb> {
    secret_modulus_of(v, LIMBS)
}

/// [`secret_modulus`] of `limbs` limbs.
fn secret_modulus_of(v: &mut Values, limbs: usize) -> Vec<Limb> {
    let mut m = v.limbs(limbs);
    m[0] |= 1;
    m[limbs - 1] |= 1 << 63;
    secret_bytes(&m, 0, limbs * 8 - 1);
    m
}

/// A secret value of `limbs` limbs below 2^(64 limbs - 1) (so below any modulus from
/// `secret_modulus_of` with as many limbs).
fn secret_operand(v: &mut Values, limbs: usize) -> Vec<Limb> {
    let mut a = v.limbs(limbs);
    a[limbs - 1] >>= 1;
    secret(&a);
    a
}

/// The limbs of an odd candidate `n` of `limbs` limbs, secret except the top byte (the
/// bit length, public) and bit 0 (oddness, public: every candidate is odd). Bit 0 is
/// made defined by an OR with 1 after marking, so everything above it stays secret,
/// s = v2(n - 1) included.
fn secret_candidate(n: &BigUint, limbs: usize) -> Vec<Limb> {
    let mut x = n.to_u64_digits();
    assert!(x.len() == limbs && x[0] & 1 == 1, "an odd {limbs}-limb candidate");
    secret_bytes(&x, 0, limbs * 8 - 1);
    // black_box: the compiler knows bit 0 is set and would drop a plain `|= 1`.
    x[0] |= std::hint::black_box(1);
    x
}

fn check(name: &str, got: &[Limb], want: &BigUint) {
    public(got);
    assert_eq!(&from_limbs(got), want, "{name}: wrong result");
}

/// The Montgomery operations and `pow_ct` (exponent of `exp_limbs` limbs) on
/// `limbs`-limb secrets: 8 (512 bits, the register kernels of `adx_fixed`), 16 (1024
/// bits, the fixed-length kernels with the straight-line square), 24 (1536 bits, the
/// loop square and the fixed-length reduction), 40 (2560 bits, the loop kernels) and 128
/// (8,192 bits, Karatsuba with the reduction by products).
fn montgomery_and_pow_ct(kernel: Kernel, v: &mut Values, limbs: usize, exp_limbs: usize) {
    let m_limbs = secret_modulus_of(v, limbs);
    let (a, b, e) = (secret_operand(v, limbs), secret_operand(v, limbs), secret_operand(v, exp_limbs));
    // SAFETY: `kernel` is either detected, or Adx forced by CTGRIND_HOST_HAS_ADX because
    // the host CPU has BMI2/ADX (valgrind executes them but hides them from CPUID).
    let ctx = setup(|| unsafe { MontContext::with_kernel_unchecked(&from_limbs(&m_limbs), kernel) }.expect("odd modulus"));
    let mut t = ctx.scratch();
    let am = ctx.to_mont(&a, &mut t);
    let bm = ctx.to_mont(&b, &mut t);
    let mut prod = vec![0; limbs];
    ctx.mul(&mut prod, &am, &bm, &mut t);
    let mut sq = vec![0; limbs];
    ctx.sqr(&mut sq, &am, &mut t);
    let pw = pow_ct(&ctx, &am, &e, 64 * exp_limbs);
    let (prod, sq, pw) = (ctx.from_mont(&prod, &mut t), ctx.from_mont(&sq, &mut t), ctx.from_mont(&pw, &mut t));
    // Everything below is the (unchecked) oracle on declassified copies.
    for x in [&m_limbs, &a, &b, &e] {
        public(x);
    }
    let (m, a, b, e) = (from_limbs(&m_limbs), from_limbs(&a), from_limbs(&b), from_limbs(&e));
    check("mul", &prod, &(&a * &b % &m));
    check("sqr", &sq, &(&a * &a % &m));
    check("pow_ct", &pw, &a.modpow(&e, &m));
}

/// `passes_ct` to base 3 on a secret prime, 2^1024 - 105 (the largest prime below 2^1024,
/// tests/is_prime.rs), and a secret composite, 2^1024 - 107; returns how many passed.
fn miller_rabin_passes_ct(all_secret: bool) -> u32 {
    let mut passes = 0;
    for c in [105u64, 107] {
        let n = (BigUint::from(1u8) << 1024u32) - c;
        let limbs = if all_secret {
            secret_candidate(&n, LIMBS)
        } else {
            let limbs = n.to_u64_digits();
            secret_bytes(&limbs, 1, LIMBS * 8 - 1);
            limbs
        };
        // `MillerRabin::new` (the process kernel's context, s, d) with reporting on; only
        // the argument, num-bigint's representation of n, is made with reporting off.
        let m = setup(|| from_limbs(&limbs));
        let mr = MillerRabin::new(&m).expect("odd n >= 5");
        let mut base = vec![0; LIMBS];
        base[0] = 3;
        secret(&base);
        let mut base_public = vec![0; LIMBS];
        base_public[0] = 3;
        let pass = declassify(mr.passes_ct(&base));
        public(&limbs);
        let expected = MillerRabin::new(&n).unwrap().passes_vartime(&base_public);
        assert_eq!(pass, expected, "passes_ct disagrees with passes_vartime for 2^1024-{c}");
        passes += pass as u32;
    }
    passes
}

/// Base-2 Fermat on secret candidates: the scalar `fermat_base_two_ct` (square-and-double
/// `pow2_ct`) on 2^1024 - 105 (prime) and a secret random odd 1024-bit number; and the
/// 8-lane IFMA version when the (virtual) CPU has AVX-512 IFMA. valgrind up to at least
/// 3.19 does not emulate AVX-512, hides it from feature detection, and the lanes decline;
/// the return value says whether they ran.
fn fermat_base_two(v: &mut Values) -> bool {
    let mut cands = vec![((BigUint::from(1u8) << 1024u32) - 105u8).to_u64_digits(), secret_modulus(v)];
    for c in &mut cands {
        secret_bytes(c, 0, LIMBS * 8 - 1);
    }
    let mut got = Vec::new();
    for c in &cands {
        let ctx = setup(|| MontContext::new(&from_limbs(c)).expect("odd 1024-bit modulus"));
        let mut nm1 = c.clone();
        nm1[0] &= !1; // n odd: n - 1 clears bit 0
        got.push(declassify(fermat_base_two_ct(&ctx, &nm1)));
    }
    // The widest batch needs AVX-512 IFMA, which valgrind's virtual CPU lacks; a
    // one-lane batch would repeat the scalar check above.
    let lanes = FermatBatch::with_kernel(1024, Kernel::Ifma).ok().map(|batch| {
        let nums: Vec<BigUint> = setup(|| cands.iter().map(|c| from_limbs(c)).collect());
        lane_verdicts(batch.test_ct(&nums).expect("1024-bit candidates"), cands.len())
    });
    check_fermat("fermat_base_two_ct", &cands, &got);
    if let Some(lanes) = &lanes {
        check_fermat("FermatBatch (IFMA lanes)", &cands, lanes);
    }
    lanes.is_some()
}

/// The lane bits of a batch's verdict mask, each declassified (the caller may reveal them).
fn lane_verdicts(mask: u64, count: usize) -> Vec<bool> {
    (0..count).map(|k| declassify(mask >> k & 1 == 1)).collect()
}

/// Declassifies the candidates and checks each verdict against 2^(n-1) mod n.
fn check_fermat(what: &str, cands: &[Vec<Limb>], got: &[bool]) {
    for c in cands {
        public(c);
    }
    for (k, c) in cands.iter().enumerate() {
        let n = from_limbs(c);
        let want = BigUint::from(2u8).modpow(&(&n - 1u8), &n) == BigUint::from(1u8);
        assert_eq!(got[k], want, "{what}, candidate {k}");
    }
}

/// The AVX2 lanes on secret numbers (valgrind executes AVX2 but hides ADX, which the
/// `avx2` kernel's token also requires, so it is forced as `Adx` is; the script sets
/// `CTGRIND_HOST_HAS_AVX2` when the host CPU has AVX2, BMI2 and ADX):
/// - `MillerRabin::passes_all_ct` with 6 bases (one 4-lane batch and one partial) on the
///   secret prime 2^1024 - 105 and the secret composite 2^1024 - 107; n is secret except
///   its top and low byte, the bases (random, independent of n) are public. The wide
///   batch is built lazily by a first call inside `setup`, as a context is.
/// - `FermatBatch::test_ct` on four secret candidates, built as numbers inside `setup`.
fn avx2_lanes(v: &mut Values) {
    for c in [105u64, 107] {
        let n = (BigUint::from(1u8) << 1024u32) - c;
        let limbs = n.to_u64_digits();
        secret_bytes(&limbs, 1, LIMBS * 8 - 1);
        let bases: Vec<Vec<Limb>> = (3..9u64)
            .map(|b| {
                let mut x = vec![0; LIMBS];
                x[0] = b;
                x
            })
            .collect();
        // SAFETY: the script sets CTGRIND_HOST_HAS_AVX2 only when the host CPU has AVX2,
        // BMI2 and ADX, which valgrind executes.
        let mr = setup(|| {
            let m = from_limbs(&limbs);
            let ctx = unsafe { MontContext::with_kernel_unchecked(&m, Kernel::Avx2) }.expect("odd modulus");
            let mr = MillerRabin::from_context(ctx).expect("odd n >= 5");
            mr.passes_all_ct(&bases); // builds the wide batch
            mr
        });
        let pass = declassify(mr.passes_all_ct(&bases));
        public(&limbs);
        let want = bases.iter().all(|a| MillerRabin::new(&n).unwrap().passes_vartime(a));
        assert_eq!(pass, want, "AVX2 passes_all_ct disagrees with passes_vartime for 2^1024-{c}");
    }
    let cands: Vec<Vec<Limb>> =
        vec![((BigUint::from(1u8) << 1024u32) - 105u8).to_u64_digits(), secret_modulus(v), secret_modulus(v), secret_modulus(v)];
    for c in &cands {
        secret_bytes(c, 0, LIMBS * 8 - 1);
    }
    // SAFETY: as above.
    let (batch, nums) = setup(|| {
        (unsafe { FermatBatch::with_kernel_unchecked(1024, Kernel::Avx2) }, cands.iter().map(|c| from_limbs(c)).collect::<Vec<_>>())
    });
    assert_eq!(batch.lanes(), 4, "AVX2 lanes");
    let passed = lane_verdicts(batch.test_ct(&nums).expect("1024-bit candidates"), cands.len());
    check_fermat("FermatBatch (AVX2 lanes)", &cands, &passed);
}

/// The single-lane constant-time code of the timing tests' targets at their sizes, 576
/// bits (9 limbs) and 768 bits (12 limbs), unrolled instances of the ADX kernels other
/// than the 8 and 16 limbs above, on `kernel`'s context (`Avx2` runs its single products
/// on the ADX code):
/// - `pow2_ct` (`pow2_ct` target, the base-2 Fermat step) with secret modulus and
///   exponent, once with a random exponent and once with exponent 0 (the timing test's
///   fixed class);
/// - `MillerRabin::random_base` and `passes_all_ct` with five secret bases (the
///   generators' acceptance rounds, `candidate_rounds`: one lane, except on the AVX2
///   context at 768 bits, where they run in the AVX2 lanes), and `passes_ct` with base 2 (the
///   `passes_ct` target's fixed class) and with a random base, on a secret prime and
///   composite, 2^576 - 789 and 2^576 - 791 or 2^768 - 825 and 2^768 - 827 (secret
///   except the top byte and bit 0, so s too). The context and the `MillerRabin` are
///   built with reporting on: their set-up is checked as well.
fn single_lane(kernel: Kernel, v: &mut Values, bits: u32) {
    let l = bits as usize / 64;
    let (prime, composite) = match bits {
        576 => (789u32, 791),
        768 => (825, 827),
        _ => unreachable!("sizes with a known prime below 2^bits"),
    };
    for exp_zero in [false, true] {
        let m_limbs = secret_modulus_of(v, l);
        let e = if exp_zero {
            let e = vec![0; l];
            secret(&e);
            e
        } else {
            secret_operand(v, l)
        };
        // SAFETY: as in `montgomery_and_pow_ct`.
        let ctx = setup(|| unsafe { MontContext::with_kernel_unchecked(&from_limbs(&m_limbs), kernel) }.expect("odd modulus"));
        let mut t = ctx.scratch();
        let pw = ctx.from_mont(&pow2_ct(&ctx, &e, 64 * l), &mut t);
        public(&m_limbs);
        public(&e);
        let (m, e) = (from_limbs(&m_limbs), from_limbs(&e));
        check(&format!("pow2_ct ({bits} bits)"), &pw, &BigUint::from(2u8).modpow(&e, &m));
    }
    let mut rng = ChaCha20Rng::seed_from_u64(v.limbs(1)[0]);
    let mut passes = 0;
    for c in [prime, composite] {
        let n = (BigUint::from(1u8) << bits) - c;
        let limbs = secret_candidate(&n, l);
        // The set-up is checked: the context and the `MillerRabin` (s = v2(n - 1), d,
        // n - 1 and n - 3) are built with reporting on. Only the argument (num-bigint's
        // representation of n, the caller's) is made with reporting off.
        let m = setup(|| from_limbs(&limbs));
        // SAFETY: as in `montgomery_and_pow_ct`.
        let ctx = unsafe { MontContext::with_kernel_unchecked(&m, kernel) }.expect("odd modulus");
        let mr = MillerRabin::from_context(ctx).expect("odd n >= 5");
        // Where five rounds run in wide lanes (the AVX2 kernel at 768 bits), the first
        // call builds the lane batch of n: set-up not covered here (num-bigint).
        setup(|| {
            let mut three = vec![0; l];
            three[0] = 3;
            mr.passes_all_ct(&vec![three; 5]);
        });
        let mut two = vec![0; l];
        two[0] = 2;
        secret(&two);
        let bases: Vec<Vec<Limb>> = (0..5).map(|_| mr.random_base(&mut rng).expect("ChaCha20 does not fail")).collect();
        let rounds = declassify(mr.passes_all_ct(&bases));
        let base_two = declassify(mr.passes_ct(&two));
        let random_one = declassify(mr.passes_ct(&bases[0]));
        public(&limbs);
        public(&two);
        for b in &bases {
            public(b);
        }
        let plain = MillerRabin::new(&n).unwrap();
        let what = format!("2^{bits}-{c}");
        assert_eq!(rounds, bases.iter().all(|a| plain.passes_vartime(a)), "passes_all_ct, {what}");
        assert_eq!(base_two, plain.passes_vartime(&two), "passes_ct base 2, {what}");
        assert_eq!(random_one, plain.passes_vartime(&bases[0]), "passes_ct random base, {what}");
        passes += rounds as u32;
    }
    assert_eq!(passes, 1, "the prime passes, the composite does not");
}

fn leaky_control(v: &mut Values) {
    let m = secret_modulus(v);
    public(&m); // only the exponent is secret here: its bits steer pow_vartime's windows
    let a = v.limbs(LIMBS);
    let e = secret_operand(v, LIMBS);
    let ctx = MontContext::new(&from_limbs(&m)).unwrap();
    let mut t = ctx.scratch();
    let mut a = a;
    a[LIMBS - 1] >>= 1;
    let am = ctx.to_mont(&a, &mut t);
    let r = pow_vartime(&ctx, &am, &e);
    public(&r);
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "ct".into());
    // SAFETY: client requests with no memory arguments.
    let on_valgrind = unsafe { ctgrind_on_valgrind() } != 0;
    let mut v = Values(0x5EC2E7);
    match mode.as_str() {
        "ct" => {
            let mut kernels = Kernel::available();
            // valgrind's virtual CPU hides ADX from feature detection but executes
            // mulx/adcx/adox; the script sets this when the host CPU has BMI2 and ADX.
            #[cfg(target_arch = "x86_64")]
            if std::env::var_os("CTGRIND_HOST_HAS_ADX").is_some() && !kernels.contains(&Kernel::Adx) {
                kernels.push(Kernel::Adx);
            }
            for &k in &kernels {
                for limbs in [8, 16, 24, 40] {
                    for _ in 0..2 {
                        montgomery_and_pow_ct(k, &mut v, limbs, limbs);
                    }
                }
                // The large-modulus code paths are the same for any exponent length.
                montgomery_and_pow_ct(k, &mut v, 128, 1);
            }
            // The single-lane code at the timing tests' sizes on the kernels whose single
            // products differ (portable, ADX) and on the AVX2 kernel's context when forced.
            #[cfg(target_arch = "x86_64")]
            let avx2 = std::env::var_os("CTGRIND_HOST_HAS_AVX2").is_some();
            #[cfg(not(target_arch = "x86_64"))]
            let avx2 = false;
            let mut single = kernels.clone();
            if avx2 && !single.contains(&Kernel::Avx2) {
                single.push(Kernel::Avx2);
            }
            for &k in &single {
                for bits in [576, 768] {
                    single_lane(k, &mut v, bits);
                }
            }
            let passed = miller_rabin_passes_ct(false);
            assert_eq!(passed, 1, "the prime passes, the composite does not");
            let lanes = fermat_base_two(&mut v);
            if avx2 {
                avx2_lanes(&mut v);
            }
            println!(
                "ctgrind ct: AVX2 lanes (MillerRabin::passes_all_ct with 6 bases, FermatBatch::test_ct, secret 1024-bit n) {}",
                if avx2 { "checked" } else { "NOT checked (host CPU without AVX2/ADX)" }
            );
            println!(
                "ctgrind ct: checked fermat_base_two_ct (secret 1024-bit candidates); 8-lane IFMA Fermat {}",
                if lanes { "checked" } else { "NOT checked (no AVX-512 IFMA on this (virtual) CPU)" }
            );
            println!("ctgrind ct: checked kernels {single:?} at 576 and 768 bits (secret modulus or n): pow2_ct (random exponent and 0), MillerRabin::from_context (set-up on a secret n, its context included), random_base, passes_all_ct (5 bases), passes_ct (base 2 and a random base)");
            println!("ctgrind ct: checked kernels {kernels:?}: MontContext::{{to_mont, mul, sqr, from_mont}}, pow_ct (512-, 1024-, 1536- and 2560-bit secret modulus, base, exponent; 8,192-bit modulus and base with a 64-bit exponent); MillerRabin::new (set-up) and passes_ct (secret n except top and low byte, secret base)");
        }
        "leaky-control" => {
            leaky_control(&mut v);
            println!("ctgrind leaky-control: ran pow_vartime on a secret exponent");
        }
        "secret-s" => {
            miller_rabin_passes_ct(true);
            println!("ctgrind secret-s: ran MillerRabin::new and passes_ct with s = v2(n-1) secret");
        }
        other => {
            eprintln!("unknown mode {other}; use ct | leaky-control | secret-s");
            std::process::exit(2);
        }
    }
    if on_valgrind {
        // SAFETY: client request with no memory arguments.
        println!("ctgrind {mode}: memcheck errors so far: {}", unsafe { ctgrind_error_count() });
    } else {
        println!("ctgrind {mode}: not under valgrind: results checked, constant-time property NOT checked");
    }
}
