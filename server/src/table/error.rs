//! Why a table refused what a connection asked: a typed error with a stable code (the
//! protocol's `codes::*`, or the rules' own) and player-facing words, as `RuleError` is.
//!
//! It owns the refusals and their wording only; the table decides when to refuse.

use parlor_shared::protocol::{ServerMsg, codes};
use parlor_shared::{Action, RuleError, Seat, Variant};
use thiserror::Error;

/// A refusal from a table, sent back to the one connection that asked as an `error` frame.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableError {
    /// The connection is no longer at the table (it left, or was replaced).
    #[error("you are not at this table any more")]
    NotHere,
    /// A spectator tried to move.
    #[error("spectators cannot play: join to take a seat")]
    NotSeated,
    /// A move named another seat than the sender's.
    #[error("you sit in {seat}, not {claimed}: you can only move for your own seat")]
    NotYourSeat {
        /// The sender's seat.
        seat: Seat,
        /// The seat the move named.
        claimed: Seat,
    },
    /// A move while no match is being played.
    #[error("no match is being played: the host starts one")]
    NoMatch,
    /// A move answered an earlier prompt than the seat's current one.
    #[error(
        "this answers an earlier prompt (seq {answered}); the current one is seq {current}: \
         answer each prompt once"
    )]
    StaleMove {
        /// The prompt the move answered.
        answered: u64,
        /// The seat's current prompt.
        current: u64,
    },
    /// A move answered a prompt that is already answered (or was played for the seat), and
    /// the seat has no prompt now.
    #[error(
        "the prompt of seq {answered} is already answered and you have no prompt now: answer \
         each prompt once, and wait for the next your_turn"
    )]
    AlreadyAnswered {
        /// The prompt the move answered.
        answered: u64,
    },
    /// A move without `seq` repeated a card or a pass the seat already made: a repeated
    /// answer.
    #[error(
        "you already {}: this repeats an answer to an earlier prompt; answer each prompt \
         once (send the prompt's seq with each move)",
        done(action)
    )]
    DuplicateMove {
        /// The move made again.
        action: Action,
    },
    /// A move named a prompt newer than the seat's latest.
    #[error(
        "there is no prompt of seq {answered} for you: your latest prompt is seq {current}; \
         send the seq of the your_turn you answer"
    )]
    UnknownPrompt {
        /// The `seq` the move named.
        answered: u64,
        /// The seat's latest prompt.
        current: u64,
    },
    /// The rules refused the move.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// A host request (`add_bot`, `remove_bot`, `start`) from someone else.
    #[error("only the table's host can do that")]
    NotHost,
    /// `add_bot` named a strategy the variant does not have.
    #[error("there is no built-in bot `{name}` for {variant}: choose one of {choices}")]
    UnknownStrategy {
        /// The name asked for.
        name: String,
        /// The table's variant.
        variant: Variant,
        /// The strategies offered, comma-separated.
        choices: String,
    },
    /// The seat number is outside the table.
    #[error("there is no {0} at this table")]
    NoSuchSeat(Seat),
    /// `remove_bot` on a seat without a built-in bot.
    #[error("{0} does not hold a built-in bot")]
    NotABot(Seat),
    /// `remove_bot` during a match.
    #[error("bots stay until the match is over")]
    BotsStayUntilOver,
    /// `start` during a match.
    #[error("a match is already being played")]
    AlreadyPlaying,
    /// `start` with empty seats (their numbers, comma-separated).
    #[error("every seat must be filled first: seat {0} empty (add bots?)")]
    SeatsEmpty(String),
    /// The seat asked for is taken.
    #[error("{0} is taken")]
    SeatTaken(Seat),
    /// No seat is free.
    #[error("every seat is taken")]
    TableFull,
    /// A seat token that opens no seat here.
    #[error("that seat token is not valid at this table (wrong, or the seat was given up)")]
    BadToken,
    /// Told to the connection a newer one with the same token replaced.
    #[error(
        "this seat is now played from another window or device (a newer connection with its \
         token); join again with the token to take it back"
    )]
    Replaced,
    /// Told to the connection whose seat the server's operator emptied.
    #[error("the server's operator took you out of this seat; its token no longer works")]
    Kicked,
    /// An admin kick named a seat nobody holds.
    #[error("nobody sits in {0}")]
    SeatEmpty(Seat),
    /// A chat line that is empty or longer than the limit.
    #[error("a chat line must be 1 to {0} characters long")]
    ChatTooLong(usize),
    /// Too many chat lines in a short time.
    #[error("you are chatting too fast: wait a few seconds")]
    ChatTooFast,
    /// A spectator wrote at a table that lets only its players chat.
    #[error("only the players can chat at this table")]
    SpectatorChat,
    /// `hint` at a table whose host turned hints off.
    #[error("the host turned hints off at this table")]
    HintsOff,
    /// The store cannot write now: the table is paused.
    #[error(
        "the server cannot save the game right now, so the table is paused: nothing was done; \
         try again when play resumes"
    )]
    StorageUnavailable,
    /// A newcomer asked for a seat given up during the match that the host has not opened.
    #[error(
        "{0} was given up during this match and a computer plays it until the match ends: \
         ask the host to open it, or wait for the next match"
    )]
    SeatClosed(Seat),
    /// A name that poses as a computer player or the host.
    #[error(transparent)]
    BadName(#[from] super::names::NameError),
    /// The table has as many spectators as the server allows.
    #[error("this table already has {0} spectators, as many as the server allows")]
    TooManySpectators(usize),
    /// `claim_host` with a key that is not the table's.
    #[error("that is not this table's host key")]
    BadHostKey,
    /// `stand_in` on a seat no person or program holds.
    #[error("no person or program sits in {0}")]
    NoPlayer(Seat),
}

impl TableError {
    /// The stable code clients see (one of the protocol's `codes`, or the rule's code).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            TableError::NotHere => codes::NOT_JOINED,
            TableError::NotSeated => codes::NOT_SEATED,
            TableError::NotYourSeat { .. } => codes::NOT_YOUR_SEAT,
            TableError::NoMatch => codes::NO_MATCH,
            TableError::StaleMove { .. }
            | TableError::AlreadyAnswered { .. }
            | TableError::DuplicateMove { .. } => codes::STALE_MOVE,
            TableError::UnknownPrompt { .. } => codes::UNKNOWN_PROMPT,
            TableError::Rule(err) => err.code(),
            TableError::NotHost => codes::NOT_HOST,
            TableError::UnknownStrategy { .. } => codes::UNKNOWN_STRATEGY,
            TableError::NoSuchSeat(_) => codes::NO_SUCH_SEAT,
            TableError::NotABot(_) => codes::NOT_A_BOT,
            TableError::BotsStayUntilOver | TableError::AlreadyPlaying => codes::MATCH_IN_PROGRESS,
            TableError::SeatsEmpty(_) => codes::SEATS_EMPTY,
            TableError::SeatTaken(_) => codes::SEAT_TAKEN,
            TableError::TableFull => codes::TABLE_FULL,
            TableError::BadToken => codes::BAD_TOKEN,
            TableError::Replaced => codes::REPLACED,
            TableError::Kicked => codes::KICKED,
            TableError::SeatEmpty(_) => codes::SEAT_EMPTY,
            TableError::ChatTooLong(_) => codes::CHAT_TOO_LONG,
            TableError::ChatTooFast => codes::CHAT_TOO_FAST,
            TableError::SpectatorChat => codes::NOT_SEATED,
            TableError::HintsOff => codes::HINTS_OFF,
            TableError::StorageUnavailable => codes::STORAGE_UNAVAILABLE,
            TableError::SeatClosed(_) => codes::SEAT_CLOSED,
            TableError::BadName(_) => codes::BAD_NAME,
            TableError::TooManySpectators(_) => codes::TOO_MANY_SPECTATORS,
            TableError::BadHostKey => codes::BAD_HOST_KEY,
            TableError::NoPlayer(_) => codes::NO_PLAYER,
        }
    }

    /// True for a move that does not answer the seat's current prompt: that prompt still
    /// stands, so it is not sent again (re-prompting a repeated answer makes a cascade).
    #[must_use]
    pub fn prompt_stands(&self) -> bool {
        matches!(
            self,
            TableError::StaleMove { .. }
                | TableError::AlreadyAnswered { .. }
                | TableError::DuplicateMove { .. }
                | TableError::UnknownPrompt { .. }
        )
    }

    /// The `error` frame sent to the client.
    #[must_use]
    pub fn to_msg(&self) -> ServerMsg {
        ServerMsg::error(self.code(), self.to_string())
    }
}

/// What a repeated move did the first time, for the refusal's words.
fn done(action: &Action) -> String {
    match action {
        Action::Play { card } => format!("played {card}"),
        Action::Pass { .. } => "passed these cards".to_string(),
        Action::Bid { tricks } => format!("bid {tricks}"),
        Action::BlindNil => "bid blind nil".to_string(),
        Action::SeeCards => "looked at your cards".to_string(),
        Action::Exchange { .. } => "gave these cards".to_string(),
        Action::Call(_) => "made this call".to_string(),
        Action::Discard { card } => format!("discarded {card}"),
        Action::Claim { tricks } => format!("claimed {tricks} tricks"),
        Action::AnswerClaim { accept: true } => "accepted the claim".to_string(),
        Action::AnswerClaim { accept: false } => "rejected the claim".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes are part of the protocol: a renamed variant must not change what clients see.
    #[test]
    fn codes_and_words_are_the_protocol_s() {
        let cases = [
            (TableError::NotHere, "not_joined"),
            (TableError::NotSeated, "not_seated"),
            (
                TableError::NotYourSeat {
                    seat: Seat(0),
                    claimed: Seat(1),
                },
                "not_your_seat",
            ),
            (TableError::NoMatch, "no_match"),
            (
                TableError::StaleMove {
                    answered: 1,
                    current: 2,
                },
                "stale_move",
            ),
            (TableError::AlreadyAnswered { answered: 3 }, "stale_move"),
            (
                TableError::DuplicateMove {
                    action: Action::Play {
                        card: "QS".parse().unwrap(),
                    },
                },
                "stale_move",
            ),
            (
                TableError::UnknownPrompt {
                    answered: 1013,
                    current: 13,
                },
                "unknown_prompt",
            ),
            (TableError::Rule(RuleError::NotYourTurn), "not_your_turn"),
            (TableError::NotHost, "not_host"),
            (TableError::NoSuchSeat(Seat(7)), "no_such_seat"),
            (TableError::NotABot(Seat(1)), "not_a_bot"),
            (TableError::BotsStayUntilOver, "match_in_progress"),
            (TableError::AlreadyPlaying, "match_in_progress"),
            (TableError::SeatsEmpty("1, 2".into()), "seats_empty"),
            (TableError::SeatTaken(Seat(1)), "seat_taken"),
            (TableError::TableFull, "table_full"),
            (TableError::BadToken, "bad_token"),
            (TableError::Replaced, "replaced"),
            (TableError::Kicked, "kicked"),
            (TableError::SeatEmpty(Seat(2)), "seat_empty"),
            (TableError::ChatTooLong(200), "chat_too_long"),
            (TableError::ChatTooFast, "chat_too_fast"),
            (TableError::SpectatorChat, "not_seated"),
            (TableError::StorageUnavailable, "storage_unavailable"),
            (TableError::SeatClosed(Seat(1)), "seat_closed"),
            (
                TableError::BadName(crate::table::names::NameError::Poses { word: "bot".into() }),
                "bad_name",
            ),
            (TableError::TooManySpectators(50), "too_many_spectators"),
            (TableError::BadHostKey, "bad_host_key"),
            (TableError::NoPlayer(Seat(2)), "no_player"),
        ];
        for (err, code) in cases {
            assert_eq!(err.code(), code, "{err:?}");
            let ServerMsg::Error {
                code: sent,
                message,
            } = err.to_msg()
            else {
                panic!("an error frame");
            };
            assert_eq!((sent.as_str(), message), (code, err.to_string()));
        }
        let rule = TableError::from(RuleError::NotYourTurn);
        assert_eq!(rule.to_string(), RuleError::NotYourTurn.to_string());
    }
}
