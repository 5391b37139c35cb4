//! The JSON of the messages a table sends at every move — `your_turn`, `state` and `event` —
//! written by hand, byte for byte what `serde_json` writes from their `Serialize` derives.
//!
//! Why by hand: a prompt carries a whole [`PlayerView`], and encoding it through `serde_json`
//! (every name and card through the string escaper, every value through the generic
//! serializer) would be the largest part of the server's work per move. Here names are literals and
//! a card is a copy of its quoted letters; nothing a client can write reaches these messages,
//! so there is nothing to escape. The derives stay the reference: `shared/tests/view_json.rs`
//! compares both on every view of random matches. Each writer destructures its type without
//! `..`, so a field added to a message fails to compile here until it is written.

use std::sync::Arc;

use crate::card::{CARD_INDICES, Card, CardSet, Suit};
use crate::fair::Hash32;
use crate::protocol::ServerMsg;
use crate::rules::{
    Action, BadCard, CompletedTrick, Event, HandResult, Legal, Moon, OhHellScoring, Options,
    PassDirection, Phase, Schedule, Variant,
};
use crate::seat::{MAX_SEATS, PerSeat, Seat};

use super::{BlindView, PassView, PlayedCard, PlayerView, TrickView};

/// Writes `msg` as JSON to `out` when it is one of the messages written here (`your_turn`,
/// `state`, `event`), returning `false` (and writing nothing) for any other: those go through
/// `serde_json`.
pub fn write_message(out: &mut String, msg: &ServerMsg) -> bool {
    write_message_with(out, msg, None)
}

/// [`write_message`], taking what a view repeats from `cache` (see [`ViewCache`]) when one is
/// given.
pub fn write_message_with(
    out: &mut String,
    msg: &ServerMsg,
    cache: Option<&mut ViewCache>,
) -> bool {
    match msg {
        ServerMsg::YourTurn {
            seq,
            legal,
            view,
            timeout_ms,
        } => write_your_turn(out, *seq, legal, view, *timeout_ms, cache),
        ServerMsg::State { seq, view } => {
            out.push_str(r#"{"type":"state","seq":"#);
            uint(out, *seq);
            out.push_str(r#","view":"#);
            write_view_with(out, view, cache);
            out.push('}');
        }
        ServerMsg::Event { seq, prev, event } => {
            out.push_str(r#"{"type":"event","seq":"#);
            uint(out, *seq);
            out.push_str(r#","prev":"#);
            uint(out, *prev);
            out.push_str(r#","event":"#);
            write_event(out, event);
            out.push('}');
        }
        _ => return false,
    }
    true
}

/// Writes a `your_turn` message from its parts, as `serde_json` writes
/// [`ServerMsg::YourTurn`]: a table writes a prompt from the view it has just made, without
/// moving the view into a message of its own first (a 360-byte box a move).
pub fn write_your_turn(
    out: &mut String,
    seq: u64,
    legal: &Legal,
    view: &PlayerView,
    timeout_ms: Option<u64>,
    cache: Option<&mut ViewCache>,
) {
    out.push_str(r#"{"type":"your_turn","seq":"#);
    uint(out, seq);
    out.push_str(r#","legal":"#);
    write_legal(out, legal);
    out.push_str(r#","view":"#);
    write_view_with(out, view, cache);
    if let Some(ms) = timeout_ms {
        out.push_str(r#","timeout_ms":"#);
        uint(out, ms);
    }
    out.push('}');
}

/// Writes a view as `serde_json` writes it.
pub fn write_view(out: &mut String, view: &PlayerView) {
    write_view_with(out, view, None);
}

/// What a table writes into view after view, kept written: the parts of a view that change
/// once a hand (the score sheet, the deal's commitment, the match's totals) while views are
/// made at every move.
///
/// Each part is written again only when the view differs from what it holds (the score sheet
/// from its first differing line), so a cache given the views of any match, in any order,
/// still writes each view exactly.
#[derive(Debug, Default, Clone)]
pub struct ViewCache {
    sheet: ScoreSheet,
    /// The deal's commitment, quotes included.
    commitment: Kept<Hash32>,
    /// The match's totals and negative totals, with their keys.
    totals: Kept<(PerSeat<i32>, PerSeat<i32>)>,
}

/// A match's score sheet (a view's `history`) as last written.
///
/// The lines it holds are the view's own, shared (not a copy of them): shared lines cannot
/// change while the sheet holds them, so a view carrying the very lines it holds (a table's
/// views, see [`PlayerView::with_history`]) needs no comparing.
#[derive(Debug, Default, Clone)]
struct ScoreSheet {
    /// The lines written, as they were.
    lines: Arc<Vec<HandResult>>,
    /// Their JSON, without the list's brackets.
    json: String,
}

impl ScoreSheet {
    /// Writes `history`'s lines (without the brackets), first bringing the sheet up to date.
    fn write(&mut self, out: &mut String, history: &Arc<Vec<HandResult>>) {
        if !Arc::ptr_eq(history, &self.lines) {
            if history != &self.lines {
                self.update(history);
            }
            self.lines = Arc::clone(history);
        }
        out.push_str(&self.json);
    }

    /// Writes the lines of `history` the sheet does not hold yet (all of them when the sheet
    /// holds other lines), then gives back the room grown for them: a table keeps its sheet
    /// for a whole match, and the doubling growth would have kept up to twice its size.
    #[cold]
    fn update(&mut self, history: &[HandResult]) {
        let held = if history.starts_with(&self.lines) {
            self.lines.len()
        } else {
            self.json.clear();
            0
        };
        for line in &history[held..] {
            if !self.json.is_empty() {
                self.json.push(',');
            }
            self.json.push('{');
            write_hand_result_fields(&mut self.json, line);
            self.json.push('}');
        }
        self.json.shrink_to_fit();
    }
}

/// A part of a view as last written, and the value it was written from: written again only
/// for another value.
#[derive(Debug, Clone)]
struct Kept<V> {
    value: Option<V>,
    json: String,
}

impl<V> Default for Kept<V> {
    fn default() -> Self {
        Kept {
            value: None,
            json: String::new(),
        }
    }
}

impl<V: PartialEq> Kept<V> {
    /// Writes the JSON of `value` (made by `write` when it is not the value kept).
    fn write(&mut self, out: &mut String, value: V, write: impl FnOnce(&mut String, &V)) {
        if self.value.as_ref() != Some(&value) {
            self.json.clear();
            write(&mut self.json, &value);
            self.value = Some(value);
        }
        out.push_str(&self.json);
    }
}

/// The match's totals and negative totals, with their keys.
fn write_totals(out: &mut String, totals: &PerSeat<i32>, negatives: &PerSeat<i32>) {
    out.push_str(r#","totals":"#);
    per_seat(out, totals);
    out.push_str(r#","negatives":"#);
    per_seat(out, negatives);
}

/// [`write_view`], taking what `cache` holds written when one is given.
fn write_view_with(out: &mut String, view: &PlayerView, mut cache: Option<&mut ViewCache>) {
    let PlayerView {
        variant,
        options,
        seat,
        players,
        phase,
        hand_number,
        dealer,
        hand,
        hand_sizes,
        trump,
        face_up,
        trick,
        tricks,
        tricks_won,
        bids,
        hearts_broken,
        pass,
        blind,
        calling,
        bridge,
        totals,
        negatives,
        pool,
        history,
        to_act,
        legal,
        winners,
        deal_commitment,
    } = view;
    out.push_str(r#"{"variant":"#);
    out.push_str(variant_name(*variant));
    out.push_str(r#","options":"#);
    write_options(out, options);
    out.push_str(r#","seat":"#);
    optional_seat(out, *seat);
    out.push_str(r#","players":"#);
    uint(out, u64::from(*players));
    out.push_str(r#","phase":"#);
    out.push_str(match phase {
        Phase::Passing => r#""passing""#,
        Phase::Calling => r#""calling""#,
        Phase::Discarding => r#""discarding""#,
        Phase::Bidding => r#""bidding""#,
        Phase::Exchanging => r#""exchanging""#,
        Phase::Playing => r#""playing""#,
        Phase::MatchOver => r#""match_over""#,
    });
    out.push_str(r#","hand_number":"#);
    uint(out, u64::from(*hand_number));
    out.push_str(r#","dealer":"#);
    seat_number(out, *dealer);
    out.push_str(r#","hand":"#);
    card_set(out, *hand);
    out.push_str(r#","hand_sizes":"#);
    per_seat(out, hand_sizes);
    out.push_str(r#","trump":"#);
    match trump {
        Some(suit) => out.push_str(suit_name(*suit)),
        None => out.push_str("null"),
    }
    out.push_str(r#","face_up":"#);
    card_set(out, *face_up);
    out.push_str(r#","trick":"#);
    write_trick(out, trick);
    out.push_str(r#","tricks":["#);
    for (i, done) in tricks.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_completed_trick(out, done);
    }
    out.push_str(r#"],"tricks_won":"#);
    per_seat(out, tricks_won);
    if let Some(bids) = bids {
        out.push_str(r#","bids":"#);
        optional_per_seat(out, bids);
    }
    out.push_str(if *hearts_broken {
        r#","hearts_broken":true,"pass":"#
    } else {
        r#","hearts_broken":false,"pass":"#
    });
    match pass {
        Some(pass) => write_pass(out, pass),
        None => out.push_str("null"),
    }
    if let Some(blind) = blind {
        write_blind(out, blind);
    }
    if let Some(calling) = calling {
        // Euchre's calls: few, and only in that game, so `serde_json` writes them.
        out.push_str(r#","calling":"#);
        out.push_str(&serde_json::to_string(calling).expect("a view serializes"));
    }
    if let Some(bridge) = bridge {
        // Bridge's board: only in that game, so `serde_json` writes it.
        out.push_str(r#","bridge":"#);
        out.push_str(&serde_json::to_string(bridge).expect("a view serializes"));
    }
    match cache.as_deref_mut() {
        Some(cache) => cache
            .totals
            .write(out, (*totals, *negatives), |json, (t, n)| {
                write_totals(json, t, n);
            }),
        None => write_totals(out, totals, negatives),
    }
    out.push_str(r#","pool":"#);
    int(out, i64::from(*pool));
    out.push_str(r#","history":["#);
    match cache.as_deref_mut() {
        Some(cache) => cache.sheet.write(out, history),
        None => {
            for (i, line) in history.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('{');
                write_hand_result_fields(out, line);
                out.push('}');
            }
        }
    }
    out.push_str(r#"],"to_act":"#);
    seats(out, to_act);
    out.push_str(r#","legal":"#);
    write_legal(out, legal);
    out.push_str(r#","winners":"#);
    seats(out, winners);
    if let Some(commitment) = deal_commitment {
        out.push_str(r#","deal_commitment":"#);
        match cache {
            Some(cache) => cache.commitment.write(out, *commitment, hash),
            None => hash(out, commitment),
        }
    }
    out.push('}');
}

/// Writes what a seat may do as `serde_json` writes [`Legal`].
pub fn write_legal(out: &mut String, legal: &Legal) {
    match legal {
        Legal::Pass {
            count,
            direction,
            from,
        } => {
            out.push_str(r#"{"type":"pass","count":"#);
            uint(out, u64::from(*count));
            out.push_str(r#","direction":"#);
            out.push_str(direction_name(*direction));
            out.push_str(r#","from":"#);
            card_set(out, *from);
            out.push('}');
        }
        Legal::Play { cards } => {
            out.push_str(r#"{"type":"play","cards":"#);
            card_set(out, *cards);
            out.push('}');
        }
        Legal::Bid {
            min,
            max,
            forbidden,
        } => {
            out.push_str(r#"{"type":"bid","min":"#);
            uint(out, u64::from(*min));
            out.push_str(r#","max":"#);
            uint(out, u64::from(*max));
            out.push_str(r#","forbidden":"#);
            match forbidden {
                Some(bid) => uint(out, u64::from(*bid)),
                None => out.push_str("null"),
            }
            out.push('}');
        }
        Legal::Blind => out.push_str(r#"{"type":"blind"}"#),
        Legal::Exchange { count, to, from } => {
            out.push_str(r#"{"type":"exchange","count":"#);
            uint(out, u64::from(*count));
            out.push_str(r#","to":"#);
            seat_number(out, *to);
            out.push_str(r#","from":"#);
            card_set(out, *from);
            out.push('}');
        }
        Legal::Wait => out.push_str(r#"{"type":"wait"}"#),
        Legal::Call { .. } | Legal::Discard { .. } | Legal::AnswerClaim { .. } => {
            out.push_str(&serde_json::to_string(legal).expect("a legal move serializes"));
        }
    }
}

/// Writes `value` through `serde_json` but for its closing brace, which the caller adds: for
/// the messages of rare moves (Euchre's calls), where writing by hand saves nothing.
fn open_object(out: &mut String, value: &impl serde::Serialize) {
    let json = serde_json::to_string(value).expect("a message serializes");
    out.push_str(json.strip_suffix('}').expect("an object"));
}

/// Writes an action as `serde_json` writes [`Action`]: the server stores every accepted one.
pub fn write_action(out: &mut String, action: &Action) {
    match action {
        Action::Play { card } => {
            out.push_str(r#"{"type":"play","card":"#);
            out.push_str(quoted_card(*card));
        }
        Action::Pass { cards } => {
            out.push_str(r#"{"type":"pass","cards":["#);
            quoted_cards(out, cards);
        }
        Action::Exchange { cards } => {
            out.push_str(r#"{"type":"exchange","cards":["#);
            quoted_cards(out, cards);
        }
        Action::BlindNil => out.push_str(r#"{"type":"blind_nil""#),
        Action::SeeCards => out.push_str(r#"{"type":"see_cards""#),
        Action::Bid { tricks } => {
            out.push_str(r#"{"type":"bid","tricks":"#);
            uint(out, u64::from(*tricks));
        }
        Action::Call(_)
        | Action::Discard { .. }
        | Action::Claim { .. }
        | Action::AnswerClaim { .. } => open_object(out, action),
    }
    out.push('}');
}

/// Cards in the order given, quoted, and the closing bracket.
fn quoted_cards(out: &mut String, cards: &[Card]) {
    for (i, card) in cards.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(quoted_card(*card));
    }
    out.push(']');
}

/// Writes an event as `serde_json` writes [`Event`].
pub fn write_event(out: &mut String, event: &Event) {
    match event {
        Event::HandStarted {
            hand,
            dealer,
            pass,
            commitment,
            hand_size,
        } => {
            out.push_str(r#"{"kind":"hand_started","hand":"#);
            uint(out, u64::from(*hand));
            out.push_str(r#","dealer":"#);
            seat_number(out, *dealer);
            out.push_str(r#","pass":"#);
            match pass {
                Some(direction) => out.push_str(direction_name(*direction)),
                None => out.push_str("null"),
            }
            if let Some(commitment) = commitment {
                out.push_str(r#","commitment":"#);
                hash(out, commitment);
            }
            if let Some(size) = hand_size {
                out.push_str(r#","hand_size":"#);
                uint(out, u64::from(*size));
            }
        }
        Event::Dealt { seat, cards } => {
            out.push_str(r#"{"kind":"dealt","seat":"#);
            seat_number(out, *seat);
            out.push_str(r#","cards":"#);
            card_set(out, *cards);
        }
        Event::DealtFaceDown { seats: face_down } => {
            out.push_str(r#"{"kind":"dealt_face_down","seats":"#);
            seats(out, face_down);
        }
        Event::CardsSeen { seat } => {
            out.push_str(r#"{"kind":"cards_seen","seat":"#);
            seat_number(out, *seat);
        }
        Event::BlindNil { seat } => {
            out.push_str(r#"{"kind":"blind_nil","seat":"#);
            seat_number(out, *seat);
        }
        Event::Exchanged { from, to, count } => {
            out.push_str(r#"{"kind":"exchanged","from":"#);
            seat_number(out, *from);
            out.push_str(r#","to":"#);
            seat_number(out, *to);
            out.push_str(r#","count":"#);
            uint(out, u64::from(*count));
        }
        Event::TrumpShown { trump, cards } => {
            out.push_str(r#"{"kind":"trump_shown","trump":"#);
            out.push_str(suit_name(*trump));
            out.push_str(r#","cards":"#);
            card_set(out, *cards);
        }
        Event::PassChosen { seat } => {
            out.push_str(r#"{"kind":"pass_chosen","seat":"#);
            seat_number(out, *seat);
        }
        Event::CardsPassed { from, to, cards } => {
            out.push_str(r#"{"kind":"cards_passed","from":"#);
            seat_number(out, *from);
            out.push_str(r#","to":"#);
            seat_number(out, *to);
            out.push_str(r#","cards":"#);
            card_set(out, *cards);
        }
        Event::Bid { seat, tricks } => {
            out.push_str(r#"{"kind":"bid","seat":"#);
            seat_number(out, *seat);
            out.push_str(r#","tricks":"#);
            uint(out, u64::from(*tricks));
        }
        Event::Played { seat, card } => {
            out.push_str(r#"{"kind":"played","seat":"#);
            seat_number(out, *seat);
            out.push_str(r#","card":"#);
            out.push_str(quoted_card(*card));
        }
        Event::TrickWon { winner, cards } => {
            out.push_str(r#"{"kind":"trick_won","winner":"#);
            seat_number(out, *winner);
            out.push_str(r#","cards":"#);
            card_set(out, *cards);
        }
        Event::BadCard {
            seat,
            card,
            penalty,
        } => {
            out.push_str(r#"{"kind":"bad_card","seat":"#);
            seat_number(out, *seat);
            out.push_str(r#","card":"#);
            out.push_str(quoted_card(*card));
            out.push_str(r#","penalty":"#);
            int(out, i64::from(*penalty));
        }
        Event::HandScored(result) => {
            out.push_str(r#"{"kind":"hand_scored","#);
            write_hand_result_fields(out, result);
        }
        Event::MatchOver { winners, totals } => {
            out.push_str(r#"{"kind":"match_over","winners":"#);
            seats(out, winners);
            out.push_str(r#","totals":"#);
            per_seat(out, totals);
        }
        Event::TurnedUp { .. }
        | Event::Called { .. }
        | Event::TrumpMade { .. }
        | Event::SitsOut { .. }
        | Event::PickedUp { .. }
        | Event::Discarded { .. }
        | Event::DiscardedCard { .. }
        | Event::ThrownIn
        | Event::Board { .. }
        | Event::Contract { .. }
        | Event::DummyShown { .. }
        | Event::Claimed { .. }
        | Event::ClaimAnswered { .. } => open_object(out, event),
    }
    out.push('}');
}

/// The options, only those set (`None` is skipped).
fn write_options(out: &mut String, options: &Options) {
    let Options {
        target,
        passing,
        moon,
        hands,
        bad_card,
        players,
        mercy,
        nil,
        bag_limit,
        bag_penalty,
        spades_broken,
        jokers,
        blind_nil,
        blind_nil_behind,
        schedule,
        hook,
        scoring,
        stick_the_dealer,
        alone,
        defend_alone,
        rubber,
        deal,
        board,
    } = options;
    let mut first = true;
    let mut key = |out: &mut String, name: &str| {
        out.push_str(if first { r#"{""# } else { r#",""# });
        first = false;
        out.push_str(name);
        out.push_str(r#"":"#);
    };
    if let Some(target) = target {
        key(out, "target");
        int(out, i64::from(*target));
    }
    if let Some(passing) = passing {
        key(out, "passing");
        out.push_str(if *passing { "true" } else { "false" });
    }
    if let Some(moon) = moon {
        key(out, "moon");
        out.push_str(match moon {
            Moon::Add => r#""add""#,
            Moon::Subtract => r#""subtract""#,
        });
    }
    if let Some(hands) = hands {
        key(out, "hands");
        uint(out, u64::from(*hands));
    }
    if let Some(bad_card) = bad_card {
        key(out, "bad_card");
        out.push_str(match bad_card {
            BadCard::Penalty => r#""penalty""#,
            BadCard::Reject => r#""reject""#,
        });
    }
    if let Some(players) = players {
        key(out, "players");
        uint(out, u64::from(*players));
    }
    if let Some(mercy) = mercy {
        key(out, "mercy");
        int(out, i64::from(*mercy));
    }
    if let Some(nil) = nil {
        key(out, "nil");
        boolean(out, *nil);
    }
    if let Some(bag_limit) = bag_limit {
        key(out, "bag_limit");
        int(out, i64::from(*bag_limit));
    }
    if let Some(bag_penalty) = bag_penalty {
        key(out, "bag_penalty");
        int(out, i64::from(*bag_penalty));
    }
    if let Some(spades_broken) = spades_broken {
        key(out, "spades_broken");
        boolean(out, *spades_broken);
    }
    if let Some(jokers) = jokers {
        key(out, "jokers");
        boolean(out, *jokers);
    }
    if let Some(blind_nil) = blind_nil {
        key(out, "blind_nil");
        boolean(out, *blind_nil);
    }
    if let Some(behind) = blind_nil_behind {
        key(out, "blind_nil_behind");
        int(out, i64::from(*behind));
    }
    if let Some(schedule) = schedule {
        key(out, "schedule");
        out.push_str(match schedule {
            Schedule::DownUp => r#""down_up""#,
            Schedule::Down => r#""down""#,
            Schedule::Up => r#""up""#,
            Schedule::UpDown => r#""up_down""#,
        });
    }
    if let Some(hook) = hook {
        key(out, "hook");
        boolean(out, *hook);
    }
    if let Some(scoring) = scoring {
        key(out, "scoring");
        out.push_str(match scoring {
            OhHellScoring::Standard => r#""standard""#,
            OhHellScoring::MinusDifference => r#""minus_difference""#,
            OhHellScoring::TricksPlusTen => r#""tricks_plus_ten""#,
        });
    }
    for (name, value) in [
        ("stick_the_dealer", stick_the_dealer),
        ("alone", alone),
        ("defend_alone", defend_alone),
        ("rubber", rubber),
    ] {
        if let Some(value) = value {
            key(out, name);
            boolean(out, *value);
        }
    }
    if let Some(deal) = deal {
        // A PBN deal is compass letters, ranks, dots, a colon and spaces: nothing to escape.
        key(out, "deal");
        out.push('"');
        out.push_str(&deal.to_string());
        out.push('"');
    }
    if let Some(board) = board {
        key(out, "board");
        uint(out, u64::from(*board));
    }
    out.push_str(if first { "{}" } else { "}" });
}

fn write_trick(out: &mut String, trick: &TrickView) {
    let TrickView { leader, plays } = trick;
    out.push_str(r#"{"leader":"#);
    seat_number(out, *leader);
    out.push_str(r#","plays":["#);
    for (i, play) in plays.iter().enumerate() {
        let PlayedCard { seat, card } = play;
        out.push_str(if i > 0 { r#",{"seat":"# } else { r#"{"seat":"# });
        seat_number(out, *seat);
        out.push_str(r#","card":"#);
        out.push_str(quoted_card(*card));
        out.push('}');
    }
    out.push_str("]}");
}

fn write_completed_trick(out: &mut String, trick: &CompletedTrick) {
    let CompletedTrick {
        leader,
        cards,
        winner,
    } = trick;
    out.push_str(r#"{"leader":"#);
    seat_number(out, *leader);
    out.push_str(r#","cards":["#);
    for (i, card) in cards.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(quoted_card(*card));
    }
    out.push_str(r#"],"winner":"#);
    seat_number(out, *winner);
    out.push('}');
}

fn write_blind(out: &mut String, blind: &BlindView) {
    let BlindView {
        face_down,
        bid,
        given,
        received,
    } = blind;
    out.push_str(r#","blind":{"face_down":"#);
    seats(out, face_down);
    out.push_str(r#","bid":"#);
    seats(out, bid);
    out.push_str(r#","given":"#);
    card_set(out, *given);
    out.push_str(r#","received":"#);
    card_set(out, *received);
    out.push('}');
}

fn write_pass(out: &mut String, pass: &PassView) {
    let PassView {
        direction,
        given,
        received,
        waiting,
    } = pass;
    out.push_str(r#"{"direction":"#);
    out.push_str(direction_name(*direction));
    out.push_str(r#","given":"#);
    card_set(out, *given);
    out.push_str(r#","received":"#);
    card_set(out, *received);
    out.push_str(r#","waiting":"#);
    seats(out, waiting);
    out.push('}');
}

/// A score sheet line's fields without the braces: a `hand_scored` event writes them after
/// its `kind`.
fn write_hand_result_fields(out: &mut String, result: &HandResult) {
    let HandResult {
        hand,
        points,
        penalties,
        tricks,
        totals,
        pool_carried,
        moon,
        bids,
        bags,
        bag_penalty,
        nil,
        blind_nil,
        trump_made,
        board,
        secret,
    } = result;
    out.push_str(r#""hand":"#);
    uint(out, u64::from(*hand));
    out.push_str(r#","points":"#);
    per_seat(out, points);
    out.push_str(r#","penalties":"#);
    per_seat(out, penalties);
    out.push_str(r#","tricks":"#);
    per_seat(out, tricks);
    out.push_str(r#","totals":"#);
    per_seat(out, totals);
    out.push_str(r#","pool_carried":"#);
    int(out, i64::from(*pool_carried));
    out.push_str(r#","moon":"#);
    optional_seat(out, *moon);
    if let Some(bids) = bids {
        out.push_str(r#","bids":"#);
        per_seat(out, bids);
    }
    if let Some(bags) = bags {
        out.push_str(r#","bags":"#);
        per_seat(out, bags);
    }
    if let Some(penalty) = bag_penalty {
        out.push_str(r#","bag_penalty":"#);
        per_seat(out, penalty);
    }
    if let Some(nil) = nil {
        out.push_str(r#","nil":["#);
        for (i, made) in nil.as_slice().iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match made {
                Some(made) => boolean(out, *made),
                None => out.push_str("null"),
            }
        }
        out.push(']');
    }
    if let Some(blind) = blind_nil {
        out.push_str(r#","blind_nil":"#);
        let list: arrayvec::ArrayVec<Seat, MAX_SEATS> = blind.iter().collect();
        seats(out, &list);
    }
    if let Some(made) = trump_made {
        out.push_str(r#","trump_made":"#);
        out.push_str(&serde_json::to_string(made).expect("a score line serializes"));
    }
    if let Some(board) = board {
        out.push_str(r#","board":"#);
        out.push_str(&serde_json::to_string(board).expect("a score line serializes"));
    }
    if let Some(secret) = secret {
        out.push_str(r#","secret":"#);
        hash(out, secret);
    }
}

// ---- values --------------------------------------------------------------------------------

/// Every card quoted with a comma before it, in index order (`suit * 13 + rank`, then the
/// jokers `LJ` and `BJ`): card `i` is `CARDS[5 * i..5 * i + 5]`, or without its comma one
/// byte later.
const CARDS: &str = match std::str::from_utf8(&card_table()) {
    Ok(table) => table,
    Err(_) => panic!("card names are ASCII"),
};

const fn card_table() -> [u8; 5 * CARD_INDICES as usize] {
    let mut table = [0u8; 5 * CARD_INDICES as usize];
    let mut i = 0;
    while i < CARD_INDICES as usize {
        let [rank, suit] = if i < 52 {
            [b"23456789TJQKA"[i % 13], b"CDHS"[i / 13]]
        } else {
            [b"LB"[i - 52], b'J']
        };
        table[5 * i] = b',';
        table[5 * i + 1] = b'"';
        table[5 * i + 2] = rank;
        table[5 * i + 3] = suit;
        table[5 * i + 4] = b'"';
        i += 1;
    }
    table
}

/// `"QS"`, quotes included.
fn quoted_card(card: Card) -> &'static str {
    let at = 5 * usize::from(card.index());
    &CARDS[at + 1..at + 5]
}

/// A set as a list of its cards, lowest first.
fn card_set(out: &mut String, set: CardSet) {
    out.push('[');
    let mut skip = 1; // no comma before the first card
    for card in set.iter() {
        let at = 5 * usize::from(card.index());
        out.push_str(&CARDS[at + skip..at + 5]);
        skip = 0;
    }
    out.push(']');
}

/// A number; most in a view (hand sizes, tricks, scores) are below 100, written digit by digit.
fn uint(out: &mut String, n: u64) {
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
    } else if n < 100 {
        out.push(char::from(b'0' + (n / 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
    } else {
        out.push_str(itoa::Buffer::new().format(n));
    }
}

fn int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    uint(out, n.unsigned_abs());
}

fn seat_number(out: &mut String, seat: Seat) {
    // Seats are below ten.
    if seat.0 < 10 {
        out.push(char::from(b'0' + seat.0));
    } else {
        uint(out, u64::from(seat.0));
    }
}

fn optional_seat(out: &mut String, seat: Option<Seat>) {
    match seat {
        Some(seat) => seat_number(out, seat),
        None => out.push_str("null"),
    }
}

fn seats(out: &mut String, seats: &[Seat]) {
    out.push('[');
    for (i, seat) in seats.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        seat_number(out, *seat);
    }
    out.push(']');
}

/// A list of per-seat numbers, put together on the stack and copied once: a score sheet line
/// has four, and copying number by number cost more than writing the digits.
fn per_seat<T: Copy + Into<i64>>(out: &mut String, values: &PerSeat<T>) {
    // Every seat's number of at most 20 characters (`i64::MIN`) and a comma or bracket after
    // it, and the opening bracket.
    let mut list = [0u8; MAX_SEATS * 21 + 1];
    list[0] = b'[';
    let mut len = 1;
    for (i, value) in values.as_slice().iter().enumerate() {
        if i > 0 {
            list[len] = b',';
            len += 1;
        }
        let n: i64 = (*value).into();
        if n < 0 {
            list[len] = b'-';
            len += 1;
        }
        let n = n.unsigned_abs();
        if n < 10 {
            list[len] = b'0' + n as u8;
            len += 1;
        } else if n < 100 {
            list[len] = b'0' + (n / 10) as u8;
            list[len + 1] = b'0' + (n % 10) as u8;
            len += 2;
        } else {
            let mut digits = itoa::Buffer::new();
            let digits = digits.format(n).as_bytes();
            list[len..len + digits.len()].copy_from_slice(digits);
            len += digits.len();
        }
    }
    list[len] = b']';
    out.push_str(std::str::from_utf8(&list[..=len]).expect("digits are ASCII"));
}

/// A list of per-seat numbers where a seat may have none yet (`null`): a hand's bids.
fn optional_per_seat(out: &mut String, values: &PerSeat<Option<u8>>) {
    out.push('[');
    for (i, value) in values.as_slice().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match value {
            Some(n) => uint(out, u64::from(*n)),
            None => out.push_str("null"),
        }
    }
    out.push(']');
}

fn boolean(out: &mut String, value: bool) {
    out.push_str(if value { "true" } else { "false" });
}

fn hash(out: &mut String, hash: &Hash32) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut quoted = [b'"'; 66];
    for (i, byte) in hash.0.iter().enumerate() {
        quoted[1 + 2 * i] = DIGITS[usize::from(byte >> 4)];
        quoted[2 + 2 * i] = DIGITS[usize::from(byte & 15)];
    }
    out.push_str(std::str::from_utf8(&quoted).expect("hex digits are ASCII"));
}

fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Hearts => r#""hearts""#,
        Variant::Filippa => r#""filippa""#,
        Variant::Hearts5 => r#""hearts5""#,
        Variant::Tricks => r#""tricks""#,
        Variant::Whist => r#""whist""#,
        Variant::Spades => r#""spades""#,
        Variant::OhHell => r#""ohhell""#,
        Variant::Euchre => r#""euchre""#,
        Variant::Bridge => r#""bridge""#,
    }
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => r#""C""#,
        Suit::Diamonds => r#""D""#,
        Suit::Hearts => r#""H""#,
        Suit::Spades => r#""S""#,
    }
}

fn direction_name(direction: PassDirection) -> &'static str {
    match direction {
        PassDirection::Left => r#""left""#,
        PassDirection::Right => r#""right""#,
        PassDirection::Across => r#""across""#,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_is_written_as_serde_writes_it() {
        for i in 0..52 {
            let card = Card::from_index(i);
            assert_eq!(quoted_card(card), serde_json::to_string(&card).unwrap());
        }
    }

    #[test]
    fn every_action_is_written_as_serde_writes_it() {
        let mut actions: Vec<Action> = (0..52)
            .map(|i| Action::Play {
                card: Card::from_index(i),
            })
            .collect();
        for n in 0..=4u8 {
            let cards = (0..n).map(|i| Card::from_index(51 - 13 * i)).collect();
            actions.push(Action::Pass { cards });
        }
        actions.extend([0, 7, 13, 17, 255].map(|tricks| Action::Bid { tricks }));
        actions.extend([Action::BlindNil, Action::SeeCards]);
        for n in 0..=3u8 {
            let cards = (0..n).map(|i| Card::from_index(3 * i)).collect();
            actions.push(Action::Exchange { cards });
        }
        for action in actions {
            let mut out = String::new();
            write_action(&mut out, &action);
            assert_eq!(out, serde_json::to_string(&action).unwrap());
        }
    }

    #[test]
    fn numbers_are_written_as_serde_writes_them() {
        let edges = [
            0,
            1,
            9,
            10,
            11,
            99,
            100,
            101,
            999,
            1000,
            i64::from(i32::MAX),
        ];
        for n in edges
            .into_iter()
            .flat_map(|n| [n, -n])
            .chain([i64::MIN, i64::MAX])
        {
            let mut out = String::new();
            int(&mut out, n);
            assert_eq!(out, serde_json::to_string(&n).unwrap());
        }
        for n in [0, 7, 42, 99, 100, u64::MAX] {
            let mut out = String::new();
            uint(&mut out, n);
            assert_eq!(out, serde_json::to_string(&n).unwrap());
        }
    }

    #[test]
    fn other_messages_are_left_to_serde() {
        let mut out = String::new();
        assert!(!write_message(&mut out, &ServerMsg::Pong {}));
        assert!(out.is_empty());
    }
}
