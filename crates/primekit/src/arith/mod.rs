//! Multi-precision arithmetic: limbs, Montgomery contexts, modular exponentiation, and
//! lanes (several exponentiations sharing every instruction).
//!
//! Files by function family:
//! - [`limbs`], [`word`], `radix`: limb slices, word division, radix-2^52/2^50 digits;
//! - [`mont`]: one Montgomery context per modulus, with private backends
//!   (`portable`, `adx`, `ifma`) behind the [`Kernel`] switch, and single-word Montgomery;
//! - [`modexp`], [`pow2`], [`lucas_v`]: exponentiations and the Lucas V ladder on a context;
//! - `inverse`: modular inversion of public values (a binary GCD on limbs);
//! - [`lanes`]: batches of exponentiations (one modulus and several bases, or several
//!   moduli), the backend-neutral type the primality tests and generators use;
//! - [`residues`]: one number modulo many small moduli (the sieve's start residues);
//! - [`cpu`]: feature tokens and the process-wide kernel choice;
//! - [`cycles`]: the cycle counter behind the constant-time timing tests.
//!
//! This layer knows nothing about primality: it computes powers, products and residues
//! and says nothing of what they mean. It is the only module where `unsafe`, assembly and
//! intrinsics appear; every CPU-specific backend is private to it and reachable only
//! through a token from [`cpu`] (see its soundness rule), always beside a portable
//! backend with the same contract that is built and tested on every platform.

pub(crate) mod carry;
pub mod cpu;
pub mod cycles;
pub(crate) mod inverse;
pub mod lanes;
pub mod limbs;
pub mod lucas_v;
pub mod modexp;
pub mod mont;
pub mod pow2;
pub(crate) mod radix;
pub mod residues;
pub mod word;

pub use cpu::Kernel;
pub use mont::{MontContext, MAX_MODULUS_BITS};

/// Why an arithmetic context could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArithError {
    /// Montgomery arithmetic needs an odd modulus.
    EvenModulus,
    /// The modulus must be at least 3.
    ModulusTooSmall,
    /// The modulus exceeds `MAX_MODULUS_BITS`.
    ModulusTooLarge {
        /// The modulus's size in bits.
        bits: u64,
        /// The largest size accepted (`MAX_MODULUS_BITS`).
        max: u64,
    },
    /// The requested kernel needs instructions this CPU lacks.
    KernelUnavailable,
    /// No kernel has this name (`PRIMEKIT_KERNEL`).
    UnknownKernel(String),
}

impl core::fmt::Display for ArithError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ArithError::EvenModulus => write!(f, "modulus must be odd"),
            ArithError::ModulusTooSmall => write!(f, "modulus must be at least 3"),
            ArithError::ModulusTooLarge { bits, max } => {
                write!(f, "modulus has {bits} bits; the maximum is {max}")
            }
            ArithError::KernelUnavailable => {
                write!(f, "the requested kernel is not supported by this CPU (it has: {})", cpu::Kernel::available_names())
            }
            ArithError::UnknownKernel(name) => {
                write!(f, "unknown kernel {name:?} (this CPU has: {})", cpu::Kernel::available_names())
            }
        }
    }
}

impl std::error::Error for ArithError {}
