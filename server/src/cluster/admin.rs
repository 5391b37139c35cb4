//! Asking every other live node the same question on an operator's behalf: the admin API's
//! table list is each node's own (`GET /api/admin/tables?local=1`), put together by the node
//! asked.
//!
//! The operator's `Authorization` header goes with each request, so every node checks the
//! admin key itself (the nodes share it, as they share the cluster secret). Nodes are asked
//! at once; one that does not answer within `peers::PEER_TIMEOUT` (frozen, overloaded, or with
//! another key) is named among those that did not answer rather than holding the answer up.

use serde::de::DeserializeOwned;

use super::Cluster;

/// One other live node's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeAnswer<T> {
    /// The node's id.
    pub node: String,
    /// What it answered; `None` when it did not answer in time, refused or answered
    /// something unreadable.
    pub answer: Option<T>,
}

impl Cluster {
    /// Asks every other live node for `path` with `?local=1` (its own part only), passing
    /// `authorization` on; one answer per node, in node id order.
    pub async fn ask_others<T>(&self, path: &str, authorization: Option<&str>) -> Vec<NodeAnswer<T>>
    where
        T: DeserializeOwned + Send + 'static,
    {
        let nodes = self.nodes().await;
        let asks = nodes
            .into_iter()
            .filter(|n| n.live && n.id != self.node())
            .map(|n| {
                let url = format!("{}{path}?local=1", n.address.trim_end_matches('/'));
                let headers = authorization
                    .map(|value| vec![("authorization", value.to_string())])
                    .unwrap_or_default();
                async move {
                    let answer = super::peers::get_json(url, headers).await;
                    if answer.is_none() {
                        tracing::warn!(node = %n.id, "a node did not answer an admin request in time: its part is left out");
                    }
                    NodeAnswer {
                        node: n.id,
                        answer,
                    }
                }
            });
        futures_util::future::join_all(asks).await
    }
}
