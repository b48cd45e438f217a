//! Greedy groups of consecutive small primes whose product fits in one machine word: one
//! pass of word divisions over a number's limbs then gives its residue modulo the whole
//! group, and each prime's residue follows from that one word. Trial division and the
//! sieve's residues both read numbers this way.

use std::ops::Range;

/// One group: the product of `primes[range]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordGroup {
    /// The product of the group's primes (fits one word).
    pub product: u64,
    /// Which primes of the list the group holds.
    pub range: Range<usize>,
}

/// `primes` (each >= 2) cut greedily, in order, into groups whose product fits in a
/// `u64`; every prime is in exactly one group.
pub fn word_groups(primes: &[u32]) -> Vec<WordGroup> {
    let mut groups = Vec::with_capacity(primes.len() / 2 + 1);
    let mut i = 0;
    while i < primes.len() {
        let start = i;
        let mut product: u64 = 1;
        while let Some(p) = primes.get(i).and_then(|&p| product.checked_mul(p as u64)) {
            product = p;
            i += 1;
        }
        groups.push(WordGroup { product, range: start..i });
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sieve::small_primes::SMALL_ODD_PRIMES;

    #[test]
    fn groups_cover_the_list_and_are_maximal() {
        let primes = &SMALL_ODD_PRIMES[..];
        let groups = word_groups(primes);
        assert_eq!(groups.first().unwrap().range.start, 0);
        assert_eq!(groups.last().unwrap().range.end, primes.len());
        for w in groups.windows(2) {
            assert_eq!(w[0].range.end, w[1].range.start);
            // Maximal: the next prime would overflow the word.
            assert!(w[0].product.checked_mul(primes[w[0].range.end] as u64).is_none());
        }
        for g in &groups {
            assert_eq!(g.product, primes[g.range.clone()].iter().map(|&p| p as u64).product::<u64>());
        }
        assert_eq!(word_groups(&[]), vec![]);
        // 3*5*...*53 = 16294579238595022365 < 2^64 < that times 59.
        assert_eq!(word_groups(primes)[0].range, 0..15);
    }
}
