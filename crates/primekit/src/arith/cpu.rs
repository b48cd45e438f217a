//! What this CPU can execute, as tokens, and which kernel the process uses.
//!
//! # Soundness rule
//! Every function that executes instructions beyond the target's baseline (BMI2/ADX,
//! AVX2, AVX-512F/IFMA) is either an `unsafe fn` whose precondition says so, a safe
//! function that takes — or belongs to a value that holds — a *token* from this module,
//! or a safe `#[target_feature]` function (which Rust lets only code compiled with those
//! features call without `unsafe`, i.e. the kernels above, after their token check).
//! A token is a zero-sized proof that the CPU executes an instruction set; its only
//! constructors are here: run-time detection ([`bmi2_adx`], [`avx2`], [`avx512_ifma`]) or the
//! `unsafe` [`assume`]. Tokens and every backend are `pub(crate)`, so code outside the
//! crate can name a [`Kernel`] (a request) but can only get one by
//! [`Kernel::is_available`]-checked constructors: no safe public function can execute
//! an instruction the CPU lacks.
//!
//! # Kernel switch
//! [`Kernel::selected`] is the kernel every context of the process uses by default: the
//! fastest this CPU has, or the one named by the environment variable `PRIMEKIT_KERNEL`
//! (`portable`, `adx`, `avx2`, `ifma`), read once. Naming a kernel this CPU lacks, or an unknown
//! one, is an error ([`ArithError::KernelUnavailable`] / [`ArithError::UnknownKernel`]),
//! never an illegal instruction. The switch exists so that one machine can measure and
//! test every path the code has.

use super::ArithError;
use std::sync::OnceLock;

/// Proof that the CPU executes BMI2 (`mulx`) and ADX (`adcx`/`adox`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2Adx(());

/// Proof that the CPU executes AVX2, and BMI2/ADX (the AVX2 contexts use the ADX kernel
/// for their single products and conversions).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2 {
    adx: Bmi2Adx,
}

impl Avx2 {
    /// The BMI2/ADX proof this one includes.
    pub(crate) fn adx(self) -> Bmi2Adx {
        self.adx
    }
}

/// Proof that the CPU executes AVX-512F, AVX-512DQ and AVX-512 IFMA, and BMI2/ADX (the
/// IFMA contexts use the ADX kernel for their single products and conversions). Every CPU
/// with IFMA so far (Intel from Cannon Lake, AMD from Zen 4) has DQ too; requiring it
/// lets the IFMA backends use DQ's 64-bit lane products.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Ifma {
    adx: Bmi2Adx,
}

impl Avx512Ifma {
    /// The BMI2/ADX proof this one includes.
    pub(crate) fn adx(self) -> Bmi2Adx {
        self.adx
    }
}

/// A BMI2/ADX token when this CPU has both.
pub(crate) fn bmi2_adx() -> Option<Bmi2Adx> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx") {
        return Some(Bmi2Adx(()));
    }
    None
}

/// An AVX2 token when this CPU has AVX2, BMI2 and ADX.
pub(crate) fn avx2() -> Option<Avx2> {
    let adx = bmi2_adx()?;
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        return Some(Avx2 { adx });
    }
    let _ = adx;
    None
}

/// An AVX-512 IFMA token when this CPU has AVX-512F, AVX-512DQ, AVX-512 IFMA, BMI2 and
/// ADX.
pub(crate) fn avx512_ifma() -> Option<Avx512Ifma> {
    let adx = bmi2_adx()?;
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq") && std::is_x86_feature_detected!("avx512ifma")
    {
        return Some(Avx512Ifma { adx });
    }
    let _ = adx;
    None
}

/// The AVX-512 IFMA token for a backend's own tests, or `None` after saying on stderr
/// that `what` is not exercised on this CPU.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn avx512_ifma_or_skip(what: &str) -> Option<Avx512Ifma> {
    let t = avx512_ifma();
    if t.is_none() {
        eprintln!("no AVX-512 IFMA on this CPU: {what} not exercised");
    }
    t
}

/// The AVX2 token for a backend's own tests, or `None` after saying on stderr that
/// `what` is not exercised on this CPU.
#[cfg(test)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86_64 vector backends
pub(crate) fn avx2_or_skip(what: &str) -> Option<Avx2> {
    let t = avx2();
    if t.is_none() {
        eprintln!("no AVX2/BMI2/ADX on this CPU: {what} not exercised");
    }
    t
}

/// Tokens for `kernel` without asking the CPU.
///
/// # Safety
/// The CPU must execute the kernel's instructions although detection may deny it. The
/// one intended use is the constant-time checker under valgrind, whose virtual CPU
/// executes `mulx`/`adcx`/`adox` but hides BMI2/ADX from CPUID.
pub(crate) unsafe fn assume(kernel: Kernel) -> Tokens {
    match kernel {
        Kernel::Portable => Tokens::Portable,
        Kernel::Adx => Tokens::Adx(Bmi2Adx(())),
        Kernel::Avx2 => Tokens::Avx2(Avx2 { adx: Bmi2Adx(()) }),
        Kernel::Ifma => Tokens::Ifma(Avx512Ifma { adx: Bmi2Adx(()) }),
    }
}

/// The tokens behind one kernel.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Tokens {
    Portable,
    Adx(Bmi2Adx),
    Avx2(Avx2),
    Ifma(Avx512Ifma),
}

impl Tokens {
    /// The tokens for `kernel`, if this CPU runs it.
    pub(crate) fn detect(kernel: Kernel) -> Option<Tokens> {
        match kernel {
            Kernel::Portable => Some(Tokens::Portable),
            Kernel::Adx => bmi2_adx().map(Tokens::Adx),
            Kernel::Avx2 => avx2().map(Tokens::Avx2),
            Kernel::Ifma => avx512_ifma().map(Tokens::Ifma),
        }
    }

    /// The tokens of the process-wide kernel ([`Kernel::selected`]).
    pub(crate) fn selected() -> Result<Tokens, ArithError> {
        let k = Kernel::selected()?;
        Tokens::detect(k).ok_or(ArithError::KernelUnavailable)
    }

    /// The kernel these tokens run.
    pub(crate) fn kernel(self) -> Kernel {
        match self {
            Tokens::Portable => Kernel::Portable,
            Tokens::Adx(_) => Kernel::Adx,
            Tokens::Avx2(_) => Kernel::Avx2,
            Tokens::Ifma(_) => Kernel::Ifma,
        }
    }

    /// The BMI2/ADX token, when the kernel's single products use `mulx`/`adcx`/`adox`.
    pub(crate) fn adx(self) -> Option<Bmi2Adx> {
        match self {
            Tokens::Portable => None,
            Tokens::Adx(t) => Some(t),
            Tokens::Avx2(t) => Some(t.adx()),
            Tokens::Ifma(t) => Some(t.adx()),
        }
    }

    /// The AVX2 token, when these tokens include one (the `Avx2` kernel only: the IFMA
    /// kernel has its own, wider lanes).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86_64 vector backends
    pub(crate) fn avx2(self) -> Option<Avx2> {
        match self {
            Tokens::Avx2(t) => Some(t),
            _ => None,
        }
    }

    /// The IFMA token, when these tokens include one.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86_64 vector backends
    pub(crate) fn ifma(self) -> Option<Avx512Ifma> {
        match self {
            Tokens::Ifma(t) => Some(t),
            _ => None,
        }
    }
}

/// Intel family-6 models built of efficiency cores only, which split 256-bit operations:
/// Sierra Forest (0xAF), Grand Ridge (0xB6), Alder Lake-N (0xBE), Clearwater Forest
/// (0xDD). (Earlier Atom-class cores have no AVX2, so no `Avx2` token.)
const INTEL_EFFICIENCY_ONLY_MODELS: [u32; 4] = [0xAF, 0xB6, 0xBE, 0xDD];

/// Whether a CPU with AVX2 executes 256-bit integer multiplies at full width, from its
/// CPUID vendor string and display family and model: Intel family 6 with AVX2 (Haswell
/// onwards) except the efficiency-core-only parts above, AMD Zen 2 (family 0x17, model
/// 0x30 and above) and every later AMD family; not AMD Zen 1 / Zen+ (family 0x17 below
/// model 0x30), Hygon (family 0x18, Zen 1 based), AMD families before Zen, Intel
/// families other than 6 (none exists yet: unknown, so the conservative choice), or
/// vendors not listed.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // read through CPUID on x86_64 only
pub(crate) const fn avx2_full_width(vendor: &[u8; 12], family: u32, model: u32) -> bool {
    match vendor {
        b"GenuineIntel" => {
            if family != 6 {
                return false;
            }
            let mut i = 0;
            while i < INTEL_EFFICIENCY_ONLY_MODELS.len() {
                if INTEL_EFFICIENCY_ONLY_MODELS[i] == model {
                    return false;
                }
                i += 1;
            }
            true
        }
        b"AuthenticAMD" => family > 0x17 || (family == 0x17 && model >= 0x30),
        _ => false,
    }
}

/// The 12-byte vendor string of CPUID leaf 0, from its EBX, EDX and ECX (in that order,
/// little-endian bytes each).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // read through CPUID on x86_64 only
const fn vendor_from_regs(ebx: u32, edx: u32, ecx: u32) -> [u8; 12] {
    let (b, d, c) = (ebx.to_le_bytes(), edx.to_le_bytes(), ecx.to_le_bytes());
    [b[0], b[1], b[2], b[3], d[0], d[1], d[2], d[3], c[0], c[1], c[2], c[3]]
}

/// [`avx2_full_width`] for the CPU this runs on (false off x86_64).
fn cpuid_avx2_full_width() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::__cpuid;
        // SAFETY: CPUID exists on every x86_64 CPU; leaves 0 and 1 always do.
        #[allow(unused_unsafe)]
        let (l0, l1) = unsafe { (__cpuid(0), __cpuid(1)) };
        let vendor = vendor_from_regs(l0.ebx, l0.edx, l0.ecx);
        let (family, model) = display_family_model(l1.eax);
        avx2_full_width(&vendor, family, model)
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Display family and model from CPUID leaf 1's EAX: the extended family is added when
/// the base family is 0xF, the extended model prepended when it is 6 or 0xF.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // read through CPUID on x86_64 only
const fn display_family_model(eax: u32) -> (u32, u32) {
    let base_family = (eax >> 8) & 0xf;
    let base_model = (eax >> 4) & 0xf;
    let family = if base_family == 0xf { base_family + ((eax >> 20) & 0xff) } else { base_family };
    let model = if base_family == 6 || base_family == 0xf { base_model | (((eax >> 16) & 0xf) << 4) } else { base_model };
    (family, model)
}

/// A family of arithmetic kernels. Naming one is a request; contexts check it against
/// the CPU ([`Kernel::is_available`]) before running any of its instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// `u128` products; every platform.
    Portable,
    /// x86_64 `mulx`/`adcx`/`adox` (BMI2 and ADX).
    Adx,
    /// x86_64 AVX2 (radix 2^28, four 64-bit lanes per instruction) for batches of
    /// Miller-Rabin rounds and Fermat tests; single products and exponentiations use the
    /// `Adx` kernel (needs AVX2, BMI2 and ADX).
    Avx2,
    /// x86_64 AVX-512 IFMA (radix 2^52, eight 64-bit lanes per instruction) for
    /// exponentiations modulo numbers above 512 bits, batches of Miller-Rabin rounds and Fermat tests, and sieve
    /// residues; single products use the `Adx` kernel (needs AVX-512F, AVX-512DQ,
    /// AVX-512 IFMA, BMI2 and ADX).
    Ifma,
}

impl Kernel {
    /// Every kernel, roughly slowest first (`Avx2` may lose to `Adx`: see [`Kernel::best`]).
    pub const ALL: [Kernel; 4] = [Kernel::Portable, Kernel::Adx, Kernel::Avx2, Kernel::Ifma];

    /// The name `PRIMEKIT_KERNEL` and the benchmarks use.
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Adx => "adx",
            Kernel::Avx2 => "avx2",
            Kernel::Ifma => "ifma",
        }
    }

    /// The kernel called `name` (see [`Kernel::name`]).
    pub fn from_name(name: &str) -> Result<Kernel, ArithError> {
        Kernel::ALL.into_iter().find(|k| k.name() == name).ok_or_else(|| ArithError::UnknownKernel(name.to_string()))
    }

    /// Whether this CPU can run the kernel.
    pub fn is_available(self) -> bool {
        Tokens::detect(self).is_some()
    }

    /// Every kernel usable on this CPU (tests run each), slowest first.
    pub fn available() -> Vec<Kernel> {
        Kernel::ALL.into_iter().filter(|k| k.is_available()).collect()
    }

    /// The default kernel: `Ifma`, else `Avx2` where 256-bit integer multiplies run at
    /// full width, else `Adx`, else `Portable`.
    ///
    /// `Avx2` runs the batched Miller-Rabin rounds and Fermat tests in four lanes and
    /// otherwise the `Adx` kernel, so it only pays where one 256-bit `vpmuludq` costs
    /// about what a 128-bit one does. Measured as `avx2` against `adx` on one machine:
    /// on an AMD EPYC Zen 5, `is_prime` on 1024/2048-bit primes took 0.68x/0.71x the ADX
    /// time and random primes about 0.8x; on an Intel Xeon (Emerald Rapids, the Golden
    /// Cove family of Intel's client P-cores) 0.78-0.96x on primes. AMD Zen 1 and Zen+
    /// (and Hygon's Zen-based family 0x18) split each 256-bit operation into two
    /// 128-bit halves, which roughly halves the lanes' throughput, so they keep `Adx`.
    /// The rule is a fixed table on the CPUID vendor, family and model
    /// (`avx2_full_width`), not a timing, so the default never depends on machine
    /// load or on an emulator. On Intel hybrid CPUs the efficiency cores also split
    /// 256-bit operations; the rule follows the performance cores.
    pub fn best() -> Kernel {
        if Kernel::Ifma.is_available() {
            Kernel::Ifma
        } else if Kernel::Avx2.is_available() && cpuid_avx2_full_width() {
            Kernel::Avx2
        } else if Kernel::Adx.is_available() {
            Kernel::Adx
        } else {
            Kernel::Portable
        }
    }

    /// The kernel contexts use by default: `PRIMEKIT_KERNEL` if set (read once per
    /// process), else [`Kernel::best`]. An unknown name or a kernel this CPU lacks is an
    /// error naming the kernels it has.
    pub fn selected() -> Result<Kernel, ArithError> {
        static SELECTED: OnceLock<Result<Kernel, ArithError>> = OnceLock::new();
        SELECTED.get_or_init(|| Kernel::from_env(std::env::var("PRIMEKIT_KERNEL").ok().as_deref())).clone()
    }

    /// The kernel a `PRIMEKIT_KERNEL` value asks for (`None` or empty: the best).
    pub fn from_env(value: Option<&str>) -> Result<Kernel, ArithError> {
        match value.map(str::trim) {
            None | Some("") => Ok(Kernel::best()),
            Some(name) => {
                let k = Kernel::from_name(name)?;
                if k.is_available() {
                    Ok(k)
                } else {
                    Err(ArithError::KernelUnavailable)
                }
            }
        }
    }

    /// The names of the kernels this CPU runs, for error messages.
    pub fn available_names() -> String {
        Kernel::available().iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
    }
}

impl core::fmt::Display for Kernel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_fail() {
        for k in Kernel::ALL {
            assert_eq!(Kernel::from_name(k.name()), Ok(k));
        }
        assert_eq!(Kernel::from_name("avx9"), Err(ArithError::UnknownKernel("avx9".into())));
        assert_eq!(Kernel::from_env(Some("nonsense")), Err(ArithError::UnknownKernel("nonsense".into())));
        assert_eq!(Kernel::from_env(None), Ok(Kernel::best()));
        assert_eq!(Kernel::from_env(Some("portable")), Ok(Kernel::Portable));
    }

    #[test]
    fn avx2_width_table() {
        // CPUID leaf 1 EAX of real parts: Zen 1 EPYC 7601 (0x00800F12), Zen 2 EPYC 7742
        // (0x00830F10), Zen 3 EPYC 7763 (0x00A00F11), Hygon C86 (0x00900F01), Intel
        // Skylake client (0x000506E3), Emerald Rapids (0x000C06F2).
        let amd = b"AuthenticAMD";
        let intel = b"GenuineIntel";
        let fm = display_family_model;
        assert_eq!(fm(0x0080_0F12), (0x17, 0x01));
        assert_eq!(fm(0x0083_0F10), (0x17, 0x31));
        assert_eq!(fm(0x00A0_0F11), (0x19, 0x01));
        assert_eq!(fm(0x0090_0F01), (0x18, 0x00));
        assert_eq!(fm(0x0005_06E3), (6, 0x5E));
        assert_eq!(fm(0x000C_06F2), (6, 0xCF));
        let (f, m) = fm(0x0080_0F12);
        assert!(!avx2_full_width(amd, f, m), "Zen 1 splits 256-bit operations");
        let (f, m) = fm(0x0083_0F10);
        assert!(avx2_full_width(amd, f, m), "Zen 2");
        let (f, m) = fm(0x00A0_0F11);
        assert!(avx2_full_width(amd, f, m), "Zen 3");
        assert!(!avx2_full_width(b"HygonGenuine", 0x18, 0), "Hygon is Zen 1 based");
        assert!(!avx2_full_width(amd, 0x15, 0x60), "pre-Zen AMD");
        let (f, m) = fm(0x0005_06E3);
        assert!(avx2_full_width(intel, f, m));
        let (f, m) = fm(0x000C_06F2);
        assert!(avx2_full_width(intel, f, m), "Emerald Rapids");
        assert!(!avx2_full_width(intel, 6, 0xBE), "Alder Lake-N: efficiency cores only");
        assert!(!avx2_full_width(intel, 6, 0xAF), "Sierra Forest");
        assert!(!avx2_full_width(intel, 0x13, 0x01), "an unknown Intel family");
        assert!(!avx2_full_width(amd, 0x17, 0x2F) && avx2_full_width(amd, 0x17, 0x30), "the Zen+ / Zen 2 boundary");
        assert!(!avx2_full_width(b"CentaurHauls", 6, 0x0F));
        // Leaf 0 registers of an Intel CPU spell the vendor EBX, EDX, ECX.
        assert_eq!(&vendor_from_regs(0x756e_6547, 0x4965_6e69, 0x6c65_746e), intel);
        assert_eq!(&vendor_from_regs(0x6874_7541, 0x6974_6e65, 0x444d_4163), amd);
    }

    #[test]
    fn default_is_available_and_prefers_ifma() {
        let best = Kernel::best();
        assert!(best.is_available());
        if Kernel::Ifma.is_available() {
            assert_eq!(best, Kernel::Ifma);
        } else if !Kernel::Adx.is_available() {
            assert_eq!(best, Kernel::Portable);
        } else {
            assert!(matches!(best, Kernel::Adx | Kernel::Avx2), "{best}");
        }
    }

    #[test]
    fn tokens_exist_exactly_for_available_kernels() {
        for k in Kernel::ALL {
            assert_eq!(Tokens::detect(k).is_some(), k.is_available(), "{k}");
            if let Some(t) = Tokens::detect(k) {
                assert_eq!(t.kernel(), k);
            } else {
                assert_eq!(Kernel::from_env(Some(k.name())), Err(ArithError::KernelUnavailable));
            }
        }
        assert!(Kernel::available().contains(&Kernel::Portable));
    }
}
