//! The heuristic Bridge bot's card play: the rules of thumb every club player learns, applied
//! in order. Opening leads from partner's suit, a sequence, a short suit against a suit
//! contract or the fourth best of the longest suit against no trump; second hand low, third
//! hand high (no higher than needed, looking at dummy when it plays after); win cheaply, never
//! overtake partner's winner, ruff when void and the trick is the opponents', discard from the
//! weakest suit. As declarer: draw trumps while the opponents hold some, cash winners, then
//! lead the longest suit. Deterministic: the same position always gives the same card.

use super::bridge_seen::{BridgeSeen, PlaySeen};
use crate::bridge::{Call, same_side};
use crate::card::{Card, CardSet, Rank, Suit};
use crate::seat::Seat;

/// The card the heuristic bot plays for `seen.play`'s seat on turn (dummy's card when `me`
/// is declarer and dummy is to play): always one of `play.legal`. Outside the play (no
/// `seen.play`) it gives the lowest card held, a card of some kind for a caller that erred.
#[must_use]
pub fn heuristic_card(seen: &BridgeSeen) -> Card {
    let Some(play) = seen.play.as_ref() else {
        return seen.hand.lowest().unwrap_or(Card::from_index(0));
    };
    let legal = play.legal;
    let Some(lowest) = lowest_of(legal) else {
        return seen.hand.lowest().unwrap_or(Card::from_index(0));
    };
    if legal.len() == 1 {
        return lowest;
    }
    let table = Table::new(seen, play);
    let card = match play.trick.len() {
        0 => table.lead(),
        _ => table.follow(),
    };
    if legal.contains(card) { card } else { lowest }
}

/// The lowest-ranking card of a set, whatever its suit (clubs first on equal ranks).
fn lowest_of(cards: CardSet) -> Option<Card> {
    cards.iter().min_by_key(|c| (c.rank(), c.suit()))
}

/// True when `card` beats `best` in a trick under `trump`.
fn beats(card: Card, best: Card, trump: Option<Suit>) -> bool {
    if card.suit() == best.suit() {
        card.rank() > best.rank()
    } else {
        Some(card.suit()) == trump
    }
}

/// The position of the winning card among `trick` (the leader's first).
fn winner(trick: &[Card], trump: Option<Suit>) -> usize {
    (1..trick.len()).fold(0, |best, i| {
        if beats(trick[i], trick[best], trump) {
            i
        } else {
            best
        }
    })
}

/// High-card points of a set, to judge a suit's worth.
fn honour_points(cards: CardSet) -> u32 {
    cards
        .iter()
        .map(|c| match c.rank() {
            Rank::ACE => 4,
            Rank::KING => 3,
            Rank::QUEEN => 2,
            Rank::JACK => 1,
            _ => 0,
        })
        .sum()
}

/// One decision: the seat to play, its cards, and the cards it knows about.
struct Table<'a> {
    play: &'a PlaySeen,
    seen: &'a BridgeSeen,
    /// The seat whose card is asked for.
    seat: Seat,
    /// Its cards.
    hand: CardSet,
    /// Its legal cards.
    legal: CardSet,
    trump: Option<Suit>,
    /// Cards the opponents of `seat` may hold: not played and not in a hand `seat`'s side sees
    /// as its own (for a defender this includes partner's unseen cards, which errs safe).
    outstanding: CardSet,
}

impl<'a> Table<'a> {
    fn new(seen: &'a BridgeSeen, play: &'a PlaySeen) -> Table<'a> {
        let seat = play.to_play;
        let dummy_seat = play.contract.dummy();
        let hand = if seat == seen.me {
            seen.hand
        } else if seat == dummy_seat {
            play.dummy.unwrap_or(play.legal)
        } else {
            play.legal
        };
        let mut known = hand | play.played();
        if same_side(seat, play.contract.declarer) {
            known |= seen.hand | play.dummy.unwrap_or(CardSet::EMPTY);
        } else if seat == seen.me {
            known |= play.dummy.unwrap_or(CardSet::EMPTY);
        }
        Table {
            play,
            seen,
            seat,
            hand,
            legal: play.legal,
            trump: play.contract.bid.strain().trump(),
            outstanding: !known,
        }
    }

    fn is_declarer_side(&self) -> bool {
        same_side(self.seat, self.play.contract.declarer)
    }

    /// The cards of `seat` this player can see, if any.
    fn visible(&self, seat: Seat) -> Option<CardSet> {
        if seat == self.seat {
            Some(self.hand)
        } else if seat == self.play.contract.dummy() {
            self.play.dummy
        } else if seat == self.seen.me {
            Some(self.seen.hand)
        } else {
            None
        }
    }

    /// The cards of partner's hand, when seen.
    fn partner_hand(&self) -> Option<CardSet> {
        self.visible(self.seat.partner())
    }

    /// True when no card the opponents may hold beats `card` in its suit.
    fn is_master(&self, card: Card) -> bool {
        self.outstanding
            .of_suit(card.suit())
            .iter()
            .all(|c| c.rank() < card.rank())
    }

    /// The cheapest card that plays as well as `card`: the lowest of the cards `cards` holds
    /// touching it from below once the cards played are taken out.
    fn cheapest_equal(&self, card: Card, cards: CardSet) -> Card {
        let gone = self.play.played();
        let mut best = card;
        for rank in (0..card.rank().index()).rev() {
            let c = Card::new(Rank::from_index(rank), card.suit());
            if cards.contains(c) {
                best = c;
            } else if !gone.contains(c) {
                break;
            }
        }
        best
    }

    /// The lowest card of `cards` (none of them trumps when another will do).
    fn low(&self, cards: CardSet) -> Card {
        let plain = match self.trump {
            Some(t) if cards.of_suit(t) != cards => cards - CardSet::suit(t),
            _ => cards,
        };
        lowest_of(plain).expect("a card to play")
    }

    // ---- Leads ----

    fn lead(&self) -> Card {
        if self.is_declarer_side() {
            self.declarer_lead()
        } else if self.play.history.is_empty() {
            self.opening_lead()
        } else {
            self.defender_lead()
        }
    }

    /// Suits `seat`'s partner named in a bid.
    fn partner_bid_suits(&self) -> Vec<Suit> {
        let auction = &self.seen.auction;
        let partner = self.seat.partner();
        let mut suits = Vec::new();
        for (i, call) in auction.calls().iter().enumerate() {
            if let Call::Bid(b) = call
                && auction.caller(i) == partner
                && let Some(s) = b.strain().trump()
                && !suits.contains(&s)
            {
                suits.push(s);
            }
        }
        suits
    }

    /// The top of a sequence of two or more touching honours heading `suit`, if any.
    fn sequence_top(&self, suit: Suit) -> Option<Card> {
        let cards = self.hand.of_suit(suit);
        let top = cards.highest()?;
        if top.rank() < Rank::TEN {
            return None;
        }
        let next = Card::new(Rank::from_index(top.rank().index() - 1), suit);
        cards.contains(next).then_some(top)
    }

    /// The card to lead in `suit` from this hand: the top of a sequence or of a doubleton,
    /// else the fourth best (the lowest of fewer than four).
    fn card_in(&self, suit: Suit) -> Card {
        let cards = self.hand.of_suit(suit);
        if let Some(top) = self.sequence_top(suit) {
            return top;
        }
        let mut ranked = cards.to_vec();
        ranked.reverse();
        if ranked.len() == 2 {
            return ranked[0];
        }
        if ranked.len() >= 4 {
            return ranked[3];
        }
        *ranked.last().expect("a card of the suit")
    }

    fn opening_lead(&self) -> Card {
        let held = |s: Suit| self.hand.has_suit(s);
        let side_suits: Vec<Suit> = Suit::ALL
            .into_iter()
            .filter(|&s| held(s) && Some(s) != self.trump)
            .collect();
        if let Some(&suit) = self.partner_bid_suits().iter().rev().find(|&&s| held(s)) {
            return self.card_in(suit);
        }
        if self.trump.is_none() {
            // The longest suit, the stronger of equals; a three-honour sequence first.
            let best = Suit::ALL.into_iter().filter(|&s| held(s)).max_by_key(|&s| {
                let cards = self.hand.of_suit(s);
                (cards.len(), honour_points(cards))
            });
            return self.card_in(best.expect("a card to lead"));
        }
        if let Some(top) = side_suits.iter().find_map(|&s| self.sequence_top(s)) {
            return top;
        }
        let trumps = self.trump.map_or(0, |t| self.hand.of_suit(t).len());
        if trumps > 0
            && let Some(&single) = side_suits
                .iter()
                .find(|&&s| self.hand.of_suit(s).len() == 1)
        {
            return self.hand.of_suit(single).highest().expect("a singleton");
        }
        // A suit with no ace, king or queen in it: the top of it.
        let safe = side_suits.iter().copied().find(|&s| {
            let cards = self.hand.of_suit(s);
            cards.highest().is_some_and(|c| c.rank() < Rank::QUEEN)
        });
        if let Some(suit) = safe {
            return self.hand.of_suit(suit).highest().expect("a card");
        }
        if let Some(t) = self.trump
            && (2..=3).contains(&trumps)
        {
            return self.hand.of_suit(t).lowest().expect("a trump");
        }
        // Everything has an honour: lead from one headed by the ace (cash it) or a queen,
        // rather than away from a king.
        let score = |s: Suit| {
            let top = self.hand.of_suit(s).highest().expect("held").rank();
            match top {
                Rank::ACE => 3,
                Rank::QUEEN => 2,
                _ => 1,
            }
        };
        match side_suits.iter().copied().max_by_key(|&s| score(s)) {
            Some(s) if score(s) == 3 => self.hand.of_suit(s).highest().expect("the ace"),
            Some(s) => self.card_in(s),
            None => self.low(self.legal),
        }
    }

    fn defender_lead(&self) -> Card {
        // Return partner's first led suit.
        let partner = self.seat.partner();
        let partner_led = self
            .play
            .history
            .chunks(4)
            .find_map(|t| (t[0].0 == partner).then_some(t[0].1.suit()));
        if let Some(suit) = partner_led
            && self.hand.has_suit(suit)
            && Some(suit) != self.trump
        {
            let cards = self.hand.of_suit(suit);
            let top = cards.highest().expect("held");
            if cards.len() <= 2 || self.is_master(top) {
                return top;
            }
            return cards.lowest().expect("held");
        }
        if let Some(master) = self.side_masters().next() {
            return master;
        }
        self.opening_lead()
    }

    /// Winners in side suits (trumps are drawn, not cashed one by one).
    fn side_masters(&self) -> impl Iterator<Item = Card> + '_ {
        let mut cards = self.legal.to_vec();
        cards.reverse();
        cards
            .into_iter()
            .filter(|&c| Some(c.suit()) != self.trump && self.is_master(c))
    }

    fn declarer_lead(&self) -> Card {
        let ours = self.hand | self.partner_hand().unwrap_or(CardSet::EMPTY);
        if let Some(t) = self.trump {
            let theirs = self.outstanding.of_suit(t).len();
            let ours_trumps = ours.of_suit(t).len();
            let mine = self.hand.of_suit(t);
            if theirs > 0 && ours_trumps > theirs && !mine.is_empty() {
                let top = mine.highest().expect("a trump");
                if self.is_master(top) {
                    return self.cheapest_equal(top, mine);
                }
                return mine.lowest().expect("a trump");
            }
        }
        if let Some(master) = self.side_masters().next() {
            return self.cheapest_equal(master, self.hand);
        }
        // Set up the side's longest suit: lead low from it.
        let longest = Suit::ALL
            .into_iter()
            .filter(|&s| self.hand.has_suit(s) && Some(s) != self.trump)
            .max_by_key(|&s| (ours.of_suit(s).len(), honour_points(ours.of_suit(s))));
        match longest {
            Some(suit) => self.hand.of_suit(suit).lowest().expect("held"),
            None => self.low(self.legal),
        }
    }

    // ---- Following ----

    fn follow(&self) -> Card {
        let trick = &self.play.trick;
        let led = trick[0].suit();
        let best_at = winner(trick, self.trump);
        let best = trick[best_at];
        let best_seat = self.play.trick_leader.left(best_at as u8, 4);
        let partner_winning = same_side(best_seat, self.seat);
        let position = trick.len(); // 1: second hand, 2: third, 3: fourth.
        let can_follow = self.legal.iter().all(|c| c.suit() == led);
        let winners: Vec<Card> = self
            .legal
            .iter()
            .filter(|&c| beats(c, best, self.trump))
            .collect();
        let cheapest_winner = winners
            .iter()
            .copied()
            .min_by_key(|c| (Some(c.suit()) == self.trump, c.rank()));

        if !can_follow {
            if partner_winning && (position == 3 || self.safe_for_partner(best, best_seat)) {
                return self.discard();
            }
            // Ruff (or over-ruff) as cheaply as wins; else throw a loser.
            return cheapest_winner.unwrap_or_else(|| self.discard());
        }

        match position {
            // Second hand low, but win when a cheap winner is also a sure one at the end.
            1 => self.low(self.legal),
            2 => {
                if partner_winning && self.safe_for_partner(best, best_seat) {
                    return self.low(self.legal);
                }
                self.third_hand(best)
            }
            _ => {
                if partner_winning {
                    return self.low(self.legal);
                }
                cheapest_winner.unwrap_or_else(|| self.low(self.legal))
            }
        }
    }

    /// True when partner's `best` card (played by `best_seat`) will still win the trick: it
    /// is a master, or the players still to come are seen and cannot beat it.
    fn safe_for_partner(&self, best: Card, best_seat: Seat) -> bool {
        debug_assert!(same_side(best_seat, self.seat));
        let next = self.seat.left(1, 4);
        let still_to_play = 4 - self.play.trick.len() - 1;
        if still_to_play == 0 {
            return true;
        }
        match self.visible(next) {
            Some(cards) => {
                let led = self.play.trick[0].suit();
                let follows = cards.has_suit(led);
                let can_beat = if follows {
                    cards
                        .of_suit(led)
                        .iter()
                        .any(|c| beats(c, best, self.trump))
                } else {
                    cards.iter().any(|c| beats(c, best, self.trump))
                };
                !can_beat
            }
            None => {
                let led = self.play.trick[0].suit();
                self.is_master(best)
                    && (self.trump.is_none()
                        || Some(best.suit()) == self.trump
                        || !self.shown_void(next, led))
            }
        }
    }

    /// True when `seat` has failed to follow `suit` earlier in the hand.
    fn shown_void(&self, seat: Seat, suit: Suit) -> bool {
        self.play.history.chunks(4).any(|trick| {
            trick[0].1.suit() == suit
                && trick
                    .iter()
                    .any(|&(who, card)| who == seat && card.suit() != suit)
        })
    }

    /// Third hand high: the cheapest card that beats the trick and whatever the fourth hand
    /// shows it holds; with no such card, the cheapest that wins now; else low.
    fn third_hand(&self, best: Card) -> Card {
        let led = self.play.trick[0].suit();
        let mine = self.legal.of_suit(led);
        let fourth = self.visible(self.seat.left(1, 4));
        let over_fourth = |c: Card| match fourth {
            Some(cards) if cards.has_suit(led) => {
                cards.of_suit(led).iter().all(|f| f.rank() < c.rank())
            }
            _ => true,
        };
        let beating: Vec<Card> = mine
            .iter()
            .filter(|&c| beats(c, best, self.trump))
            .collect();
        if let Some(&card) = beating.iter().find(|&&c| over_fourth(c)) {
            if fourth.is_some() {
                return card;
            }
            // Fourth hand unseen: play high, but the cheapest of equal cards.
            let top = *beating.last().expect("a card that beats");
            return self.cheapest_equal(top, mine);
        }
        match beating.first() {
            // Fourth hand (seen) holds a higher card: force it out cheaply.
            Some(&card) if fourth.is_some() => card,
            Some(_) => self.cheapest_equal(*beating.last().expect("a card"), mine),
            None => self.low(self.legal),
        }
    }

    /// A discard from the weakest suit: the one with the fewest high cards (the longer of
    /// equals), never a trump while another card will do, never a winner while a loser will.
    fn discard(&self) -> Card {
        let legal = self.legal;
        let pool = match self.trump {
            Some(t) if legal.of_suit(t) != legal => legal - CardSet::suit(t),
            _ => legal,
        };
        let losers: CardSet = pool.iter().filter(|&c| !self.is_master(c)).collect();
        let pool = if losers.is_empty() { pool } else { losers };
        let suit = Suit::ALL
            .into_iter()
            .filter(|&s| pool.has_suit(s))
            .min_by_key(|&s| {
                let held = self.hand.of_suit(s);
                (honour_points(held), std::cmp::Reverse(held.len()))
            })
            .expect("a card to discard");
        pool.of_suit(suit).lowest().expect("a card of the suit")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotRng;
    use crate::bots::bridge_bidding::natural_call;
    use crate::bridge::{Auction, Board, Contract, EAST, NORTH, SOUTH, WEST};

    /// A hand being played out, with every seat's cards known to the test.
    struct Game {
        board: Board,
        auction: Auction,
        contract: Contract,
        hands: [CardSet; 4],
        history: Vec<(Seat, Card)>,
        leader: Seat,
        trick: Vec<Card>,
        tricks: [u8; 2],
    }

    impl Game {
        fn new(board: Board, auction: Auction, hands: [CardSet; 4]) -> Game {
            let contract = auction.contract().expect("a contract");
            Game {
                board,
                auction,
                contract,
                hands,
                history: Vec::new(),
                leader: contract.opening_leader(),
                trick: Vec::new(),
                tricks: [0; 2],
            }
        }

        /// Board 1 (North deals), the calls given, hands in compact notation N E S W.
        fn from_text(calls: &str, hands: [&str; 4]) -> Game {
            let board = Board(1);
            let calls: Vec<Call> = calls
                .split_whitespace()
                .map(|c| c.parse().unwrap())
                .collect();
            let auction = Auction::from_calls(board.dealer(), &calls).unwrap();
            Game::new(
                board,
                auction,
                hands.map(|h| CardSet::parse_compact(h).unwrap()),
            )
        }

        fn to_play(&self) -> Seat {
            self.leader.left(self.trick.len() as u8, 4)
        }

        fn legal(&self) -> CardSet {
            let hand = self.hands[self.to_play().index()];
            match self.trick.first() {
                Some(led) if hand.has_suit(led.suit()) => hand.of_suit(led.suit()),
                _ => hand,
            }
        }

        /// What the seat choosing sees: declarer chooses dummy's cards.
        fn seen(&self) -> BridgeSeen {
            let to_play = self.to_play();
            let me = if to_play == self.contract.dummy() {
                self.contract.declarer
            } else {
                to_play
            };
            BridgeSeen {
                me,
                board: self.board,
                hand: self.hands[me.index()],
                auction: self.auction.clone(),
                play: Some(PlaySeen {
                    contract: self.contract,
                    to_play,
                    dummy: (!self.history.is_empty())
                        .then(|| self.hands[self.contract.dummy().index()]),
                    history: self.history.clone(),
                    trick_leader: self.leader,
                    trick: self.trick.clone(),
                    tricks: self.tricks,
                    legal: self.legal(),
                }),
            }
        }

        fn play(&mut self, card: Card) {
            let seat = self.to_play();
            assert!(self.legal().contains(card), "{card} by {seat:?}");
            self.hands[seat.index()].remove(card);
            self.history.push((seat, card));
            self.trick.push(card);
            if self.trick.len() == 4 {
                let trump = self.contract.bid.strain().trump();
                let won = self.leader.left(winner(&self.trick, trump) as u8, 4);
                self.tricks[won.index() % 2] += 1;
                self.leader = won;
                self.trick.clear();
            }
        }

        fn play_text(&mut self, cards: &str) {
            for card in cards.split_whitespace() {
                self.play(card.parse().unwrap());
            }
        }

        fn heuristic(&self) -> String {
            heuristic_card(&self.seen()).to_string()
        }
    }

    // South declares 3NT; West leads.
    const THREE_NT_BY_SOUTH: &str = "P P 1NT P 3NT P P P";
    // South declares 4H; West leads.
    const FOUR_HEARTS_BY_SOUTH: &str = "P P 1H P 4H P P P";

    #[test]
    fn third_hand_plays_high_but_the_cheaper_of_equal_cards() {
        let mut game = Game::from_text(THREE_NT_BY_SOUTH, ["72s 3c", "KQ4s", "A3s 4c", "95s 2c"]);
        game.play_text("5S 2S");
        assert_eq!(game.heuristic(), "QS");
        let mut game = Game::from_text(THREE_NT_BY_SOUTH, ["72s 3c", "K84s", "A3s 4c", "95s 2c"]);
        game.play_text("5S 2S");
        assert_eq!(game.heuristic(), "KS");
    }

    #[test]
    fn third_hand_plays_only_as_high_as_dummy_after_it_requires() {
        // West is third to the heart East leads, dummy (North) fourth.
        let hands = |dummy: &str| {
            [
                "3d ".to_string() + dummy,
                "Ad 3h".into(),
                "4d 2h".into(),
                "2d KT5h".into(),
            ]
        };
        let play = |dummy: &str| {
            let h = hands(dummy);
            let mut game = Game::from_text(
                THREE_NT_BY_SOUTH,
                [&h[0], &h[1], &h[2], &h[3]].map(|s| s.as_str()),
            );
            game.play_text("2D 3D AD 4D 3H 2H");
            game.heuristic()
        };
        assert_eq!(play("92h"), "TH", "the ten beats everything dummy holds");
        assert_eq!(play("J2h"), "KH", "dummy's jack needs the king");
    }

    #[test]
    fn partners_ace_is_not_overtaken() {
        let mut game = Game::from_text(FOUR_HEARTS_BY_SOUTH, ["83d 2c", "K72d", "54d 3c", "AQ6d"]);
        game.play_text("AD 3D");
        assert_eq!(game.heuristic(), "2D");
    }

    #[test]
    fn a_void_ruffs_the_opponents_winner_cheaply_and_discards_under_partner() {
        // Dummy's ace of spades wins; East has no spade: ruff with the small trump.
        let mut game = Game::from_text(
            FOUR_HEARTS_BY_SOUTH,
            ["A3s 2c", "95h 3c", "54s 3d", "2s 7d"],
        );
        game.play_text("2S AS");
        assert_eq!(game.heuristic(), "5H");
        // Partner's king is the best card left: no ruff, a discard from the weakest suit.
        let mut game = Game::from_text(
            FOUR_HEARTS_BY_SOUTH,
            ["43s 2c", "95h 3c KQd", "52s 3d", "KAs 7d"],
        );
        game.play_text("AS 3S");
        assert_eq!(game.heuristic(), "3C");
    }

    #[test]
    fn declarer_draws_trumps_with_a_winner() {
        // Dummy wins the first trick and leads: the queen of trumps, a sure winner. The
        // opponents hold three trumps (the J, T, 9), the side ten.
        let mut game = Game::from_text(
            FOUR_HEARTS_BY_SOUTH,
            ["Ac Q2h 5d", "3c JTh 6d", "4c AK876543h", "2c 9h 87d"],
        );
        game.play_text("2C AC 3C 4C");
        assert_eq!(game.seen().me, SOUTH);
        assert_eq!(game.heuristic(), "QH");
    }

    #[test]
    fn opening_leads() {
        // Against 3NT: fourth best of the longest suit.
        let game = Game::from_text(THREE_NT_BY_SOUTH, ["2c", "3c", "4c", "KJ842s 73h 95d"]);
        assert_eq!(game.heuristic(), "4S");
        // Against 4H: the top of a sequence.
        let game = Game::from_text(FOUR_HEARTS_BY_SOUTH, ["2c", "3c", "4c", "KQJ3s K73d 52h"]);
        assert_eq!(game.heuristic(), "KS");
        // Partner (East) overcalled diamonds: lead them, top of a doubleton.
        let game = Game::from_text("P 2D 2H P 4H P P P", ["2c", "3c", "4c", "KJ84s 73d 95c"]);
        assert_eq!(game.contract.declarer, SOUTH);
        assert_eq!(game.heuristic(), "7D");
        let _ = (NORTH, EAST, WEST);
    }

    fn deal(rng: &mut BotRng) -> [CardSet; 4] {
        let deck = rng.shuffled_deck();
        std::array::from_fn(|i| deck[i * 13..(i + 1) * 13].iter().copied().collect())
    }

    #[test]
    fn random_deals_are_bid_and_played_out_legally() {
        let mut rng = BotRng::new(77);
        let (mut played, mut made, mut surplus) = (0, 0, 0i32);
        for n in 0..400u32 {
            let hands = deal(&mut rng);
            let board = Board(n % 16 + 1);
            let mut auction = Auction::new(board.dealer());
            while let Some(legal) = auction.legal() {
                let seen = BridgeSeen {
                    me: legal.seat,
                    board,
                    hand: hands[legal.seat.index()],
                    auction: auction.clone(),
                    play: None,
                };
                auction.call(legal.seat, natural_call(&seen)).unwrap();
            }
            if auction.contract().is_none() {
                continue;
            }
            let mut game = Game::new(board, auction, hands);
            for _ in 0..52 {
                let card = heuristic_card(&game.seen());
                assert!(
                    game.legal().contains(card),
                    "{card} is not legal for {:?} after {:?}",
                    game.to_play(),
                    game.history
                );
                game.play(card);
            }
            assert_eq!(game.tricks[0] + game.tricks[1], 13);
            let side = game.contract.declarer.index() % 2;
            let taken = i32::from(game.tricks[side]);
            let needed = i32::from(game.contract.bid.tricks_needed());
            played += 1;
            if taken >= needed {
                made += 1;
            }
            surplus += taken - needed;
        }
        eprintln!(
            "{played} contracts played: {made} made ({:.0}%), average {:+.2} tricks against the contract",
            f64::from(made) * 100.0 / f64::from(played),
            f64::from(surplus) / f64::from(played)
        );
        assert!(played > 300);
    }
}
