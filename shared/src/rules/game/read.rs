//! Reading a game: every accessor the views, bots and server use (the bids are read in
//! `bidding`), and what each seat may do now. Nothing here changes the game; variant-only
//! values (filippa's pool and negatives) are asked of the variant's state.

use super::{Game, PASS_COUNT, Phase};
use crate::card::{CardSet, Suit};
use crate::fair::Hash32;
use crate::rules::event::{Action, HandResult, Legal, PassDirection};
use crate::rules::trick::{CompletedTrick, Plays, Trick};
use crate::rules::trumps::Trumps;
use crate::rules::variant::{Rules, Variant};
use crate::seat::{PerSeat, Seat, SeatSet};

impl Game {
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

    /// The match's master secret, when it deals by the fair recipe. Server-side only: it
    /// deals every hand still to come.
    #[must_use]
    pub fn master(&self) -> Option<&Hash32> {
        self.master.as_ref()
    }

    /// The current hand's commitment (SHA-256 of its deal secret), when it has one.
    #[must_use]
    pub fn deal_commitment(&self) -> Option<Hash32> {
        self.deal_commitment
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

    /// The cards `seat` holds. Hidden information: only for that seat's view, and not even
    /// that while they are face down ([`Game::face_down`]).
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
            cards: t.cards(),
            winner: t.winner(),
        })
    }

    /// The tricks completed this hand as the game keeps them.
    #[must_use]
    pub fn completed_plays(&self) -> &[Plays] {
        &self.completed
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
        self.trumps.suit()
    }

    /// This hand's trump with its bowers, if the game plays them: what decides a card's suit
    /// and rank in a trick.
    #[must_use]
    pub fn trumps(&self) -> Trumps {
        self.trumps
    }

    /// Seats sitting this hand out: a lone player's partner holds cards but plays none.
    #[must_use]
    pub fn sitting_out(&self) -> SeatSet {
        self.out
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

    /// The board being played and who is vulnerable (bridge); `None` in other games.
    #[must_use]
    pub fn board(&self) -> Option<(u32, crate::bridge::Vulnerability)> {
        self.variant_rules.board()
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
        self.variant_rules.negatives(self.players)
    }

    /// Filippa's prize pool this hand: 36 plus what was carried over (36 in other variants,
    /// which carry nothing).
    #[must_use]
    pub fn pool(&self) -> i32 {
        self.variant_rules.pool()
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

    /// Who has to act now: everyone who has not passed yet, the one player to bid, to give
    /// cards in an exchange, or to play.
    #[must_use]
    pub fn to_act(&self) -> SeatSet {
        match self.phase {
            Phase::Passing => self.to_pass,
            Phase::Calling | Phase::Discarding => SeatSet::one(self.caller),
            Phase::Bidding => SeatSet::one(self.next_bidder()),
            Phase::Exchanging => SeatSet::one(self.next_giver()),
            Phase::Playing if self.claim.is_some() => self.claim_answerers(),
            Phase::Playing => SeatSet::one(self.player_of(self.next_to_play())),
            Phase::MatchOver => SeatSet::EMPTY,
        }
    }

    /// The seat whose card the trick waits for (meaningful while playing).
    #[must_use]
    #[inline]
    pub fn next_to_play(&self) -> Seat {
        debug_assert!(
            !self.out.is_empty()
                || self.turn
                    == self
                        .trick
                        .leader()
                        .left(self.trick.len() as u8, self.players)
        );
        self.turn
    }

    /// The seat a card is awaited from and the cards it may play; `None` while passing or
    /// bidding and once the match is over. One test, for loops that play a card after a card (the legal
    /// cards are empty exactly when no card is awaited, see `Game::legal`).
    #[must_use]
    #[inline]
    pub fn card_awaited(&self) -> Option<(Seat, CardSet)> {
        debug_assert_eq!(
            self.legal.is_empty(),
            self.phase != Phase::Playing || self.claim.is_some()
        );
        (!self.legal.is_empty()).then_some((self.player_of(self.turn), self.legal))
    }

    /// True when `seat` may make `action` now: a move its prompt ([`Game::legal_actions`])
    /// allows, or declarer's claim, which a declarer asked for a card may make instead.
    #[must_use]
    pub fn allows(&self, seat: Seat, action: &Action) -> bool {
        match action {
            Action::Claim { tricks } => self.check_claim(seat, *tricks).is_ok(),
            _ => self.legal_actions(seat).allows(action),
        }
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
            Phase::Calling => self.variant_rules.legal_calls(seat, self.dealer),
            Phase::Discarding => Legal::Discard {
                from: self.hands[seat],
            },
            Phase::Bidding => self.legal_bid(),
            Phase::Exchanging => self.legal_exchange(seat),
            Phase::Playing => match self.claim {
                Some(claim) => Legal::AnswerClaim {
                    tricks: claim.tricks,
                },
                None => Legal::Play {
                    cards: self.legal_plays(seat),
                },
            },
            Phase::MatchOver => Legal::Wait,
        }
    }

    /// The cards `seat` may play to the current trick (empty when it is not their turn); for
    /// declarer on dummy's turn, dummy's cards.
    #[must_use]
    pub fn legal_plays(&self, seat: Seat) -> CardSet {
        if self.phase != Phase::Playing || seat != self.player_of(self.next_to_play()) {
            return CardSet::EMPTY;
        }
        debug_assert!(self.claim.is_some() || self.legal == self.playable(self.turn));
        self.legal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::RandomBot;
    use crate::rules::{Options, Variant};

    /// A card is awaited exactly while playing, from the seat to play and among its legal
    /// cards: checked before every action of a random match in every variant.
    #[test]
    fn a_card_is_awaited_exactly_while_playing() {
        for variant in Variant::ALL {
            let mut game = Game::new(variant, &Options::default(), 4).unwrap();
            let mut bot = RandomBot::new(2);
            let mut events = Vec::new();
            while let Some(seat) = game.to_act().first() {
                // Declarer plays on dummy's turns.
                let seat_to_play = game.player_of(game.next_to_play());
                let expected = (game.phase() == Phase::Playing)
                    .then(|| (seat_to_play, game.legal_plays(seat_to_play)));
                assert_eq!(game.card_awaited(), expected, "{variant}");
                bot.act_on(&mut game, seat, &mut events).unwrap();
            }
            assert!(game.is_over(), "{variant}");
            assert_eq!(game.card_awaited(), None, "{variant}");
        }
    }
}
