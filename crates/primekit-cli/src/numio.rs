//! Reading numbers from the command line and from streams.
//!
//! Accepted: decimal digits, or `0x`/`0X` followed by hex digits; surrounding
//! whitespace is ignored. Rejected with a reason: empty input, a sign, any other
//! character, and numbers above [`MAX_INPUT_BITS`] (checked from the text length
//! before any big-number work, so an oversized line fails at once).

use num_bigint::BigUint;
use primekit::MAX_INPUT_BITS;
use std::io::BufRead;

/// Longest line (bytes) kept from a stream: enough for any number within the cap
/// (9,865 decimal digits for 32,768 bits) plus whitespace. Longer lines are drained
/// without being stored and reported as too large.
pub const MAX_LINE_BYTES: usize = 20_480;

/// Why a piece of text is not a number we accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    Empty,
    Sign,
    BadDigit(char),
    TooLarge,
    NotUtf8,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty input"),
            ParseError::Sign => write!(f, "signs are not accepted (numbers must be non-negative, without '+' or '-')"),
            ParseError::BadDigit(c) => write!(f, "unexpected character {c:?} (expected decimal digits or 0x-prefixed hex)"),
            ParseError::TooLarge => write!(f, "number exceeds the {MAX_INPUT_BITS}-bit input cap"),
            ParseError::NotUtf8 => write!(f, "line is not valid UTF-8 text"),
        }
    }
}

/// Parses one number (see module docs).
pub fn parse_number(text: &str) -> Result<BigUint, ParseError> {
    let s = text.trim();
    if s.is_empty() {
        return Err(ParseError::Empty);
    }
    if s.starts_with('-') || s.starts_with('+') {
        return Err(ParseError::Sign);
    }
    let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => (h, 16u32),
        None => (s, 10u32),
    };
    if digits.is_empty() {
        return Err(ParseError::Empty);
    }
    if let Some(c) = digits.chars().find(|c| !c.is_digit(radix)) {
        return Err(ParseError::BadDigit(c));
    }
    let significant = digits.trim_start_matches('0');
    // Upper bound on the bit length from the digit count: hex 4 bits per digit, decimal
    // log2(10) < 3.3220 bits per digit; a number with more digits than that cannot fit.
    let max_digits = match radix {
        16 => (MAX_INPUT_BITS / 4) as usize,
        _ => (MAX_INPUT_BITS as f64 / std::f64::consts::LOG2_10).ceil() as usize,
    };
    if significant.len() > max_digits {
        return Err(ParseError::TooLarge);
    }
    let n = BigUint::parse_bytes(digits.as_bytes(), radix).ok_or(ParseError::BadDigit('?'))?;
    if n.bits() > MAX_INPUT_BITS {
        return Err(ParseError::TooLarge);
    }
    Ok(n)
}

/// One line from a stream, or the fact that it was too long to keep.
pub enum Line {
    Text(String),
    TooLong,
    NotUtf8,
}

/// Reads the next line (without its terminator), storing at most [`MAX_LINE_BYTES`];
/// `Ok(None)` at end of input. Memory stays bounded whatever the input.
pub fn read_line_capped(r: &mut impl BufRead) -> std::io::Result<Option<Line>> {
    let mut buf = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            if buf.len() + take > MAX_LINE_BYTES {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        r.consume(if done { take + 1 } else { take });
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(match String::from_utf8(buf) {
        Ok(s) => Line::Text(s),
        Err(_) => Line::NotUtf8,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(parse_number(" 17 \t").unwrap(), BigUint::from(17u8));
        assert_eq!(parse_number("0x1F").unwrap(), BigUint::from(31u8));
        assert_eq!(parse_number("0X00ff").unwrap(), BigUint::from(255u8));
        assert_eq!(parse_number("000").unwrap(), BigUint::from(0u8));
        assert_eq!(parse_number(""), Err(ParseError::Empty));
        assert_eq!(parse_number("  "), Err(ParseError::Empty));
        assert_eq!(parse_number("0x"), Err(ParseError::Empty));
        assert_eq!(parse_number("-7"), Err(ParseError::Sign));
        assert_eq!(parse_number("+7"), Err(ParseError::Sign));
        assert_eq!(parse_number("12a"), Err(ParseError::BadDigit('a')));
        assert_eq!(parse_number("0xfg"), Err(ParseError::BadDigit('g')));
        assert_eq!(parse_number("1 2"), Err(ParseError::BadDigit(' ')));
        assert_eq!(parse_number(&"9".repeat(100_000)), Err(ParseError::TooLarge));
        assert_eq!(parse_number(&format!("0x1{}", "0".repeat(8192))), Err(ParseError::TooLarge));
        assert!(parse_number(&format!("0x{}", "f".repeat(8192))).is_ok()); // exactly 32768 bits
        assert!(parse_number(&format!("{}1", "0".repeat(50_000))).is_ok()); // leading zeros
    }

    #[test]
    fn capped_lines() {
        let long = "7".repeat(MAX_LINE_BYTES + 10);
        let input = format!("13\r\n{long}\n\n0x11");
        let mut r = std::io::BufReader::with_capacity(64, input.as_bytes());
        assert!(matches!(read_line_capped(&mut r).unwrap(), Some(Line::Text(s)) if s == "13"));
        assert!(matches!(read_line_capped(&mut r).unwrap(), Some(Line::TooLong)));
        assert!(matches!(read_line_capped(&mut r).unwrap(), Some(Line::Text(s)) if s.is_empty()));
        assert!(matches!(read_line_capped(&mut r).unwrap(), Some(Line::Text(s)) if s == "0x11"));
        assert!(read_line_capped(&mut r).unwrap().is_none());
    }
}
