//! Registered bot accounts: what an account is, which names and owners are acceptable, and
//! the bot token, which the store keeps only as its SHA-256 hash.
//!
//! An operator registers a bot (`parlor bots add` or the admin API) and is shown its token
//! once; the bot proves who it is with that token (`available`). Revoking keeps the row (the
//! name stays taken, so a rating can never pass to someone else) and stops the token working.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

/// The longest bot name, in characters.
pub const MAX_BOT_NAME_CHARS: usize = 32;

/// The longest owner, in characters.
pub const MAX_OWNER_CHARS: usize = 64;

/// A registered bot as listed (never its token or hash).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotAccount {
    /// Its unique name (compared without regard to case).
    pub name: String,
    /// Who runs it.
    pub owner: String,
    /// When it was registered, Unix milliseconds.
    pub created: i64,
    /// When it was revoked, Unix milliseconds; `None` while its token works.
    pub revoked: Option<i64>,
}

/// A bot about to be registered: its name, owner and the hash of its new token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBot {
    /// The checked name.
    pub name: String,
    /// The checked owner.
    pub owner: String,
    /// [`hash_token`] of the token shown to the operator.
    pub token_hash: String,
}

/// Why a name or owner is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NameError {
    /// Empty, too long, or with characters other than letters, digits, `-`, `_` and spaces.
    #[error(
        "a bot name has 1 to {MAX_BOT_NAME_CHARS} characters: letters, digits, `-`, `_` and \
         single spaces inside"
    )]
    BadName,
    /// It would read as one of the server's own bots.
    #[error("`{0}` is the name of a built-in bot strategy: choose another name")]
    Builtin(String),
    /// Empty, too long or with control characters.
    #[error("the owner has 1 to {MAX_OWNER_CHARS} characters, without control characters")]
    BadOwner,
}

/// The name as it is stored, or why not: 1 to 32 letters, digits, `-`, `_` or single inner
/// spaces, and not a built-in strategy's name (nor "NAME bot", how built-in seats are shown).
pub fn check_name(name: &str) -> Result<String, NameError> {
    let name = name.trim();
    let chars = name.chars().count();
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | ' ');
    if chars == 0 || chars > MAX_BOT_NAME_CHARS || !name.chars().all(allowed) || name.contains("  ")
    {
        return Err(NameError::BadName);
    }
    let lower = name.to_lowercase();
    let bare = lower
        .strip_suffix("bot")
        .map_or(lower.as_str(), |s| s.trim_end_matches([' ', '-', '_']));
    let builtin = parlor_shared::Variant::ALL
        .iter()
        .flat_map(|&v| parlor_shared::bots::strategy_names(v))
        .any(|s| s == lower || s == bare);
    if builtin {
        return Err(NameError::Builtin(name.to_string()));
    }
    Ok(name.to_string())
}

/// The owner as it is stored, or why not.
pub fn check_owner(owner: &str) -> Result<String, NameError> {
    let owner = owner.trim();
    let chars = owner.chars().count();
    if chars == 0 || chars > MAX_OWNER_CHARS || owner.chars().any(char::is_control) {
        return Err(NameError::BadOwner);
    }
    Ok(owner.to_string())
}

/// A bot ready to register, and its token to show the operator once: the name and owner
/// checked, the token made and hashed.
pub fn prepare(name: &str, owner: &str) -> Result<(NewBot, String), NameError> {
    let name = check_name(name)?;
    let owner = check_owner(owner)?;
    let token = new_token();
    let bot = NewBot {
        name,
        owner,
        token_hash: hash_token(&token),
    };
    Ok((bot, token))
}

/// A fresh bot token: `pbt_` and 64 hex digits (two UUID v4s, 244 random bits from the
/// operating system).
#[must_use]
pub fn new_token() -> String {
    format!(
        "pbt_{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// The hex SHA-256 of a token: all the store keeps of it.
#[must_use]
pub fn hash_token(token: &str) -> String {
    format!("{:x}", Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name("  Deep Queen-2_x ").unwrap(), "Deep Queen-2_x");
        assert_eq!(check_name(""), Err(NameError::BadName));
        assert_eq!(check_name(&"x".repeat(33)), Err(NameError::BadName));
        assert_eq!(check_name("a<b"), Err(NameError::BadName));
        assert_eq!(check_name("a  b"), Err(NameError::BadName));
        assert!(matches!(
            check_name("Heuristic"),
            Err(NameError::Builtin(_))
        ));
        assert!(matches!(
            check_name("random bot"),
            Err(NameError::Builtin(_))
        ));
        assert!(matches!(
            check_name("strong-bot"),
            Err(NameError::Builtin(_))
        ));
        assert!(check_name("strongest").is_ok());
    }

    #[test]
    fn owners_are_checked() {
        assert_eq!(check_owner(" ann ").unwrap(), "ann");
        assert_eq!(check_owner(""), Err(NameError::BadOwner));
        assert_eq!(check_owner("a\nb"), Err(NameError::BadOwner));
    }

    #[test]
    fn tokens_are_long_and_hashes_are_hex_sha256() {
        let token = new_token();
        assert_eq!(token.len(), 68);
        assert_ne!(token, new_token());
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
