//! Research tier: instrumented variants, cost models, benchmark drivers and peers.
//! Nothing here is used by the knob-free API at the crate root.

pub mod cost_model;
pub mod instrument;
#[cfg(feature = "compare")]
pub mod peers;


pub mod special_form;
pub mod tests;
pub mod pga;
