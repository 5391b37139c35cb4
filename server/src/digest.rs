//! The one-way digest of a secret a client holds (a seat token, a bot token): the server
//! keeps, stores and compares only this, so a copy of the database gives nobody a seat or a
//! bot. It sits below every other module so that the connection, the table and the store
//! hash a token the same way without reaching into one another.

use sha2::{Digest, Sha256};

/// Length of a digest: 64 lowercase hex digits.
pub const DIGEST_HEX_LEN: usize = 64;

/// The lowercase hex SHA-256 of `secret`.
#[must_use]
pub fn of_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_is_sha256_in_lowercase_hex() {
        assert_eq!(
            of_secret("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(of_secret("pbt_x").len(), DIGEST_HEX_LEN);
    }
}
