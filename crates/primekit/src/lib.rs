//! primekit: misuse-resistant primality testing and fast prime generation.
//!
//! Layers, each knowing nothing of those above it:
//! `arith` → `sieve` → `primality` → `gen` → `params` → `research`.
//! The crate root re-exports the knob-free API; everything tunable lives in
//! [`research`] and [`hazmat`]-style modules and never in the default path.

#![deny(unsafe_op_in_unsafe_fn)]

pub mod arith;
pub mod research;
