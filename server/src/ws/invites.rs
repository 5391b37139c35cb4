//! Registered bots on the WebSocket: `available` (a bot announces itself with its token),
//! `accept` and `decline` (its answers to an invitation) and the host's `invite_bot`.
//!
//! An `impl Reader` block: it checks tokens against the store, asks the table whether the
//! host may invite, and keeps the lobby's bot directory up to date as connections come and
//! go. The seat itself is taken through an ordinary join.

use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, ServerMsg, codes};

use super::reader::Reader;
use super::refusal::Refusal;
use crate::store::accounts::hash_token;
use crate::table::JoinRequest;

impl Reader {
    /// One of the registered-bot messages.
    pub(super) async fn on_bot_msg(&mut self, msg: ClientMsg) {
        let answer = match msg {
            ClientMsg::Available {
                token,
                variants,
                max_tables,
            } => Box::pin(self.available(&token, &variants, max_tables)).await,
            ClientMsg::Accept { invitation } => Box::pin(self.accept(&invitation)).await,
            ClientMsg::Decline { invitation } => self
                .lobby
                .bots()
                .decline(&invitation)
                .err()
                .map(|e| e.to_msg()),
            ClientMsg::InviteBot { seat, bot } => Box::pin(self.invite(seat, &bot)).await,
            _ => None,
        };
        if let Some(answer) = answer {
            self.reply(&answer).await;
        }
    }

    /// `available`: the token must be a registered bot's, not revoked.
    async fn available(
        &mut self,
        token: &str,
        variants: &[parlor_shared::Variant],
        max_tables: u32,
    ) -> Option<ServerMsg> {
        let Some(store) = self.lobby.store().cloned() else {
            return Some(ServerMsg::error(
                codes::NO_STORE,
                "bot accounts need the server's database, and this server runs with --no-store",
            ));
        };
        let hash = hash_token(token);
        let account = match store.bot_by_token(&hash).await {
            Ok(Some(account)) => account,
            Ok(None) => {
                tracing::info!(conn = self.conn.id.0, "a bot token was refused");
                return Some(ServerMsg::error(
                    codes::BAD_BOT_TOKEN,
                    "that bot token is unknown or was revoked: ask the server's operator for one",
                ));
            }
            Err(err) => {
                tracing::error!(%err, "could not check a bot token");
                return Some(ServerMsg::error(
                    codes::NO_STORE,
                    "the server's database could not check the token: try again later",
                ));
            }
        };
        match self
            .lobby
            .bots()
            .online(&account, hash, variants, max_tables, self.conn.clone())
        {
            Ok(answer) => {
                self.available = true;
                Some(answer)
            }
            Err(err) => Some(err.to_msg()),
        }
    }

    /// `accept`: takes up the invitation and joins its table and seat as the bot's account.
    async fn accept(&mut self, invitation: &str) -> Option<ServerMsg> {
        if self.available {
            return Some(ServerMsg::error(
                codes::ACCEPT_ELSEWHERE,
                "this connection carries the bot's invitations: accept on a new connection",
            ));
        }
        if self.table.is_some() {
            return Some(Refusal::AlreadyJoined.to_msg());
        }
        let claim = match self.lobby.bots().claim(invitation) {
            Ok(claim) => claim,
            Err(err) => return Some(err.to_msg()),
        };
        let request = JoinRequest {
            seat: Some(claim.seat),
            name: None,
            token: None,
            bot: true,
            watch: false,
            account: Some(claim.bot.clone()),
        };
        // The table answers the join itself (welcome, or why not).
        let joined = Box::pin(self.join(&claim.table, request)).await;
        self.lobby.bots().joined(&claim, joined);
        if joined {
            self.account = Some(claim.bot);
        }
        None
    }

    /// `invite_bot`: the table must agree (the host, a free seat), then the bot is invited.
    async fn invite(&mut self, seat: Seat, bot: &str) -> Option<ServerMsg> {
        let Some(table) = self.table.clone() else {
            return Some(Refusal::NotJoined.to_msg());
        };
        let invitable = match table.may_invite(self.conn.id, seat).await {
            Ok(invitable) => invitable,
            Err(Some(err)) => return Some(err.to_msg()),
            Err(None) => return Some(Refusal::TableClosed.to_msg()),
        };
        // An account revoked while its bot was online goes offline now.
        if let (Some(hash), Some(store)) = (self.lobby.bots().token_hash(bot), self.lobby.store())
            && matches!(store.bot_by_token(&hash).await, Ok(None))
        {
            self.lobby.bots().revoke(bot);
        }
        self.lobby
            .bots()
            .invite(bot, &table.id, seat, &invitable, self.conn.clone())
            .err()
            .map(|e| e.to_msg())
    }

    /// The seat taken by invitation was given up (`leave`).
    pub(super) fn seat_released(&mut self) {
        if let Some(bot) = self.account.take() {
            self.lobby.bots().left(&bot);
        }
    }

    /// The connection ended: its bot goes offline, its invited seat stops counting.
    pub(super) fn gone(&mut self) {
        if self.available {
            self.lobby.bots().offline(self.conn.id);
        }
        self.seat_released();
    }
}
