//! How seat tokens are kept at rest: only their SHA-256 digest is held and stored, so a copy of
//! the database (a backup, a stolen disk) gives nobody a seat.
//!
//! It owns the upgrade of a database written when tokens were kept in clear (the digest itself
//! is [`crate::digest`]); the table compares digests, never the tokens themselves.

use crate::digest::{DIGEST_HEX_LEN, of_secret};

/// True when `kept` is already a digest, not a token stored in clear (32 hex digits, which never
/// have a digest's length).
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
        of_secret(&stored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_is_told_from_a_clear_token() {
        let token = "0123456789abcdef0123456789abcdef";
        let kept = of_secret(token);
        assert!(is_digest(&kept));
        assert!(!is_digest(token), "a clear token is told apart");
        assert_ne!(kept, token);
    }
}
