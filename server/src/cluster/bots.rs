//! Registered bots across the nodes: a bot in `available` mode is online on the node its
//! connection landed on (the bot's node), which keeps everything about it (connection, capacity,
//! invitations, seats). Other nodes list it by asking (`GET /api/bots?local=1`) and invite it
//! through its node: the host's node names the invitation and asks the bot's node to send it,
//! the bot's node reports a decline or lapse back, and the bot's `accept` is relayed to its
//! node, which takes the invitation up and relays the connection on to the table's node with a
//! [`Vouch`]. The flow for operators: docs/DEPLOY.md, "Running a cluster".
//! Every internal request carries the cluster's secret ([`super::SECRET_HEADER`]); none waits
//! long (`INTERNAL_TIMEOUT`), and a lost report ends the invitation a little after its timeout.

use std::time::Duration;

use parlor_shared::protocol::{HttpError, InviteState, OnlineBot};
use parlor_shared::{Options, Seat, Variant};
use serde::{Deserialize, Serialize};

use super::Cluster;
use crate::lobby::bot_directory::{RemoteInviter, RemoteReport};
use crate::lobby::{BotDirectory, BotError, Inviter, invitation_id};
use crate::table::Invitable;

/// Where the bot's node is asked to send an invitation.
pub const INVITATIONS_PATH: &str = "/api/cluster/invitations";
/// Where the host's node hears how a forwarded invitation ended.
pub const STATUS_PATH: &str = "/api/cluster/invite-status";
/// Where the bot's node hears that an admin revoked the bot through another node.
pub const REVOKE_PATH: &str = "/api/cluster/revoke";

/// The header on a connection the bot's node relays to the table's node after `accept`:
/// the invitation it took up (believed only beside the secret).
pub const INVITATION_HEADER: &str = "x-parlor-cluster-invitation";
/// Beside [`INVITATION_HEADER`]: the bot whose token the bot's node checked, its name in hex
/// (a name may hold any letter, a header value only ASCII).
pub const BOT_HEADER: &str = "x-parlor-cluster-bot";

/// What the bot's node vouches for when it relays a bot's `accept` to the table's node: the
/// invitation it took up for the bot whose token it checked. Believed only beside the
/// cluster's secret; the table's node seats the bot only if the invitation was its.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vouch {
    /// The invitation's id.
    pub invitation: String,
    /// The bot's registered name.
    pub bot: String,
}

impl Vouch {
    /// The headers that carry it, as `(name, value)`.
    #[must_use]
    pub fn headers(&self) -> [(&'static str, String); 2] {
        [
            (INVITATION_HEADER, self.invitation.clone()),
            (BOT_HEADER, hex::encode(&self.bot)),
        ]
    }

    /// Read back from the values of [`INVITATION_HEADER`] and [`BOT_HEADER`].
    #[must_use]
    pub fn from_headers(invitation: &str, bot: &str) -> Option<Vouch> {
        let bot = String::from_utf8(hex::decode(bot).ok()?).ok()?;
        Some(Vouch {
            invitation: invitation.to_string(),
            bot,
        })
    }
}

/// How long a node waits for another's answer to an internal request.
const INTERNAL_TIMEOUT: Duration = Duration::from_secs(3);

/// The body of `POST /api/cluster/invitations`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoteInvite {
    /// The id the inviting node chose (it names the bot's node).
    pub invitation: String,
    /// The bot's name.
    pub bot: String,
    /// The table.
    pub table: String,
    /// The seat.
    pub seat: Seat,
    /// The table's variant.
    pub variant: Variant,
    /// The table's options.
    pub options: Options,
    /// Where the inviting node is reached.
    pub inviter: String,
}

/// The answer to `POST /api/cluster/invitations` that sent it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteInvited {
    /// The invitation's id.
    pub invitation: String,
}

/// The body of `POST /api/cluster/invite-status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusReport {
    /// The invitation.
    pub invitation: String,
    /// How it ended.
    pub status: InviteState,
}

/// The body of `POST /api/cluster/revoke`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoteRevoke {
    /// The bot's name.
    pub bot: String,
}

/// A bot online on another node.
#[derive(Debug, Clone, PartialEq)]
pub struct BotElsewhere {
    /// The node's id.
    pub node: String,
    /// Where it is reached.
    pub address: String,
    /// The bot, as that node lists it.
    pub bot: OnlineBot,
}

/// Why another node did not do what it was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemoteError {
    /// It refused, with the error a local request would have had.
    #[error("{}: {}", .0.code, .0.message)]
    Refused(HttpError),
    /// It could not be reached, or did not answer in time.
    #[error("the bot's server could not be reached")]
    Unreachable,
}

/// One internal POST with the secret; the status and body, `None` when unreachable.
async fn post(url: String, secret: String, body: String) -> Option<(u16, String)> {
    let headers = vec![(super::SECRET_HEADER, secret)];
    super::peers::call(url, headers, Some(body.into_bytes()), INTERNAL_TIMEOUT).await
}

impl Cluster {
    /// Internal calls need the secret: without one, none are made.
    fn internal(&self, address: &str, path: &str) -> Option<(String, String)> {
        let secret = self.secret()?.to_string();
        Some((format!("{}{path}", address.trim_end_matches('/')), secret))
    }

    /// The bots online on every other live node (for `variant`, if given), with their node;
    /// none without a secret (they could not be invited from here).
    pub async fn bots_elsewhere(&self, variant: Option<Variant>) -> Vec<BotElsewhere> {
        if self.secret().is_none() {
            return Vec::new();
        }
        let query = variant.map_or(String::new(), |v| format!("&variant={v}"));
        let nodes = self.nodes().await;
        let asks = nodes
            .into_iter()
            .filter(|n| n.live && n.id != self.node())
            .map(|n| {
                let url = format!(
                    "{}/api/bots?local=1{query}",
                    n.address.trim_end_matches('/')
                );
                async move {
                    let bots: Vec<OnlineBot> = super::peers::get_json(url, Vec::new()).await?;
                    Some(
                        bots.into_iter()
                            .map(|bot| BotElsewhere {
                                node: n.id.clone(),
                                address: n.address.clone(),
                                bot,
                            })
                            .collect::<Vec<_>>(),
                    )
                }
            });
        futures_util::future::join_all(asks)
            .await
            .into_iter()
            .flatten()
            .flatten()
            .collect()
    }

    /// The other node where the bot `name` is online, best first: one that plays `variant`
    /// with a table to spare, else any (whose refusal then says why).
    pub async fn find_bot(&self, name: &str, variant: Variant) -> Option<BotElsewhere> {
        let mut found: Vec<BotElsewhere> = self
            .bots_elsewhere(None)
            .await
            .into_iter()
            .filter(|b| crate::skeleton::same(&b.bot.name, name))
            .collect();
        found.sort_by_key(|b| !(b.bot.free > 0 && b.bot.variants.contains(&variant)));
        found.into_iter().next()
    }

    /// Asks the bot's node at `address` to send `invite`.
    pub async fn invite_remote(
        &self,
        address: &str,
        invite: &RemoteInvite,
    ) -> Result<(), RemoteError> {
        let (url, secret) = self
            .internal(address, INVITATIONS_PATH)
            .ok_or(RemoteError::Unreachable)?;
        let body = serde_json::to_string(invite).map_err(|_| RemoteError::Unreachable)?;
        answer(post(url, secret, body).await)
    }

    /// Invites the bot `found` online on another node to `seat` of `table` (open here)
    /// through its node: the invitation is kept in `bots` for `host`, then sent there;
    /// `host` hears `sent` once it is. Returns the invitation's id, or the error a host on
    /// the bot's node would have had (`no_such_bot` when that node cannot be reached).
    pub async fn invite_through(
        &self,
        bots: &BotDirectory,
        found: &BotElsewhere,
        table: &str,
        seat: Seat,
        invitable: &Invitable,
        host: Inviter,
    ) -> Result<String, HttpError> {
        let refusal = |err: BotError| HttpError {
            code: err.code().to_string(),
            message: err.to_string(),
        };
        let id = invitation_id::new(Some(&found.node));
        bots.reserve_forward(&id, &found.bot.name, table, seat, host)
            .map_err(refusal)?;
        let invite = RemoteInvite {
            invitation: id.clone(),
            bot: found.bot.name.clone(),
            table: table.to_string(),
            seat,
            variant: invitable.variant,
            options: invitable.options.clone(),
            inviter: self.address().to_string(),
        };
        match self.invite_remote(&found.address, &invite).await {
            Ok(()) => {
                tracing::info!(bot = %invite.bot, table = %crate::store::log_tag(table), %seat, node = %found.node, "bot invited through its node");
                metrics::counter!("parlor_cluster_bot_invitations_total").increment(1);
                bots.forward_sent(&id);
                Ok(id)
            }
            Err(RemoteError::Refused(refused)) => {
                bots.forward_refused(&id);
                Err(refused)
            }
            Err(RemoteError::Unreachable) => {
                bots.forward_refused(&id);
                tracing::warn!(bot = %invite.bot, node = %found.node, "the bot's node could not be reached to invite it");
                Err(refusal(BotError::NoSuchBot(invite.bot)))
            }
        }
    }

    /// Tells every other node where the bot `name` is online that its account was revoked
    /// (it goes offline there at once); a node that cannot be reached is logged (its bot is
    /// taken offline there when next invited, as the token is checked then).
    pub async fn revoke_elsewhere(&self, name: &str) {
        let found = self.bots_elsewhere(None).await;
        for bot in found
            .iter()
            .filter(|b| b.bot.name.eq_ignore_ascii_case(name))
        {
            let Some((url, secret)) = self.internal(&bot.address, REVOKE_PATH) else {
                return;
            };
            let body = serde_json::to_string(&RemoteRevoke {
                bot: bot.bot.name.clone(),
            })
            .unwrap_or_default();
            if let Err(err) = answer(post(url, secret, body).await) {
                tracing::warn!(bot = %name, node = %bot.node, %err, "could not take a revoked bot offline on its node");
            }
        }
    }

    /// The inviter that stands for the node at `address` in this node's bot directory: a
    /// decline, lapse or cancellation is reported to it in the background (a lost report
    /// is logged; that node ends the invitation itself a little later).
    #[must_use]
    pub fn remote_inviter(&self, address: &str) -> RemoteInviter {
        let cluster = self.clone();
        let report: RemoteReport = std::sync::Arc::new(move |address, id, status| {
            let Some((url, secret)) = cluster.internal(address, STATUS_PATH) else {
                return;
            };
            let report = StatusReport {
                invitation: id.to_string(),
                status,
            };
            let Ok(body) = serde_json::to_string(&report) else {
                return;
            };
            tokio::spawn(async move {
                if let Err(err) = answer(post(url.clone(), secret, body).await) {
                    metrics::counter!("parlor_cluster_bot_reports_lost_total").increment(1);
                    tracing::warn!(
                        invitation = %report.invitation,
                        status = ?report.status,
                        %url,
                        %err,
                        "could not report an invitation's end to the inviting node"
                    );
                }
            });
        });
        RemoteInviter {
            address: address.to_string(),
            report,
        }
    }

    /// The address of the live node `id` (this one included).
    pub async fn address_of(&self, id: &str) -> Option<String> {
        self.nodes()
            .await
            .into_iter()
            .find(|n| n.live && n.id == id)
            .map(|n| n.address)
    }
}

/// An internal answer: a 2xx is done, an error body is the refusal.
fn answer(reply: Option<(u16, String)>) -> Result<(), RemoteError> {
    let (status, body) = reply.ok_or(RemoteError::Unreachable)?;
    if (200..300).contains(&status) {
        return Ok(());
    }
    match serde_json::from_str::<HttpError>(&body) {
        Ok(err) => Err(RemoteError::Refused(err)),
        Err(_) => Err(RemoteError::Unreachable),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vouch_reads_back_from_its_headers_whatever_letters_the_name_holds() {
        let vouch = Vouch {
            invitation: "b.0123456789abcdef0123456789abcdef".into(),
            bot: "Dame de Pique ♠ Ø".into(),
        };
        let [(_, invitation), (_, bot)] = vouch.headers();
        assert!(bot.is_ascii());
        assert_eq!(Vouch::from_headers(&invitation, &bot), Some(vouch));
        assert_eq!(Vouch::from_headers(&invitation, "not hex"), None);
    }

    #[test]
    fn an_answer_is_done_refused_with_its_code_or_unreachable() {
        assert_eq!(answer(Some((200, "{}".into()))), Ok(()));
        let refused = answer(Some((
            409,
            r#"{"code":"bot_busy","message":"`Deep` already plays"}"#.into(),
        )));
        assert!(matches!(refused, Err(RemoteError::Refused(e)) if e.code == "bot_busy"));
        assert_eq!(
            answer(Some((502, "bad gateway".into()))),
            Err(RemoteError::Unreachable)
        );
        assert_eq!(answer(None), Err(RemoteError::Unreachable));
    }
}
