//! How seat tokens are kept at rest: only their SHA-256 digest is held and stored, so a copy of
//! the database (a backup, a stolen disk) gives nobody a seat.
//!
//! It owns the digest's form and the upgrade of a database written when tokens were kept in
//! clear; the table compares digests, never the tokens themselves.

use sha2::{Digest, Sha256};

/// Length of a digest as kept: 64 lowercase hex digits. A clear token (32 hex digits, as
/// versions before this one stored them) never has this length.
pub const DIGEST_HEX_LEN: usize = 64;

/// The digest of a seat token, as the table keeps it and the store writes it.
#[must_use]
pub fn digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// True when `kept` is already a digest (not a token stored in clear by an older version).
#[must_use]
pub fn is_digest(kept: &str) -> bool {
    kept.len() == DIGEST_HEX_LEN && kept.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A seat token as read back from the database, as the table keeps it: a digest stays as it
/// is, a token an older version stored in clear is hashed.
#[must_use]
pub fn as_kept(stored: String) -> String {
    if is_digest(&stored) {
        stored
    } else {
        digest(&stored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_is_sha256_in_hex_and_never_the_token() {
        let token = "0123456789abcdef0123456789abcdef";
        let kept = digest(token);
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(is_digest(&kept));
        assert!(!is_digest(token), "a clear token is told apart");
        assert_ne!(kept, token);
    }
}
