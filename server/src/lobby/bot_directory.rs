//! The directory of online registered bots, and the invitations hosts send them. A bot announces
//! itself (`available`) on a connection of its own; a host invites it to a seat (`invite_bot`),
//! the bot takes it (`accept`, a join on a new connection) or turns it down (`decline`) in a
//! limited time, and the host hears how it went (`invite_status`). Only the bot invited may
//! answer: `accept` shows its token, and the host's handle on the invitation answers nothing, so
//! a host cannot sit as the bot. The server (the ladder) invites through a channel ([`Inviter`]);
//! in a cluster the bot's node holds the invitation for a remote host ([`Inviter::Remote`]) and
//! the host's node keeps a forwarded one ([`BotDirectory::reserve_forward`]). It owns no table
//! and no socket: a bot's free capacity is what it offered less its seats and waiting invitations.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use parlor_shared::protocol::{InviteState, MAX_BOT_TABLES, OnlineBot, ServerMsg, codes};
use parlor_shared::{Seat, Variant};
use tokio::sync::mpsc;

use crate::conn::{Conn, ConnId};
use crate::store::BotAccount;
use crate::table::Invitable;

/// How long an invited bot has to take its seat, unless the server is told otherwise.
pub const DEFAULT_INVITE_TIMEOUT: Duration = Duration::from_secs(15);

/// Why a bot request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// No registered bot of that name is online.
    #[error("no registered bot named `{0}` is online (see GET /api/bots)")]
    NoSuchBot(String),
    /// It plays as many tables as it offered.
    #[error("`{name}` already plays or is invited to {max} tables, all it takes at once")]
    Busy {
        /// The bot.
        name: String,
        /// Its `max_tables`.
        max: u32,
    },
    /// It does not play this variant.
    #[error("`{name}` does not play {variant}")]
    WrongVariant {
        /// The bot.
        name: String,
        /// The table's variant.
        variant: Variant,
    },
    /// The seat already has an invitation out.
    #[error("seat {0} already has an invitation waiting for an answer")]
    Pending(Seat),
    /// No invitation has that id.
    #[error("no invitation `{0}` is waiting: it was answered, lapsed or cancelled")]
    NoSuchInvitation(String),
    /// The answer did not come from the bot invited.
    #[error(
        "only the bot invited may answer an invitation: `accept` with its token, `decline` on its `available` connection"
    )]
    NotInvited,
    /// `max_tables` out of range.
    #[error("max_tables must be between 1 and {MAX_BOT_TABLES}")]
    BadAvailability,
}

impl BotError {
    /// The stable code.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            BotError::NoSuchBot(_) => codes::NO_SUCH_BOT,
            BotError::Busy { .. } => codes::BOT_BUSY,
            BotError::WrongVariant { .. } => codes::BOT_WRONG_VARIANT,
            BotError::Pending(_) => codes::INVITE_PENDING,
            BotError::NoSuchInvitation(_) => codes::NO_SUCH_INVITATION,
            BotError::NotInvited => codes::NOT_INVITED,
            BotError::BadAvailability => codes::BAD_AVAILABILITY,
        }
    }

    /// The `error` message for the client.
    #[must_use]
    pub fn to_msg(&self) -> ServerMsg {
        ServerMsg::error(self.code(), self.to_string())
    }
}

/// Who sent an invitation, and so hears how it goes (`invite_status`).
#[derive(Debug, Clone)]
pub enum Inviter {
    /// The table's host, on its connection; its `invite_status` messages name the invitation
    /// by `handle`, never by the id the bot answers with.
    Host {
        /// The host's connection.
        conn: Conn,
        /// The host's own name for this invitation.
        handle: String,
    },
    /// The server itself (the ladder), on a channel of the invitation's states.
    Server(mpsc::UnboundedSender<InviteState>),
    /// Another node of the cluster, where the table and its host are.
    Remote(RemoteInviter),
}

/// How a node reports an invitation's end to the node that sent it: `(address, id, state)`.
/// It must not block (it is called under the directory's lock): it sends in the background.
pub type RemoteReport = Arc<dyn Fn(&str, &str, InviteState) + Send + Sync>;

/// The node of the cluster an invitation came from.
#[derive(Clone)]
pub struct RemoteInviter {
    /// Where that node is reached (`http://HOST:PORT`): its table's seat is taken there.
    pub address: String,
    /// How it is told a final state.
    pub report: RemoteReport,
}

impl std::fmt::Debug for RemoteInviter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteInviter")
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

impl From<Conn> for Inviter {
    /// The host on `conn`, with a new handle (one inviter per invitation).
    fn from(conn: Conn) -> Self {
        Inviter::Host {
            conn,
            handle: uuid::Uuid::new_v4().simple().to_string(),
        }
    }
}

impl Inviter {
    /// Tells the inviter how the invitation `id` for `bot` at `seat` stands.
    fn tell(&self, id: &str, seat: Seat, bot: &str, status: InviteState) {
        match self {
            Inviter::Host { conn, handle } => {
                conn.send_msg(&ServerMsg::InviteStatus {
                    invitation: handle.clone(),
                    seat,
                    bot: bot.to_string(),
                    status,
                });
            }
            // The server may have stopped listening (it gave up waiting): nothing to tell.
            Inviter::Server(tx) => {
                let _ = tx.send(status);
            }
            // The inviting node tells its host `sent` itself (when this node answers its
            // request) and `accepted` itself (when the seat is taken there): only the other
            // ends travel back.
            Inviter::Remote(remote) => match status {
                InviteState::Sent | InviteState::Accepted => {}
                InviteState::Declined | InviteState::Expired | InviteState::Cancelled => {
                    (remote.report)(&remote.address, id, status);
                }
            },
        }
    }
}

/// An invitation taken up by `accept`: where the bot sits down.
#[derive(Debug, Clone)]
pub struct Claim {
    /// The invitation's id.
    pub invitation: String,
    /// The bot's registered name.
    pub bot: String,
    /// The table's id.
    pub table: String,
    /// The seat.
    pub seat: Seat,
    /// Who invited it, told how it went.
    host: Inviter,
    /// True when the seat counts against the bot's capacity here (this node is the bot's).
    counted: bool,
}

impl Claim {
    /// True when the seat counts against the bot's capacity on this node (until
    /// [`BotDirectory::left`]).
    #[must_use]
    pub fn counted(&self) -> bool {
        self.counted
    }

    /// The address of the node that sent the invitation, when it came from another node of
    /// the cluster: the seat is taken there.
    #[must_use]
    pub fn remote(&self) -> Option<&str> {
        match &self.host {
            Inviter::Remote(remote) => Some(&remote.address),
            Inviter::Host { .. } | Inviter::Server(_) => None,
        }
    }
}

/// An invitation this node sent through the bot's node, waiting there.
struct Forwarded {
    /// The bot's registered name.
    bot: String,
    /// The table's id (open on this node).
    table: String,
    /// The seat.
    seat: Seat,
    /// Who invited it.
    host: Inviter,
    /// True once the host was told `sent` (told once, before any other state).
    sent: bool,
}

impl Forwarded {
    /// Tells the host `status`, `sent` first if it was not yet.
    fn tell(&mut self, id: &str, status: InviteState) {
        if !self.sent {
            self.sent = true;
            self.host.tell(id, self.seat, &self.bot, InviteState::Sent);
        }
        if status != InviteState::Sent {
            self.host.tell(id, self.seat, &self.bot, status);
        }
    }
}

/// How much longer than an invitation's own timeout a forwarded one is kept: its lapse is
/// the bot's node's to report, and this only ends one whose report was lost.
const FORWARD_MARGIN: Duration = Duration::from_secs(5);

/// One online bot.
struct Online {
    /// Its registered name as registered.
    name: String,
    /// Who runs it.
    owner: String,
    /// The variants it plays.
    variants: Vec<Variant>,
    /// Tables at once.
    max_tables: u32,
    /// Its `available` connection, where invitations go.
    conn: Conn,
    /// The hash of the token it came with, to check before each invitation that it was not
    /// revoked meanwhile (by `parlor bots revoke`, which the server does not hear of).
    token_hash: String,
}

/// One invitation waiting for an answer.
struct Pending {
    /// The bot's directory key.
    key: String,
    /// The bot's registered name.
    bot: String,
    /// The table's id.
    table: String,
    /// The seat.
    seat: Seat,
    /// Who invited it.
    host: Inviter,
}

/// Everything the directory knows, under one lock (held briefly, never across an await).
#[derive(Default)]
struct Inner {
    /// Online bots by [`key`] of their names.
    online: HashMap<String, Online>,
    /// Seats held by each bot (by [`key`]) through invitations, while their
    /// connections last.
    seated: HashMap<String, u32>,
    /// Invitations waiting, by id.
    pending: HashMap<String, Pending>,
    /// Invitations this node sent through other nodes, by id.
    forwarded: HashMap<String, Forwarded>,
    /// This node's id in a cluster (invitation ids then carry it).
    node: Option<String>,
}

impl Inner {
    /// True when `seat` of `table` has an invitation out, held here or sent through
    /// another node.
    fn seat_invited(&self, table: &str, seat: Seat) -> bool {
        self.pending
            .values()
            .any(|p| p.table == table && p.seat == seat)
            || self
                .forwarded
                .values()
                .any(|f| f.table == table && f.seat == seat)
    }

    /// The online bot the waiting invitation `id` was sent to.
    fn invited(&self, id: &str) -> Result<&Online, BotError> {
        self.pending
            .get(id)
            .and_then(|p| self.online.get(&p.key))
            .ok_or_else(|| BotError::NoSuchInvitation(id.to_string()))
    }

    /// Tables the bot (by key) may still be invited to.
    fn free(&self, key: &str) -> u32 {
        let Some(bot) = self.online.get(key) else {
            return 0;
        };
        let seated = self.seated.get(key).copied().unwrap_or(0);
        let waiting = self.pending.values().filter(|p| p.key == key).count() as u32;
        bot.max_tables.saturating_sub(seated + waiting)
    }

    /// Drops every invitation of the bot `key`, telling each host it was cancelled.
    fn cancel_all(&mut self, key: &str) {
        let ids: Vec<String> = self
            .pending
            .iter()
            .filter(|(_, p)| p.key == key)
            .map(|(id, _)| id.clone())
            .collect();
        for id in ids {
            if let Some(pending) = self.pending.remove(&id) {
                tell_host(&id, &pending, InviteState::Cancelled);
            }
        }
    }
}

/// Tells the host how its invitation stands.
fn tell_host(id: &str, pending: &Pending, status: InviteState) {
    pending.host.tell(id, pending.seat, &pending.bot, status);
}

/// The directory key of a bot name: its skeleton, as names are unique by what they look like.
fn key(name: &str) -> String {
    crate::skeleton::skeleton(name)
}

/// The online bots and their invitations. Cheap to clone: clones share one directory.
#[derive(Clone)]
pub struct BotDirectory {
    /// The state.
    inner: Arc<Mutex<Inner>>,
    /// How long an invitation waits for its answer.
    timeout: Duration,
}

impl std::fmt::Debug for BotDirectory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotDirectory")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl BotDirectory {
    /// An empty directory whose invitations lapse after `timeout`.
    #[must_use]
    pub fn new(timeout: Duration) -> BotDirectory {
        BotDirectory {
            inner: Arc::default(),
            timeout,
        }
    }

    /// How long an invitation waits for its answer.
    #[must_use]
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The state, even after a panic elsewhere (every change is a whole step).
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Makes this directory a cluster node's: its invitation ids name `node`.
    pub fn set_node(&self, node: &str) {
        self.lock().node = Some(node.to_string());
    }

    /// This node's id in a cluster, if it is part of one.
    #[must_use]
    pub fn node(&self) -> Option<String> {
        self.lock().node.clone()
    }

    /// True while the bot `name` is online here.
    #[must_use]
    pub fn is_online(&self, name: &str) -> bool {
        self.lock().online.contains_key(&key(name))
    }

    /// `account` is online on `conn`, for `variants` (none: all) and up to `max_tables` at
    /// once; a connection it announced itself on before is forgotten (its invitations are
    /// cancelled). Returns the answer for the bot.
    pub fn online(
        &self,
        account: &BotAccount,
        token_hash: String,
        variants: &[Variant],
        max_tables: u32,
        conn: Conn,
    ) -> Result<ServerMsg, BotError> {
        if !(1..=MAX_BOT_TABLES).contains(&max_tables) {
            return Err(BotError::BadAvailability);
        }
        let mut variants = if variants.is_empty() {
            Variant::ALL.to_vec()
        } else {
            variants.to_vec()
        };
        variants.sort_by_key(|v| v.name());
        variants.dedup();
        let key = key(&account.name);
        let mut inner = self.lock();
        if let Some(old) = inner.online.get(&key)
            && old.conn.id != conn.id
        {
            inner.cancel_all(&key);
        }
        inner.online.insert(
            key,
            Online {
                name: account.name.clone(),
                owner: account.owner.clone(),
                variants: variants.clone(),
                max_tables,
                conn,
                token_hash,
            },
        );
        tracing::info!(bot = %account.name, max_tables, "bot online");
        Ok(ServerMsg::Available {
            name: account.name.clone(),
            variants,
            max_tables,
        })
    }

    /// The `available` connection `conn` ended: its bot goes offline (unless it announced
    /// itself again elsewhere) and its invitations are cancelled.
    pub fn offline(&self, conn: ConnId) {
        let mut inner = self.lock();
        let keys: Vec<String> = inner
            .online
            .iter()
            .filter(|(_, bot)| bot.conn.id == conn)
            .map(|(key, _)| key.clone())
            .collect();
        for key in keys {
            if let Some(bot) = inner.online.remove(&key) {
                tracing::info!(bot = %bot.name, "bot offline");
            }
            inner.cancel_all(&key);
        }
    }

    /// The bot `name` was revoked: it goes offline now, its connection is told why and
    /// closed, and its invitations are cancelled.
    pub fn revoke(&self, name: &str) {
        let key = key(name);
        let mut inner = self.lock();
        if let Some(bot) = inner.online.remove(&key) {
            bot.conn.send_msg(&ServerMsg::error(
                codes::BAD_BOT_TOKEN,
                "this bot's token was revoked by the server's operator",
            ));
            bot.conn.finish();
        }
        inner.cancel_all(&key);
    }

    /// The token hash the online bot `name` came with.
    #[must_use]
    pub fn token_hash(&self, name: &str) -> Option<String> {
        let inner = self.lock();
        inner
            .online
            .get(&key(name))
            .map(|bot| bot.token_hash.clone())
    }

    /// The online bots that play `variant` (every online bot without one), by name.
    #[must_use]
    pub fn list(&self, variant: Option<Variant>) -> Vec<OnlineBot> {
        let inner = self.lock();
        let mut bots: Vec<OnlineBot> = inner
            .online
            .iter()
            .filter(|(_, bot)| variant.is_none_or(|v| bot.variants.contains(&v)))
            .map(|(key, bot)| OnlineBot {
                name: bot.name.clone(),
                owner: bot.owner.clone(),
                variants: bot.variants.clone(),
                max_tables: bot.max_tables,
                free: inner.free(key),
                rating: None,
            })
            .collect();
        bots.sort_by_key(|b| b.name.to_lowercase());
        bots
    }

    /// Invites the bot `name` to `seat` of `table` (the table agreed): the bot gets an
    /// `invitation`, the inviter `invite_status` `sent`, and the invitation lapses after the
    /// directory's timeout.
    pub fn invite(
        &self,
        name: &str,
        table: &str,
        seat: Seat,
        invitable: &Invitable,
        host: impl Into<Inviter>,
    ) -> Result<String, BotError> {
        self.invite_as(None, name, table, seat, invitable, host)
    }

    /// [`BotDirectory::invite`] under the id `id` when given (the inviting node of a
    /// cluster chose it, naming this node), else a new one.
    pub fn invite_as(
        &self,
        id: Option<String>,
        name: &str,
        table: &str,
        seat: Seat,
        invitable: &Invitable,
        host: impl Into<Inviter>,
    ) -> Result<String, BotError> {
        let host = host.into();
        let key = key(name);
        let mut inner = self.lock();
        let bot = inner
            .online
            .get(&key)
            .ok_or_else(|| BotError::NoSuchBot(name.to_string()))?;
        if !bot.variants.contains(&invitable.variant) {
            return Err(BotError::WrongVariant {
                name: bot.name.clone(),
                variant: invitable.variant,
            });
        }
        if inner.free(&key) == 0 {
            return Err(BotError::Busy {
                name: bot.name.clone(),
                max: bot.max_tables,
            });
        }
        if inner.seat_invited(table, seat) {
            return Err(BotError::Pending(seat));
        }
        let id = id
            .filter(|id| !inner.pending.contains_key(id))
            .unwrap_or_else(|| super::invitation_id::new(inner.node.as_deref()));
        bot.conn.send_msg(&ServerMsg::Invitation {
            invitation: id.clone(),
            table: table.to_string(),
            seat,
            variant: invitable.variant,
            options: invitable.options.clone(),
            timeout_ms: self.timeout.as_millis() as u64,
        });
        let pending = Pending {
            key,
            bot: bot.name.clone(),
            table: table.to_string(),
            seat,
            host,
        };
        tracing::info!(bot = %pending.bot, table = %crate::store::log_tag(table), %seat, "bot invited");
        tell_host(&id, &pending, InviteState::Sent);
        inner.pending.insert(id.clone(), pending);
        drop(inner);
        let weak = Arc::downgrade(&self.inner);
        let timeout = self.timeout;
        let lapsing = id.clone();
        tokio::spawn(async move {
            tokio::time::sleep(timeout).await;
            expire(&weak, &lapsing);
        });
        Ok(id)
    }

    /// The bot turned the invitation down on its `available` connection `by`: the host is
    /// told, the seat stays as it was. Refused (the invitation still waiting) on any other
    /// connection.
    pub fn decline(&self, invitation: &str, by: ConnId) -> Result<(), BotError> {
        let mut inner = self.lock();
        let invited = inner.invited(invitation)?;
        if invited.conn.id != by {
            return Err(BotError::NotInvited);
        }
        let pending = inner
            .pending
            .remove(invitation)
            .ok_or_else(|| BotError::NoSuchInvitation(invitation.to_string()))?;
        tracing::info!(bot = %pending.bot, table = %crate::store::log_tag(&pending.table), "invitation declined");
        tell_host(invitation, &pending, InviteState::Declined);
        Ok(())
    }

    /// `accept` with the token hashed to `token_hash`: takes the invitation up (it can be
    /// used once) when that is the invited bot's token; the bot's seat counts against its
    /// capacity from now until [`BotDirectory::left`] (or [`BotDirectory::joined`] says the
    /// join failed). Another token is refused, and the invitation still waits for the bot.
    pub fn claim(&self, invitation: &str, token_hash: &str) -> Result<Claim, BotError> {
        let mut inner = self.lock();
        let invited = inner.invited(invitation)?;
        // Hashes are compared, so how long this takes tells nothing about the token.
        if invited.token_hash != token_hash {
            return Err(BotError::NotInvited);
        }
        let pending = inner
            .pending
            .remove(invitation)
            .ok_or_else(|| BotError::NoSuchInvitation(invitation.to_string()))?;
        *inner.seated.entry(pending.key.clone()).or_default() += 1;
        Ok(Claim {
            invitation: invitation.to_string(),
            bot: pending.bot,
            table: pending.table,
            seat: pending.seat,
            host: pending.host,
            counted: true,
        })
    }

    /// The claimed seat was taken (`joined`) or not (the table refused: the seat was taken
    /// first, or the table closed); the host is told which.
    pub fn joined(&self, claim: &Claim, joined: bool) {
        let status = if joined {
            InviteState::Accepted
        } else {
            if claim.counted {
                self.left(&claim.bot);
            }
            InviteState::Cancelled
        };
        claim
            .host
            .tell(&claim.invitation, claim.seat, &claim.bot, status);
    }

    /// A seat the bot took by invitation was left (its connection ended or it sent `leave`).
    pub fn left(&self, name: &str) {
        let key = key(name);
        let mut inner = self.lock();
        if let Some(count) = inner.seated.get_mut(&key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                inner.seated.remove(&key);
            }
        }
    }
}

impl BotDirectory {
    /// Keeps `host`'s invitation `id` of the bot `bot` (online on another node) to `seat`
    /// of `table` (open here), before the bot's node is asked to send it; refused when the
    /// seat already has an invitation out. The host is told `sent` by
    /// [`BotDirectory::forward_sent`] once the bot's node has sent it, or nothing if it
    /// refused ([`BotDirectory::forward_refused`]). An invitation still kept a little after
    /// its timeout (its end's report was lost) lapses here.
    pub fn reserve_forward(
        &self,
        id: &str,
        bot: &str,
        table: &str,
        seat: Seat,
        host: impl Into<Inviter>,
    ) -> Result<(), BotError> {
        let mut inner = self.lock();
        if inner.seat_invited(table, seat) {
            return Err(BotError::Pending(seat));
        }
        inner.forwarded.insert(
            id.to_string(),
            Forwarded {
                bot: bot.to_string(),
                table: table.to_string(),
                seat,
                host: host.into(),
                sent: false,
            },
        );
        drop(inner);
        let weak = Arc::downgrade(&self.inner);
        let lapse = self.timeout + FORWARD_MARGIN;
        let id = id.to_string();
        tokio::spawn(async move {
            tokio::time::sleep(lapse).await;
            let Some(inner) = weak.upgrade() else { return };
            let mut inner = inner
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(mut forwarded) = inner.forwarded.remove(&id) {
                tracing::warn!(bot = %forwarded.bot, table = %crate::store::log_tag(&forwarded.table), "no word from the bot's node on an invitation: taken as lapsed");
                forwarded.tell(&id, InviteState::Expired);
            }
        });
        Ok(())
    }

    /// The bot's node sent the forwarded invitation `id`: the host is told `sent` (unless
    /// it was told already, by a state that came first).
    pub fn forward_sent(&self, id: &str) {
        if let Some(forwarded) = self.lock().forwarded.get_mut(id) {
            forwarded.tell(id, InviteState::Sent);
        }
    }

    /// The bot's node refused the forwarded invitation `id` (its error goes to the host
    /// instead): forgotten.
    pub fn forward_refused(&self, id: &str) {
        self.lock().forwarded.remove(id);
    }

    /// The bot's node reports how the forwarded invitation `id` ended (declined, lapsed,
    /// cancelled): the host is told and the invitation forgotten. False when no such
    /// invitation is kept here.
    pub fn forward_status(&self, id: &str, status: InviteState) -> bool {
        if matches!(status, InviteState::Sent | InviteState::Accepted) {
            return self.lock().forwarded.contains_key(id);
        }
        let Some(mut forwarded) = self.lock().forwarded.remove(id) else {
            return false;
        };
        tracing::info!(bot = %forwarded.bot, table = %crate::store::log_tag(&forwarded.table), ?status, "forwarded invitation ended");
        forwarded.tell(id, status);
        true
    }

    /// The bot's node relayed the `accept` of the forwarded invitation `id` here, vouching
    /// that the bot `bot` sent it (that node checked its token): it sits down at the table as
    /// with [`BotDirectory::claim`], but its seat counts on the bot's node, not here. Refused
    /// when the invitation was sent to another bot.
    pub fn claim_forwarded(&self, id: &str, bot: &str) -> Result<Claim, BotError> {
        let mut inner = self.lock();
        let invited = inner
            .forwarded
            .get(id)
            .ok_or_else(|| BotError::NoSuchInvitation(id.to_string()))?;
        if key(&invited.bot) != key(bot) {
            return Err(BotError::NotInvited);
        }
        let mut forwarded = inner
            .forwarded
            .remove(id)
            .ok_or_else(|| BotError::NoSuchInvitation(id.to_string()))?;
        drop(inner);
        if !forwarded.sent {
            forwarded.tell(id, InviteState::Sent);
        }
        Ok(Claim {
            invitation: id.to_string(),
            bot: forwarded.bot,
            table: forwarded.table,
            seat: forwarded.seat,
            host: forwarded.host,
            counted: false,
        })
    }
}

/// The invitation `id` lapses if it is still waiting: the host is told.
fn expire(inner: &Weak<Mutex<Inner>>, id: &str) {
    let Some(inner) = inner.upgrade() else { return };
    let mut inner = inner
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(pending) = inner.pending.remove(id) {
        tracing::info!(bot = %pending.bot, table = %crate::store::log_tag(&pending.table), "invitation lapsed");
        tell_host(id, &pending, InviteState::Expired);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::bounded;
    use tokio_util::sync::CancellationToken;

    fn conn() -> (Conn, crate::conn::Receiver<crate::conn::Frame>) {
        let (tx, rx) = bounded(16);
        (Conn::new(ConnId::next(), tx, CancellationToken::new()), rx)
    }

    fn account(name: &str) -> BotAccount {
        BotAccount {
            name: name.into(),
            owner: "ann".into(),
            created: 0,
            revoked: None,
        }
    }

    fn hearts() -> Invitable {
        Invitable {
            variant: Variant::Hearts,
            options: parlor_shared::Options::default(),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn capacity_counts_invitations_and_seats() {
        let directory = BotDirectory::new(Duration::from_secs(15));
        let (bot, _bot_rx) = conn();
        let (host, _host_rx) = conn();
        directory
            .online(&account("Deep"), "h".into(), &[Variant::Hearts], 2, bot)
            .unwrap();
        assert_eq!(directory.list(Some(Variant::Hearts))[0].free, 2);
        assert!(directory.list(Some(Variant::Whist)).is_empty());
        let first = directory
            .invite("deep", "t1", Seat(1), &hearts(), host.clone())
            .unwrap();
        assert_eq!(
            directory.invite("Deep", "t1", Seat(1), &hearts(), host.clone()),
            Err(BotError::Pending(Seat(1)))
        );
        directory
            .invite("Deep", "t2", Seat(1), &hearts(), host.clone())
            .unwrap();
        assert!(matches!(
            directory.invite("Deep", "t3", Seat(1), &hearts(), host.clone()),
            Err(BotError::Busy { .. })
        ));
        let claim = directory.claim(&first, "h").unwrap();
        assert_eq!(
            directory.claim(&first, "h").unwrap_err().code(),
            "no_such_invitation"
        );
        directory.joined(&claim, true);
        assert_eq!(directory.list(None)[0].free, 0);
        // The other invitation lapses; then one table is free again.
        tokio::time::sleep(Duration::from_secs(16)).await;
        assert_eq!(directory.list(None)[0].free, 1);
        directory.left("Deep");
        assert_eq!(directory.list(None)[0].free, 2);
    }

    #[tokio::test(start_paused = true)]
    async fn only_the_invited_bot_answers_and_the_host_never_sees_its_id() {
        let directory = BotDirectory::new(Duration::from_secs(15));
        let (bot, _bot_rx) = conn();
        let bot_conn = bot.id;
        // The host is another bot's `available` connection too, to decline on.
        let (host, mut host_rx) = conn();
        directory
            .online(&account("Deep"), "h".into(), &[Variant::Hearts], 2, bot)
            .unwrap();
        directory
            .online(
                &account("Other"),
                "o".into(),
                &[Variant::Hearts],
                2,
                host.clone(),
            )
            .unwrap();
        let id = directory
            .invite("Deep", "t1", Seat(1), &hearts(), host.clone())
            .unwrap();
        let told = host_rx.try_recv().expect("the host is told").to_string();
        assert!(told.contains("invite_status"), "{told}");
        assert!(!told.contains(&id), "the host saw the bot's id: {told}");
        // Another bot's token or connection, or none, is refused; the invitation waits on.
        assert_eq!(directory.claim(&id, "o").unwrap_err(), BotError::NotInvited);
        assert_eq!(directory.claim(&id, "").unwrap_err(), BotError::NotInvited);
        assert_eq!(
            directory.decline(&id, host.id).unwrap_err(),
            BotError::NotInvited
        );
        directory.decline(&id, bot_conn).unwrap();
        let id = directory
            .invite("Deep", "t1", Seat(1), &hearts(), host)
            .unwrap();
        assert_eq!(directory.claim(&id, "h").unwrap().bot, "Deep");
    }

    #[tokio::test(start_paused = true)]
    async fn the_server_hears_how_its_invitations_go_on_a_channel() {
        let directory = BotDirectory::new(Duration::from_secs(15));
        let (bot, _bot_rx) = conn();
        let bot_conn = bot.id;
        directory
            .online(&account("Deep"), "h".into(), &[Variant::Hearts], 2, bot)
            .unwrap();
        let (tx, mut rx) = mpsc::unbounded_channel();
        let declined = directory
            .invite(
                "Deep",
                "t1",
                Seat(0),
                &hearts(),
                Inviter::Server(tx.clone()),
            )
            .unwrap();
        assert_eq!(rx.recv().await, Some(InviteState::Sent));
        directory.decline(&declined, bot_conn).unwrap();
        assert_eq!(rx.recv().await, Some(InviteState::Declined));
        directory
            .invite(
                "Deep",
                "t2",
                Seat(0),
                &hearts(),
                Inviter::Server(tx.clone()),
            )
            .unwrap();
        assert_eq!(rx.recv().await, Some(InviteState::Sent));
        tokio::time::sleep(Duration::from_secs(16)).await;
        assert_eq!(rx.recv().await, Some(InviteState::Expired));
        let accepted = directory
            .invite("Deep", "t3", Seat(0), &hearts(), Inviter::Server(tx))
            .unwrap();
        assert_eq!(rx.recv().await, Some(InviteState::Sent));
        let claim = directory.claim(&accepted, "h").unwrap();
        directory.joined(&claim, true);
        assert_eq!(rx.recv().await, Some(InviteState::Accepted));
    }

    /// What a hook reported: (address, invitation, state).
    type Reports = Arc<Mutex<Vec<(String, String, InviteState)>>>;

    /// A hook recording what it reports, as a cluster node's would send it.
    fn recorder() -> (RemoteReport, Reports) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let report: RemoteReport = Arc::new(move |address: &str, id: &str, state| {
            sink.lock()
                .unwrap()
                .push((address.to_string(), id.to_string(), state));
        });
        (report, seen)
    }

    #[tokio::test(start_paused = true)]
    async fn a_remote_inviter_hears_only_the_ends_and_its_claim_names_its_node() {
        let directory = BotDirectory::new(Duration::from_secs(15));
        directory.set_node("b");
        let (bot, _bot_rx) = conn();
        let bot_conn = bot.id;
        directory
            .online(&account("Deep"), "h".into(), &[Variant::Hearts], 3, bot)
            .unwrap();
        let (report, seen) = recorder();
        let remote = || {
            Inviter::Remote(RemoteInviter {
                address: "http://a".into(),
                report: report.clone(),
            })
        };
        // The inviting node chose the id; it is kept.
        let id = crate::lobby::invitation_id::new(Some("b"));
        let declined = directory
            .invite_as(Some(id.clone()), "Deep", "t1", Seat(1), &hearts(), remote())
            .unwrap();
        assert_eq!(declined, id);
        directory.decline(&declined, bot_conn).unwrap();
        let lapsing = directory
            .invite("Deep", "t2", Seat(1), &hearts(), remote())
            .unwrap();
        assert_eq!(crate::lobby::invitation_id::node_of(&lapsing), Some("b"));
        tokio::time::sleep(Duration::from_secs(16)).await;
        let taken = directory
            .invite("Deep", "t3", Seat(1), &hearts(), remote())
            .unwrap();
        let claim = directory.claim(&taken, "h").unwrap();
        assert_eq!(claim.remote(), Some("http://a"));
        // The seat counts here, the bot's node, until it is left.
        assert_eq!(directory.list(None)[0].free, 2);
        let cancelled = directory
            .invite("Deep", "t4", Seat(1), &hearts(), remote())
            .unwrap();
        directory.revoke("Deep");
        assert_eq!(
            *seen.lock().unwrap(),
            vec![
                ("http://a".into(), declined, InviteState::Declined),
                ("http://a".into(), lapsing, InviteState::Expired),
                ("http://a".into(), cancelled, InviteState::Cancelled),
            ]
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_forwarded_invitation_tells_its_host_sent_once_then_its_end() {
        let directory = BotDirectory::new(Duration::from_secs(15));
        let (tx, mut rx) = mpsc::unbounded_channel();
        let host = || Inviter::Server(tx.clone());
        directory
            .reserve_forward("b.1", "Deep", "t1", Seat(1), host())
            .unwrap();
        assert_eq!(
            directory.reserve_forward("b.2", "Deep", "t1", Seat(1), host()),
            Err(BotError::Pending(Seat(1)))
        );
        directory.forward_sent("b.1");
        assert_eq!(rx.recv().await, Some(InviteState::Sent));
        assert!(directory.forward_status("b.1", InviteState::Declined));
        assert_eq!(rx.recv().await, Some(InviteState::Declined));
        assert!(!directory.forward_status("b.1", InviteState::Expired));
        // A state arriving before the bot's node answered: `sent` still comes first, once.
        directory
            .reserve_forward("b.3", "Deep", "t1", Seat(1), host())
            .unwrap();
        assert!(directory.forward_status("b.3", InviteState::Cancelled));
        directory.forward_sent("b.3");
        assert_eq!(rx.recv().await, Some(InviteState::Sent));
        assert_eq!(rx.recv().await, Some(InviteState::Cancelled));
        // Refused by the bot's node: forgotten, the seat free again, nothing told.
        directory
            .reserve_forward("b.4", "Deep", "t1", Seat(1), host())
            .unwrap();
        directory.forward_refused("b.4");
        // Taken up: the host hears `accepted`, and the seat does not count here.
        directory
            .reserve_forward("b.5", "Deep", "t1", Seat(1), host())
            .unwrap();
        directory.forward_sent("b.5");
        assert_eq!(rx.recv().await, Some(InviteState::Sent));
        assert_eq!(
            directory.claim_forwarded("b.5", "Other").unwrap_err(),
            BotError::NotInvited
        );
        let claim = directory.claim_forwarded("b.5", "deep").unwrap();
        assert_eq!((claim.table.as_str(), claim.seat), ("t1", Seat(1)));
        assert_eq!(claim.remote(), None);
        directory.joined(&claim, true);
        assert_eq!(rx.recv().await, Some(InviteState::Accepted));
        assert!(directory.claim_forwarded("b.5", "Deep").is_err());
        // A report that never comes: the invitation lapses here a little after its timeout.
        directory
            .reserve_forward("b.6", "Deep", "t1", Seat(2), host())
            .unwrap();
        directory.forward_sent("b.6");
        assert_eq!(rx.recv().await, Some(InviteState::Sent));
        tokio::time::sleep(Duration::from_secs(21)).await;
        assert_eq!(rx.recv().await, Some(InviteState::Expired));
        assert!(rx.try_recv().is_err());
    }
}
