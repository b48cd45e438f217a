//! Parameters of the prime generators: round counts derived from published error bounds
//! ([`error_bound`]) and measured speed tuning tables ([`tuning`]).
//!
//! Nothing here is tunable at run time: each `error_bound` function turns a size (and the
//! shape of the search) into the number of random-base Miller-Rabin rounds that keeps the
//! probability of outputting a composite at or below 2^-128, with the derivation written
//! beside it; each `tuning` function turns a size into a sieve depth or segment length,
//! with the measurements that chose it.

#![forbid(unsafe_code)]

pub mod error_bound;
pub mod tuning;

pub use error_bound::{log2_avg_pass, log2_pc_m, rounds_for_search, search_rounds_table, SearchShape, TARGET_LOG2_ERROR};
