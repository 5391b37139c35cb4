//! Asking the other nodes: the lobby of the whole cluster is every live node's own listing
//! (`GET /api/tables?local=1`), and a table owned elsewhere is described by its owner.
//!
//! A table's description (seats, names, status) lives in its owner's memory, not in the
//! database, so asking the owner is the one way to have it exact. A node that does not
//! answer within a second is left out of the listing (its tables are adopted and listed
//! again once its leases run out). A request changing a table owned elsewhere (the admin
//! API's) is passed on to its owner ([`Cluster::forward_post`]).

use std::time::Duration;

use parlor_shared::protocol::{CreatedTable, TableInfo};

use super::Cluster;

/// How long a node waits for another's answer.
pub(super) const PEER_TIMEOUT: Duration = Duration::from_secs(1);

/// How long a node waits for the answer to a request it passed on to a table's owner (an
/// admin's close is answered once the table has stopped).
const FORWARD_TIMEOUT: Duration = Duration::from_secs(10);

/// The owner's answer to a request passed on to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forwarded {
    /// Its HTTP status.
    pub status: u16,
    /// Its body (JSON).
    pub body: String,
}

/// A header sent to another node.
pub(super) type Header = (&'static str, String);

/// One HTTP request to another node, off the runtime (`ureq` blocks): a `POST` of `body`
/// (JSON) when there is one, else a `GET`. Its status and body; `None` when the node could
/// not be reached or did not answer within `timeout`. Every call between nodes goes
/// through here, so they all wait, time out and send headers alike.
pub(super) async fn call(
    url: String,
    headers: Vec<Header>,
    body: Option<Vec<u8>>,
    timeout: Duration,
) -> Option<(u16, String)> {
    tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .build()
            .into();
        let sent = match body {
            None => headers
                .iter()
                .fold(agent.get(&url), |request, (name, value)| {
                    request.header(*name, value)
                })
                .call(),
            Some(body) => headers
                .iter()
                .fold(
                    agent.post(&url).header("content-type", "application/json"),
                    |request, (name, value)| request.header(*name, value),
                )
                .send(&body[..]),
        };
        let mut response = sent.ok()?;
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().ok()?;
        Some((status, text))
    })
    .await
    .ok()
    .flatten()
}

/// A 2xx answer's body as `T`; `None` for anything else.
pub(super) fn success<T: serde::de::DeserializeOwned>(answer: Option<(u16, String)>) -> Option<T> {
    let (status, body) = answer?;
    if !(200..300).contains(&status) {
        return None;
    }
    serde_json::from_str(&body).ok()
}

/// One GET to a peer, within [`PEER_TIMEOUT`]; `None` on any failure, a status other than
/// 2xx included.
pub(super) async fn get_json<T: serde::de::DeserializeOwned>(
    url: String,
    headers: Vec<Header>,
) -> Option<T> {
    success(call(url, headers, None, PEER_TIMEOUT).await)
}

impl Cluster {
    /// The listed tables of every other live node.
    pub async fn listed_elsewhere(&self) -> Vec<TableInfo> {
        let nodes = self.nodes().await;
        let asks = nodes
            .into_iter()
            .filter(|n| n.live && n.id != self.node())
            .map(|n| {
                let url = format!("{}/api/tables?local=1", n.address.trim_end_matches('/'));
                get_json::<Vec<TableInfo>>(url, Vec::new())
            });
        futures_util::future::join_all(asks)
            .await
            .into_iter()
            .flatten()
            .flatten()
            .collect()
    }

    /// The node a new table should open on when it is not this one: the live node, not
    /// draining, holding the fewest tables, if it holds fewer than this one's `mine` (or
    /// whatever it holds, while this one drains).
    pub async fn placement(&self, mine: usize) -> Option<String> {
        let nodes = self.nodes().await;
        let mut placed = self.inner.placed.lock().expect("lock");
        let load = |id: &str, tables: i32| tables + placed.get(id).copied().unwrap_or(0);
        let best = nodes
            .into_iter()
            .filter(|n| n.live && !n.draining && n.id != self.node())
            .min_by_key(|n| load(&n.id, n.tables))?;
        let theirs = load(&best.id, best.tables);
        if !self.is_draining() && usize::try_from(theirs).unwrap_or(usize::MAX) >= mine {
            return None;
        }
        *placed.entry(best.id).or_insert(0) += 1;
        Some(best.address)
    }

    /// Asks the node at `address` to open a table (`body` as the client sent it, on behalf
    /// of `client`); `None` when it did not answer with a new table.
    pub async fn create_on(
        &self,
        address: &str,
        body: &serde_json::Value,
        client: std::net::IpAddr,
    ) -> Option<CreatedTable> {
        let url = format!("{}/api/tables?local=1", address.trim_end_matches('/'));
        let headers = match self.secret() {
            Some(secret) => vec![
                (super::SECRET_HEADER, secret.to_string()),
                (super::CLIENT_HEADER, client.to_string()),
            ],
            None => Vec::new(),
        };
        let answer = call(
            url,
            headers,
            Some(body.to_string().into_bytes()),
            PEER_TIMEOUT,
        )
        .await;
        let created: Option<CreatedTable> = success(answer);
        match &created {
            Some(table) => {
                tracing::info!(table = %crate::store::log_tag(&table.id), node = %address, "table placed on a less loaded node");
            }
            None => {
                tracing::warn!(node = %address, "a less loaded node did not open the table: opened here")
            }
        }
        created
    }

    /// A table owned by another node, as its owner describes it.
    pub async fn info_elsewhere(&self, table: &str) -> Option<TableInfo> {
        let super::Location::Remote(address) = self.locate(table).await else {
            return None;
        };
        let url = format!(
            "{}/api/tables/{table}?local=1",
            address.trim_end_matches('/')
        );
        get_json(url, Vec::new()).await
    }

    /// Passes a `POST` for a table owned by another node (`path`, such as an admin's
    /// `/api/admin/tables/{id}/close`) on to its owner with `?local=1`, so the owner answers
    /// it itself rather than passing it on again; the `authorization` header goes with it.
    /// `None` when no other live node owns `table` or the owner did not answer.
    pub async fn forward_post(
        &self,
        table: &str,
        path: &str,
        authorization: Option<String>,
        body: Vec<u8>,
    ) -> Option<Forwarded> {
        let super::Location::Remote(address) = self.locate(table).await else {
            return None;
        };
        let url = format!("{}{path}?local=1", address.trim_end_matches('/'));
        let headers = authorization
            .map(|value| vec![("authorization", value)])
            .unwrap_or_default();
        let (status, body) = call(url, headers, Some(body), FORWARD_TIMEOUT).await?;
        Some(Forwarded { status, body })
    }
}
