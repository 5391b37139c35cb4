//! Where the tables are kept, as `--store` names it: `sqlite:PATH` (a data directory, the
//! same as `--data PATH`) or a Postgres URL (`postgres://user@host:port/db`, parsed by
//! tokio-postgres as libpq does).
//!
//! Parsing only; opening the store is each backend's job.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::StoreError;

/// A store's location.
#[derive(Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// The embedded SQLite file in this data directory.
    Sqlite(PathBuf),
    /// A Postgres database, by its connection URL.
    Postgres(String),
}

impl StoreLocation {
    /// The location `store` names, else the data directory `data`.
    pub fn resolve(store: Option<&str>, data: &Path) -> Result<StoreLocation, StoreError> {
        match store {
            Some(store) if !store.trim().is_empty() => store.parse(),
            _ => Ok(StoreLocation::Sqlite(data.to_path_buf())),
        }
    }

    /// The URL without its password, for logs and messages.
    #[must_use]
    pub fn redacted(&self) -> String {
        match self {
            StoreLocation::Sqlite(dir) => format!("sqlite:{}", dir.display()),
            StoreLocation::Postgres(url) => redact(url),
        }
    }
}

impl FromStr for StoreLocation {
    type Err = StoreError;

    fn from_str(store: &str) -> Result<StoreLocation, StoreError> {
        let store = store.trim();
        if let Some(path) = store.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() {
                return Err(StoreError::Location(
                    "`sqlite:` needs a data directory: `sqlite:./data`".into(),
                ));
            }
            return Ok(StoreLocation::Sqlite(PathBuf::from(path)));
        }
        if store.starts_with("postgres://") || store.starts_with("postgresql://") {
            super::postgres::Target::parse(store)
                .map_err(|err| StoreError::Location(format!("{}: {err}", redact(store))))?;
            return Ok(StoreLocation::Postgres(store.to_string()));
        }
        Err(StoreError::Location(format!(
            "unknown store `{}`: give `sqlite:DIR` or `postgres://user@host:port/database`",
            redact(store)
        )))
    }
}

impl fmt::Debug for StoreLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

/// `store` as it may be shown: the password of `scheme://user:secret@host` and the value of
/// every `password=` (a URL's query, libpq's `key=value` form) replaced by `***`.
#[must_use]
pub fn redact(store: &str) -> String {
    let shown = match store.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
            match authority.rsplit_once('@') {
                Some((user, host)) if user.contains(':') => {
                    let name = user.split(':').next().unwrap_or_default();
                    format!("{scheme}://{name}:***@{host}{tail}")
                }
                _ => store.to_string(),
            }
        }
        None => store.to_string(),
    };
    redact_password_values(&shown)
}

/// `text` with the value after each `password=` (any case) replaced by `***`: up to the next
/// `&` or white space, or the closing quote of a quoted value.
fn redact_password_values(text: &str) -> String {
    const KEY: &str = "password=";
    let lower = text.to_ascii_lowercase();
    let mut shown = String::with_capacity(text.len());
    let mut rest = 0;
    let mut from = 0;
    while let Some(at) = lower[from..].find(KEY) {
        let value = from + at + KEY.len();
        // Only a whole key: `password=`, not `old_password=`.
        let whole = lower[..from + at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        let end = match text[value..].chars().next() {
            Some(quote @ ('\'' | '"')) => text[value + 1..]
                .find(quote)
                .map_or(text.len(), |close| value + 1 + close + 1),
            _ => text[value..]
                .find(|c: char| c == '&' || c.is_whitespace())
                .map_or(text.len(), |end| value + end),
        };
        if whole && end > value {
            shown.push_str(&text[rest..value]);
            shown.push_str("***");
            rest = end;
        }
        from = end.max(value);
    }
    shown.push_str(&text[rest..]);
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_and_postgres_locations_parse_and_others_are_refused() {
        assert_eq!(
            "sqlite:/var/parlor".parse::<StoreLocation>().unwrap(),
            StoreLocation::Sqlite(PathBuf::from("/var/parlor"))
        );
        let url = "postgres://parlor@127.0.0.1:5432/parlor";
        assert_eq!(
            url.parse::<StoreLocation>().unwrap(),
            StoreLocation::Postgres(url.into())
        );
        assert!("mysql://x@y/z".parse::<StoreLocation>().is_err());
        assert!("sqlite:".parse::<StoreLocation>().is_err());
        assert!(
            "postgres://u@h:notaport/db"
                .parse::<StoreLocation>()
                .is_err()
        );
        assert_eq!(
            StoreLocation::resolve(None, Path::new("d")).unwrap(),
            StoreLocation::Sqlite(PathBuf::from("d"))
        );
    }

    #[test]
    fn passwords_never_reach_the_log() {
        let loc: StoreLocation = "postgres://ann:hunter2@db:5432/parlor".parse().unwrap();
        let shown = format!("{loc:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert_eq!(shown, "postgres://ann:***@db:5432/parlor");
    }

    #[test]
    fn every_password_is_redacted_and_nothing_else() {
        for (store, shown) in [
            ("postgres://ann@db/parlor", "postgres://ann@db/parlor"),
            (
                "postgres://ann:p%40ss@db:5432/parlor?sslmode=disable",
                "postgres://ann:***@db:5432/parlor?sslmode=disable",
            ),
            (
                "postgresql://ann@db/parlor?password=hunter2&application_name=x",
                "postgresql://ann@db/parlor?password=***&application_name=x",
            ),
            (
                "postgres://ann:a@db/parlor?PASSWORD=b",
                "postgres://ann:***@db/parlor?PASSWORD=***",
            ),
            (
                "host=db user=ann password='two words' dbname=parlor",
                "host=db user=ann password=*** dbname=parlor",
            ),
            ("host=db password=hunter2", "host=db password=***"),
            ("host=db old_password=x", "host=db old_password=x"),
            ("host=db password=", "host=db password="),
            ("sqlite:/srv/parlor", "sqlite:/srv/parlor"),
        ] {
            assert_eq!(redact(store), shown, "{store}");
        }
    }
}
