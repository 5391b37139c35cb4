//! Registered bot accounts: what an account is, which names and owners are acceptable, and
//! the bot token, which the store keeps only as its digest ([`crate::digest`]).
//!
//! An operator registers a bot (`parlor bots add` or the admin API) and is shown its token
//! once; the bot proves who it is with that token (`available`). Revoking keeps the row (the
//! name stays taken, so a rating can never pass to someone else) and stops the token working.
//!
//! Names are unique by their skeleton ([`crate::skeleton`]): a name that looks like a
//! registered one (`åsa` beside `Åsa`, fullwidth `Ｄeep Queen` beside `Deep Queen`) is
//! refused, so no bot can pass for another or be invited in its place.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::digest::of_secret;
use crate::skeleton::skeleton;

/// The longest bot name, in characters.
pub const MAX_BOT_NAME_CHARS: usize = 32;

/// The longest owner, in characters.
pub const MAX_OWNER_CHARS: usize = 64;

/// A registered bot as listed (never its token or hash).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotAccount {
    /// Its unique name (compared by what it looks like: [`crate::skeleton`]).
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
    /// The name's [`skeleton`], unique among the accounts.
    pub skeleton: String,
    /// The checked owner.
    pub owner: String,
    /// The digest of the token shown to the operator.
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

/// A name refused because a registered bot's name looks the same.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a bot named `{registered}` is already registered{}", self.look_alike())]
pub struct NameTaken {
    /// The name asked for.
    pub name: String,
    /// The registered name it clashes with.
    pub registered: String,
}

impl NameTaken {
    /// The clash of `name`, just refused by the store, with the first of `accounts` that
    /// looks the same (`name` itself if none does, which accounts, never deleted, rule out).
    #[must_use]
    pub fn among(accounts: &[BotAccount], name: &str) -> NameTaken {
        let key = skeleton(name);
        let registered = accounts.iter().find(|a| skeleton(&a.name) == key);
        NameTaken {
            name: name.to_string(),
            registered: registered.map_or(name, |a| &a.name).to_string(),
        }
    }

    /// Says that the names differ but look the same, when they do.
    fn look_alike(&self) -> String {
        if self.name.to_lowercase() == self.registered.to_lowercase() {
            String::new()
        } else {
            format!(", and `{}` looks the same", self.name)
        }
    }
}

/// An account's name and the skeleton stored beside it, as the store's upkeep reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredName {
    /// The registered name.
    pub name: String,
    /// The skeleton stored for it; `None` before it was first computed, or while another
    /// account holds it.
    pub skeleton: Option<String>,
    /// When it was registered, Unix milliseconds.
    pub created: i64,
    /// True once revoked.
    pub revoked: bool,
}

/// The skeleton each account should hold, in the order of `accounts`, and the clashes: each
/// name's own skeleton, unless an account that comes first holds it (an active one before a
/// revoked one, then the first registered). Only accounts registered before names were
/// compared by skeleton can clash; the one left without cannot come online.
#[must_use]
pub fn skeletons(accounts: &[StoredName]) -> (Vec<Option<String>>, Vec<NameTaken>) {
    let mut order: Vec<usize> = (0..accounts.len()).collect();
    order.sort_by_key(|&i| {
        let a = &accounts[i];
        (a.revoked, a.created, a.name.clone())
    });
    let mut holders: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    let mut wanted = vec![None; accounts.len()];
    let mut clashes = Vec::new();
    for i in order {
        let name = &accounts[i].name;
        let key = skeleton(name);
        if let Some(holder) = holders.get(&key) {
            clashes.push(NameTaken {
                name: name.clone(),
                registered: (*holder).to_string(),
            });
        } else {
            holders.insert(key.clone(), name);
            wanted[i] = Some(key);
        }
    }
    (wanted, clashes)
}

/// Logs the accounts left without their skeleton (see [`skeletons`]).
pub fn warn_clashes(clashes: &[NameTaken]) {
    for clash in clashes {
        tracing::warn!(
            bot = %clash.name,
            like = %clash.registered,
            "two bot accounts registered by an older version have names that look the same: \
             `{}` cannot come online while `{}` is registered and active (revoke one; a revoked \
             account yields its name's look at the next start)",
            clash.name,
            clash.registered,
        );
    }
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
    // Compared by skeleton, so `Ｈeuristic` is refused too.
    let key = skeleton(name);
    let bare = key
        .strip_suffix(skeleton("bot").as_str())
        .map_or(key.as_str(), |s| s.trim_end_matches([' ', '-', '_']));
    let builtin = parlor_shared::Variant::ALL
        .iter()
        .flat_map(|&v| parlor_shared::bots::strategy_names(v))
        .any(|s| {
            let s = skeleton(s);
            s == key || s == bare
        });
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
        skeleton: skeleton(&name),
        name,
        owner,
        token_hash: of_secret(&token),
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
        assert!(matches!(
            check_name("\u{FF28}euristic"),
            Err(NameError::Builtin(_))
        ));
        assert!(matches!(
            check_name("r\u{430}ndom b\u{3BF}t"),
            Err(NameError::Builtin(_))
        ));
    }

    #[test]
    fn a_clash_names_the_registered_bot() {
        let account = |name: &str| BotAccount {
            name: name.into(),
            owner: "ann".into(),
            created: 0,
            revoked: None,
        };
        let accounts = [account("Deep Queen"), account("\u{C5}sa")];
        let taken = NameTaken::among(&accounts, "\u{E5}sa");
        assert_eq!(taken.registered, "\u{C5}sa");
        // Only the case differs: the same name.
        assert_eq!(
            taken.to_string(),
            "a bot named `\u{C5}sa` is already registered"
        );
        let taken = NameTaken::among(&accounts, "\u{FF24}eep Queen");
        assert_eq!(
            taken.to_string(),
            "a bot named `Deep Queen` is already registered, and `\u{FF24}eep Queen` looks the same"
        );
        assert_eq!(
            NameTaken::among(&accounts, "Deep King").registered,
            "Deep King"
        );
        assert_eq!(
            prepare("\u{C5}sa", "ann").unwrap().0.skeleton,
            skeleton("\u{E5}sa")
        );
    }

    #[test]
    fn accounts_that_clash_from_before_keep_one_skeleton() {
        let stored = |name: &str, created, revoked| StoredName {
            name: name.into(),
            skeleton: None,
            created,
            revoked,
        };
        // `åsa` came first but is revoked: the active `Åsa` keeps the skeleton.
        let accounts = [
            stored("Deep", 1, false),
            stored("\u{E5}sa", 2, true),
            stored("\u{C5}sa", 3, false),
            stored("\u{FF24}eep", 4, false),
        ];
        let (wanted, clashes) = skeletons(&accounts);
        assert_eq!(
            wanted,
            [
                Some(skeleton("Deep")),
                None,
                Some(skeleton("\u{C5}sa")),
                None
            ]
        );
        let clashes: Vec<(&str, &str)> = clashes
            .iter()
            .map(|c| (c.name.as_str(), c.registered.as_str()))
            .collect();
        assert_eq!(clashes, [("\u{FF24}eep", "Deep"), ("\u{E5}sa", "\u{C5}sa")]);
    }

    #[test]
    fn owners_are_checked() {
        assert_eq!(check_owner(" ann ").unwrap(), "ann");
        assert_eq!(check_owner(""), Err(NameError::BadOwner));
        assert_eq!(check_owner("a\nb"), Err(NameError::BadOwner));
    }

    #[test]
    fn tokens_are_long_and_fresh() {
        let token = new_token();
        assert_eq!(token.len(), 68);
        assert_ne!(token, new_token());
    }
}
