//! The host key: the secret `POST /api/tables` hands whoever set a table up, so a program (or
//! its creator on another device) can act as the table's host without holding a seat.
//!
//! It owns making and checking keys; the table keeps only the SHA-256 hash (hex), so a copy of
//! the database never gives the host role away.

use sha2::{Digest, Sha256};

/// A fresh host key (122 random bits, like seat tokens) and the hash the table keeps.
#[must_use]
pub fn new_host_key() -> (String, String) {
    let key = super::seats::new_token();
    let hash = hash_key(&key);
    (key, hash)
}

/// The SHA-256 of a key, as 64 lowercase hex digits.
#[must_use]
pub fn hash_key(key: &str) -> String {
    Sha256::digest(key.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// True when `key` is the key whose hash is `hash`. Hashes are compared whole, so the time
/// taken tells nothing about the key.
#[must_use]
pub fn key_matches(key: &str, hash: &str) -> bool {
    let given = hash_key(key);
    given.len() == hash.len()
        && given
            .bytes()
            .zip(hash.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_key_matches_its_hash() {
        let (key, hash) = new_host_key();
        assert_eq!(hash.len(), 64);
        assert_ne!(key, hash, "the key itself is never kept");
        assert!(key_matches(&key, &hash));
        assert!(!key_matches("guess", &hash));
        assert!(!key_matches(&key, ""));
        assert_eq!(
            hash_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
