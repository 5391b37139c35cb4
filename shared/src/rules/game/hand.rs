//! A hand's life: dealing one card at a time from the dealer's left, the variant setting trump
//! and passing, bidding, the first lead, and scoring at the end before the match ends or the
//! next hand is dealt. How many cards are dealt, how a hand scores and when the match ends
//! belong to the variant.

use super::{Game, Phase};
use crate::card::{Card, CardSet};
use crate::deck::{DealOrder, shuffled_deck_of};
use crate::fair;
use crate::rules::event::{Event, HandResult};
use crate::rules::trumps::Trumps;
use crate::seat::{MAX_SEATS, PerSeat, Seat, SeatList, SeatSet};

impl Game {
    /// The events a viewer needs to learn the first hand, as if dealt now.
    #[must_use]
    pub fn opening_events(&self) -> Vec<Event> {
        let mut events = Vec::new();
        self.announce_hand(&mut events);
        events
    }

    /// The events of a new deal: the hand starts, each seat's cards, any trump shown.
    fn announce_hand(&self, events: &mut Vec<Event>) {
        events.push(Event::HandStarted {
            hand: self.hand,
            dealer: self.dealer,
            pass: self.pass_direction,
            commitment: self.deal_commitment,
            hand_size: (self.rules.variant.hand_size_varies())
                .then(|| self.rules.hand_size(self.hand)),
        });
        if let Some((board, vulnerability)) = self.variant_rules.board() {
            events.push(Event::Board {
                board,
                vulnerability,
            });
        }
        for seat in Seat::all(self.players) {
            if !self.face_down.contains(seat) {
                events.push(Event::Dealt {
                    seat,
                    cards: self.hands[seat],
                });
            }
        }
        self.announce_face_down(events);
        if let Some(trump) = self.trumps.suit() {
            events.push(Event::TrumpShown {
                trump,
                cards: self.face_up,
            });
        } else if !self.face_up.is_empty() {
            events.push(Event::TurnedUp {
                cards: self.face_up,
            });
        }
    }

    /// Deals the next hand: one card at a time from the dealer's left.
    #[inline(never)]
    pub(super) fn deal(&mut self, events: &mut Vec<Event>) {
        let n = self.players;
        if let Some(dealer) = self.variant_rules.dealer(self.hand) {
            self.dealer = dealer;
        }
        self.deal_secret = None;
        self.deal_commitment = None;
        // A stacked deck comes first (a bot's sampled deal must not be replaced by the real
        // one); a fixed deal is not dealt from the secret, so it has no commitment.
        let deck = if !self.stacked.is_empty() {
            self.stacked.remove(0)
        } else if let Some(fixed) = &self.rules.deal {
            fixed.deal_order(self.dealer)
        } else if let Some(master) = &self.master {
            let secret = fair::hand_secret(master, self.hand);
            self.deal_secret = Some(secret);
            self.deal_commitment = Some(fair::commitment(&secret));
            DealOrder::from_slice(&fair::deck_of(&secret, self.rules.deck()))
        } else {
            shuffled_deck_of(self.rules.deck(), &mut self.rng)
        };
        let dealt = n as usize * self.rules.hand_size(self.hand) as usize;
        // `by_turn[k]`: the cards of the k-th seat served in each round, from the dealer's left.
        let by_turn = match n {
            3 => deal_rounds::<3>(&deck[..dealt]),
            4 => deal_rounds::<4>(&deck[..dealt]),
            5 => deal_rounds::<5>(&deck[..dealt]),
            6 => deal_rounds::<6>(&deck[..dealt]),
            7 => deal_rounds::<7>(&deck[..dealt]),
            _ => unreachable!("tables have three to seven seats"),
        };
        self.hands = PerSeat::new(n);
        let first = self.dealer.next(n);
        for (k, cards) in by_turn.iter().take(n.into()).enumerate() {
            self.hands[first.left(k as u8, n)] = CardSet::from_bits(*cards);
        }
        self.taken = PerSeat::new(n);
        self.tricks_won = PerSeat::new(n);
        self.completed.clear();
        self.played = CardSet::EMPTY;
        self.passed = PerSeat::new(n);
        self.received = PerSeat::new(n);
        self.bids = PerSeat::new(n);
        self.out = SeatSet::EMPTY;
        self.calling = super::Calling::default();
        self.dummy = None;
        self.update_seating();
        self.claim = None;
        self.claims_rejected = 0;
        let setup = self.variant_rules.start_hand(self.hand, &deck, dealt);
        self.trumps = Trumps::plain(setup.trump);
        self.face_up = setup.face_up;
        self.pass_direction = setup.pass;
        self.deal_face_down();
        self.announce_hand(events);
        if self.pass_direction.is_some() {
            self.phase = Phase::Passing;
            self.legal = CardSet::EMPTY;
            self.to_pass = SeatSet::all(n);
        } else if self.variant_rules.calls() {
            self.start_calling();
        } else {
            self.start_bidding_or_play();
        }
    }

    /// The variant names who leads the first trick.
    pub(super) fn start_play(&mut self) {
        self.phase = Phase::Playing;
        let mut leader = self.variant_rules.first_leader(&self.hands, self.dealer);
        if self.out.contains(leader) {
            leader = self.out.next_outside(leader, self.players);
        }
        self.start_trick(leader);
        self.legal = self.playable(leader);
    }

    /// Scores the hand, then ends the match or deals the next hand.
    #[inline(never)]
    pub(super) fn finish_hand(&mut self, events: &mut Vec<Event>) {
        let n = self.players;
        let score = self.variant_rules.score_hand(
            &self.taken,
            &self.tricks_won,
            &self.bids,
            &mut self.totals,
        );
        let result = HandResult {
            hand: self.hand,
            points: score.points,
            penalties: score.penalties,
            tricks: self.tricks_won,
            totals: self.totals,
            pool_carried: score.pool_carried,
            moon: score.moon,
            bids: self.bids_made(),
            bags: score.bags,
            bag_penalty: score.bag_penalty,
            nil: score.nil,
            blind_nil: score.blind_nil,
            trump_made: score.trump_made,
            board: score.board,
            secret: self.deal_secret,
        };
        self.history.push(result.clone());
        events.push(Event::HandScored(result));
        if let Some(winners) = self.variant_rules.match_winners(&self.totals, self.hand) {
            self.phase = Phase::MatchOver;
            self.legal = CardSet::EMPTY;
            events.push(Event::MatchOver {
                winners: SeatList::from_slice(&winners),
                totals: self.totals,
            });
            self.winners = winners;
        } else {
            self.hand += 1;
            self.dealer = self.dealer.next(n);
            self.deal(events);
        }
    }
}

/// Deals `cards` in rounds of `N`, one card to each seat in turn: entry `k` holds the cards of
/// the `k`-th seat served. A round at a time, with `N` known, keeps the seat out of the loop's
/// dependency chain (no wrap-around to test per card).
#[inline]
fn deal_rounds<const N: usize>(cards: &[Card]) -> [u64; MAX_SEATS] {
    let mut by_turn = [0u64; MAX_SEATS];
    for round in cards.chunks_exact(N) {
        for (bits, card) in by_turn.iter_mut().zip(round) {
            *bits |= 1 << card.index();
        }
    }
    by_turn
}

#[cfg(test)]
mod tests {
    use crate::bots::RandomBot;
    use crate::fair::{self, Hash32};
    use crate::rules::{Event, Game, Options, Rules, Variant};

    /// The commitment is worked out once per deal: the one announced, the one every view
    /// carries and the one the revealed secret hashes to must stay the same, hand after hand.
    #[test]
    fn each_hand_s_commitment_is_its_revealed_secret_s_hash() {
        let rules = Rules::new(Variant::Hearts, &Options::default()).unwrap();
        let mut game = Game::with_master(rules, Hash32([7; 32]));
        let mut announced = game.opening_events().iter().find_map(|e| match e {
            Event::HandStarted { commitment, .. } => *commitment,
            _ => None,
        });
        let mut bot = RandomBot::new(5);
        let mut events = Vec::new();
        let mut hands_checked = 0;
        while !game.is_over() {
            assert_eq!(game.deal_commitment(), announced);
            let seat = game.to_act().first().unwrap();
            events.clear();
            bot.act_on(&mut game, seat, &mut events).unwrap();
            for event in &events {
                match event {
                    Event::HandScored(result) => {
                        let secret = result.secret.expect("a fair deal reveals its secret");
                        assert_eq!(Some(fair::commitment(&secret)), announced);
                        hands_checked += 1;
                    }
                    Event::HandStarted { commitment, .. } => announced = *commitment,
                    _ => {}
                }
            }
        }
        assert!(hands_checked >= 2, "a match of several hands");
    }
}
