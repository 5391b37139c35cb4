//! The directory of online registered bots, and the invitations hosts send them.
//!
//! A registered bot announces itself (`available`) on a connection of its own; the directory
//! keeps that connection, the variants it plays and how many tables it takes at once. A host
//! invites it to a seat (`invite_bot`, once the table has agreed): the bot's connection gets
//! an `invitation`, and the bot has a limited time to take the seat (`accept`, an ordinary
//! join on a new connection) or turn it down (`decline`). The host hears how it went
//! (`invite_status`); a declined or lapsed invitation leaves the seat as it was.
//!
//! The server can invite too (the ladder): it hears how its invitation goes on a channel
//! instead of a connection ([`Inviter`]), and otherwise the invitation is the same.
//!
//! It owns no table and no socket: it sends through connection queues ([`Conn`]) and hears
//! of joins from the connection that made them. A bot's free capacity is what it offered
//! less its seats (counted until their connections end) and the invitations waiting for it.

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
    /// The table's host, on its connection.
    Host(Conn),
    /// The server itself (the ladder), on a channel of the invitation's states.
    Server(mpsc::UnboundedSender<InviteState>),
}

impl From<Conn> for Inviter {
    fn from(conn: Conn) -> Self {
        Inviter::Host(conn)
    }
}

impl Inviter {
    /// Tells the inviter how the invitation `id` for `bot` at `seat` stands.
    fn tell(&self, id: &str, seat: Seat, bot: &str, status: InviteState) {
        match self {
            Inviter::Host(conn) => {
                conn.send_msg(&ServerMsg::InviteStatus {
                    invitation: id.to_string(),
                    seat,
                    bot: bot.to_string(),
                    status,
                });
            }
            // The server may have stopped listening (it gave up waiting): nothing to tell.
            Inviter::Server(tx) => {
                let _ = tx.send(status);
            }
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
}

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
    /// Online bots by lower-case name.
    online: HashMap<String, Online>,
    /// Seats held by each bot (lower-case name) through invitations, while their
    /// connections last.
    seated: HashMap<String, u32>,
    /// Invitations waiting, by id.
    pending: HashMap<String, Pending>,
}

impl Inner {
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

/// The directory key of a bot name: names are unique without regard to case.
fn key(name: &str) -> String {
    name.to_lowercase()
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
        if inner
            .pending
            .values()
            .any(|p| p.table == table && p.seat == seat)
        {
            return Err(BotError::Pending(seat));
        }
        let id = uuid::Uuid::new_v4().simple().to_string();
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
        tracing::info!(bot = %pending.bot, %table, %seat, "bot invited");
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

    /// The bot turned the invitation down: the host is told, the seat stays as it was.
    pub fn decline(&self, invitation: &str) -> Result<(), BotError> {
        let mut inner = self.lock();
        let pending = inner
            .pending
            .remove(invitation)
            .ok_or_else(|| BotError::NoSuchInvitation(invitation.to_string()))?;
        tracing::info!(bot = %pending.bot, table = %pending.table, "invitation declined");
        tell_host(invitation, &pending, InviteState::Declined);
        Ok(())
    }

    /// `accept`: takes the invitation up (it can be used once); the bot's seat counts against
    /// its capacity from now until [`BotDirectory::left`] (or [`BotDirectory::joined`] says
    /// the join failed).
    pub fn claim(&self, invitation: &str) -> Result<Claim, BotError> {
        let mut inner = self.lock();
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
        })
    }

    /// The claimed seat was taken (`joined`) or not (the table refused: the seat was taken
    /// first, or the table closed); the host is told which.
    pub fn joined(&self, claim: &Claim, joined: bool) {
        let status = if joined {
            InviteState::Accepted
        } else {
            self.left(&claim.bot);
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

/// The invitation `id` lapses if it is still waiting: the host is told.
fn expire(inner: &Weak<Mutex<Inner>>, id: &str) {
    let Some(inner) = inner.upgrade() else { return };
    let mut inner = inner
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(pending) = inner.pending.remove(id) {
        tracing::info!(bot = %pending.bot, table = %pending.table, "invitation lapsed");
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
        let claim = directory.claim(&first).unwrap();
        assert_eq!(
            directory.claim(&first).unwrap_err().code(),
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
    async fn the_server_hears_how_its_invitations_go_on_a_channel() {
        let directory = BotDirectory::new(Duration::from_secs(15));
        let (bot, _bot_rx) = conn();
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
        directory.decline(&declined).unwrap();
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
        let claim = directory.claim(&accepted).unwrap();
        directory.joined(&claim, true);
        assert_eq!(rx.recv().await, Some(InviteState::Accepted));
    }
}
