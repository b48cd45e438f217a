//! The crate's error type: every failure is a value, never a panic.

#![forbid(unsafe_code)]

use crate::arith::ArithError;

/// Why an operation could not produce an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The input exceeds the documented size cap for this operation.
    InputTooLarge {
        /// The input's size in bits.
        bits: u64,
        /// The cap of the operation, in bits.
        max: u64,
    },
    /// The operating system's random number generator failed; there is no fallback.
    Rng(String),
    /// An argument is outside the operation's domain (message says which and why).
    InvalidArgument(String),
    /// An arithmetic precondition failed (e.g. an even modulus).
    Arith(ArithError),
    /// A generated value failed its self-test (e.g. an RSA key's pairwise consistency
    /// test): a hardware or software fault. Nothing was returned.
    SelfTestFailed(String),
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::InputTooLarge { bits, max } => write!(f, "input has {bits} bits; the maximum is {max}"),
            Error::Rng(e) => write!(f, "operating-system random number generator failed: {e}"),
            Error::InvalidArgument(m) => write!(f, "invalid argument: {m}"),
            Error::Arith(e) => write!(f, "arithmetic error: {e}"),
            Error::SelfTestFailed(m) => write!(f, "self-test failed: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<ArithError> for Error {
    fn from(e: ArithError) -> Self {
        Error::Arith(e)
    }
}
