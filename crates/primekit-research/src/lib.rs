//! primekit-research: the research tier beside the `primekit` library.
//!
//! Instrumented variants of the primality tests (stage and round counts), the cost
//! models behind the trial-division and round-count choices, the prime generation
//! algorithms (PGAs) analysed by Dobrosavljević (2021), special-form prime moduli,
//! and, under the `compare` feature, in-process OpenSSL 3 and GMP peers for
//! benchmarks. None of it is used by the production library: everything here is
//! built on `primekit`'s public API and its expert tier, [`primekit::hazmat`].

#![deny(unsafe_op_in_unsafe_fn)]

pub mod cost_model;
pub mod ct_timing;
pub mod hw_model;
pub mod hw_vectors;
pub mod instrument;
#[cfg(feature = "compare")]
pub mod peers;
pub mod pga;
pub mod special_form;
pub mod tests;
