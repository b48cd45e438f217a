//! Multi-precision arithmetic: limbs, Montgomery contexts, modular exponentiation.
//!
//! This layer knows nothing about primality. It is the only module where `unsafe` and
//! assembly may appear (the x86_64 BMI2/ADX and AVX-512 IFMA kernels), always beside a portable kernel
//! with the same contract that is built and tested on every platform.

pub mod ifma;
#[cfg(target_arch = "x86_64")]
mod ifma_columns;
pub mod ifma_fermat;
pub mod ifma_residues;
pub mod limbs;
pub mod lucas_v;
pub mod modexp;
pub mod mont64;
pub mod mont;
pub mod portable;
pub mod pow2;
pub mod word;
#[cfg(target_arch = "x86_64")]
pub mod x86_64_adx;
#[cfg(target_arch = "x86_64")]
pub mod x86_64_ifma;

pub use mont::{Kernel, MontContext, MAX_MODULUS_BITS};

/// Why an arithmetic context could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArithError {
    /// Montgomery arithmetic needs an odd modulus.
    EvenModulus,
    /// The modulus must be at least 3.
    ModulusTooSmall,
    /// The modulus exceeds `MAX_MODULUS_BITS`.
    ModulusTooLarge { bits: u64, max: u64 },
    /// The requested kernel needs instructions this CPU lacks.
    KernelUnavailable,
}

impl core::fmt::Display for ArithError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ArithError::EvenModulus => write!(f, "modulus must be odd"),
            ArithError::ModulusTooSmall => write!(f, "modulus must be at least 3"),
            ArithError::ModulusTooLarge { bits, max } => {
                write!(f, "modulus has {bits} bits; the maximum is {max}")
            }
            ArithError::KernelUnavailable => write!(f, "the requested kernel is not supported by this CPU"),
        }
    }
}

impl std::error::Error for ArithError {}
