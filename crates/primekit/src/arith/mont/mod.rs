//! Montgomery context for one odd modulus: the representation every exponentiation in
//! the crate works in. Element `x` is stored as `x*R mod m`, R = 2^(64n), n = limb count.

#[cfg(target_arch = "x86_64")]
pub(crate) mod adx;
#[cfg(target_arch = "x86_64")]
mod adx_fixed;
#[cfg(target_arch = "x86_64")]
mod adx_unrolled;
mod chain;
mod chain_sums;
pub use chain_sums::CHAIN_ACC_MAX_TERMS;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma;
mod karatsuba;
#[cfg(test)]
mod kernel_tests;
pub(crate) mod portable;
mod redc_products;
pub(crate) mod setup;
mod sums;
mod toom3;
pub mod word;

use super::cpu::{Kernel, Tokens};
use super::lanes::Timing;
use super::limbs::{from_limbs, neg_inv_mod_word, to_limbs, Limb};
use super::ArithError;
use num_bigint::BigUint;

/// Largest modulus a context accepts, in bits. Bounds memory (a few kilobytes per
/// buffer) and time; the primality front end documents its own, equal cap.
pub const MAX_MODULUS_BITS: u64 = 1 << 17;

/// Moduli of at most this many limbs stay on the scalar kernels under the IFMA kernel
/// (no IFMA exponentiation domain; the lane batches are unaffected).
#[cfg(target_arch = "x86_64")]
const SCALAR_LIMBS_UNDER_IFMA: usize = 8;

/// Precomputation for Montgomery arithmetic modulo one odd `m >= 3`.
///
/// Timing contract: the limb count n and the bit length of m are public (they size
/// buffers and loops); the value of m may be secret (a candidate of the prime
/// generators, an RSA prime). The set-up ([`Self::new`] and its variants, below
/// [`setup`]'s contract), products, squares, the conversions and [`Self::reduce_ct`] run
/// in time that depends only on those sizes, except where a name ends in `_vartime`
/// and for moduli of 128 limbs (8,192 bits) and more, whose Karatsuba set-up inverts m
/// modulo 2^(64n) with num-bigint (variable time).
#[derive(Clone, Debug)]
pub struct MontContext {
    m: Vec<Limb>,
    m0inv: Limb,
    r2: Vec<Limb>,
    one: Vec<Limb>,
    /// The CPU tokens of the kernel in use: the proof its instructions exist.
    cpu: Tokens,
    /// How the set-up ran (constant time, or num-bigint's for a public modulus); the
    /// lane batches built on the context ([`super::lanes::SharedModulus::widest`]) follow.
    /// (Only the x86_64 lane batches read it.)
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    setup: Timing,
    /// IFMA-domain constants when the kernel is `Ifma` and the modulus has more than
    /// `SCALAR_LIMBS_UNDER_IFMA` limbs and fits the domain.
    #[cfg(target_arch = "x86_64")]
    ifma: Option<ifma::IfmaParams>,
    /// Karatsuba-based products when the modulus is large enough to pay ([`karatsuba`]).
    big: Option<Box<karatsuba::BigMont>>,
}

impl MontContext {
    /// Context for odd `m >= 3` with the process-wide kernel ([`Kernel::selected`]: the
    /// fastest this CPU has unless `PRIMEKIT_KERNEL` names another). The set-up is
    /// constant time in m's value (R mod m and R^2 mod m by [`setup::pow2_mod`]), for
    /// secret moduli.
    pub fn new(m: &BigUint) -> Result<Self, ArithError> {
        Self::with_tokens(m, Tokens::selected()?)
    }

    /// [`Self::new`] with num-bigint's reductions in the set-up: variable time in m, for
    /// public moduli only (is_prime, certificates), where it is faster (2,048 bits:
    /// about 2 us against 11 us on an AMD EPYC Zen 4, `examples/mont_setup_speed`).
    pub fn new_vartime(m: &BigUint) -> Result<Self, ArithError> {
        Self::with_tokens_timed(m, Tokens::selected()?, Timing::Vartime)
    }

    /// Context with a chosen kernel (tests and benchmarks compare kernels); fails with
    /// `KernelUnavailable` if this CPU cannot run it.
    pub fn with_kernel(m: &BigUint, kernel: Kernel) -> Result<Self, ArithError> {
        Self::with_tokens(m, Tokens::detect(kernel).ok_or(ArithError::KernelUnavailable)?)
    }

    /// [`Self::with_kernel`] without the CPU-feature check.
    ///
    /// # Safety
    /// The CPU must execute the kernel's instructions even though feature detection may
    /// say otherwise. The one intended user is the ctgrind tool: valgrind's virtual CPU
    /// executes mulx/adcx/adox but hides BMI2/ADX from CPUID.
    pub unsafe fn with_kernel_unchecked(m: &BigUint, kernel: Kernel) -> Result<Self, ArithError> {
        // SAFETY: forwarded to the caller.
        Self::with_tokens(m, unsafe { super::cpu::assume(kernel) })
    }

    pub(crate) fn with_tokens(m: &BigUint, cpu: Tokens) -> Result<Self, ArithError> {
        Self::with_tokens_timed(m, cpu, Timing::ConstantTime)
    }

    fn with_tokens_timed(m: &BigUint, cpu: Tokens, setup: Timing) -> Result<Self, ArithError> {
        if m.bits() < 2 {
            return Err(ArithError::ModulusTooSmall);
        }
        if !m.bit(0) {
            return Err(ArithError::EvenModulus);
        }
        if m.bits() > MAX_MODULUS_BITS {
            return Err(ArithError::ModulusTooLarge { bits: m.bits(), max: MAX_MODULUS_BITS });
        }
        let n = m.bits().div_ceil(64) as usize;
        let limbs = to_limbs(m, n).expect("sized from m");
        // R mod m and R^2 mod m: with `Timing::ConstantTime` by doublings and Montgomery
        // squarings on limbs, constant time in m's value (num-bigint's `%` is not).
        let one = setup::pow2_mod_timed(&limbs, 64 * n, setup, cpu.adx());
        let r2 = setup::pow2_mod_timed(&limbs, 128 * n, setup, cpu.adx());
        // Up to 512 bits the IFMA domain loses to the ADX register kernels (`adx_fixed`:
        // 8-limb products and squares with the accumulator in registers): on an Intel
        // Xeon (Emerald Rapids) a 512-bit exponentiation on them took about 0.9x the
        // IFMA domain's time (three alternating runs: 0.91, 0.85, 0.94), is_prime on
        // 512-bit primes 0.71-0.74 ms against 0.79-1.36 ms; the domain's vectors are
        // mostly padding there (10 of 16 digits). Below 8 limbs (generic ADX loops, even
        // more padding) the choice is not measured.
        #[cfg(target_arch = "x86_64")]
        let ifma = cpu.ifma().filter(|_| n > SCALAR_LIMBS_UNDER_IFMA).and_then(|t| ifma::IfmaParams::new(t, m, n, setup));
        let m0inv = neg_inv_mod_word(limbs[0]);
        let big = karatsuba::plan(cpu, n).map(|(base, reduction)| Box::new(karatsuba::BigMont::new(base, reduction, &limbs, m0inv)));
        Ok(MontContext {
            m0inv,
            big,
            m: limbs,
            r2,
            one,
            cpu,
            setup,
            #[cfg(target_arch = "x86_64")]
            ifma,
        })
    }

    /// Number of limbs n of the modulus and of every element.
    pub fn len(&self) -> usize {
        self.m.len()
    }

    /// Always false: a context has at least one limb.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The modulus limbs.
    pub fn modulus(&self) -> &[Limb] {
        &self.m
    }

    /// The kernel in use.
    pub fn kernel(&self) -> Kernel {
        self.cpu.kernel()
    }

    /// The CPU tokens of the kernel in use (for the lane backends built on a context).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86_64 vector backends
    pub(crate) fn tokens(&self) -> Tokens {
        self.cpu
    }

    /// How the set-up ran ([`Timing::Vartime`]: num-bigint's, for a public modulus).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn setup_timing(&self) -> Timing {
        self.setup
    }

    /// IFMA-domain constants, when exponentiations run in that domain.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn ifma(&self) -> Option<&ifma::IfmaParams> {
        self.ifma.as_ref()
    }

    /// A zeroed scratch buffer of the size every kernel call needs (2n + 2 limbs).
    pub fn scratch(&self) -> Vec<Limb> {
        vec![0; self.big.as_ref().map_or(0, |b| b.scratch_len()).max(2 * self.len() + 2)]
    }

    /// 1 in Montgomery form (R mod m).
    pub fn one(&self) -> &[Limb] {
        &self.one
    }

    /// `out = a*b*R^{-1} mod m`. Inputs `< m`, `out` distinct from both, `t` from `scratch()`.
    #[inline]
    pub fn mul(&self, out: &mut [Limb], a: &[Limb], b: &[Limb], t: &mut [Limb]) {
        if let Some(big) = &self.big {
            return big.mul(out, a, b, t);
        }
        match self.adx() {
            #[cfg(target_arch = "x86_64")]
            Some(cpu) => adx::mont_mul(cpu, out, a, b, &self.m, self.m0inv, t),
            _ => portable::mont_mul(out, a, b, &self.m, self.m0inv, t),
        }
    }

    /// `out = a*a*R^{-1} mod m` with the dedicated squaring. Same contract as `mul`.
    #[inline]
    pub fn sqr(&self, out: &mut [Limb], a: &[Limb], t: &mut [Limb]) {
        if let Some(big) = &self.big {
            return big.sqr(out, a, t);
        }
        match self.adx() {
            #[cfg(target_arch = "x86_64")]
            Some(cpu) => adx::mont_sqr(cpu, out, a, &self.m, self.m0inv, t),
            _ => portable::mont_sqr(out, a, &self.m, self.m0inv, t),
        }
    }

    /// Montgomery form of `a < m` (limbs of length n): `a*R mod m`.
    pub fn to_mont(&self, a: &[Limb], t: &mut [Limb]) -> Vec<Limb> {
        let mut out = vec![0; self.len()];
        self.mul(&mut out, a, &self.r2, t);
        out
    }

    /// Ordinary form of Montgomery element `a`: `a*R^{-1} mod m`.
    pub fn from_mont(&self, a: &[Limb], t: &mut [Limb]) -> Vec<Limb> {
        let n = self.len();
        let w = &mut t[..2 * n + 1];
        w.fill(0);
        w[..n].copy_from_slice(a);
        let mut out = vec![0; n];
        match self.adx() {
            #[cfg(target_arch = "x86_64")]
            Some(cpu) => adx::redc(cpu, &mut out, w, &self.m, self.m0inv),
            _ => portable::redc(&mut out, w, &self.m, self.m0inv),
        }
        out
    }

    /// The BMI2/ADX token when the kernel's single products use `mulx`/`adcx`/`adox`.
    #[inline]
    fn adx(&self) -> Option<super::cpu::Bmi2Adx> {
        self.cpu.adx()
    }

    /// Limbs of `x mod m` for `x` given as limbs (any number of them), in ordinary form.
    /// Constant time: depends on n and `x.len()` only ([`setup::reduce`]).
    pub fn reduce_ct(&self, x: &[Limb]) -> Vec<Limb> {
        setup::reduce(x, &self.m, &self.r2)
    }

    /// Limbs of `x mod m` (any `x`), in ordinary form, by num-bigint: variable time in
    /// x and m (for public values; [`Self::reduce_ct`] otherwise).
    pub fn reduce_vartime(&self, x: &BigUint) -> Vec<Limb> {
        let m = from_limbs(&self.m);
        to_limbs(&(x % m), self.len()).expect("reduced")
    }
}
