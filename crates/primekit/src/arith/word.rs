//! Remainders of a multi-limb number by one word, the kernel of trial division.

use super::limbs::Limb;

/// `(hi*2^64 + lo) mod d` for `hi < d`. On x86_64 this is one `div` instruction (the
/// precondition rules out its overflow fault); elsewhere a `u128` remainder.
#[inline(always)]
pub fn rem_2by1(hi: Limb, lo: Limb, d: Limb) -> Limb {
    debug_assert!(hi < d);
    #[cfg(target_arch = "x86_64")]
    {
        let rem: Limb;
        // SAFETY: hi < d, so the quotient fits in 64 bits and `div` cannot fault.
        unsafe {
            core::arch::asm!(
                "div {d}",
                d = in(reg) d,
                inout("rax") lo => _,
                inout("rdx") hi => rem,
                options(pure, nomem, nostack),
            );
        }
        rem
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        ((((hi as u128) << 64) | lo as u128) % d as u128) as Limb
    }
}

/// `a mod d` for little-endian limbs `a` and `d > 0`. Time depends on `a.len()` only
/// (the `div` instruction's latency may vary with operand values on some CPUs, so this
/// is for public numbers and for candidates whose remainders are about to be public).
#[inline]
pub fn rem_limbs(a: &[Limb], d: Limb) -> Limb {
    let mut r = 0;
    for &l in a.iter().rev() {
        r = rem_2by1(r, l, d);
    }
    r
}

/// Remainders of `a` by each of `ds` (all nonzero) at once: the limbs are walked once
/// and the independent divisions interleave in the pipeline.
#[inline]
pub fn rem_limbs_many<const K: usize>(a: &[Limb], ds: &[Limb; K]) -> [Limb; K] {
    let mut r = [0; K];
    for &l in a.iter().rev() {
        for k in 0..K {
            r[k] = rem_2by1(r[k], l, ds[k]);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn rem_matches_biguint() {
        let a: Vec<Limb> = vec![0xdead_beef_0123_4567, 0xffff_ffff_ffff_ffff, 0x8000_0000_0000_0001, 7];
        let big = super::super::limbs::from_limbs(&a);
        for d in [1u64, 2, 3, 0xffff_ffff_ffff_ffff, 0x1_0000_0001, 614889782588491410] {
            let want = (&big % BigUint::from(d)).to_u64_digits().first().copied().unwrap_or(0);
            assert_eq!(rem_limbs(&a, d), want, "d = {d}");
            assert_eq!(rem_limbs_many(&a, &[d, 3])[0], want);
        }
    }
}
