//! Turning untrusted file bytes into one DER document: size cap, PEM block selection,
//! base64 decoding (by `pem-rfc7468`), and the errors for all of it.

use crate::primality::MAX_INPUT_BITS;
use crate::Error;
use der::asn1::UintRef;
use num_bigint::BigUint;

/// Largest file accepted, in bytes (1 MiB). A 32,768-bit DH group (the largest number
/// the primality test accepts) is about 6 KiB of PEM, so real files are far below
/// this; the cap makes a huge or garbage file fail before any parsing work.
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// Why a file could not be audited (as opposed to a property that failed).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputError {
    /// The input is larger than [`MAX_INPUT_BYTES`] (`bytes` is how much was seen, a
    /// lower bound when the caller stopped reading at the cap).
    TooLarge {
        /// Bytes seen (a lower bound when reading stopped at the cap).
        bytes: u64,
        /// The cap, [`MAX_INPUT_BYTES`].
        max: u64,
    },
    /// No PEM block at all (binary file, DER, or text without `-----BEGIN`).
    NotPem(String),
    /// PEM blocks were found, but none with a label this check reads.
    WrongLabel {
        /// The labels of the PEM blocks in the input.
        found: Vec<String>,
        /// The labels this check reads.
        expected: Vec<&'static str>,
    },
    /// The PEM block is damaged (truncated, bad base64, headers, ...).
    Pem(String),
    /// The base64 decoded but the ASN.1 (DER) structure is wrong.
    Der(String),
    /// A well-formed file of a kind this tool does not audit (encrypted, non-RSA, ...).
    Unsupported(String),
    /// A number is wider than the audit's size cap ([`super::Limits`]): refused before
    /// any arithmetic on it.
    OverLimit {
        /// Which number (`"p"`, `"n"`, ...).
        what: &'static str,
        /// Its size in bits.
        bits: u64,
        /// The cap, in bits.
        max: u64,
    },
    /// A number is out of the primality test's range, or the OS RNG failed.
    Prime(Error),
}

impl core::fmt::Display for InputError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            InputError::TooLarge { bytes, max } => {
                write!(f, "input is at least {bytes} bytes; the maximum accepted is {max} bytes")
            }
            InputError::NotPem(m) => write!(f, "not a PEM file: {m}"),
            InputError::WrongLabel { found, expected } => write!(
                f,
                "wrong PEM label: found {}; expected {}",
                found.iter().map(|l| format!("\"{l}\"")).collect::<Vec<_>>().join(", "),
                expected.iter().map(|l| format!("\"{l}\"")).collect::<Vec<_>>().join(" or ")
            ),
            InputError::Pem(m) => write!(f, "malformed PEM: {m}"),
            InputError::Der(m) => write!(f, "malformed DER: {m}"),
            InputError::Unsupported(m) => write!(f, "unsupported: {m}"),
            InputError::OverLimit { what, bits, max } => write!(
                f,
                "{what} has {bits} bits, above this audit's cap of {max} bits (refused unchecked: \
                 the cost of testing grows with the cube of the size)"
            ),
            InputError::Prime(e) => write!(f, "{e}"),
        }
    }
}

impl InputError {
    /// Stable machine-readable name of the error kind (the JSON `error_kind` key).
    pub fn kind(&self) -> &'static str {
        match self {
            InputError::TooLarge { .. } => "too_large",
            InputError::NotPem(_) => "not_pem",
            InputError::WrongLabel { .. } => "wrong_label",
            InputError::Pem(_) => "pem",
            InputError::Der(_) => "der",
            InputError::Unsupported(_) => "unsupported",
            InputError::OverLimit { .. } => "over_limit",
            InputError::Prime(_) => "limit",
        }
    }
}

impl std::error::Error for InputError {}

impl From<Error> for InputError {
    fn from(e: Error) -> Self {
        InputError::Prime(e)
    }
}

impl From<der::Error> for InputError {
    fn from(e: der::Error) -> Self {
        InputError::Der(e.to_string())
    }
}

/// One `-----BEGIN L-----` ... `-----END L-----` block located in the text.
struct Block<'a> {
    label: &'a str,
    text: &'a str,
}

/// Finds every PEM block (explanatory text around them, as `openssl ... -text` writes,
/// is allowed). A BEGIN without its END yields a block running to the end of input,
/// so that a truncated file is reported as damaged, not as "no PEM".
fn find_blocks(text: &str) -> Vec<Block<'_>> {
    const BEGIN: &str = "-----BEGIN ";
    let mut blocks = Vec::new();
    let mut rest = 0;
    while let Some(off) = text[rest..].find(BEGIN) {
        let start = rest + off;
        let after = start + BEGIN.len();
        let Some(label_len) = text[after..].find("-----") else {
            break;
        };
        let label = &text[after..after + label_len];
        let end_marker = format!("-----END {label}-----");
        let end = match text[after..].find(&end_marker) {
            Some(e) => after + e + end_marker.len(),
            None => text.len(),
        };
        blocks.push(Block { label, text: &text[start..end] });
        rest = end;
    }
    blocks
}

/// Returns the label and DER bytes of the first block whose label is in `expected`.
///
/// Encrypted material is recognised and refused with [`InputError::Unsupported`]: a
/// PKCS#8 `ENCRYPTED PRIVATE KEY` block, or a legacy block with `Proc-Type: 4,ENCRYPTED`.
pub(crate) fn decode_pem(bytes: &[u8], expected: &[&'static str]) -> Result<(&'static str, Vec<u8>), InputError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(InputError::TooLarge { bytes: bytes.len() as u64, max: MAX_INPUT_BYTES as u64 });
    }
    let text =
        std::str::from_utf8(bytes).map_err(|_| InputError::NotPem("the file is not text (binary DER input is not supported)".into()))?;
    let blocks = find_blocks(text);
    if blocks.is_empty() {
        return Err(InputError::NotPem("no \"-----BEGIN ...-----\" line found".into()));
    }
    let Some((label, block)) = blocks.iter().find_map(|b| expected.iter().find(|&&e| e == b.label).map(|&e| (e, b))) else {
        if blocks.iter().any(|b| b.label == "ENCRYPTED PRIVATE KEY") {
            return Err(InputError::Unsupported(
                "encrypted keys are unsupported (ENCRYPTED PRIVATE KEY); decrypt a copy first, \
                 e.g. `openssl pkey -in KEY -out PLAIN`"
                    .into(),
            ));
        }
        return Err(InputError::WrongLabel { found: blocks.iter().map(|b| b.label.to_string()).collect(), expected: expected.to_vec() });
    };
    if block.text.contains("Proc-Type: 4,ENCRYPTED") {
        return Err(InputError::Unsupported(format!(
            "encrypted keys are unsupported ({label} with Proc-Type: 4,ENCRYPTED); decrypt a copy first"
        )));
    }
    let (_, der) = pem_rfc7468::decode_vec(block.text.as_bytes()).map_err(|e| {
        let hint = if block.text.contains(&format!("-----END {label}-----")) { "" } else { " (no END line: truncated?)" };
        InputError::Pem(format!("{label} block: {e}{hint}"))
    })?;
    Ok((label, der))
}

/// The value of a DER unsigned integer, refused when larger than the primality test
/// accepts ([`MAX_INPUT_BITS`]), so no later step works on an unbounded number.
pub(crate) fn uint_value(u: &UintRef<'_>) -> Result<BigUint, InputError> {
    let v = BigUint::from_bytes_be(u.as_bytes());
    if v.bits() > MAX_INPUT_BITS {
        return Err(InputError::Prime(Error::InputTooLarge { bits: v.bits(), max: MAX_INPUT_BITS }));
    }
    Ok(v)
}
