//! Research tier: instrumented variants, cost models, benchmark drivers and peers.
//! Nothing here is used by the knob-free API at the crate root.

#[cfg(feature = "compare")]
pub mod peers;
pub mod pga;
