//! A Hearts position for the Monte Carlo search, kept as bare card sets: the hands of one
//! sampled deal, the trick on the table, what each seat has taken and the two flags the rules
//! read (first trick, hearts broken). It plays the rest of the hand out with the heuristic.
//!
//! Why not the engine: a position needs only what the rest of the hand depends on, so it can
//! be set up straight from a view without replaying its tricks. That makes each sampled deal
//! cheaper, and it works when the order of the past tricks is unknown (heartless's script
//! arguments carry only the set of discarded cards and each seat's points). The rules are
//! Parlor's Hearts (`rules::hearts`): a test plays both side by side.

use super::heuristic;
use super::table::Table;
use crate::card::{Card, CardSet, Suit};
use crate::rules::Variant;
use crate::seat::{PerSeat, Seat};
use crate::view::PlayerView;

const PLAYERS: u8 = 4;

/// Hearts and the queen of spades.
fn point_cards() -> CardSet {
    CardSet::suit(Suit::Hearts) | CardSet::single(Card::QUEEN_OF_SPADES)
}

/// One sampled deal of a 4-seat Hearts hand, at some point of play.
#[derive(Clone, Debug)]
pub struct HeartsDeal {
    hands: [CardSet; 4],
    leader: Seat,
    trick: [Card; 4],
    len: usize,
    taken: PerSeat<CardSet>,
    /// Cards played this hand (finished tricks and the table).
    out: CardSet,
    first_trick: bool,
}

impl HeartsDeal {
    /// The position of `view` (4-seat Hearts) where every seat holds `hands`. Only the set
    /// of each seat's taken cards is read from the view's finished tricks, never their order.
    #[must_use]
    pub fn from_view(view: &PlayerView, hands: &PerSeat<CardSet>) -> Option<HeartsDeal> {
        if view.variant != Variant::Hearts || view.players != PLAYERS {
            return None;
        }
        let mut taken = PerSeat::<CardSet>::new(PLAYERS);
        for t in &view.tricks {
            taken[t.winner] |= t.cards.iter().copied().collect::<CardSet>();
        }
        let mut trick = [Card::TWO_OF_CLUBS; 4];
        for (slot, p) in trick.iter_mut().zip(&view.trick.plays) {
            *slot = p.card;
        }
        let mut sets = [CardSet::EMPTY; 4];
        for (i, set) in sets.iter_mut().enumerate() {
            *set = hands[Seat(i as u8)];
        }
        Some(HeartsDeal {
            hands: sets,
            leader: view.trick.leader,
            trick,
            len: view.trick.plays.len(),
            taken,
            out: view.played_cards(),
            first_trick: view.tricks.is_empty(),
        })
    }

    /// The first trick of a hand where every seat holds `hands` (after the pass): the holder
    /// of the two of clubs leads.
    #[must_use]
    pub fn opening(hands: &PerSeat<CardSet>) -> HeartsDeal {
        let mut sets = [CardSet::EMPTY; 4];
        for (i, set) in sets.iter_mut().enumerate() {
            *set = hands[Seat(i as u8)];
        }
        let leader = Seat::all(PLAYERS)
            .find(|s| hands[*s].contains(Card::TWO_OF_CLUBS))
            .unwrap_or(Seat(0));
        HeartsDeal {
            hands: sets,
            leader,
            trick: [Card::TWO_OF_CLUBS; 4],
            len: 0,
            taken: PerSeat::new(PLAYERS),
            out: CardSet::EMPTY,
            first_trick: true,
        }
    }

    /// The seat to play.
    #[must_use]
    pub fn to_play(&self) -> Seat {
        self.leader.left(self.len as u8, PLAYERS)
    }

    /// True once every card is played.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.hands.iter().all(|h| h.is_empty())
    }

    /// What `seat` may play now (Parlor's Hearts rules).
    #[must_use]
    pub fn legal(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat.index()];
        if self.len == 0 {
            if self.first_trick && hand.contains(Card::TWO_OF_CLUBS) {
                return CardSet::single(Card::TWO_OF_CLUBS);
            }
            let not_hearts = hand - CardSet::suit(Suit::Hearts);
            let broken = self.out.has_suit(Suit::Hearts);
            return if broken || not_hearts.is_empty() {
                hand
            } else {
                not_hearts
            };
        }
        let follow = hand.of_suit(self.trick[0].suit());
        if !follow.is_empty() {
            return follow;
        }
        let safe = hand - point_cards();
        if self.first_trick && !safe.is_empty() {
            safe
        } else {
            hand
        }
    }

    /// Plays `card` for the seat to play (the caller keeps to [`HeartsDeal::legal`]).
    pub fn play(&mut self, card: Card) {
        let seat = self.to_play();
        self.hands[seat.index()].remove(card);
        self.trick[self.len] = card;
        self.len += 1;
        self.out.insert(card);
        if self.len == PLAYERS as usize {
            let led = self.trick[0].suit();
            let (best, _) = self
                .trick
                .iter()
                .enumerate()
                .filter(|(_, c)| c.suit() == led)
                .max_by_key(|(_, c)| c.rank())
                .expect("the led card");
            let winner = self.leader.left(best as u8, PLAYERS);
            self.taken[winner] |= self.trick.iter().copied().collect::<CardSet>();
            self.leader = winner;
            self.len = 0;
            self.first_trick = false;
        }
    }

    /// Plays the hand out with the heuristic at every seat; returns each seat's points
    /// (moon shooting adds 26 to the others).
    pub fn finish(&mut self, table: &mut Table) -> PerSeat<i32> {
        while !self.is_over() {
            let seat = self.to_play();
            self.fill(table, seat);
            let card = heuristic::play(table);
            self.play(card);
        }
        self.points()
    }

    /// Points per seat for the cards taken so far, as a finished hand scores them.
    #[must_use]
    pub fn points(&self) -> PerSeat<i32> {
        let mut points = PerSeat::<i32>::new(PLAYERS);
        for (seat, cards) in self.taken.iter() {
            let queen = if cards.contains(Card::QUEEN_OF_SPADES) {
                13
            } else {
                0
            };
            points[seat] = cards.of_suit(Suit::Hearts).len() as i32 + queen;
        }
        let shooter = points.iter().find(|(_, p)| **p == 26).map(|(s, _)| s);
        if let Some(shooter) = shooter {
            for seat in Seat::all(PLAYERS) {
                points[seat] = if seat == shooter { 0 } else { 26 };
            }
        }
        points
    }

    /// Sets `table` to what `seat` knows at its turn.
    pub(super) fn fill(&self, table: &mut Table, seat: Seat) {
        table.me = seat;
        table.hand = self.hands[seat.index()];
        table.legal = self.legal(seat);
        table.set_trick(self.leader, &self.trick[..self.len]);
        table.out = self.out;
        table.taken = self.taken;
        table.first_trick = self.first_trick;
    }
}

/// The legal cards that can lead to different outcomes, one per class (the lowest): two
/// cards of a suit are the same to the rest of the hand when every card ranked between them
/// is the player's own or already gone in a finished trick. The queen of spades is always a
/// class of its own. Fewer candidates leave more sampled deals to each.
#[must_use]
pub fn distinct_cards(legal: CardSet, hand: CardSet, gone: CardSet) -> Vec<Card> {
    let mut out: Vec<Card> = Vec::new();
    let mut last: Option<Card> = None;
    for card in legal.iter() {
        let same = last.is_some_and(|prev| {
            prev.suit() == card.suit()
                && prev != Card::QUEEN_OF_SPADES
                && card != Card::QUEEN_OF_SPADES
                && (prev.index() + 1..card.index()).all(|i| {
                    let between = Card::from_index(i);
                    between != Card::QUEEN_OF_SPADES
                        && (hand.contains(between) || gone.contains(between))
                })
        });
        if !same {
            out.push(card);
        }
        last = Some(card);
    }
    out
}

/// A table to pass to [`HeartsDeal::finish`] (reused across rollouts).
#[must_use]
pub fn rollout_table() -> Table {
    Table::blank(Variant::Hearts, PLAYERS, Seat(0))
}

/// How good a Hearts hand's points are for `me` (higher is better): the other seats' mean
/// minus its own, as the search and the passing simulation both score a played-out deal.
pub(super) fn hearts_value(points: &PerSeat<i32>, me: Seat) -> f64 {
    let total: i32 = points.iter().map(|(_, p)| *p).sum();
    let others = f64::from(total - points[me]) / 3.0;
    others - f64::from(points[me])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equivalent_cards_are_tried_once() {
        let set = |t: &str| CardSet::parse_compact(t).unwrap();
        let hand = set("2C 3C 5C 7C JS QS KS 4H");
        // 4C is gone, 6C is out there: 2-3-5 are one class, 7 another; the queen stands alone.
        let gone = set("4C");
        assert_eq!(
            distinct_cards(set("2C 3C 5C 7C"), hand, gone),
            vec![set("2C").lowest().unwrap(), set("7C").lowest().unwrap()]
        );
        assert_eq!(
            distinct_cards(set("JS QS KS"), hand, CardSet::EMPTY).len(),
            3
        );
    }
    use crate::bots::RandomBot;
    use crate::rules::{Action, Game, Options};

    /// Random games on the engine and on a `HeartsDeal` set up from the first view agree on
    /// every legal set and on the final points.
    #[test]
    fn agrees_with_the_engine() {
        for seed in 0..60u64 {
            let mut game = Game::new(Variant::Hearts, &Options::default(), seed).unwrap();
            let mut random = RandomBot::new(seed);
            // Play the passes and a few cards on the engine first.
            let start = (seed % 20) as usize;
            let mut played = 0;
            while played < start || !matches!(game.phase(), crate::rules::Phase::Playing) {
                let seat = game.to_act().iter().next().unwrap();
                let a = random.choose_legal(&game.legal_actions(seat)).unwrap();
                if matches!(a, Action::Play { .. }) {
                    played += 1;
                }
                game.apply(seat, &a).unwrap();
            }
            let seat = game.next_to_play();
            let view = PlayerView::of(&game, Some(seat));
            let mut hands = PerSeat::<CardSet>::new(4);
            for s in Seat::all(4) {
                hands[s] = game.hand(s);
            }
            let mut deal = HeartsDeal::from_view(&view, &hands).unwrap();
            let hand = game.hand_number();
            while game.hand_number() == hand && !game.is_over() {
                let seat = game.next_to_play();
                assert_eq!(deal.to_play(), seat);
                assert_eq!(deal.legal(seat), game.legal_plays(seat), "seed {seed}");
                let card = random.pick(game.legal_plays(seat)).unwrap();
                game.apply(seat, &Action::Play { card }).unwrap();
                deal.play(card);
            }
            assert!(deal.is_over());
            let result = game.history().last().unwrap();
            for s in Seat::all(4) {
                assert_eq!(deal.points()[s], result.points[s], "seed {seed}");
            }
        }
    }
}
