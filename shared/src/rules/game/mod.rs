//! The game: one phase machine for every variant, deterministic from its seed and actions.
//!
//! `Game` owns what every variant shares: the phases, dealing one card at a time from the
//! dealer's left, passing, bidding, trick play (follow suit, trump wins), the match totals and
//! the events. Every decision that differs by variant goes through [`VariantState`]; these
//! modules name no variant and `Game` may not hold a field only one variant uses. This file
//! holds the state and the ways in; `read`, `passing`, `calling` (making trump, the dealer's
//! discard), `bidding`, `blind` (face-down hands and the partners' exchange), `dummy`,
//! `seating` (the order of play), `play` and `hand` hold the rest.

mod bidding;
mod blind;
mod calling;
mod dummy;
mod hand;
mod passing;
mod play;
mod read;
mod seating;

use super::RuleError;
use super::event::{Action, Event, HandResult, PassDirection};
use super::per_variant::VariantState;
use super::trick::{Plays, Trick};
use super::trumps::Trumps;
use super::variant::{Options, OptionsError, Rules, Variant};
use crate::card::CardSet;
use crate::deck::{DealOrder, DeckRng};
use crate::fair::Hash32;
use crate::seat::{PerSeat, Seat, SeatSet};
use seating::Seating;

/// Cards each player passes in the variants that pass.
pub const PASS_COUNT: u32 = 3;

pub use blind::EXCHANGE_COUNT;
pub use calling::Calling;
pub use dummy::Claim;

/// Where the game stands.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Everyone chooses cards to pass at the same time.
    Passing,
    /// Each seat in turn from the dealer's left calls trump or passes (Euchre).
    Calling,
    /// The dealer discards a card after picking up the turned-up one (Euchre).
    Discarding,
    /// Each seat in turn from the dealer's left bids the tricks it expects.
    Bidding,
    /// After a blind bid: the bidder's partner gives cards, then the bidder gives some back.
    Exchanging,
    /// Tricks are being played.
    Playing,
    /// The match has ended.
    MatchOver,
}

/// A whole match of one variant. Built from `(variant, options, seed)`; every change goes
/// through [`Game::apply`], which re-checks everything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The variant and its resolved options.
    rules: Rules,
    /// The seed the match was created with (kept for replay).
    seed: u64,
    /// Shuffles each hand's deck.
    rng: DeckRng,
    /// The match's master secret, when hands are dealt by the fair recipe (`crate::fair`)
    /// instead of the seeded stream. Server-side only: never part of a view.
    master: Option<Hash32>,
    /// The secret the current hand was dealt from (revealed when it is scored).
    deal_secret: Option<Hash32>,
    /// Its commitment (SHA-256 of the secret), worked out once per deal because every view
    /// carries it.
    deal_commitment: Option<Hash32>,
    /// Decks to deal, in order, before shuffling again (scripted deals, UVa 181 input).
    stacked: Vec<DealOrder>,
    /// Seats at the table.
    players: u8,
    phase: Phase,
    /// The hand being played, from 0.
    hand: u32,
    dealer: Seat,
    hands: PerSeat<CardSet>,
    /// Cards each seat has won in tricks this hand.
    taken: PerSeat<CardSet>,
    tricks_won: PerSeat<u8>,
    trick: Trick,
    /// Seats sitting this hand out (a lone player's partner): they hold cards but play none.
    out: SeatSet,
    /// The seat whose call or discard is awaited while trump is made (Euchre).
    caller: Seat,
    /// This hand's calls, trump as made, and the card picked up and discarded (Euchre).
    calling: Calling,
    /// The seat whose cards its partner plays, once a contract names it (Bridge's dummy).
    dummy: Option<Seat>,
    /// Declarer's claim while the defenders answer it.
    claim: Option<Claim>,
    /// Claims the defenders rejected this hand (so a bot that claims when sure claims once).
    claims_rejected: u8,
    /// The order of play and whose cards each seat plays, from `out` and `dummy`.
    seating: Seating,
    /// The seat the trick waits for (kept in step with `trick` so a turn check is one load).
    turn: Seat,
    /// The cards `turn` may play, computed once per turn while playing, and empty in every
    /// other phase: so a card is accepted by one test (`Game::play`).
    legal: CardSet,
    /// The cards a player void in the led suit must play if they hold any, set by the variant
    /// at the start of each trick.
    discard_preference: CardSet,
    /// This hand's finished tricks.
    completed: Vec<Plays>,
    /// The cards of this hand's finished tricks (kept per trick, not per card).
    played: CardSet,
    /// This hand's trump, set by the variant at the deal or by the players' calls.
    trumps: Trumps,
    /// Cards everyone can see that are not on the table: hearts5's undealt pair, the whist
    /// dealer's trump card until it is played.
    face_up: CardSet,
    pass_direction: Option<PassDirection>,
    /// Seats that still have to choose their pass.
    to_pass: SeatSet,
    /// The cards each seat chose to pass this hand.
    passed: PerSeat<CardSet>,
    /// The cards each seat received this hand.
    received: PerSeat<CardSet>,
    /// Each seat's bid this hand, once made (always `None` in the variants that do not bid).
    bids: PerSeat<Option<u8>>,
    /// Seats the variant lets bid blind this hand (see `blind`).
    may_bid_blind: SeatSet,
    /// Seats whose hand is face down: not shown to them until they look or bid blind.
    face_down: SeatSet,
    /// Seats that bid blind this hand.
    blind: SeatSet,
    /// The exchange's steps still to come after a blind bid, giver and receiver.
    giving: Vec<(Seat, Seat)>,
    /// Match totals (filippa: the positive totals).
    totals: PerSeat<i32>,
    /// The score sheet, one line per finished hand.
    history: Vec<HandResult>,
    winners: Vec<Seat>,
    /// What differs by variant: its rules and the state only it keeps.
    variant_rules: VariantState,
}

/// Who deals the first hand of a table's `match_no`-th match (from 1): the last seat deals the
/// first match, and each later match starts one seat further on, as the deal moves from hand to
/// hand within a match.
#[must_use]
pub fn first_dealer(players: u8, match_no: u32) -> Seat {
    let players = u32::from(players.max(1));
    let steps = (players - 1 + match_no.saturating_sub(1)) % players;
    Seat(u8::try_from(steps).expect("fewer than 256 seats"))
}

impl Game {
    /// A new match, its first hand dealt from `seed`.
    pub fn new(variant: Variant, options: &Options, seed: u64) -> Result<Game, OptionsError> {
        Ok(Game::with_rules(Rules::new(variant, options)?, seed, None))
    }

    /// A new match whose first hand is dealt from `deck` in order (the first card to the
    /// dealer's left); later hands are shuffled from `seed`.
    pub fn with_deck(
        variant: Variant,
        options: &Options,
        seed: u64,
        deck: impl Into<DealOrder>,
    ) -> Result<Game, OptionsError> {
        Ok(Game::with_rules(
            Rules::new(variant, options)?,
            seed,
            Some(deck.into()),
        ))
    }

    /// A new match whose every hand is dealt from `master` by the fair recipe
    /// (`crate::fair`): each hand's commitment goes out in `hand_started` and its secret in
    /// `hand_scored`. The last seat deals first.
    #[must_use]
    pub fn with_master(rules: Rules, master: Hash32) -> Game {
        let last = Seat(rules.players - 1);
        Game::with_master_dealt_by(rules, master, last)
    }

    /// [`Game::with_master`] with `dealer` dealing the first hand: what the server plays at
    /// its tables, where a later match starts one seat on (see [`first_dealer`]).
    #[must_use]
    pub fn with_master_dealt_by(rules: Rules, master: Hash32, dealer: Seat) -> Game {
        Game::build(rules, 0, None, Some(master), dealer, 0)
    }

    /// A new match with already resolved rules, the last seat dealing first.
    #[must_use]
    pub fn with_rules(rules: Rules, seed: u64, stacked: Option<DealOrder>) -> Game {
        let last = Seat(rules.players - 1);
        Game::with_first_dealer(rules, seed, stacked, last)
    }

    /// A new match whose first hand `dealer` deals: a table's later matches start one seat on
    /// (see [`first_dealer`]), so the deal goes round from match to match as from hand to hand.
    #[must_use]
    pub fn with_first_dealer(
        rules: Rules,
        seed: u64,
        stacked: Option<DealOrder>,
        dealer: Seat,
    ) -> Game {
        Game::build(rules, seed, stacked, None, dealer, 0)
    }

    /// A match that starts at the hand numbered `hand` (from 0), which `dealer` deals from
    /// `deck`: for a bot that rebuilds a later hand of a match in which the hand's number
    /// matters (Oh Hell's hand sizes). Nothing of the hands before it is known or kept.
    #[must_use]
    pub fn from_hand(rules: Rules, hand: u32, dealer: Seat, deck: impl Into<DealOrder>) -> Game {
        Game::build(rules, 0, Some(deck.into()), None, dealer, hand)
    }

    fn build(
        rules: Rules,
        seed: u64,
        stacked: Option<DealOrder>,
        master: Option<Hash32>,
        dealer: Seat,
        hand: u32,
    ) -> Game {
        let n = rules.players;
        let dealer = Seat(dealer.0 % n);
        let mut game = Game {
            rules,
            seed,
            rng: DeckRng::new(seed),
            master,
            deal_secret: None,
            deal_commitment: None,
            stacked: stacked.into_iter().collect(),
            players: n,
            phase: Phase::Playing,
            hand,
            dealer,
            hands: PerSeat::new(n),
            taken: PerSeat::new(n),
            tricks_won: PerSeat::new(n),
            trick: Trick::new(Seat(0)),
            out: SeatSet::EMPTY,
            caller: Seat(0),
            calling: Calling::default(),
            dummy: None,
            claim: None,
            claims_rejected: 0,
            seating: Seating::new(n, SeatSet::EMPTY, None),
            turn: Seat(0),
            legal: CardSet::EMPTY,
            discard_preference: CardSet::EVERY,
            completed: Vec::with_capacity(13),
            played: CardSet::EMPTY,
            trumps: Trumps::NONE,
            face_up: CardSet::EMPTY,
            pass_direction: None,
            to_pass: SeatSet::EMPTY,
            passed: PerSeat::new(n),
            received: PerSeat::new(n),
            bids: PerSeat::new(n),
            may_bid_blind: SeatSet::EMPTY,
            face_down: SeatSet::EMPTY,
            blind: SeatSet::EMPTY,
            giving: Vec::new(),
            totals: PerSeat::new(n),
            history: Vec::new(),
            winners: Vec::new(),
            variant_rules: VariantState::new(&rules),
        };
        // The first deal's events are not kept (`opening_events` makes them again); room for
        // them at once saves growing the buffer twice per match.
        game.deal(&mut Vec::with_capacity(8));
        game
    }

    /// Deals `deck` (in order, the first card to the dealer's left) for the next hand instead of
    /// a shuffled one; several calls queue several hands. For scripted deals: the seeded stream
    /// is not consumed by a stacked hand.
    pub fn stack_deck(&mut self, deck: impl Into<DealOrder>) {
        self.stacked.push(deck.into());
    }

    /// Applies `seat`'s action and returns what happened. On error nothing changed.
    pub fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// [`Game::apply`] writing its events into a caller's buffer, so hot loops reuse one.
    pub fn apply_into(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if seat.0 >= self.players {
            return Err(RuleError::NoSuchSeat(seat));
        }
        match action {
            Action::Pass { cards } => self.pass(seat, cards, events),
            Action::Play { card } => self.play(seat, *card, events),
            Action::Bid { tricks } => self.bid(seat, *tricks, events),
            Action::BlindNil => self.bid_blind(seat, events),
            Action::SeeCards => self.see_cards(seat, events),
            Action::Exchange { cards } => self.exchange(seat, cards, events),
            Action::Call(call) => self.call(seat, *call, events),
            Action::Discard { card } => self.discard(seat, *card, events),
            Action::Claim { tricks } => self.claim(seat, *tricks, events),
            Action::AnswerClaim { accept } => self.answer_claim(seat, *accept, events),
        }
    }
}

#[cfg(test)]
mod first_dealer_tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn each_match_starts_one_seat_further_on() {
        let dealers: Vec<u8> = (1..=6).map(|m| first_dealer(4, m).0).collect();
        assert_eq!(dealers, [3, 0, 1, 2, 3, 0]);
        assert_eq!(first_dealer(5, 2), Seat(0));
    }

    #[test]
    fn the_first_dealer_deals_and_the_seat_on_their_left_leads() {
        let rules = Rules::new(Variant::Tricks, &Options::default()).unwrap();
        let game = Game::with_first_dealer(rules, 9, None, Seat(1));
        assert_eq!(game.dealer(), Seat(1));
        assert_eq!(game.next_to_play(), Seat(2));
    }
}
