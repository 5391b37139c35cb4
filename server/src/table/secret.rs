//! Where a match's master secret comes from at an ordinary table: the operating system's
//! secure random source, so nobody (not the table's creator, not a client) can predict or
//! choose a deal. Practice tables derive theirs from their creator's seed instead
//! (`parlor_shared::fair::practice_master`), and say so in `table` and `welcome`.

use parlor_shared::fair::Hash32;
use rand::TryRngCore;
use rand::rngs::OsRng;

/// 32 fresh bytes from the OS.
///
/// # Panics
/// When the OS has no random source to give: dealing from anything weaker would be worse
/// than refusing to deal.
#[must_use]
pub fn fresh_master() -> Hash32 {
    let mut bytes = [0u8; 32];
    OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system's random source works");
    Hash32(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_draws_differ() {
        assert_ne!(super::fresh_master(), super::fresh_master());
    }
}
