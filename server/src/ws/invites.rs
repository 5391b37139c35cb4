//! Registered bots on the WebSocket: `available` (a bot announces itself with its token),
//! `accept` and `decline` (its answers to an invitation) and the host's `invite_bot`. An
//! `impl Reader` block: it checks tokens against the store, asks the table whether the host may
//! invite, and keeps the lobby's bot directory up to date as connections come and go; the seat
//! itself is taken through an ordinary join. Only the bot invited answers: `accept` carries its
//! token, `decline` comes on its `available` connection. In a cluster an invitation or `accept`
//! that belongs to another node is relayed there ([`crate::cluster::bots`]).

use parlor_shared::Seat;
use parlor_shared::protocol::{ClientMsg, ServerMsg, codes};

use super::Upstream;
use super::reader::Reader;
use super::refusal::Refusal;
use super::route::BotMsg;
use crate::cluster::bots::Vouch;
use crate::digest::of_secret;
use crate::lobby::{BotError, invitation_id};
use crate::table::JoinRequest;

impl Reader {
    /// One of the registered bots' messages.
    pub(super) async fn on_bot_msg(&mut self, msg: BotMsg) {
        let answer = match msg {
            BotMsg::Available {
                token,
                variants,
                max_tables,
            } => Box::pin(self.available(&token, &variants, max_tables)).await,
            BotMsg::Accept { invitation, token } => {
                Box::pin(self.accept(&invitation, &token)).await
            }
            BotMsg::Decline { invitation } => self.decline(&invitation),
            BotMsg::InviteBot { seat, bot } => Box::pin(self.invite(seat, &bot)).await,
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
        let hash = of_secret(token);
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

    /// `accept`: takes up the invitation and joins its table and seat as the bot's account,
    /// when `token` is the invited bot's (checked on the node holding the invitation).
    async fn accept(&mut self, invitation: &str, token: &str) -> Option<ServerMsg> {
        if self.available {
            return Some(ServerMsg::error(
                codes::ACCEPT_ELSEWHERE,
                "this connection carries the bot's invitations: accept on a new connection",
            ));
        }
        if self.table.is_some() {
            return Some(Refusal::AlreadyJoined.to_msg());
        }
        let claim = if let Some(vouch) = self.vouched.take_if(|v| v.invitation == invitation) {
            // Relayed by the bot's node, which checked the token and took the invitation up:
            // the table is here.
            match self.lobby.bots().claim_forwarded(invitation, &vouch.bot) {
                Ok(claim) => claim,
                Err(err) => return Some(err.to_msg()),
            }
        } else {
            match self.lobby.bots().claim(invitation, &of_secret(token)) {
                Ok(claim) => claim,
                Err(err @ BotError::NoSuchInvitation(_)) => {
                    // Another node holds it: the connection goes there, which checks the token.
                    if let Some(address) = self.invitation_node(invitation).await {
                        let first = accept_frame(invitation, token);
                        self.relay_to = Some(Box::new(Upstream::new(address, first)));
                        return None;
                    }
                    return Some(err.to_msg());
                }
                Err(err) => return Some(err.to_msg()),
            }
        };
        if let Some(address) = claim.remote() {
            // This is the bot's node and the table is on another: the connection goes on
            // there, vouched for; the seat counts here until it ends.
            let mut to = Upstream::new(address.to_string(), accept_frame(invitation, token));
            to.vouch = Some(Vouch {
                invitation: invitation.to_string(),
                bot: claim.bot.clone(),
            });
            self.relay_to = Some(Box::new(to));
            self.account = Some(claim.bot.into());
            return None;
        }
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
        if joined && claim.counted() {
            self.account = Some(claim.bot.into());
        }
        None
    }

    /// `decline`: only on the invited bot's `available` connection.
    fn decline(&mut self, invitation: &str) -> Option<ServerMsg> {
        if !self.available {
            return Some(BotError::NotInvited.to_msg());
        }
        self.lobby
            .bots()
            .decline(invitation, self.conn.id)
            .err()
            .map(|err| err.to_msg())
    }

    /// The address of the other node of the cluster an invitation id names, if any.
    async fn invitation_node(&self, invitation: &str) -> Option<String> {
        let cluster = self.cluster.as_ref()?;
        let node = invitation_id::node_of(invitation)?;
        if node == cluster.node() {
            return None;
        }
        cluster.address_of(node).await
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
        self.lobby.drop_if_revoked(bot).await;
        if !self.lobby.bots().is_online(bot)
            && let Some(cluster) = self.cluster.clone()
            && let Some(found) = cluster.find_bot(bot, invitable.variant).await
        {
            let host = self.conn.clone().into();
            let bots = self.lobby.bots();
            return Box::pin(
                cluster.invite_through(bots, &found, &table.id, seat, &invitable, host),
            )
            .await
            .err()
            .map(|refused| ServerMsg::error(&refused.code, refused.message));
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

/// The `accept` frame passed on to the node holding the invitation (or the table).
fn accept_frame(invitation: &str, token: &str) -> String {
    serde_json::to_string(&ClientMsg::Accept {
        invitation: invitation.to_string(),
        token: token.to_string(),
    })
    .unwrap_or_default()
}
