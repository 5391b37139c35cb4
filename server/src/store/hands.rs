//! Finished hands, every card face up: built by replaying a table's log, served as JSON by
//! `GET /api/tables/{id}/hands/{n}` and printed by `parlor replay`.
//!
//! Only hands whose score has been written down are ever built: the hand in progress (and its
//! hidden cards) is never part of a replay. Nor is the match's seed: it deals every later
//! hand of the match, so knowing it would show the cards still to come. Each finished hand
//! does carry its own deal secret and commitment (`result.secret`, `commitment`), which show
//! nothing of any other hand, so anyone can check it was dealt fairly (`parlor verify`).
//!
//! Pure: it reads a table's log and the engine, never the database or the server.

use std::fmt::Write as _;

use parlor_shared::fair::Hash32;
use parlor_shared::protocol::Occupant;
use parlor_shared::rules::{Call, HandResult, PassDirection};
use parlor_shared::{Card, CardSet, Event, Options, PerSeat, Seat, Suit, Variant};
use serde::{Deserialize, Serialize};

use super::records::TableLog;
use super::restore::{RestoreError, replay_match, setup_of};

/// The replay format's version, bumped on incompatible changes.
pub const FORMAT: u32 = 1;

/// One finished hand with every card face up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandReplay {
    /// The format's version ([`FORMAT`]).
    pub format: u32,
    /// The table's id.
    pub table: String,
    /// The variant.
    pub variant: Variant,
    /// Every rule option.
    pub options: Options,
    /// The hand's number at the table, from 0 over every match (the `n` of the URL).
    pub number: u32,
    /// The match it belongs to, from 1.
    pub match_no: u32,
    /// The hand's number within its match, from 0 (as in `hand_started`).
    pub hand: u32,
    /// Who sits where (names as the table last saved them).
    pub players: Vec<Player>,
    /// Who dealt.
    pub dealer: Seat,
    /// Where cards were passed, if they were.
    pub pass: Option<PassDirection>,
    /// The trump suit, if any.
    pub trump: Option<Suit>,
    /// Cards shown face up at the deal (hearts5's undealt pair, whist's trump card).
    pub face_up: CardSet,
    /// Each seat's dealt hand, by seat.
    pub dealt: Vec<CardSet>,
    /// The passes, giver by giver.
    pub passes: Vec<Pass>,
    /// The calls in order: Euchre's trump making, Bridge's auction (absent in other games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<CallMade>,
    /// The tricks in order (a hand cut short by a bad card ends with an unfinished one).
    pub tricks: Vec<Trick>,
    /// `tricks`: the illegal card that ended the hand.
    pub bad_card: Option<BadCardPlayed>,
    /// The score sheet line.
    pub result: HandResult,
    /// Set when this hand ended the match.
    pub match_over: Option<MatchOver>,
    /// SHA-256 of the secret the hand was dealt from, as `hand_started` published it; the
    /// secret itself is `result.secret`. `parlor verify` recomputes the deal from them
    /// (docs/FAIRNESS.md). Absent for hands not dealt by the fair recipe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<Hash32>,
}

/// A seat's occupant in a replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The seat.
    pub seat: Seat,
    /// The name shown.
    pub name: Option<String>,
    /// Person, bot or program.
    pub occupant: Occupant,
}

/// Cards given in the passing phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pass {
    /// The giver.
    pub from: Seat,
    /// The receiver.
    pub to: Seat,
    /// The cards.
    pub cards: CardSet,
}

/// One call of the calling phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallMade {
    /// Who called.
    pub seat: Seat,
    /// The call, as the `called` event writes it.
    #[serde(flatten)]
    pub call: Call,
}

/// One card played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// One trick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trick {
    /// Who led.
    pub leader: Seat,
    /// The cards in the order played.
    pub plays: Vec<Play>,
    /// Who took it (`None` for a trick cut short by a bad card).
    pub winner: Option<Seat>,
}

/// `tricks`' illegal card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BadCardPlayed {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
    /// Points lost.
    pub penalty: i32,
}

/// The end of a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchOver {
    /// Who won.
    pub winners: Vec<Seat>,
    /// Final totals.
    pub totals: PerSeat<i32>,
}

/// A short line per finished hand, for listings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandSummary {
    /// The hand's number at the table (the `n` of its URL).
    pub number: u32,
    /// Its match, from 1.
    pub match_no: u32,
    /// Its number within the match.
    pub hand: u32,
    /// Its URL path.
    pub url: String,
    /// Points scored.
    pub points: PerSeat<i32>,
    /// Totals after it.
    pub totals: PerSeat<i32>,
}

/// Every finished hand of a table, in order, and whether a hand is being played now.
#[derive(Debug, Clone)]
pub struct TableHands {
    /// The table's game.
    pub variant: Variant,
    /// The finished hands.
    pub finished: Vec<HandReplay>,
    /// True when a hand has begun and not been scored (its number would be `finished.len()`).
    pub in_progress: bool,
}

/// A hand being put together from events.
struct Builder {
    hand: u32,
    commitment: Option<Hash32>,
    dealer: Seat,
    pass: Option<PassDirection>,
    trump: Option<Suit>,
    face_up: CardSet,
    dealt: Vec<CardSet>,
    passes: Vec<Pass>,
    calls: Vec<CallMade>,
    tricks: Vec<Trick>,
    bad_card: Option<BadCardPlayed>,
}

/// Replays every match of a table and returns its finished hands.
pub fn table_hands(log: &TableLog) -> Result<TableHands, RestoreError> {
    let (variant, rules, _) = setup_of(log)?;
    let players: Vec<Player> = (0..rules.players())
        .map(|seat| {
            let row = log.seats.iter().find(|s| s.seat == seat);
            Player {
                seat: Seat(seat),
                name: row.and_then(|r| r.name.clone()),
                occupant: row.map_or(Occupant::Empty, |r| r.occupant),
            }
        })
        .collect();
    let mut finished = Vec::new();
    let mut in_progress = false;
    for m in &log.matches {
        let first = log.actions.partition_point(|a| a.match_no < m.match_no);
        let last = log.actions.partition_point(|a| a.match_no <= m.match_no);
        let mut current: Option<Builder> = None;
        let mut done: Vec<HandReplay> = Vec::new();
        replay_match(rules, m, &log.actions[first..last], |events| {
            for event in events {
                on_event(event, &mut current, &mut done, |b, result| HandReplay {
                    format: FORMAT,
                    table: log.table.id.clone(),
                    variant,
                    options: rules.options(),
                    number: 0,
                    match_no: m.match_no,
                    hand: b.hand,
                    players: players.clone(),
                    dealer: b.dealer,
                    pass: b.pass,
                    trump: b.trump,
                    face_up: b.face_up,
                    dealt: b.dealt,
                    passes: b.passes,
                    calls: b.calls,
                    tricks: b.tricks,
                    bad_card: b.bad_card,
                    result,
                    match_over: None,
                    commitment: b.commitment,
                });
            }
        })?;
        in_progress = current.is_some();
        finished.extend(done);
    }
    for (i, hand) in finished.iter_mut().enumerate() {
        hand.number = i as u32;
    }
    Ok(TableHands {
        variant,
        finished,
        in_progress,
    })
}

/// Folds one event into the hand being built.
fn on_event(
    event: &Event,
    current: &mut Option<Builder>,
    done: &mut Vec<HandReplay>,
    finish: impl Fn(Builder, HandResult) -> HandReplay,
) {
    match event {
        Event::HandStarted {
            hand,
            dealer,
            pass,
            commitment,
            ..
        } => {
            *current = Some(Builder {
                hand: *hand,
                commitment: *commitment,
                dealer: *dealer,
                pass: *pass,
                trump: None,
                face_up: CardSet::EMPTY,
                dealt: Vec::new(),
                passes: Vec::new(),
                calls: Vec::new(),
                tricks: Vec::new(),
                bad_card: None,
            });
        }
        Event::MatchOver { winners, totals } => {
            if let Some(last) = done.last_mut() {
                last.match_over = Some(MatchOver {
                    winners: winners.to_vec(),
                    totals: *totals,
                });
            }
        }
        Event::HandScored(result) => {
            if let Some(builder) = current.take() {
                done.push(finish(builder, result.clone()));
            }
        }
        _ => {
            let Some(b) = current.as_mut() else { return };
            match event {
                Event::Dealt { seat, cards } => {
                    if b.dealt.len() <= seat.index() {
                        b.dealt.resize(seat.index() + 1, CardSet::EMPTY);
                    }
                    b.dealt[seat.index()] = *cards;
                }
                Event::TrumpShown { trump, cards } => {
                    b.trump = Some(*trump);
                    b.face_up = *cards;
                }
                Event::CardsPassed { from, to, cards } => b.passes.push(Pass {
                    from: *from,
                    to: *to,
                    cards: *cards,
                }),
                Event::Called { seat, call } => b.calls.push(CallMade {
                    seat: *seat,
                    call: *call,
                }),
                Event::Played { seat, card } => {
                    let open = b.tricks.last().is_some_and(|t| t.winner.is_none());
                    if !open {
                        b.tricks.push(Trick {
                            leader: *seat,
                            plays: Vec::new(),
                            winner: None,
                        });
                    }
                    let trick = b.tricks.last_mut().expect("a trick");
                    trick.plays.push(Play {
                        seat: *seat,
                        card: *card,
                    });
                }
                Event::TrickWon { winner, .. } => {
                    if let Some(trick) = b.tricks.last_mut() {
                        trick.winner = Some(*winner);
                    }
                }
                Event::BadCard {
                    seat,
                    card,
                    penalty,
                } => {
                    b.bad_card = Some(BadCardPlayed {
                        seat: *seat,
                        card: *card,
                        penalty: *penalty,
                    });
                }
                _ => {}
            }
        }
    }
}

impl HandReplay {
    /// The listing line of this hand.
    #[must_use]
    pub fn summary(&self) -> HandSummary {
        HandSummary {
            number: self.number,
            match_no: self.match_no,
            hand: self.hand,
            url: format!("/api/tables/{}/hands/{}", self.table, self.number),
            points: self.result.points,
            totals: self.result.totals,
        }
    }

    /// The hand in compact card notation (`467QAc 2Kd`), one section per phase.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let who = |seat: Seat| -> String {
            match self
                .players
                .get(seat.index())
                .and_then(|p| p.name.as_deref())
            {
                Some(name) => format!("{seat} ({name})"),
                None => seat.to_string(),
            }
        };
        let card = |card: Card| CardSet::single(card).to_compact(true);
        let _ = writeln!(
            out,
            "{} table {} - match {}, hand {} (#{} at the table)",
            self.variant, self.table, self.match_no, self.hand, self.number
        );
        let mut deal = format!("dealer: {}", who(self.dealer));
        if let Some(pass) = self.pass {
            let _ = write!(deal, ", pass {}", pass_name(pass));
        }
        if let Some(trump) = self.trump {
            let _ = write!(
                deal,
                ", trump {} (shown: {})",
                suit_name(trump),
                self.face_up.to_compact(true)
            );
        }
        let _ = writeln!(out, "{deal}");
        let _ = writeln!(out, "dealt:");
        for (i, cards) in self.dealt.iter().enumerate() {
            let _ = writeln!(out, "  {}: {}", who(Seat(i as u8)), cards.to_compact(true));
        }
        if !self.passes.is_empty() {
            let _ = writeln!(out, "passes:");
            for pass in &self.passes {
                let _ = writeln!(
                    out,
                    "  {} -> {}: {}",
                    who(pass.from),
                    who(pass.to),
                    pass.cards.to_compact(true)
                );
            }
        }
        if !self.calls.is_empty() {
            let calls: Vec<String> = self
                .calls
                .iter()
                .map(|c| format!("{}:{}", c.seat.0, call_name(c.call)))
                .collect();
            let _ = writeln!(out, "calls: {}", calls.join(" "));
        }
        let _ = writeln!(out, "tricks:");
        for (i, trick) in self.tricks.iter().enumerate() {
            let plays: Vec<String> = trick
                .plays
                .iter()
                .map(|p| format!("{}:{}", p.seat.0, card(p.card)))
                .collect();
            let winner = trick.winner.map_or_else(
                || "not finished".to_string(),
                |w| format!("won by {}", who(w)),
            );
            let _ = writeln!(
                out,
                "  {:>2}. led by {}: {} - {winner}",
                i + 1,
                trick.leader.0,
                plays.join(" ")
            );
        }
        if let Some(bad) = self.bad_card {
            let _ = writeln!(
                out,
                "bad card: {} played {} ({} points)",
                who(bad.seat),
                card(bad.card),
                bad.penalty
            );
        }
        let line = |values: &[i32]| -> String {
            values
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let tricks: Vec<i32> = self
            .result
            .tricks
            .as_slice()
            .iter()
            .map(|&t| i32::from(t))
            .collect();
        let _ = writeln!(out, "tricks won: {}", line(&tricks));
        let _ = writeln!(out, "points:     {}", line(self.result.points.as_slice()));
        let _ = writeln!(out, "totals:     {}", line(self.result.totals.as_slice()));
        if let Some(seat) = self.result.moon {
            let _ = writeln!(out, "{} shot the moon", who(seat));
        }
        if let Some(over) = &self.match_over {
            let winners: Vec<String> = over.winners.iter().map(|&w| who(w)).collect();
            let _ = writeln!(out, "match over: won by {}", winners.join(", "));
        }
        out
    }
}

/// A pass direction in words.
fn pass_name(pass: PassDirection) -> &'static str {
    match pass {
        PassDirection::Left => "left",
        PassDirection::Right => "right",
        PassDirection::Across => "across",
    }
}

/// A call in a few characters: `pass`, `1NT`, `X`, `order up`, `trump hearts alone`.
fn call_name(call: Call) -> String {
    let alone = |alone: bool| if alone { " alone" } else { "" };
    match call {
        Call::OrderUp { alone: a } => format!("order up{}", alone(a)),
        Call::Trump { suit, alone: a } => format!("trump {}{}", suit_name(suit), alone(a)),
        Call::DefendAlone => "defend alone".to_string(),
        Call::Pass => "pass".to_string(),
        Call::Bid(bid) => bid.to_string(),
        Call::Double => "X".to_string(),
        Call::Redouble => "XX".to_string(),
    }
}

/// A suit in words.
fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
    }
}
