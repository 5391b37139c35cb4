//! Invitation ids. On a server on its own an id is a bare random UUID (32 hex digits); on a
//! node of a cluster it is `{node}.{uuid}`, naming the node whose directory holds the
//! invitation (the bot's node), so an `accept` or `decline` landing on any node can be sent
//! there.
//!
//! Node ids are free text (a host name may hold dots), so the node is everything before the
//! *last* dot, and only when what follows is exactly a UUID's 32 hex digits: a UUID has no
//! dot, so the split is never ambiguous. Clients treat ids as opaque strings.

/// A new invitation id, carrying `node` when the directory is part of a cluster.
#[must_use]
pub fn new(node: Option<&str>) -> String {
    let uuid = uuid::Uuid::new_v4().simple().to_string();
    match node {
        Some(node) => format!("{node}.{uuid}"),
        None => uuid,
    }
}

/// The node an invitation id names (`None` for a bare id, or one not made by [`new`]).
#[must_use]
pub fn node_of(id: &str) -> Option<&str> {
    let (node, uuid) = id.rsplit_once('.')?;
    let is_uuid = uuid.len() == 32 && uuid.bytes().all(|b| b.is_ascii_hexdigit());
    (is_uuid && !node.is_empty()).then_some(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clustered_id_names_its_node_even_when_the_node_has_dots() {
        let id = new(Some("web-1.example.org-3fa2b1c9"));
        assert_eq!(node_of(&id), Some("web-1.example.org-3fa2b1c9"));
        let id = new(Some("a"));
        assert!(id.starts_with("a."));
        assert_eq!(node_of(&id), Some("a"));
    }

    #[test]
    fn a_bare_id_names_no_node() {
        let id = new(None);
        assert_eq!(id.len(), 32);
        assert_eq!(node_of(&id), None);
        assert_eq!(node_of("node.not-a-uuid"), None);
        assert_eq!(node_of(".0123456789abcdef0123456789abcdef"), None);
        assert_eq!(node_of("x.0123456789abcdef0123456789abcdeg"), None);
    }
}
