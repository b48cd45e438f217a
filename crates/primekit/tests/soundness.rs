//! The soundness rule of the CPU backends: no safe public function executes an
//! instruction the CPU lacks, and a kernel the CPU lacks cannot be had from safe code.
//!
//! `PRIMEKIT_KERNEL` is read once per process, so each kernel is checked in a child
//! process: this test binary re-runs itself with the variable set and only the ignored
//! test `entry_points_child` selected. The same child runs under `qemu-x86_64` with a CPU
//! model lacking BMI2/ADX and AVX-512 (`.ci/soundness-qemu.sh`), where detection itself
//! must decline the fast kernels and every entry point must still work: an illegal
//! instruction there would kill the process.

use num_bigint::BigUint;
use primekit::hazmat::lanes::{FermatBatch, SharedModulus, Timing};
use primekit::hazmat::limbs::to_limbs;
use primekit::hazmat::mont::{modpow_vartime, pow2_ct, pow_ct, pow_vartime, ArithError, Kernel, MontContext};
use primekit::hazmat::primality::MillerRabin;
use primekit::{generate_prime, generate_safe_prime, is_prime, next_prime, prev_prime, try_is_prime, Error};
use std::process::Command;

/// Runs `entry_points_child` in a fresh process with `PRIMEKIT_KERNEL` set to `value`
/// and `PRIMEKIT_SOUNDNESS_EXPECT` to `expect`; returns whether it passed and its output.
fn child(value: &str, expect: &str) -> (bool, String) {
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args(["--ignored", "--exact", "entry_points_child", "--nocapture", "--test-threads", "1"])
        .env("PRIMEKIT_KERNEL", value)
        .env("PRIMEKIT_SOUNDNESS_EXPECT", expect)
        .output()
        .expect("re-run the test binary");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn every_available_kernel_runs_every_entry_point_on_itself() {
    for k in Kernel::available() {
        let (ok, out) = child(k.name(), k.name());
        assert!(ok, "PRIMEKIT_KERNEL={k}:\n{out}");
        assert!(out.contains("1 passed"), "the child test must have run:\n{out}");
    }
}

#[test]
fn unknown_or_missing_kernels_are_errors_not_crashes() {
    let (ok, out) = child("avx9", "error");
    assert!(ok, "PRIMEKIT_KERNEL=avx9:\n{out}");
    for k in Kernel::ALL.into_iter().filter(|k| !k.is_available()) {
        let (ok, out) = child(k.name(), "error");
        assert!(ok, "PRIMEKIT_KERNEL={k} on a CPU without it:\n{out}");
    }
}

/// Without `PRIMEKIT_SOUNDNESS_EXPECT` (a plain `cargo test --ignored`) it checks the
/// process kernel against detection.
#[test]
#[ignore = "run by the tests above (and under qemu) in a child process"]
fn entry_points_child() {
    let expect = std::env::var("PRIMEKIT_SOUNDNESS_EXPECT").unwrap_or_default();
    if expect == "error" {
        return check_refused();
    }
    let want = if expect.is_empty() { Kernel::best() } else { Kernel::from_name(&expect).expect("a kernel name") };
    assert_eq!(Kernel::selected(), Ok(want));
    println!("kernel {want}; available: {}", Kernel::available_names());

    // Kernels this CPU lacks cannot be had: every constructor that names one refuses.
    let m = (BigUint::from(1u8) << 1024u32) - 105u8; // prime
    for k in Kernel::ALL {
        let ctx = MontContext::with_kernel(&m, k);
        let batch = FermatBatch::with_kernel(1024, k);
        let mr = MillerRabin::with_kernel(&m, k);
        if k.is_available() {
            assert_eq!(ctx.unwrap().kernel(), k);
            assert!(batch.is_ok() && mr.is_ok());
        } else {
            assert_eq!(ctx.unwrap_err(), ArithError::KernelUnavailable, "{k}");
            assert_eq!(batch.unwrap_err(), ArithError::KernelUnavailable, "{k}");
            assert!(mr.is_err(), "{k}");
        }
    }

    // Every public arithmetic entry point, on the process kernel.
    let ctx = MontContext::new(&m).unwrap();
    assert_eq!(ctx.kernel(), want);
    let n = ctx.len();
    let (a, e) = (BigUint::from(0xdead_beef_u64) << 700u32, &m - 2u8);
    let want_pow = a.modpow(&e, &m);
    assert_eq!(modpow_vartime(&a, &e, &m).unwrap(), want_pow);
    let mut t = ctx.scratch();
    let am = ctx.to_mont(&ctx.reduce_vartime(&a), &mut t);
    let back = |x: &[u64]| primekit::hazmat::limbs::from_limbs(&ctx.from_mont(x, &mut ctx.scratch()));
    assert_eq!(back(&pow_vartime(&ctx, &am, &e.to_u64_digits())), want_pow);
    assert_eq!(back(&pow_ct(&ctx, &am, &to_limbs(&e, n).unwrap(), 64 * n)), want_pow);
    assert_eq!(back(&pow2_ct(&ctx, &to_limbs(&e, n).unwrap(), 64 * n)), BigUint::from(2u8).modpow(&e, &m));
    for timing in [Timing::Vartime, Timing::ConstantTime] {
        let batch = SharedModulus::for_rounds(&ctx, 8, timing);
        assert_eq!(batch.kernel(), want);
        assert_eq!(batch.lanes() > 1, matches!(want, Kernel::Ifma | Kernel::Avx2), "only the IFMA and AVX2 kernels have wide lanes");
        let x = batch.load(&[to_limbs(&a, n).unwrap()]);
        assert_eq!(batch.eq_ct(&batch.pow_ct(&x, &to_limbs(&e, n).unwrap(), 64 * n), &batch.target(&want_pow)) & 1, 1);
    }
    let fermat = FermatBatch::new(1024).unwrap();
    assert_eq!(fermat.lanes() > 1, matches!(want, Kernel::Ifma | Kernel::Avx2));
    assert_eq!(fermat.test_ct(std::slice::from_ref(&m)).unwrap() & 1, 1);
    assert_eq!(MillerRabin::new(&m).unwrap().context().kernel(), want);

    // The knob-free API.
    assert!(is_prime(&m) && !is_prime(&(&m * 3u8)));
    assert_eq!(try_is_prime(&((BigUint::from(1u8) << 127u32) - 1u8)), Ok(true));
    let p = generate_prime(512).unwrap();
    assert_eq!(p.bits(), 512);
    assert!(is_prime(&p));
    let s = generate_safe_prime(160).unwrap();
    assert!(is_prime(&s) && is_prime(&(&s >> 1u8)));
    let big = BigUint::from(1u8) << 200u32;
    assert!(next_prime(&big).unwrap() > big && prev_prime(&big).unwrap() < big);
}

/// The process kernel is unknown or missing: every entry point that needs a context
/// reports it as an error, and the message names the kernels this CPU has.
fn check_refused() {
    let err = Kernel::selected().unwrap_err();
    assert!(matches!(err, ArithError::UnknownKernel(_) | ArithError::KernelUnavailable), "{err:?}");
    assert!(err.to_string().contains(&Kernel::available_names()), "{err}");
    let m = (BigUint::from(1u8) << 1024u32) - 105u8;
    assert!(MontContext::new(&m).is_err());
    assert!(FermatBatch::new(1024).is_err());
    assert!(MillerRabin::new(&m).is_err());
    assert_eq!(try_is_prime(&m), Err(Error::Arith(err.clone())));
    assert!(generate_prime(512).is_err());
    assert!(next_prime(&(BigUint::from(1u8) << 200u32)).is_err());
    // The explicit kernels this CPU has still work: the switch selects, it does not break.
    assert_eq!(MontContext::with_kernel(&m, Kernel::Portable).unwrap().kernel(), Kernel::Portable);
}
