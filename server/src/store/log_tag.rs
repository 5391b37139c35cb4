//! What the logs call a table: a short digest of its id, never the id, since a private
//! table's id is its key and logs travel further than the table's link should. An operator
//! who has an id (from the admin API, which shows each table's tag too) finds its lines.

use std::fmt;

use sha2::{Digest, Sha256};

/// A table's name in the logs: `t-` and the first eight hex digits of its id's SHA-256.
#[derive(Clone, Copy, Debug)]
pub struct LogTag<'a>(&'a str);

/// The tag the logs use for table `id`.
#[must_use]
pub fn log_tag(id: &str) -> LogTag<'_> {
    LogTag(id)
}

impl fmt::Display for LogTag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digest = Sha256::digest(self.0.as_bytes());
        write!(f, "t-")?;
        for byte in &digest[..4] {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_names_the_table_without_its_id() {
        let id = "Zq8kPz3xVbN2";
        let tag = log_tag(id).to_string();
        assert_eq!(tag.len(), 10, "{tag}");
        assert!(tag.starts_with("t-"));
        assert!(!tag.contains(id));
        assert_eq!(tag, log_tag(id).to_string(), "the same id, the same tag");
        assert_ne!(tag, log_tag("Zq8kPz3xVbN3").to_string());
    }
}
