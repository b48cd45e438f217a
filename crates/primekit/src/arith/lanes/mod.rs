//! Lanes: several exponentiations that share every instruction.
//!
//! Two batch shapes cover what the layers above need:
//! - [`SharedModulus`]: one modulus, one exponent, up to [`SharedModulus::lanes`] bases —
//!   the random-base Miller-Rabin rounds of one number, which after the first round are
//!   independent exponentiations with the same n and d;
//! - [`FermatBatch`]: up to [`FermatBatch::lanes`] different moduli, each raised to its
//!   own n − 1 with base 2 — the generators' cheap rejection test of sieve survivors (one
//!   secret size, constant time), and of public numbers of mixed sizes (variable time).
//!
//! Callers ask for "a batch" and never name an instruction set: the backend follows the
//! kernel of the Montgomery context or the process ([`Kernel::selected`]). Backends:
//! - `single`: one lane on the context's own kernels (portable or BMI2/ADX), the
//!   reference every other backend is tested against;
//! - `ifma` (x86_64, AVX-512 IFMA): eight 64-bit lanes of radix-2^52 digits, products
//!   by the column-pair kernel of `ifma_columns`;
//! - `avx2` (x86_64, AVX2): four 64-bit lanes of radix-2^28 digits, products by the
//!   product-scanning kernel of `avx2_columns` (32 x 32-bit `vpmuludq`).
//!
//! Every backend meets the same contract, stated on each method: which inputs are
//! public, what the timing of the `_ct` methods may depend on (only public sizes and
//! counts), and what is returned (lane masks: bit k for lane k).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx2_columns;
#[cfg(target_arch = "x86_64")]
mod avx2_fermat;
#[cfg(target_arch = "x86_64")]
mod ifma;
#[cfg(target_arch = "x86_64")]
mod ifma_columns;
#[cfg(target_arch = "x86_64")]
mod ifma_fermat;
#[cfg(target_arch = "x86_64")]
mod ifma_words;
mod single;
#[cfg(test)]
pub(crate) mod test_support;
#[cfg(target_arch = "x86_64")]
mod wide;

use super::cpu::{Kernel, Tokens};
use super::limbs::Limb;
use super::{ArithError, MontContext};
use num_bigint::BigUint;

/// Most lanes any backend has; lane masks fit in its low bits.
pub const MAX_LANES: usize = 8;

/// Whether a batch may take time that depends on its exponent (public inputs) or must not
/// (secret candidates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Timing may depend on the exponent: for public numbers (`is_prime`).
    Vartime,
    /// Timing depends only on public sizes and counts: for secret candidates.
    ConstantTime,
}

/// Mask with the low `count` lane bits set.
pub fn lane_mask(count: usize) -> u64 {
    debug_assert!(count <= 64);
    if count >= 64 {
        !0
    } else {
        (1u64 << count) - 1
    }
}

/// An enum with one variant a backend, each holding what that backend keeps: `Single`,
/// and on x86_64 `Ifma` and `Avx2`.
macro_rules! per_backend {
    ($(#[$attr:meta])* enum $name:ident { Single($single:ty), Ifma($ifma:ty), Avx2($avx2:ty) }) => {
        $(#[$attr])*
        enum $name {
            Single($single),
            #[cfg(target_arch = "x86_64")]
            Ifma($ifma),
            #[cfg(target_arch = "x86_64")]
            Avx2($avx2),
        }
    };
}

/// Exponentiations modulo one odd m with one exponent and up to [`Self::lanes`] bases.
#[derive(Clone, Debug)]
pub struct SharedModulus {
    imp: Shared,
    /// Limbs of the modulus.
    len: usize,
}

per_backend! {
    #[derive(Clone, Debug)]
    enum Shared { Single(single::Single), Ifma(ifma::Ifma8), Avx2(avx2::Avx2x4) }
}

/// Values of a [`SharedModulus`] batch, one per lane, in the batch's Montgomery form.
#[derive(Clone, Debug)]
pub struct LaneValues {
    imp: Values,
}

per_backend! {
    #[derive(Clone, Debug)]
    enum Values { Single(Vec<Limb>), Ifma(ifma::Lanes), Avx2(avx2::Lanes) }
}

/// A value prepared for [`SharedModulus::eq_ct`].
#[derive(Clone, Debug)]
pub struct LaneTarget {
    imp: Target,
}

per_backend! {
    #[derive(Clone, Debug)]
    enum Target { Single(Vec<Limb>), Ifma(wide::LaneTarget), Avx2(wide::LaneTarget) }
}

/// `LaneValues` from the operation `$op` on the batch's backend `$b` and the values `$v`
/// of the same backend (each backend has its own method of that name).
macro_rules! lanewise {
    ($batch:expr, $x:expr, |$b:ident, $v:ident| $op:expr) => {
        LaneValues {
            imp: match (&$batch.imp, &$x.imp) {
                (Shared::Single($b), Values::Single($v)) => Values::Single($op),
                #[cfg(target_arch = "x86_64")]
                (Shared::Ifma($b), Values::Ifma($v)) => Values::Ifma($op),
                #[cfg(target_arch = "x86_64")]
                (Shared::Avx2($b), Values::Avx2($v)) => Values::Avx2($op),
                #[allow(unreachable_patterns)]
                _ => panic!("lane values from another batch"),
            },
        }
    };
}

impl SharedModulus {
    /// One lane on the context's own kernels.
    pub fn single(ctx: &MontContext) -> Self {
        SharedModulus { imp: Shared::Single(single::Single::new(ctx)), len: ctx.len() }
    }

    /// The widest batch the context's kernel offers for its modulus ([`Self::single`]
    /// when it has no wide lanes, or for moduli below four limbs). Its set-up times as
    /// the context's did: constant time in the modulus unless the context was built by
    /// [`MontContext::new_vartime`].
    pub fn widest(ctx: &MontContext) -> Self {
        #[cfg(target_arch = "x86_64")]
        if ctx.len() >= 4 {
            let m = super::limbs::from_limbs(ctx.modulus());
            if let Some(b) = ctx.tokens().ifma().and_then(|cpu| ifma::Ifma8::new(cpu, &m, ctx.setup_timing())) {
                return SharedModulus { imp: Shared::Ifma(b), len: ctx.len() };
            }
            if let Some(b) = ctx.tokens().avx2().and_then(|cpu| avx2::Avx2x4::new(cpu, &m, ctx.setup_timing())) {
                return SharedModulus { imp: Shared::Avx2(b), len: ctx.len() };
            }
        }
        Self::single(ctx)
    }

    /// Whether [`Self::widest`] pays for `rounds` exponentiations of the given timing
    /// against one at a time; decided from the kernel and sizes alone, without building
    /// anything.
    ///
    /// Break-even (`examples/mr_rounds_speed`, AMD EPYC Zen 5): one constant-time 8-lane
    /// IFMA exponentiation costs about 2.3 single ones at 1024 bits and 4.1 at 2048
    /// (6 rounds one at a time vs in the lanes: 923 vs 346 us at 1024 bits, 3325 vs 2273
    /// us at 2048), so constant-time rounds use lanes from 5 up; the variable-time
    /// sliding window gains from 2. The AVX2 kernel's four lanes pay from 3 rounds
    /// (`AVX2_MIN_ROUNDS_CT`, `AVX2_MIN_ROUNDS_VARTIME`), and only at the lengths where
    /// they beat the scalar kernel (`avx2_columns::lanes_pay`: the lengths with a kernel
    /// of their own, and from about 1,300 bits).
    ///
    /// The IFMA lanes stop paying above 4,096 bits, where the single exponentiation runs
    /// in the context's IFMA domain (same example, 6 constant-time rounds: 31 ms in the
    /// lanes vs 35 ms one at a time at 4,096 bits, 88 vs 41 ms at 4,160, 277 vs 113 ms at
    /// 6,144, 5.6 vs 1.9 s at 16,384): `IFMA_WIDE_MAX_LIMBS`.
    pub fn wide_pays(ctx: &MontContext, rounds: usize, timing: Timing) -> bool {
        let min_rounds = match (ctx.kernel(), timing) {
            (Kernel::Ifma, _) if ctx.len() > IFMA_WIDE_MAX_LIMBS => return false,
            (Kernel::Ifma, Timing::Vartime) => 2,
            (Kernel::Ifma, Timing::ConstantTime) => 5,
            #[cfg(target_arch = "x86_64")]
            (Kernel::Avx2, _) if !avx2_columns::lanes_pay(avx2::digits(super::limbs::bit_len_vartime(ctx.modulus()))) => return false,
            (Kernel::Avx2, Timing::Vartime) => AVX2_MIN_ROUNDS_VARTIME,
            (Kernel::Avx2, Timing::ConstantTime) => AVX2_MIN_ROUNDS_CT,
            _ => return false,
        };
        ctx.len() >= 4 && rounds >= min_rounds
    }

    /// [`Self::widest`] when it pays for `rounds` exponentiations ([`Self::wide_pays`]),
    /// else [`Self::single`].
    pub fn for_rounds(ctx: &MontContext, rounds: usize, timing: Timing) -> Self {
        if Self::wide_pays(ctx, rounds, timing) {
            Self::widest(ctx)
        } else {
            Self::single(ctx)
        }
    }

    /// Number of bases per exponentiation.
    pub fn lanes(&self) -> usize {
        match &self.imp {
            Shared::Single(_) => 1,
            #[cfg(target_arch = "x86_64")]
            Shared::Ifma(_) => ifma::LANES,
            #[cfg(target_arch = "x86_64")]
            Shared::Avx2(_) => avx2_columns::LANES,
        }
    }

    /// The kernel family running the lanes (for benchmarks and tests).
    pub fn kernel(&self) -> Kernel {
        match &self.imp {
            Shared::Single(s) => s.kernel(),
            #[cfg(target_arch = "x86_64")]
            Shared::Ifma(_) => Kernel::Ifma,
            #[cfg(target_arch = "x86_64")]
            Shared::Avx2(_) => Kernel::Avx2,
        }
    }

    /// Lanes holding `xs` (1 ..= [`Self::lanes`] values in ordinary form, each `< m`, as
    /// limbs of m's length), in the batch's Montgomery form; missing lanes hold 1.
    /// Time depends only on the lengths.
    pub fn load(&self, xs: &[Vec<Limb>]) -> LaneValues {
        assert!(!xs.is_empty() && xs.len() <= self.lanes(), "1..=lanes values");
        let imp = match &self.imp {
            Shared::Single(s) => Values::Single(s.load(&xs[0])),
            #[cfg(target_arch = "x86_64")]
            Shared::Ifma(b) => Values::Ifma(b.to_mont(xs)),
            #[cfg(target_arch = "x86_64")]
            Shared::Avx2(b) => Values::Avx2(b.to_mont(xs)),
        };
        LaneValues { imp }
    }

    /// The first `count` lanes' values in ordinary form, reduced mod m, as limbs of m's
    /// length. Variable time: for public values only.
    pub fn store_vartime(&self, x: &LaneValues, count: usize) -> Vec<Vec<Limb>> {
        match (&self.imp, &x.imp) {
            (Shared::Single(s), Values::Single(v)) => vec![s.store(v); count.min(1)],
            #[cfg(target_arch = "x86_64")]
            (Shared::Ifma(b), Values::Ifma(v)) => b.store_vartime(v, count),
            #[cfg(target_arch = "x86_64")]
            (Shared::Avx2(b), Values::Avx2(v)) => b.store_vartime(v, count),
            #[allow(unreachable_patterns)]
            _ => panic!("lane values from another batch"),
        }
    }

    /// Lane-wise `x^e`, by a sliding window: variable time in the public exponent.
    pub fn pow_vartime(&self, x: &LaneValues, e: &[Limb]) -> LaneValues {
        lanewise!(self, x, |b, v| b.pow_vartime(v, e))
    }

    /// `w_k^e` in lane k for the words `w_k < 2^32` (1 ..= [`Self::lanes`] of them, each
    /// below m; missing lanes hold 1), in the batch's Montgomery form. Where the kernel
    /// multiplies by a word for less than a product (IFMA), without a table: a square per
    /// exponent bit and a product by the word per one bit; otherwise as
    /// [`Self::pow_vartime`]. Variable time in the public exponent.
    pub fn pow_words_vartime(&self, words: &[u64], e: &[Limb]) -> LaneValues {
        assert!(!words.is_empty() && words.len() <= self.lanes() && words.iter().all(|&w| w < 1 << 32), "1..=lanes words below 2^32");
        #[cfg(target_arch = "x86_64")]
        if let Shared::Ifma(b) = &self.imp {
            return LaneValues { imp: Values::Ifma(b.pow_words_vartime(words, e)) };
        }
        let len = self.len;
        let xs: Vec<Vec<Limb>> = words
            .iter()
            .map(|&w| {
                let mut v = vec![0; len];
                v[0] = w;
                v
            })
            .collect();
        self.pow_vartime(&self.load(&xs), e)
    }

    /// Lane-wise `x^e` over exactly `exp_bits` bits of `e` (higher bits zero), by a fixed
    /// window with masked table reads: constant time in `e` and the lanes' values.
    pub fn pow_ct(&self, x: &LaneValues, e: &[Limb], exp_bits: usize) -> LaneValues {
        lanewise!(self, x, |b, v| b.pow_ct(v, e, exp_bits))
    }

    /// Lane-wise square. Constant time.
    pub fn sqr(&self, x: &LaneValues) -> LaneValues {
        lanewise!(self, x, |b, v| b.sqr(v))
    }

    /// `v` (ordinary form, `< m`) prepared for [`Self::eq_ct`].
    pub fn target(&self, v: &BigUint) -> LaneTarget {
        let imp = match &self.imp {
            Shared::Single(s) => Target::Single(s.target(v)),
            #[cfg(target_arch = "x86_64")]
            Shared::Ifma(b) => Target::Ifma(b.target(v)),
            #[cfg(target_arch = "x86_64")]
            Shared::Avx2(b) => Target::Avx2(b.target(v)),
        };
        LaneTarget { imp }
    }

    /// [`Self::target`] for `v` given as limbs of the modulus's length. On the one-lane
    /// batch a Montgomery conversion of the limbs, constant time in v (for a secret
    /// modulus's n - 1); the wide batches convert through num-bigint as `target` does.
    pub fn target_limbs(&self, v: &[Limb]) -> LaneTarget {
        match &self.imp {
            Shared::Single(s) => LaneTarget { imp: Target::Single(s.load(v)) },
            #[cfg(target_arch = "x86_64")]
            _ => self.target(&super::limbs::from_limbs(v)),
        }
    }

    /// Lanes (bit k for lane k, all [`Self::lanes`] of them) whose value is congruent to
    /// the target modulo m, in constant time: every digit is compared, no early exit.
    pub fn eq_ct(&self, x: &LaneValues, t: &LaneTarget) -> u64 {
        match (&self.imp, &x.imp, &t.imp) {
            (Shared::Single(_), Values::Single(v), Target::Single(t)) => single::eq_ct(v, t),
            #[cfg(target_arch = "x86_64")]
            (Shared::Ifma(b), Values::Ifma(v), Target::Ifma(t)) => u64::from(b.eq_lanes_ct(v, t)),
            #[cfg(target_arch = "x86_64")]
            (Shared::Avx2(b), Values::Avx2(v), Target::Avx2(t)) => u64::from(b.eq_lanes_ct(v, t)),
            #[allow(unreachable_patterns)]
            _ => panic!("lane values from another batch"),
        }
    }
}

/// Fewest rounds for which the AVX2 lanes beat single ADX rounds: one 4-lane AVX2 square
/// costs about 2.7 single ADX squares at 1024 bits and 2.6 at 2048 (AMD EPYC Zen 5,
/// `examples/lanes_speed`), so a batch pays from 3 rounds for either timing.
const AVX2_MIN_ROUNDS_VARTIME: usize = 3;
const AVX2_MIN_ROUNDS_CT: usize = 3;

/// Largest modulus (in 64-bit limbs: 4,096 bits) whose rounds go to the IFMA lanes; above
/// it one exponentiation at a time in the IFMA domain is faster (see
/// [`SharedModulus::wide_pays`]).
const IFMA_WIDE_MAX_LIMBS: usize = 64;

/// Smallest candidate size for the AVX2 Fermat lanes.
#[cfg(target_arch = "x86_64")]
const AVX2_FERMAT_MIN_BITS: usize = 3;

/// Base-2 Fermat tests, 2^(n−1) ≡ 1 (mod n), on several odd moduli at once: secret ones
/// of one public size in constant time ([`Self::test_ct`]), public ones of any sizes up
/// to a maximum in variable time ([`Self::test_vartime`]).
///
/// Cost per candidate, 8 IFMA lanes vs one at a time (context included), `cargo run
/// --release --example fermat_lanes_speed` on an AMD EPYC Zen 5: 1024 bits 25 vs 103 µs,
/// 1536: 77 vs 225, 2048: 179 vs 394, 3072: 586 vs 1033, 4096: 1385 vs 2143.
#[derive(Clone, Debug)]
pub struct FermatBatch {
    bits: usize,
    /// The kernel's tokens, for the one-lane path of [`Self::test_vartime`].
    cpu: Tokens,
    imp: Fermat,
}

per_backend! {
    #[derive(Clone, Copy, Debug)]
    enum Fermat { Single(Tokens), Ifma(super::cpu::Avx512Ifma), Avx2(super::cpu::Avx2) }
}

impl FermatBatch {
    /// A batch for candidates of `bits` or `bits − 1` bits (`bits >= 3`) on the process
    /// kernel ([`Kernel::selected`]); for [`Self::test_vartime`], `bits` is the largest
    /// size accepted.
    pub fn new(bits: usize) -> Result<Self, ArithError> {
        Ok(Self::with_tokens(bits, Tokens::selected()?))
    }

    /// [`Self::new`] on a chosen kernel; `KernelUnavailable` if this CPU lacks it.
    pub fn with_kernel(bits: usize, kernel: Kernel) -> Result<Self, ArithError> {
        Ok(Self::with_tokens(bits, Tokens::detect(kernel).ok_or(ArithError::KernelUnavailable)?))
    }

    /// [`Self::with_kernel`] without the CPU-feature check.
    ///
    /// # Safety
    /// The CPU must execute the kernel's instructions although detection may deny it
    /// (the constant-time checker under valgrind, which hides BMI2/ADX from CPUID).
    pub unsafe fn with_kernel_unchecked(bits: usize, kernel: Kernel) -> Self {
        // SAFETY: forwarded to the caller.
        Self::with_tokens(bits, unsafe { super::cpu::assume(kernel) })
    }

    fn with_tokens(bits: usize, cpu: Tokens) -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = cpu.ifma() {
            if (3..=ifma_fermat::MAX_BITS).contains(&bits) {
                return FermatBatch { bits, cpu, imp: Fermat::Ifma(t) };
            }
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = cpu.avx2() {
            if (AVX2_FERMAT_MIN_BITS..=avx2_fermat::MAX_BITS).contains(&bits) && avx2_columns::lanes_pay(avx2_fermat::digits(bits)) {
                return FermatBatch { bits, cpu, imp: Fermat::Avx2(t) };
            }
        }
        FermatBatch { bits, cpu, imp: Fermat::Single(cpu) }
    }

    /// Candidates per call.
    pub fn lanes(&self) -> usize {
        match self.imp {
            Fermat::Single(_) => 1,
            #[cfg(target_arch = "x86_64")]
            Fermat::Ifma(_) => ifma::LANES,
            #[cfg(target_arch = "x86_64")]
            Fermat::Avx2(_) => avx2_columns::LANES,
        }
    }

    /// Bit k set exactly when 2^(n_k − 1) ≡ 1 (mod n_k), for 1 ..= [`Self::lanes`]
    /// candidates, each odd, `>= 3`, of `bits` or `bits − 1` bits (a safe-prime search
    /// tests p and q = (p − 1)/2 together). Their count and the size are public; their
    /// values are not: the time depends only on `bits` and the count, apart from
    /// building a context per candidate on the single backend (whose set-up reduces by
    /// m with num-bigint, as every context does). A candidate of another size is refused
    /// (`ModulusTooLarge` / `ModulusTooSmall`); parity is not checked by the wide
    /// backends (a check would branch on a secret): there an even candidate gives a
    /// meaningless bit for its lane only, while the single backend refuses it
    /// (`EvenModulus`, from its context).
    pub fn test_ct(&self, cands: &[BigUint]) -> Result<u64, ArithError> {
        assert!(!cands.is_empty() && cands.len() <= self.lanes(), "1..=lanes candidates");
        for n in cands {
            let b = n.bits();
            if b > self.bits as u64 {
                return Err(ArithError::ModulusTooLarge { bits: b, max: self.bits as u64 });
            }
            if b + 1 < self.bits as u64 || b < 2 {
                return Err(ArithError::ModulusTooSmall);
            }
        }
        match self.imp {
            Fermat::Single(cpu) => {
                let mut mask = 0;
                for (k, n) in cands.iter().enumerate() {
                    mask |= u64::from(single::fermat_base_two_ct(cpu, n)?) << k;
                }
                Ok(mask)
            }
            // Every candidate exceeds the public 2^(bits − 2).
            #[cfg(target_arch = "x86_64")]
            Fermat::Ifma(t) => Ok(u64::from(ifma_fermat::fermat_base_two_lanes(t, cands, self.bits, self.bits - 2))),
            #[cfg(target_arch = "x86_64")]
            Fermat::Avx2(t) => {
                Ok(u64::from(avx2_fermat::fermat_base_two_lanes(t, cands, self.bits, self.bits - 2, avx2_fermat::digits(self.bits))))
            }
        }
    }

    /// Bit k set exactly when 2^(n_k − 1) ≡ 1 (mod n_k), for 1 ..= [`Self::lanes`] public
    /// odd candidates, each `3 <= n_k < 2^bits`, of any sizes: variable time (the values
    /// and sizes are public). An even candidate is refused with `EvenModulus`, one below 3
    /// with `ModulusTooSmall`, one above `bits` bits with `ModulusTooLarge`. The count is
    /// checked as by [`Self::test_ct`] (a panic outside 1 ..= lanes).
    ///
    /// The wide backends run all lanes over the largest candidate's size, so a batch
    /// costs about as much as one of its largest size: a caller gains most from batches
    /// of similar sizes. The one-lane backend, and a batch too small to pay for the lanes
    /// (below 2 to 5 candidates, by backend and size), runs each candidate alone by the
    /// variable-time base-2 exponentiation ([`pow2_vartime`](super::pow2::pow2_vartime)).
    pub fn test_vartime(&self, cands: &[BigUint]) -> Result<u64, ArithError> {
        assert!(!cands.is_empty() && cands.len() <= self.lanes(), "1..=lanes candidates");
        for n in cands {
            if n.bits() > self.bits as u64 {
                return Err(ArithError::ModulusTooLarge { bits: n.bits(), max: self.bits as u64 });
            }
            if n.bits() < 2 {
                return Err(ArithError::ModulusTooSmall);
            }
            if !n.bit(0) {
                return Err(ArithError::EvenModulus);
            }
        }
        #[cfg(target_arch = "x86_64")]
        let (bits, top) = fermat_shape(cands);
        #[cfg(target_arch = "x86_64")]
        if cands.len() >= fermat_vartime_min_lanes(self.imp, bits) {
            match self.imp {
                Fermat::Ifma(t) => return Ok(u64::from(ifma_fermat::fermat_base_two_lanes(t, cands, bits, top))),
                Fermat::Avx2(t) => {
                    let l = avx2_fermat::digits_vartime(bits);
                    return Ok(u64::from(avx2_fermat::fermat_base_two_lanes(t, cands, bits, top, l)));
                }
                Fermat::Single(_) => {}
            }
        }
        let mut mask = 0;
        for (k, n) in cands.iter().enumerate() {
            mask |= u64::from(single::fermat_base_two_vartime(self.cpu, n)?) << k;
        }
        Ok(mask)
    }
}

/// Fewest candidates of at most `bits` bits for which a variable-time Fermat batch on the
/// backend's lanes beats one candidate at a time. One call of the lanes costs about as
/// many single tests as (`examples/fermat_lanes_speed mixed`, AMD EPYC Zen 4, shared and
/// loaded): IFMA 1.7 at 512 bits, 2.8 at 1024, 2.6 at 1536, 4.1 at 2048, 4.2 at 3072;
/// AVX2 2.6 at 1024, 2.4 at 2048, 2.3 at 3072.
#[cfg(target_arch = "x86_64")]
fn fermat_vartime_min_lanes(imp: Fermat, bits: usize) -> usize {
    match imp {
        Fermat::Ifma(_) if bits <= 768 => 2,
        Fermat::Ifma(_) if bits <= 1792 => 3,
        Fermat::Ifma(_) => 5,
        Fermat::Avx2(_) => 3,
        Fermat::Single(_) => usize::MAX,
    }
}

/// The public shape of a variable-time Fermat batch on the wide lanes: the size the
/// lanes run at (the largest candidate's bit length, at least 3) and `top`, an exponent
/// with 2^top below every candidate (the smallest one's bit length minus one: an odd
/// n >= 3 of b bits exceeds 2^(b − 1)). Starting every lane's R mod m from the same 2^top
/// makes the doublings uniform across lanes of different sizes.
#[cfg(target_arch = "x86_64")]
fn fermat_shape(cands: &[BigUint]) -> (usize, usize) {
    let sizes = cands.iter().map(|n| n.bits() as usize);
    let bits = sizes.clone().max().unwrap_or(0).max(3);
    let top = sizes.min().unwrap_or(2) - 1;
    (bits, top)
}

#[cfg(test)]
mod tests;
