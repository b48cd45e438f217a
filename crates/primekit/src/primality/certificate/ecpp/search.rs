//! The first phase of the down-run for one N (Atkin & Morain 1993, §8.2): walk the
//! discriminants in the search order for N's size (`class_table::search_order`: by
//! expected cost, from the class number and the chance of a solution), keep those with every
//! prime discriminant a square mod N, solve 4N = t^2 + |D| s^2, and accept an order
//! m = N + 1 - trace = k q with k free of primes below a bound and q a probable prime
//! above (N^(1/4) + 1)^2. Where allowed, N - 1 = k q is tried first (a Pocklington
//! step then needs no curve). Nothing is proved here: the second phase builds and
//! checks the steps.

use super::super::field::Ring;
use super::class_table::{search_order, table};
use super::cornacchia::{cornacchia_with, order, traces};
use super::rho::rho_factor;
use super::sqrt::Sqrt;
use crate::arith::lanes::FermatBatch;
use crate::primality::is_prime_u64;
use crate::primality::lucas::{selfridge_method_a, LucasLadder, SearchOptions};
use crate::primality::MillerRabin;
use crate::sieve::divisors::PairDivisors;
use crate::sieve::odd_primes_below_2_22;
use crate::sieve::residues::residues;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Where a candidate comes from: an entry (a discriminant, or N - 1) of one of four
/// passes ([`Pass`], [`locate`]) and the index of one of its orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Pos {
    pub(super) entry: usize,
    pub(super) order: usize,
}

impl Pos {
    pub(super) const START: Pos = Pos { entry: 0, order: 0 };

    /// The position just after this one.
    pub(super) fn next(self) -> Pos {
        Pos { entry: self.entry, order: self.order + 1 }
    }
}

/// The passes over the entries, in search order. Within a pass, entry 0 is N - 1 and
/// entry i >= 1 the i-th discriminant of the table's [`search_order`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Pass {
    /// The table's main part ([`MAIN`] entries), accepting only orders that descend at
    /// least [`min_descent`] bits (q at least that much shorter than N).
    Descent,
    /// The whole table; in its main part only the orders the descent pass skipped.
    First,
    /// The same again, dividing the orders by all primes below 2^22 (for the rare N that
    /// the first pass leaves without any).
    Second,
    /// The same again, also splitting a composite cofactor by a bounded Pollard rho
    /// ([`super::rho`]; for the rarer N the second pass leaves without any).
    Third,
}

/// Entries of one full pass: N - 1 and the table.
static PASS: std::sync::LazyLock<usize> = std::sync::LazyLock::new(|| table().len() + 1);

/// Number of entries of all four passes.
pub(super) fn entries() -> usize {
    *MAIN + 3 * *PASS
}

/// The pass of an entry and its index within that pass (0 for N - 1).
pub(super) fn locate(entry: usize) -> (Pass, usize) {
    if entry < *MAIN {
        return (Pass::Descent, entry);
    }
    let e = entry - *MAIN;
    let pass = match e / *PASS {
        0 => Pass::First,
        1 => Pass::Second,
        _ => Pass::Third,
    };
    (pass, e % *PASS)
}

/// Entries a level below the top searches (until half the backtracking budget is spent):
/// the descent pass and the first pass's main part; beyond them, the rest of the table
/// and the second pass cost more than going back a level.
pub(super) fn lower_level_end() -> usize {
    2 * *MAIN
}

/// The fewest bits a step of the descent pass must remove from an N of `bits` bits (q's
/// length at most N's minus this): 12 up to 1280 bits, none above.
///
/// Fewer, longer steps: each step costs a level of search and a curve, and an order that
/// removes more is about as likely to leave a prime cofactor. Measured
/// (`examples/prove_speed --ecpp-only`, AMD EPYC Zen 4 on its fastest kernel, same
/// primes) against no minimum: 60 primes of 256 bits 1.57 -> 1.41 s (steps 797 -> 549), 60 of 512 bits
/// 3.15 -> 2.32 s, 30 of 1024 bits 11.4 -> 10.2 s (1761 -> 1279 steps). Above about
/// 1280 bits the main part holds too few orders for it: with a prime cofactor at about
/// 1.6% per order at 2048 bits and half the orders removing fewer than 12 bits, the
/// descent pass often finds none and the first pass walks the main part again. On seven
/// 2048-bit primes a minimum at every size took 33.0 s against 30.6 s without one (and
/// 32.3 s with this cut), all within the spread between primes.
fn min_descent(bits: u64) -> u64 {
    if bits <= 1280 {
        12
    } else {
        0
    }
}

/// Entries ahead of the current one whose roots a batch of square roots may compute: a
/// batch costs the same however full. Measured (ten 1024-bit and two 2048-bit primes,
/// eight lanes, AMD EPYC Zen 4): 160 entries beat 64 by 2-3% and 64 beat the current
/// entry alone by 5-10%, although a batch of eight costs about five single
/// exponentiations at 2048 bits there and some of the roots go unused.
const LOOKAHEAD: usize = 160;

/// Smallest N whose cofactors are tested in batches. Below, a level needs only a few
/// cofactors (about bits / 66) and filling a batch walks entries past the winner: on 30
/// primes of 256 bits (AMD EPYC Zen 4, eight lanes) batches made the down-run 0.106/0.118 s
/// against 0.079/0.091 s one at a time, and this cut brought it back to 0.083/0.092 s; at
/// 512 and 1024 bits the difference was within the noise either way.
const BATCH_MIN_BITS: u64 = 384;

/// Pollard rho iterations the third pass spends on one order's cofactor.
const RHO_BUDGET: u64 = 1 << 16;

/// Entries of a pass's main part (N - 1 and the table's discriminants of class number
/// at most 25, the cheapest ones in the search order).
pub(super) static MAIN: std::sync::LazyLock<usize> =
    std::sync::LazyLock::new(|| 1 + table().iter().position(|e| e.h > 25).unwrap_or(table().len()));

/// The table index of a (non-N - 1) entry for an N of `bits` bits (each pass walks the
/// table in [`search_order`]).
pub(super) fn table_index(entry: usize, bits: u64) -> Option<usize> {
    locate(entry).1.checked_sub(1).map(|i| search_order(bits)[i] as usize)
}

/// An accepted order: m = (product of `small`) * q, q a probable prime (or 1 for an
/// N - 1 that is smooth); in the third pass m / q also holds the factor rho found.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub(super) pos: Pos,
    pub(super) m: BigUint,
    pub(super) q: BigUint,
    /// Prime factors p^e of m / q (all below the trial bound).
    pub(super) small: Vec<(u32, u32)>,
    /// Square roots mod N of D's prime discriminants, found by the search (the step's
    /// curve needs them again for a genus factor).
    pub(super) disc_roots: Vec<(i64, BigUint)>,
}

/// Probable primality of q (BPSW: a base-2 strong test, then a strong Lucas test); exact
/// below 2^64.
pub(in crate::primality::certificate) fn probable_prime(q: &BigUint) -> bool {
    if q.bits() <= 64 {
        return is_prime_u64(q.to_u64().expect("64 bits"));
    }
    if !q.bit(0) {
        return false;
    }
    let Ok(mr) = MillerRabin::new_vartime(q) else { return false };
    if !mr.passes_base_two_vartime() {
        return false;
    }
    match selfridge_method_a(q, SearchOptions::BPSW) {
        Ok(params) => LucasLadder::new(q, &params).is_ok_and(|l| l.strong_test()),
        Err(_) => false,
    }
}

/// The checker's size condition q > (N^(1/4) + 1)^2, as the same integer test (the
/// oracle of [`smallest_large_enough`]).
#[cfg(test)]
fn large_enough(q: &BigUint, n: &BigUint) -> bool {
    let r = q.sqrt();
    r > BigUint::one() && (&r - 1u8).pow(4) > *n
}

/// The least q passing the checker's size test (isqrt(q) - 1)^4 > N, so that a level
/// compares each cofactor with it instead of taking a square root of each: with
/// f = floor(N^(1/4)) = isqrt(isqrt(N)), (r - 1)^4 > N holds exactly when r - 1 > f
/// (r - 1 >= f + 1 > N^(1/4); and r - 1 <= f gives (r - 1)^4 <= N), i.e. r >= f + 2,
/// and isqrt(q) >= f + 2 exactly when q >= (f + 2)^2.
pub(super) fn smallest_large_enough(n: &BigUint) -> BigUint {
    (n.sqrt().sqrt() + 2u8).pow(2)
}

/// How many odd primes trial division uses for orders of N's size: more for larger N,
/// where a probable-prime test costs more than the division. 32 per bit, not 16, since
/// the orders are tested by pair residues ([`PairDivisors`]): six 2048-bit primes
/// (Zen 4, widest kernel) 23.3 -> 22.6 s of proving and checking, 1024 bits unchanged.
pub(super) fn trial_primes(bits: u64) -> usize {
    ((bits as usize) * 32).clamp(1000, 80_000)
}

/// m = small * rest with `small` the prime powers of the first `count` primes (and 2).
pub(super) fn split_small(m: &BigUint, count: usize) -> (Vec<(u32, u32)>, BigUint) {
    let mut res = Vec::new();
    let primes = &odd_primes_below_2_22()[..count];
    residues(&m.to_u64_digits(), primes, &mut res);
    let divisors: Vec<u32> = primes.iter().zip(&res).filter(|&(_, &r)| r == 0).map(|(&p, _)| p).collect();
    split_small_given(m, &divisors)
}

/// [`split_small`] given the odd primes (of the first ones) that divide m.
fn split_small_given(m: &BigUint, divisors: &[u32]) -> (Vec<(u32, u32)>, BigUint) {
    let mut small = Vec::new();
    let mut rest = m.clone();
    let twos = rest.trailing_zeros().unwrap_or(0);
    if twos > 0 {
        rest >>= twos;
        small.push((2, twos as u32));
    }
    for &p in divisors {
        let mut e = 0;
        while (&rest % p).is_zero() {
            rest /= p;
            e += 1;
        }
        small.push((p, e));
    }
    (small, rest)
}

/// The larger part of `rest` split by rho, when `rest` is composite (a probable prime
/// `rest` was the second pass's to take).
fn split_by_rho(rest: &BigUint) -> Option<BigUint> {
    if rest.bits() <= 64 || !rest.bit(0) || probable_prime(rest) {
        return None;
    }
    let g = rho_factor(rest, RHO_BUDGET)?;
    let other = rest / &g;
    Some(g.max(other))
}

/// Trial division of the orders N + 1 - trace by the first odd primes, from residues of
/// N + 1 (once per level) and of |trace| (about half N's size; one trace and its
/// negative share them), without dividing each order: by pair residues and a product
/// per prime where the CPU has the vector residue backend ([`PairDivisors`]), else by
/// each prime's residue.
struct OrderResidues {
    by: By,
    /// The last |trace|, whose residues are held.
    magnitude: Option<BigUint>,
}

enum By {
    Pairs { div: PairDivisors, n_plus_1: Vec<u64>, trace: Vec<u64> },
    Primes { n_plus_1: Vec<u32>, trace: Vec<u32> },
}

impl OrderResidues {
    fn new(n: &BigUint, count: usize) -> OrderResidues {
        let primes = &odd_primes_below_2_22()[..count];
        let n1 = (n + 1u8).to_u64_digits();
        let by = match PairDivisors::new(primes) {
            Some(div) => {
                let mut n_plus_1 = Vec::new();
                div.residues(&n1, &mut n_plus_1);
                By::Pairs { div, n_plus_1, trace: Vec::new() }
            }
            None => {
                let mut n_plus_1 = Vec::new();
                residues(&n1, primes, &mut n_plus_1);
                By::Primes { n_plus_1, trace: Vec::new() }
            }
        };
        OrderResidues { by, magnitude: None }
    }

    /// The primes (of the first ones) dividing N + 1 - `trace`, into `out`.
    fn divisors_of_order(&mut self, trace: &BigInt, out: &mut Vec<u32>) {
        // |trace|'s limbs, when its residues are not the ones held.
        let fresh = (self.magnitude.as_ref() != Some(trace.magnitude())).then(|| {
            self.magnitude = Some(trace.magnitude().clone());
            trace.magnitude().to_u64_digits()
        });
        let negative = trace.is_negative();
        match &mut self.by {
            By::Pairs { div, n_plus_1, trace: tr } => {
                if let Some(t) = &fresh {
                    div.residues(t, tr);
                }
                // N + 1 - trace = (N + 1) - |trace| or (N + 1) + |trace|.
                div.dividing(n_plus_1, tr, negative, out);
            }
            By::Primes { n_plus_1, trace: tr } => {
                let primes = &odd_primes_below_2_22()[..n_plus_1.len()];
                if let Some(t) = &fresh {
                    residues(t, primes, tr);
                }
                out.clear();
                // Mod p, with a, t < p: the order is 0 when a = t (a - t) or a + t = p.
                out.extend(
                    primes
                        .iter()
                        .zip(n_plus_1.iter().zip(tr.iter()))
                        .filter(|&(&p, (&a, &t))| if negative { a + t == p || a + t == 0 } else { a == t })
                        .map(|(&p, _)| p),
                );
            }
        }
    }
}

/// An order that passed every test but the probable-prime test of its cofactor, waiting
/// for a batch of those tests.
struct Pending {
    pos: Pos,
    m: BigUint,
    q: BigUint,
    small: Vec<(u32, u32)>,
    /// The discriminant's table index (`None` for N - 1).
    table: Option<usize>,
}

/// One N's search state: its ring, its square roots, its options, and the orders whose
/// cofactors wait for a batch of base-2 Fermat tests.
///
/// Why batches: the cofactors of one level are public moduli of about N's size, and
/// the kernel's lanes run one Fermat test per lane ([`FermatBatch::test_vartime`]).
/// Nearly all cofactors are composite and fail it; the few that pass get the whole
/// probable-prime test ([`probable_prime`]), in search order, so the candidate found is
/// the one that testing each order in turn finds.
pub(super) struct Level {
    pub(super) n: BigUint,
    pub(super) sq: Sqrt,
    pub(super) ecpp_only: bool,
    count: usize,
    /// N + 1's residues for the first pass's primes and for the second's (made on first
    /// use).
    residues: [Option<OrderResidues>; 2],
    scratch: Vec<u32>,
    fermat: FermatBatch,
    pending: Vec<Pending>,
    /// floor(sqrt(4N)), Cornacchia's bound, and the least q the checker's size test
    /// accepts ([`smallest_large_enough`]): once per level.
    sqrt_4n: BigUint,
    q_min: BigUint,
}

impl Level {
    /// `None` if N has no Montgomery form or no square roots (N is then not an odd
    /// prime; the caller treats it as "no candidate").
    pub(super) fn new(n: &BigUint, ecpp_only: bool) -> Option<Level> {
        Level::with_batch(n, ecpp_only, FermatBatch::new(n.bits() as usize).ok()?)
    }

    /// [`Level::new`] with the cofactors' Fermat tests on `fermat`.
    fn with_batch(n: &BigUint, ecpp_only: bool, fermat: FermatBatch) -> Option<Level> {
        let sq = Sqrt::new(Ring::new(n)?)?;
        Some(Level {
            n: n.clone(),
            sq,
            ecpp_only,
            count: trial_primes(n.bits()),
            residues: [None, None],
            scratch: Vec::new(),
            fermat,
            pending: Vec::new(),
            sqrt_4n: (n << 2u8).sqrt(),
            q_min: smallest_large_enough(n),
        })
    }

    /// Tests the queued cofactors in batches of the lanes' width (one for N below
    /// [`BATCH_MIN_BITS`]), the last partial batch only when `all` (otherwise it stays
    /// queued), and gives the first candidate, in search order, whose cofactor is a
    /// probable prime; the queue is then empty.
    fn test_queued(&mut self, all: bool) -> Option<Candidate> {
        let lanes = if self.n.bits() >= BATCH_MIN_BITS { self.fermat.lanes() } else { 1 };
        let whole = if all { self.pending.len() } else { self.pending.len() / lanes * lanes };
        let tested: Vec<Pending> = self.pending.drain(..whole).collect();
        for batch in tested.chunks(lanes) {
            // One lane: the whole test at once (a Fermat test first would only repeat
            // the base-2 strong test for the one cofactor in about 60 that passes).
            let pass = if lanes == 1 { u64::MAX } else { self.fermat_mask(batch) };
            for (k, p) in batch.iter().enumerate() {
                if pass >> k & 1 == 1 && (p.q.is_one() || probable_prime(&p.q)) {
                    self.pending.clear();
                    return Some(self.candidate(p));
                }
            }
        }
        None
    }

    /// Tests every queued cofactor: [`Self::try_entry`] leaves a partial batch queued, to
    /// be called when no entry follows.
    pub(super) fn flush(&mut self) -> Option<Candidate> {
        self.test_queued(true)
    }

    /// Bit k set when the k-th cofactor passes the base-2 Fermat test (q = 1, an N - 1
    /// that is smooth, passes).
    fn fermat_mask(&self, batch: &[Pending]) -> u64 {
        let ones: u64 = batch.iter().enumerate().map(|(k, p)| u64::from(p.q.is_one()) << k).sum();
        let tested: Vec<BigUint> = batch.iter().filter(|p| !p.q.is_one()).map(|p| p.q.clone()).collect();
        if tested.is_empty() {
            return ones;
        }
        let Ok(mask) = self.fermat.test_vartime(&tested) else { return u64::MAX };
        // Spread the tested cofactors' bits back over the batch's positions.
        let mut out = ones;
        let mut j = 0;
        for (k, p) in batch.iter().enumerate() {
            if !p.q.is_one() {
                out |= (mask >> j & 1) << k;
                j += 1;
            }
        }
        out
    }

    fn candidate(&self, p: &Pending) -> Candidate {
        let sq = &self.sq;
        let disc_roots = match p.table {
            Some(i) => table()[i].prime_discs.iter().filter_map(|&d| sq.cached_root(d).map(|r| (d, sq.ring().to_big(r)))).collect(),
            None => Vec::new(),
        };
        Candidate { pos: p.pos, m: p.m.clone(), q: p.q.clone(), small: p.small.clone(), disc_roots }
    }

    /// The prime discriminants whose roots the entries from `entry` on will ask for, not
    /// computed yet, up to as many as one batch of exponentiations holds
    /// ([`Sqrt::lanes`]; `entry`'s own first): those of entries whose prime
    /// discriminants are all squares mod N, among the next [`LOOKAHEAD`] entries.
    fn upcoming_roots(&self, entry: usize) -> Vec<i64> {
        let lanes = self.sq.lanes();
        let mut wanted = Vec::new();
        for later in entry..(entry + LOOKAHEAD).min(entries()) {
            let Some(i) = table_index(later, self.n.bits()) else { continue };
            let discs = &table()[i].prime_discs;
            if discs.iter().all(|&p| self.sq.legendre(p) == 1) {
                for &p in discs {
                    if self.sq.uncached(p) && !wanted.contains(&p) {
                        wanted.push(p);
                    }
                }
            }
            if wanted.len() >= lanes {
                break;
            }
        }
        wanted.truncate(lanes.max(1));
        wanted
    }

    /// Queues the orders of entry `entry` (from order index `first` on) that pass all but
    /// the probable-prime test; gives a candidate when a full batch tested finds one.
    /// Entries go in search order; [`Self::flush`] tests what is left.
    pub(super) fn try_entry(&mut self, entry: usize, first: usize) -> Option<Candidate> {
        let n = self.n.clone();
        let (pass, index) = locate(entry);
        let second = pass >= Pass::Second;
        let third = pass == Pass::Third;
        let count = if second { odd_primes_below_2_22().len() } else { self.count };
        // In the second pass, only an order with a prime factor the first pass did not
        // divide out gives a new q.
        let new_q = |small: &[(u32, u32)]| !second || small.iter().any(|&(p, _)| p > odd_primes_below_2_22()[self.count - 1]);
        // The descent pass takes the orders that descend far enough; the first pass, in
        // the part the descent pass walked, only those it skipped.
        let descends = |q: &BigUint| q.bits() + min_descent(n.bits()) <= n.bits();
        let in_pass = |q: &BigUint| match pass {
            Pass::Descent => descends(q),
            Pass::First if index < *MAIN => !descends(q),
            _ => true,
        };
        if pass == Pass::First && index < *MAIN && min_descent(n.bits()) == 0 {
            // The descent pass took every order of the main part already.
            return None;
        }
        if index == 0 {
            if self.ecpp_only || first > 0 || third {
                return None;
            }
            let m = &n - 1u8;
            let (small, q) = split_small(&m, count);
            // N - 1 = k q: Pocklington with F = N - 1 (q proved next, or smooth).
            if q < n && new_q(&small) && in_pass(&q) {
                self.pending.push(Pending { pos: Pos { entry, order: 0 }, m, q, small, table: None });
            }
            return self.test_queued(false);
        }
        let index = table_index(entry, n.bits()).expect("not N - 1");
        let e = &table()[index];
        if e.prime_discs.iter().all(|&p| self.sq.legendre(p) == 1) && e.prime_discs.iter().any(|&p| self.sq.uncached(p)) {
            let wanted = self.upcoming_roots(entry);
            self.sq.sqrt_small_many(&wanted);
        }
        let r = self.sq.sqrt_disc(&e.prime_discs)?;
        let (t, s) = cornacchia_with(&n, &self.sqrt_4n, e.d, &self.sq.ring().to_big(&r))?;
        let rs = self.residues[second as usize].get_or_insert_with(|| OrderResidues::new(&n, count));
        for (i, tr) in traces(e.d, &t, &s).iter().enumerate().skip(first) {
            let m = order(&n, tr);
            rs.divisors_of_order(tr, &mut self.scratch);
            let (small, rest) = split_small_given(&m, &self.scratch);
            let q = if third { split_by_rho(&rest) } else { Some(rest) };
            let Some(q) = q.filter(|q| q < &n && (third || new_q(&small)) && in_pass(q) && *q >= self.q_min) else { continue };
            self.pending.push(Pending { pos: Pos { entry, order: i }, m, q, small, table: Some(index) });
        }
        self.test_queued(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_parts_and_size_test() {
        let m = BigUint::from(2u32.pow(5) * 3 * 3 * 1009) * BigUint::from(1_000_000_007u64);
        let (small, rest) = split_small(&m, 1000);
        assert_eq!(small, vec![(2, 5), (3, 2), (1009, 1)]);
        assert_eq!(rest, BigUint::from(1_000_000_007u64));
        // q > (N^(1/4) + 1)^2 with N = 10^16: N^(1/4) = 10^4, bound 100020001.
        let n = BigUint::from(10u64.pow(16));
        assert!(!large_enough(&BigUint::from(100_020_001u64), &n));
        assert!(large_enough(&BigUint::from(100_100_000u64), &n));
        // The bound agrees with the checker's test around it, for N a fourth power, one
        // off it and random N.
        use num_bigint::RandBigInt;
        use rand_core::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let ns = [n.clone(), &n - 1u8, &n + 1u8, BigUint::from(81u8), rng.gen_biguint(300), rng.gen_biguint(1025)];
        for n in &ns {
            let b = smallest_large_enough(n);
            for q in [&b - 2u8, &b - 1u8, b.clone(), &b + 1u8, &b * 2u8] {
                assert_eq!(q >= b, large_enough(&q, n), "n {n} q {q}");
            }
        }
        assert!(probable_prime(&((BigUint::from(1u8) << 127) - 1u8)));
        assert!(!probable_prime(&(BigUint::from(561u32) * BigUint::from(1105u32) * ((BigUint::from(1u8) << 89) - 1u8))));
    }

    /// Cofactors tested in batches on the widest lanes give the candidate that testing
    /// one order at a time gives (the first in search order), on a chain of levels from
    /// 700 bits down (so batches of several sizes and levels whose winner comes late).
    #[test]
    fn batched_cofactor_tests_find_the_first_candidate() {
        use crate::arith::Kernel;
        let first = |n: &BigUint, kernel: Option<Kernel>| {
            let bits = n.bits() as usize;
            let fermat = match kernel {
                Some(k) => FermatBatch::with_kernel(bits, k).unwrap(),
                None => FermatBatch::new(bits).unwrap(),
            };
            let mut lv = Level::with_batch(n, false, fermat).unwrap();
            (0..lower_level_end()).find_map(|e| lv.try_entry(e, 0)).or_else(|| lv.flush())
        };
        let mut n = (BigUint::from(1u8) << 700u32) - 1u8;
        while !probable_prime(&n) {
            n -= 2u8;
        }
        let mut levels = 0;
        while n.bits() > 100 {
            let wide = first(&n, None).expect("a candidate");
            let one = first(&n, Some(Kernel::Portable)).expect("a candidate");
            assert_eq!((wide.pos, &wide.q, &wide.m), (one.pos, &one.q, &one.m), "{} bits", n.bits());
            n = wide.q;
            levels += 1;
        }
        assert!(levels >= 5, "{levels}");
    }

    /// The primes found dividing the orders from N + 1's and the trace's residues are
    /// those dividing the orders, for positive, negative and zero traces and a trace
    /// repeated with either sign, on both paths (pair residues where the CPU has them).
    #[test]
    fn order_divisors_match_direct_division() {
        let n = (BigUint::from(1u8) << 521) - 1u8;
        let primes = &odd_primes_below_2_22()[..500];
        let mut rs = OrderResidues::new(&n, 500);
        let n1 = n.clone() + 1u8;
        let mut by_primes = OrderResidues { by: By::Primes { n_plus_1: Vec::new(), trace: Vec::new() }, magnitude: None };
        if let By::Primes { n_plus_1, .. } = &mut by_primes.by {
            residues(&n1.to_u64_digits(), primes, n_plus_1);
        }
        let (mut got, mut got_primes) = (Vec::new(), Vec::new());
        let t = BigInt::from((BigUint::from(3u8) << 250) + 12345u32);
        // A trace making the order divisible by 3 * 5 * 7 * 11 * 13: N + 1 - t = 15015 k.
        let smooth_t = BigInt::from(n1.clone()) - BigInt::from(15015u32) * BigInt::from(BigUint::from(1u8) << 500u32);
        for tr in [t.clone(), -t.clone(), BigInt::ZERO, BigInt::from(-7), t + 1u8, smooth_t.clone(), -smooth_t] {
            let m = order(&n, &tr);
            let want: Vec<u32> = primes.iter().copied().filter(|&p| (&m % p).is_zero()).collect();
            rs.divisors_of_order(&tr, &mut got);
            by_primes.divisors_of_order(&tr, &mut got_primes);
            assert_eq!(got, want, "trace {tr}");
            assert_eq!(got_primes, want, "trace {tr}, per prime");
        }
    }
}
