//! The game: one phase machine for every variant, deterministic from its seed and actions.
//!
//! `Game` owns what every variant shares: the phases, dealing one card at a time from the
//! dealer's left, passing, trick play (follow suit, trump wins), the match totals and the
//! events. Every decision that differs by variant goes through [`VariantState`]; this module
//! names no variant and may not hold a field only one variant uses.

use super::RuleError;
use super::event::{Action, Event, HandResult, Legal, PassDirection};
use super::trick::{CompletedTrick, Trick};
use super::variant::{Options, OptionsError, Rules, Variant};
use super::variant_rules::{Table, VariantState};
use crate::card::{Card, CardSet, Suit};
use crate::deck::{DeckRng, shuffled_deck};
use crate::seat::{MAX_SEATS, PerSeat, Seat, SeatSet};

/// Cards each player passes in the variants that pass.
pub const PASS_COUNT: u32 = 3;

/// Where the game stands.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Everyone chooses cards to pass at the same time.
    Passing,
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
    /// Decks to deal, in order, before shuffling again (scripted deals, UVa 181 input).
    stacked: Vec<[Card; 52]>,
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
    /// The seat the trick waits for (kept in step with `trick` so a turn check is one load).
    turn: Seat,
    /// The cards `turn` may play, computed once per turn (while playing).
    legal: CardSet,
    /// The cards a player void in the led suit must play if they hold any, set by the variant
    /// at the start of each trick.
    discard_preference: CardSet,
    /// This hand's finished tricks (kept as `Trick`s: no allocation per trick).
    completed: Vec<Trick>,
    /// The cards of this hand's finished tricks (kept per trick, not per card).
    played: CardSet,
    /// This hand's trump suit, set by the variant at the deal.
    trump: Option<Suit>,
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
    /// Match totals (filippa: the positive totals).
    totals: PerSeat<i32>,
    history: Vec<HandResult>,
    winners: Vec<Seat>,
    /// What differs by variant: its rules and the state only it keeps.
    variant: VariantState,
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
        deck: [Card; 52],
    ) -> Result<Game, OptionsError> {
        Ok(Game::with_rules(
            Rules::new(variant, options)?,
            seed,
            Some(deck),
        ))
    }

    /// A new match with already resolved rules.
    #[must_use]
    pub fn with_rules(rules: Rules, seed: u64, stacked: Option<[Card; 52]>) -> Game {
        let n = rules.variant.players();
        let mut game = Game {
            rules,
            seed,
            rng: DeckRng::new(seed),
            stacked: stacked.into_iter().collect(),
            players: n,
            phase: Phase::Playing,
            hand: 0,
            dealer: Seat(n - 1),
            hands: PerSeat::new(n),
            taken: PerSeat::new(n),
            tricks_won: PerSeat::new(n),
            trick: Trick::new(Seat(0)),
            turn: Seat(0),
            legal: CardSet::EMPTY,
            discard_preference: CardSet::FULL,
            completed: Vec::with_capacity(13),
            played: CardSet::EMPTY,
            trump: None,
            face_up: CardSet::EMPTY,
            pass_direction: None,
            to_pass: SeatSet::EMPTY,
            passed: PerSeat::new(n),
            received: PerSeat::new(n),
            totals: PerSeat::new(n),
            history: Vec::new(),
            winners: Vec::new(),
            variant: VariantState::new(&rules),
        };
        game.deal(&mut Vec::new());
        game
    }

    /// Deals `deck` (in order, the first card to the dealer's left) for the next hand instead of
    /// a shuffled one; several calls queue several hands. For scripted deals: the seeded stream
    /// is not consumed by a stacked hand.
    pub fn stack_deck(&mut self, deck: [Card; 52]) {
        self.stacked.push(deck);
    }

    /// The events a viewer needs to learn the first hand, as if dealt now.
    #[must_use]
    pub fn opening_events(&self) -> Vec<Event> {
        let mut events = vec![Event::HandStarted {
            hand: self.hand,
            dealer: self.dealer,
            pass: self.pass_direction,
        }];
        for seat in Seat::all(self.players) {
            events.push(Event::Dealt {
                seat,
                cards: self.hands[seat],
            });
        }
        if let Some(trump) = self.trump {
            events.push(Event::TrumpShown {
                trump,
                cards: self.face_up,
            });
        }
        events
    }

    // ---- reading the state -------------------------------------------------------------

    /// The variant and options.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    /// The seed the match was created with.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Seats at the table.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The current phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The hand being played, from 0.
    #[must_use]
    pub fn hand_number(&self) -> u32 {
        self.hand
    }

    /// This hand's dealer.
    #[must_use]
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The cards `seat` holds. Hidden information: only for that seat's view.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The trick on the table.
    #[must_use]
    pub fn trick(&self) -> &Trick {
        &self.trick
    }

    /// The tricks completed this hand.
    #[must_use]
    pub fn completed_tricks(&self) -> impl ExactSizeIterator<Item = CompletedTrick> + '_ {
        self.completed.iter().map(|t| CompletedTrick {
            leader: t.leader(),
            cards: t.cards().to_vec(),
            winner: t.winner(self.players),
        })
    }

    /// How many tricks are finished this hand.
    #[must_use]
    pub fn completed_count(&self) -> usize {
        self.completed.len()
    }

    /// Tricks taken this hand per seat.
    #[must_use]
    pub fn tricks_won(&self) -> PerSeat<u8> {
        self.tricks_won
    }

    /// The cards each seat took this hand (they are all face up once played).
    #[must_use]
    pub fn taken(&self) -> PerSeat<CardSet> {
        self.taken
    }

    /// The trump suit of this hand, if the variant has one.
    #[must_use]
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }

    /// Cards shown to everyone that are not on the table.
    #[must_use]
    pub fn face_up(&self) -> CardSet {
        self.face_up
    }

    /// Whether a heart has been played this hand.
    #[must_use]
    pub fn hearts_broken(&self) -> bool {
        self.played_cards().has_suit(Suit::Hearts)
    }

    /// Where cards are passed this hand, if they are.
    #[must_use]
    pub fn pass_direction(&self) -> Option<PassDirection> {
        self.pass_direction
    }

    /// The cards `seat` chose to pass this hand (hidden from everyone but the giver and the
    /// receiver).
    #[must_use]
    pub fn passed_by(&self, seat: Seat) -> CardSet {
        self.passed[seat]
    }

    /// The cards `seat` received this hand.
    #[must_use]
    pub fn received_by(&self, seat: Seat) -> CardSet {
        self.received[seat]
    }

    /// Seats that still have to choose a pass.
    #[must_use]
    pub fn to_pass(&self) -> SeatSet {
        self.to_pass
    }

    /// Match totals (filippa: positive totals).
    #[must_use]
    pub fn totals(&self) -> PerSeat<i32> {
        self.totals
    }

    /// Filippa's negative totals (zeros elsewhere).
    #[must_use]
    pub fn negatives(&self) -> PerSeat<i32> {
        self.variant.negatives(self.players)
    }

    /// Filippa's prize pool this hand: 36 plus what was carried over (36 in other variants,
    /// which carry nothing).
    #[must_use]
    pub fn pool(&self) -> i32 {
        self.variant.pool()
    }

    /// One score line per finished hand.
    #[must_use]
    pub fn history(&self) -> &[HandResult] {
        &self.history
    }

    /// The winners, once the match is over.
    #[must_use]
    pub fn winners(&self) -> &[Seat] {
        &self.winners
    }

    /// True once the match has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::MatchOver
    }

    /// Who has to act now: everyone who has not passed yet, or the one player to play.
    #[must_use]
    pub fn to_act(&self) -> SeatSet {
        match self.phase {
            Phase::Passing => self.to_pass,
            Phase::Playing => SeatSet::one(self.next_to_play()),
            Phase::MatchOver => SeatSet::EMPTY,
        }
    }

    /// The seat whose card the trick waits for (meaningful while playing).
    #[must_use]
    #[inline]
    pub fn next_to_play(&self) -> Seat {
        debug_assert_eq!(
            self.turn,
            self.trick
                .leader()
                .left(self.trick.len() as u8, self.players)
        );
        self.turn
    }

    /// What `seat` may do now.
    #[must_use]
    pub fn legal_actions(&self, seat: Seat) -> Legal {
        if seat.0 >= self.players || !self.to_act().contains(seat) {
            return Legal::Wait;
        }
        match self.phase {
            Phase::Passing => Legal::Pass {
                count: PASS_COUNT,
                direction: self.pass_direction.expect("a passing hand has a direction"),
                from: self.hands[seat],
            },
            Phase::Playing => Legal::Play {
                cards: self.legal_plays(seat),
            },
            Phase::MatchOver => Legal::Wait,
        }
    }

    /// The cards `seat` may play to the current trick (empty when it is not their turn).
    #[must_use]
    pub fn legal_plays(&self, seat: Seat) -> CardSet {
        if self.phase != Phase::Playing || seat != self.next_to_play() {
            return CardSet::EMPTY;
        }
        debug_assert_eq!(self.legal, self.playable(seat));
        self.legal
    }

    /// What the variant's legality rules may look at besides the hand and the trick.
    #[inline]
    fn table(&self) -> Table {
        Table {
            first_trick: self.completed.is_empty(),
            played: self.played_cards(),
            trump: self.trump,
        }
    }

    /// Every card played this hand, on the table or in finished tricks.
    #[inline]
    fn played_cards(&self) -> CardSet {
        self.played | self.trick.card_set()
    }

    /// The cards `seat` may play, assuming it is their turn to play.
    #[inline]
    fn playable(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat];
        let led = self.trick.led_cards();
        if led.is_empty() {
            return self.variant.lead_options(hand, self.table());
        }
        let following = hand & led;
        // Whether a player can follow is random in random play: compute both answers and
        // select, rather than branch.
        let preferred = hand & self.discard_preference;
        let void = if preferred.is_empty() {
            hand
        } else {
            preferred
        };
        if following.is_empty() {
            void
        } else {
            following
        }
    }

    /// Starts a trick led by `leader`.
    fn start_trick(&mut self, leader: Seat) {
        self.trick = Trick::new(leader);
        self.turn = leader;
        self.discard_preference = self.variant.discard_preference(self.table());
    }

    // ---- changing the state ------------------------------------------------------------

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
        }
    }

    /// [`Game::apply`] of `Action::Play { card }`, without building the action: the same
    /// checks, the same effects, the same events.
    #[inline]
    pub fn play_card(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if seat.0 >= self.players {
            return Err(RuleError::NoSuchSeat(seat));
        }
        self.play(seat, card, events)
    }

    /// [`Game::apply`] of `Action::Pass` with the cards as a set (so it cannot hold a card
    /// twice), without building the action: the same checks, effects and events.
    pub fn pass_cards(
        &mut self,
        seat: Seat,
        cards: CardSet,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if seat.0 >= self.players {
            return Err(RuleError::NoSuchSeat(seat));
        }
        self.check_can_pass(seat)?;
        if cards.len() != PASS_COUNT {
            return Err(RuleError::WrongPassCount {
                expected: PASS_COUNT,
                got: cards.len() as usize,
            });
        }
        if let Some(card) = (cards - self.hands[seat]).lowest() {
            return Err(RuleError::CardNotHeld(card));
        }
        self.choose_pass(seat, cards, events);
        Ok(())
    }

    /// Refuses a pass outside the passing phase or from a seat that has passed.
    fn check_can_pass(&self, seat: Seat) -> Result<(), RuleError> {
        match self.phase {
            Phase::Passing => {}
            Phase::Playing => return Err(RuleError::NotPassingNow),
            Phase::MatchOver => return Err(RuleError::MatchOver),
        }
        if !self.to_pass.contains(seat) {
            return Err(RuleError::AlreadyPassed);
        }
        Ok(())
    }

    /// Records a checked pass; the last one makes every pass arrive.
    fn choose_pass(&mut self, seat: Seat, chosen: CardSet, events: &mut Vec<Event>) {
        self.passed[seat] = chosen;
        self.to_pass.remove(seat);
        events.push(Event::PassChosen { seat });
        if self.to_pass.is_empty() {
            self.exchange_passes(events);
        }
    }

    fn pass(
        &mut self,
        seat: Seat,
        cards: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_can_pass(seat)?;
        if cards.len() != PASS_COUNT as usize {
            return Err(RuleError::WrongPassCount {
                expected: PASS_COUNT,
                got: cards.len(),
            });
        }
        let mut chosen = CardSet::EMPTY;
        for &card in cards {
            if !self.hands[seat].contains(card) {
                return Err(RuleError::CardNotHeld(card));
            }
            if !chosen.insert(card) {
                return Err(RuleError::DuplicateInPass(card));
            }
        }
        self.choose_pass(seat, chosen, events);
        Ok(())
    }

    /// Every pass arrives at once, after everyone has chosen.
    fn exchange_passes(&mut self, events: &mut Vec<Event>) {
        let steps = self
            .pass_direction
            .expect("passing hand")
            .steps(self.players);
        for from in Seat::all(self.players) {
            self.hands[from] -= self.passed[from];
        }
        for from in Seat::all(self.players) {
            let to = from.left(steps, self.players);
            let cards = self.passed[from];
            self.hands[to] |= cards;
            self.received[to] = cards;
            events.push(Event::CardsPassed { from, to, cards });
        }
        self.start_play();
    }

    #[inline]
    fn play(&mut self, seat: Seat, card: Card, events: &mut Vec<Event>) -> Result<(), RuleError> {
        match self.phase {
            Phase::Playing => {}
            Phase::Passing => return Err(RuleError::PassingNow),
            Phase::MatchOver => return Err(RuleError::MatchOver),
        }
        if seat != self.next_to_play() {
            return Err(RuleError::NotYourTurn);
        }
        if !self.legal.contains(card) {
            return self.illegal_card(seat, card, events);
        }
        self.hands[seat].remove(card);
        self.face_up.remove(card);
        self.trick.push(card, self.trump);
        events.push(Event::Played { seat, card });
        if self.trick.len() == self.players as usize {
            self.finish_trick(events);
        } else {
            self.turn = seat.next(self.players);
        }
        if self.phase == Phase::Playing {
            self.legal = self.playable(self.turn);
        }
        Ok(())
    }

    /// A card outside the legal ones: refused, or (when the variant says so) a bad card that
    /// costs points and ends the hand.
    #[cold]
    #[inline(never)]
    fn illegal_card(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some(penalty) = self.variant.bad_card(seat, &mut self.totals) else {
            return Err(self.why_illegal(seat, card));
        };
        events.push(Event::BadCard {
            seat,
            card,
            penalty,
        });
        self.finish_hand(events);
        Ok(())
    }

    /// Names the rule an illegal card breaks (only called once the card is known illegal).
    fn why_illegal(&self, seat: Seat, card: Card) -> RuleError {
        let hand = self.hands[seat];
        if !hand.contains(card) {
            return RuleError::CardNotHeld(card);
        }
        match self.trick.led_suit() {
            None => self.variant.lead_refusal(hand, self.table()),
            Some(led) if hand.has_suit(led) => RuleError::MustFollowSuit(led),
            Some(_) => self.variant.discard_refusal(hand, self.table()),
        }
    }

    #[inline(never)]
    fn finish_trick(&mut self, events: &mut Vec<Event>) {
        let winner = self.trick.winner(self.players);
        let cards = self.trick.card_set();
        self.taken[winner] |= cards;
        self.tricks_won[winner] += 1;
        self.played |= cards;
        self.completed.push(self.trick);
        events.push(Event::TrickWon { winner, cards });
        self.start_trick(winner);
        if self.variant.trick_won(winner, &mut self.totals) || self.hands[winner].is_empty() {
            self.finish_hand(events);
        }
    }

    /// Scores the hand, then ends the match or deals the next hand.
    #[inline(never)]
    fn finish_hand(&mut self, events: &mut Vec<Event>) {
        let n = self.players;
        let score = self
            .variant
            .score_hand(&self.taken, &self.tricks_won, &mut self.totals);
        let result = HandResult {
            hand: self.hand,
            points: score.points,
            penalties: score.penalties,
            tricks: self.tricks_won,
            totals: self.totals,
            pool_carried: score.pool_carried,
            moon: score.moon,
        };
        self.history.push(result.clone());
        events.push(Event::HandScored(result));
        if let Some(winners) = self.variant.match_winners(&self.totals, self.hand) {
            self.winners = winners.clone();
            self.phase = Phase::MatchOver;
            events.push(Event::MatchOver {
                winners,
                totals: self.totals,
            });
        } else {
            self.hand += 1;
            self.dealer = self.dealer.next(n);
            self.deal(events);
        }
    }

    /// Deals the next hand: one card at a time from the dealer's left.
    #[inline(never)]
    fn deal(&mut self, events: &mut Vec<Event>) {
        let n = self.players;
        let deck = if self.stacked.is_empty() {
            shuffled_deck(&mut self.rng)
        } else {
            self.stacked.remove(0)
        };
        let dealt = n as usize * self.rules.variant.hand_size() as usize;
        let mut bits = [0u64; MAX_SEATS];
        let mut seat = self.dealer.next(n).index();
        for &card in &deck[..dealt] {
            bits[seat] |= 1 << card.index();
            seat += 1;
            if seat == n as usize {
                seat = 0;
            }
        }
        self.hands = PerSeat::new(n);
        for seat in Seat::all(n) {
            self.hands[seat] = CardSet::from_bits(bits[seat.index()]);
        }
        self.taken = PerSeat::new(n);
        self.tricks_won = PerSeat::new(n);
        self.completed.clear();
        self.played = CardSet::EMPTY;
        self.passed = PerSeat::new(n);
        self.received = PerSeat::new(n);
        let setup = self.variant.start_hand(self.hand, &deck, dealt);
        self.trump = setup.trump;
        self.face_up = setup.face_up;
        self.pass_direction = setup.pass;
        events.push(Event::HandStarted {
            hand: self.hand,
            dealer: self.dealer,
            pass: self.pass_direction,
        });
        for seat in Seat::all(n) {
            events.push(Event::Dealt {
                seat,
                cards: self.hands[seat],
            });
        }
        if let Some(trump) = self.trump {
            events.push(Event::TrumpShown {
                trump,
                cards: self.face_up,
            });
        }
        if self.pass_direction.is_some() {
            self.phase = Phase::Passing;
            self.to_pass = SeatSet::all(n);
        } else {
            self.start_play();
        }
    }

    /// The variant names who leads the first trick.
    fn start_play(&mut self) {
        self.phase = Phase::Playing;
        let leader = self.variant.first_leader(&self.hands, self.dealer);
        self.start_trick(leader);
        self.legal = self.playable(leader);
    }
}
