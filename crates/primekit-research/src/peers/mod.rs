//! Peer implementations measured beside primekit in the same process: OpenSSL 3
//! (libcrypto), GMP and Nettle (libhogweed), linked from the system only under the `compare` feature.
//!
//! Each wrapper owns its foreign object and frees it on drop; conversions go through
//! big-endian bytes so every engine sees exactly the same numbers.

pub mod gmp;
pub mod nettle;
pub mod openssl;
pub mod openssl_mr;
pub mod openssl_rsa;
