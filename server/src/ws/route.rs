//! Which side of the server a client's message is for: the connection itself (a
//! [`ConnectionMsg`]), or the table it sits at (a [`TableRequest`]). The wire format is one
//! `ClientMsg`; here it becomes one of two types, so each side matches only its own messages.

use parlor_shared::protocol::ClientMsg;
use parlor_shared::{Action, Seat, Variant};

use crate::table::{JoinRequest, TableRequest};

/// A parsed message, classified.
#[derive(Debug, PartialEq)]
pub(super) enum Routed {
    /// Handled by the connection's reader.
    Connection(ConnectionMsg),
    /// Handed to the connection's table.
    Table(TableRequest),
}

/// The messages a connection handles itself: they find, join or leave no game state.
#[derive(Debug, PartialEq)]
pub(super) enum ConnectionMsg {
    /// `ping`: answered with `pong`.
    Ping,
    /// `join` or `watch`: the table, and how to sit at it.
    Join { table: String, request: JoinRequest },
    /// One of the registered bots' messages (see `invites`).
    Bot(BotMsg),
}

/// A registered bot's messages, which go through the lobby's bot directory.
#[derive(Debug, PartialEq)]
pub(super) enum BotMsg {
    /// `available`: waiting for invitations.
    Available {
        token: String,
        variants: Vec<Variant>,
        max_tables: u32,
    },
    /// `accept`: take up an invitation.
    Accept { invitation: String, token: String },
    /// `decline`: turn an invitation down.
    Decline { invitation: String },
    /// `invite_bot`: the host invites a registered bot to a seat.
    InviteBot { seat: Seat, bot: String },
}

impl From<ClientMsg> for Routed {
    fn from(msg: ClientMsg) -> Routed {
        use ConnectionMsg as C;
        use Routed::{Connection, Table};
        let table = match msg {
            ClientMsg::Ping {} => return Connection(C::Ping),
            ClientMsg::Join {
                table,
                seat,
                name,
                token,
                bot,
            } => {
                let request = JoinRequest {
                    seat,
                    name,
                    token,
                    bot,
                    watch: false,
                    account: None,
                };
                return Connection(C::Join { table, request });
            }
            ClientMsg::Watch { table } => {
                let request = JoinRequest {
                    seat: None,
                    name: None,
                    token: None,
                    bot: false,
                    watch: true,
                    account: None,
                };
                return Connection(C::Join { table, request });
            }
            ClientMsg::Available {
                token,
                variants,
                max_tables,
            } => {
                return Connection(C::Bot(BotMsg::Available {
                    token,
                    variants,
                    max_tables,
                }));
            }
            ClientMsg::Accept { invitation, token } => {
                return Connection(C::Bot(BotMsg::Accept { invitation, token }));
            }
            ClientMsg::Decline { invitation } => {
                return Connection(C::Bot(BotMsg::Decline { invitation }));
            }
            ClientMsg::InviteBot { seat, bot } => {
                return Connection(C::Bot(BotMsg::InviteBot { seat, bot }));
            }
            ClientMsg::Play { card, seat, seq } => a_move(Action::Play { card }, seat, seq),
            ClientMsg::Pass { cards, seat, seq } => a_move(Action::Pass { cards }, seat, seq),
            ClientMsg::Bid { tricks, seat, seq } => a_move(Action::Bid { tricks }, seat, seq),
            ClientMsg::BlindNil { seat, seq } => a_move(Action::BlindNil, seat, seq),
            ClientMsg::SeeCards { seat, seq } => a_move(Action::SeeCards, seat, seq),
            ClientMsg::Exchange { cards, seat, seq } => {
                a_move(Action::Exchange { cards }, seat, seq)
            }
            ClientMsg::Call { call, seat, seq } => a_move(Action::Call(call), seat, seq),
            ClientMsg::Discard { card, seat, seq } => a_move(Action::Discard { card }, seat, seq),
            ClientMsg::Claim { tricks, seat, seq } => a_move(Action::Claim { tricks }, seat, seq),
            ClientMsg::AnswerClaim { accept, seat, seq } => {
                a_move(Action::AnswerClaim { accept }, seat, seq)
            }
            ClientMsg::AddBot { seat, strategy } => TableRequest::AddBot { seat, strategy },
            ClientMsg::RemoveBot { seat } => TableRequest::RemoveBot { seat },
            ClientMsg::Start {} => TableRequest::Start,
            ClientMsg::Leave {} => TableRequest::Leave,
            ClientMsg::Sync {} => TableRequest::Sync,
            ClientMsg::Chat { text } => TableRequest::Chat { text },
            ClientMsg::Hint {} => TableRequest::Hint,
            ClientMsg::ClaimHost { key } => TableRequest::ClaimHost { key },
            ClientMsg::StandIn { seat } => TableRequest::StandIn { seat },
            ClientMsg::Back {} => TableRequest::Back,
            ClientMsg::OpenSeat { seat } => TableRequest::OpenSeat { seat },
        };
        Table(table)
    }
}

/// The table request a move makes.
fn a_move(action: Action, seat: Option<Seat>, seq: Option<u64>) -> TableRequest {
    TableRequest::Move { action, seat, seq }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use parlor_shared::protocol::CLIENT_TYPES;

    use super::*;

    /// One message of every client type, each with the side it is for (`true`: the table).
    fn one_of_each() -> Vec<(&'static str, bool)> {
        [
            (r#"{"type":"join","table":"t"}"#, false),
            (r#"{"type":"watch","table":"t"}"#, false),
            (r#"{"type":"ping"}"#, false),
            (r#"{"type":"available","token":"k"}"#, false),
            (r#"{"type":"accept","invitation":"i","token":"k"}"#, false),
            (r#"{"type":"decline","invitation":"i"}"#, false),
            (r#"{"type":"invite_bot","seat":1,"bot":"b"}"#, false),
            (r#"{"type":"play","card":"2C"}"#, true),
            (r#"{"type":"pass","cards":["2C","3C","4C"]}"#, true),
            (r#"{"type":"bid","tricks":3}"#, true),
            (r#"{"type":"blind_nil"}"#, true),
            (r#"{"type":"see_cards"}"#, true),
            (r#"{"type":"exchange","cards":["2C"]}"#, true),
            (r#"{"type":"call","call":"pass"}"#, true),
            (r#"{"type":"discard","card":"2C"}"#, true),
            (r#"{"type":"claim","tricks":3}"#, true),
            (r#"{"type":"answer_claim","accept":true}"#, true),
            (r#"{"type":"add_bot","seat":1,"strategy":"random"}"#, true),
            (r#"{"type":"remove_bot","seat":1}"#, true),
            (r#"{"type":"start"}"#, true),
            (r#"{"type":"leave"}"#, true),
            (r#"{"type":"sync"}"#, true),
            (r#"{"type":"chat","text":"hi"}"#, true),
            (r#"{"type":"hint"}"#, true),
            (r#"{"type":"claim_host","key":"k"}"#, true),
            (r#"{"type":"stand_in","seat":1}"#, true),
            (r#"{"type":"back"}"#, true),
            (r#"{"type":"open_seat","seat":1}"#, true),
        ]
        .into()
    }

    /// Every client message goes to exactly one side, the one its kind says; the list above
    /// covers every type the protocol has, so a new message must be placed here too.
    #[test]
    fn every_client_message_goes_to_one_side() {
        let mut kinds = BTreeSet::new();
        for (text, for_table) in one_of_each() {
            let msg = ClientMsg::parse(text).unwrap_or_else(|err| panic!("{text}: {err}"));
            let value: serde_json::Value = serde_json::to_value(&msg).unwrap();
            kinds.insert(value["type"].as_str().unwrap().to_string());
            let action = msg.action();
            match Routed::from(msg) {
                Routed::Table(TableRequest::Move { action: made, .. }) => {
                    assert!(for_table, "{text}");
                    assert_eq!(Some(made), action, "{text}: the move carries its action");
                }
                Routed::Table(_) => {
                    assert!(for_table, "{text}");
                    assert_eq!(action, None, "{text}: a move is routed as a move");
                }
                Routed::Connection(_) => assert!(!for_table, "{text}"),
            }
        }
        let all: BTreeSet<String> = CLIENT_TYPES.iter().map(|t| (*t).to_string()).collect();
        assert_eq!(kinds, all);
    }

    /// What a move says besides its action (the seat and the prompt it answers) reaches the
    /// table unchanged; `watch` asks for no seat.
    #[test]
    fn a_move_keeps_its_seat_and_seq_and_watch_takes_no_seat() {
        let msg = ClientMsg::parse(r#"{"type":"bid","tricks":4,"seat":2,"seq":9}"#).unwrap();
        assert_eq!(
            Routed::from(msg),
            Routed::Table(TableRequest::Move {
                action: Action::Bid { tricks: 4 },
                seat: Some(Seat(2)),
                seq: Some(9),
            })
        );
        let msg = ClientMsg::parse(r#"{"type":"watch","table":"t"}"#).unwrap();
        let Routed::Connection(ConnectionMsg::Join { table, request }) = Routed::from(msg) else {
            panic!("watch is the connection's");
        };
        assert_eq!(table, "t");
        assert!(request.watch && request.seat.is_none());
    }
}
