//! The strong Bridge card player: it deals the cards it cannot see in ways that agree with
//! what it knows, solves each deal double dummy, and plays the card that brings its side the
//! most tricks over all of them.
//!
//! What a seat knows: its own hand, dummy's once shown, every card played, the suits a player
//! has shown out of, and, loosely, the opening bid (an opener of one of a suit has values and
//! length there). The work is bounded by counts, never a clock, so a seed replays exactly; a
//! caller with a clock passes a `stop` that is checked before each deal; with no deal
//! solved it plays the heuristic's card.

use super::BotRng;
use super::bridge_play::heuristic_card;
use super::bridge_seen::BridgeSeen;
use crate::bridge::dds::{self, Position};
use crate::bridge::{Call, Strain};
use crate::card::{Card, CardSet, Suit};
use crate::seat::{PerSeat, Seat};

/// How much one decision may search: deals sampled, and positions the solver may visit on
/// each before that deal is dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Deals of the unseen cards to solve.
    pub samples: u32,
    /// The solver's node limit per deal; a deal that needs more is left out of the count.
    pub nodes_per_sample: u64,
}

impl Budget {
    /// The default: a decision averages well under a second on one core in release (see
    /// docs/PERFORMANCE.md, "Bridge double-dummy solver").
    pub const DEFAULT: Budget = Budget {
        samples: 12,
        nodes_per_sample: 400_000,
    };
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// Tries at a deal that agrees with the auction before settling for one that only agrees
/// with the play.
const AUCTION_TRIES: u32 = 40;
/// Tries at dealing around the shown voids before giving up on a deal.
const DEAL_TRIES: u32 = 200;

/// The card to play for the seat asked (`seen.play.to_play`).
///
/// # Panics
/// When `seen` is not in the play or nothing is legal.
#[must_use]
pub fn strong_card(seen: &BridgeSeen, seed: u64, budget: &Budget) -> Card {
    strong_card_until(seen, seed, budget, &|| false)
}

/// [`strong_card`], deciding from the deals solved so far once `stop()` says so (at least
/// one deal is always tried).
///
/// # Panics
/// When `seen` is not in the play or nothing is legal.
#[must_use]
pub fn strong_card_until(
    seen: &BridgeSeen,
    seed: u64,
    budget: &Budget,
    stop: &dyn Fn() -> bool,
) -> Card {
    decide(seen, seed, budget, stop).0
}

/// The card, and how many deals were solved within the node limit to choose it.
fn decide(seen: &BridgeSeen, seed: u64, budget: &Budget, stop: &dyn Fn() -> bool) -> (Card, u32) {
    let play = seen.play.as_ref().expect("a card is asked for in the play");
    let legal = play.legal;
    assert!(!legal.is_empty(), "a card to play");
    if legal.len() == 1 {
        return (legal.lowest().expect("one card"), 0);
    }
    let knowledge = Knowledge::read(seen);
    let mut rng = BotRng::new(seed);
    let mut totals = [0u32; 52];
    let mut solved = 0;
    for _ in 0..budget.samples.max(1) {
        if stop() {
            break;
        }
        let Some(hands) = knowledge.deal(&mut rng) else {
            continue;
        };
        let position = Position {
            hands,
            strain: play.contract.bid.strain(),
            leader: play.trick_leader,
            trick: play.trick.clone(),
        };
        if let Ok(Some(values)) = dds::card_values_within(&position, budget.nodes_per_sample) {
            for (card, tricks) in values {
                totals[usize::from(card.index())] += u32::from(tricks);
            }
            solved += 1;
        }
    }
    if solved == 0 {
        return (heuristic_card(seen), 0);
    }
    // The most tricks; among equals the lowest rank, then the lowest suit.
    let card = legal
        .iter()
        .max_by_key(|c| {
            (
                totals[usize::from(c.index())],
                std::cmp::Reverse((c.rank(), c.suit())),
            )
        })
        .expect("a legal card");
    (card, solved)
}

/// What one seat knows of the cards: who holds which for sure, how many each other hand
/// holds, the suits they have shown out of, and what the opening bid promised.
#[derive(Clone, Debug)]
struct Knowledge {
    /// Cards whose holder is known, by seat (own hand, and dummy's once shown).
    known: PerSeat<CardSet>,
    /// The seats whose cards are dealt at random.
    unseen: Vec<Seat>,
    /// Cards still held that are not known: dealt to the unseen seats.
    pool: CardSet,
    /// How many cards each seat holds now.
    counts: PerSeat<u32>,
    /// Suits each seat has shown out of.
    voids: PerSeat<CardSet>,
    /// Cards each seat has played (their opening hand is these and what they hold).
    played: PerSeat<CardSet>,
    /// What the opening bid showed, when its bidder is unseen.
    opening: Option<Opening>,
}

/// An unseen opener's promise: points in a range, and length in a suit.
#[derive(Clone, Copy, Debug)]
struct Opening {
    seat: Seat,
    points: (u32, u32),
    suit: Option<(Suit, u32)>,
}

impl Knowledge {
    fn read(seen: &BridgeSeen) -> Knowledge {
        let play = seen.play.as_ref().expect("in the play");
        let dummy_seat = play.contract.dummy();
        let mut known = PerSeat::new(4);
        known[seen.me] = seen.hand;
        if let Some(dummy) = play.dummy {
            known[dummy_seat] = dummy;
        }
        let mut played = PerSeat::<CardSet>::new(4);
        let mut voids = PerSeat::<CardSet>::new(4);
        for trick in play.history.chunks(4) {
            let led = trick[0].1.suit();
            for &(seat, card) in trick {
                played[seat].insert(card);
                if card.suit() != led {
                    voids[seat] |= CardSet::suit(led);
                }
            }
        }
        let mut counts = PerSeat::new(4);
        for seat in Seat::all(4) {
            counts[seat] = 13 - played[seat].len();
        }
        let seen_cards = known.as_slice().iter().fold(play.played(), |a, &h| a | h);
        let unseen: Vec<Seat> = Seat::all(4)
            .filter(|&s| s != seen.me && !(play.dummy.is_some() && s == dummy_seat))
            .collect();
        let opening = opening(seen).filter(|o| unseen.contains(&o.seat));
        Knowledge {
            known,
            unseen,
            pool: CardSet::FULL & !seen_cards,
            counts,
            voids,
            played,
            opening,
        }
    }

    /// A deal of the unseen cards that respects the shown voids, and the opening bid when
    /// one is found within [`AUCTION_TRIES`].
    fn deal(&self, rng: &mut BotRng) -> Option<PerSeat<CardSet>> {
        let mut fallback = None;
        for _ in 0..AUCTION_TRIES {
            let hands = self.deal_around_voids(rng)?;
            if self.fits_opening(&hands) {
                return Some(hands);
            }
            fallback.get_or_insert(hands);
        }
        fallback
    }

    fn fits_opening(&self, hands: &PerSeat<CardSet>) -> bool {
        let Some(o) = self.opening else {
            return true;
        };
        let whole = hands[o.seat] | self.played[o.seat];
        let points = high_card_points(whole);
        let long_enough = o.suit.is_none_or(|(s, n)| whole.of_suit(s).len() >= n);
        (o.points.0..=o.points.1).contains(&points) && long_enough
    }

    /// Deals the pool: the most constrained cards first, each to an unseen seat that may
    /// hold it, chosen in proportion to the room left.
    fn deal_around_voids(&self, rng: &mut BotRng) -> Option<PerSeat<CardSet>> {
        let mut cards = self.pool.to_vec();
        let takers = |c: Card| {
            self.unseen
                .iter()
                .filter(|&&s| !self.voids[s].contains(c))
                .count()
        };
        'attempt: for _ in 0..DEAL_TRIES {
            for i in (1..cards.len()).rev() {
                let j = rng.below(i as u32 + 1) as usize;
                cards.swap(i, j);
            }
            cards.sort_by_key(|&c| takers(c));
            let mut hands = self.known;
            let mut room = self.counts;
            for &seat in &self.unseen {
                room[seat] -= hands[seat].len();
            }
            for &card in &cards {
                let open: u32 = self
                    .unseen
                    .iter()
                    .filter(|&&s| !self.voids[s].contains(card))
                    .map(|&s| room[s])
                    .sum();
                if open == 0 {
                    continue 'attempt;
                }
                let mut pick = rng.below(open);
                for &s in &self.unseen {
                    if self.voids[s].contains(card) {
                        continue;
                    }
                    if pick < room[s] {
                        hands[s].insert(card);
                        room[s] -= 1;
                        break;
                    }
                    pick -= room[s];
                }
            }
            return Some(hands);
        }
        None
    }
}

/// The milton count: ace 4, king 3, queen 2, jack 1.
fn high_card_points(hand: CardSet) -> u32 {
    hand.iter()
        .map(|c| u32::from(c.rank().index().saturating_sub(8)))
        .sum()
}

/// What the auction's first bid showed, in the loosest common style: one of a major five
/// cards, one of a minor three, either 11 to 21 points; one no trump 15 to 17.
fn opening(seen: &BridgeSeen) -> Option<Opening> {
    let calls = seen.auction.calls();
    let (i, bid) = calls.iter().enumerate().find_map(|(i, c)| match c {
        Call::Bid(b) => Some((i, *b)),
        _ => None,
    })?;
    if bid.level() != 1 {
        return None;
    }
    let seat = seen.auction.caller(i);
    Some(match bid.strain().trump() {
        None => Opening {
            seat,
            points: (15, 17),
            suit: None,
        },
        Some(suit) => {
            let major = matches!(bid.strain(), Strain::Hearts | Strain::Spades);
            Opening {
                seat,
                points: (11, 21),
                suit: Some((suit, if major { 5 } else { 3 })),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::bridge_seen::PlaySeen;
    use crate::bridge::{Auction, Board, Contract, EAST, NORTH, SOUTH, WEST};

    /// The position of the winning card of `trick` (led first).
    fn winning(trick: &[Card], trump: Option<Suit>) -> usize {
        let mut best = 0;
        for (i, c) in trick.iter().enumerate().skip(1) {
            let b = trick[best];
            let beats = if c.suit() == b.suit() {
                c.rank() > b.rank()
            } else {
                Some(c.suit()) == trump
            };
            if beats {
                best = i;
            }
        }
        best
    }

    /// A small budget for debug-build tests.
    const QUICK: Budget = Budget {
        samples: 4,
        nodes_per_sample: 60_000,
    };

    fn card(text: &str) -> Card {
        text.parse().expect("a card")
    }

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace().map(card).collect()
    }

    /// The cards `hand` may play to `trick`.
    fn legal_for(hand: CardSet, trick: &[Card]) -> CardSet {
        match trick.first() {
            Some(led) if hand.has_suit(led.suit()) => hand.of_suit(led.suit()),
            _ => hand,
        }
    }

    /// A random deal, contract and point in the play, with the seat asked to play and what
    /// it sees, plus the real hands.
    fn random_position(rng: &mut BotRng) -> (BridgeSeen, PerSeat<CardSet>) {
        let deck = rng.shuffled_deck();
        let mut hands = PerSeat::<CardSet>::new(4);
        for (i, chunk) in deck.chunks(13).enumerate() {
            hands[Seat(i as u8)] = chunk.iter().copied().collect();
        }
        let board = Board(1 + rng.below(16));
        let dealer = board.dealer();
        let strain = Strain::ALL[rng.below(5) as usize];
        let level = 1 + rng.below(4) as u8;
        let auction = Auction::from_calls(
            dealer,
            &[Call::bid(level, strain), Call::Pass, Call::Pass, Call::Pass],
        )
        .expect("a legal auction");
        let contract: Contract = auction.contract().expect("a contract");
        let mut leader = contract.opening_leader();
        let mut trick: Vec<Card> = Vec::new();
        let mut history = Vec::new();
        let mut tricks = [0u8; 2];
        for _ in 0..rng.below(52) {
            let seat = leader.left(trick.len() as u8, 4);
            let legal = legal_for(hands[seat], &trick);
            let c = legal.select(rng.below(legal.len()));
            hands[seat].remove(c);
            trick.push(c);
            history.push((seat, c));
            if trick.len() == 4 {
                let at = winning(&trick, strain.trump());
                leader = leader.left(at as u8, 4);
                tricks[usize::from(leader.0 & 1)] += 1;
                trick.clear();
            }
        }
        let to_play = leader.left(trick.len() as u8, 4);
        let dummy = contract.dummy();
        let me = if to_play == dummy {
            contract.declarer
        } else {
            to_play
        };
        let seen = BridgeSeen {
            me,
            board,
            hand: hands[me],
            auction,
            play: Some(PlaySeen {
                contract,
                to_play,
                dummy: (!history.is_empty()).then_some(hands[dummy]),
                history,
                trick_leader: leader,
                legal: legal_for(hands[to_play], &trick),
                trick,
                tricks,
            }),
        };
        (seen, hands)
    }

    #[test]
    fn the_card_is_legal_and_the_same_seed_gives_the_same_card() {
        let mut rng = BotRng::new(11);
        for round in 0..60u64 {
            let (seen, _) = random_position(&mut rng);
            let legal = seen.play.as_ref().unwrap().legal;
            let chosen = strong_card(&seen, round, &QUICK);
            assert!(legal.contains(chosen), "{chosen} not legal in {seen:?}");
            assert_eq!(strong_card(&seen, round, &QUICK), chosen);
        }
    }

    #[test]
    fn sampled_deals_keep_seen_cards_and_shown_voids() {
        let mut rng = BotRng::new(12);
        for _ in 0..200 {
            let (seen, real) = random_position(&mut rng);
            let play = seen.play.as_ref().unwrap();
            let knowledge = Knowledge::read(&seen);
            let held = real.as_slice().iter().fold(CardSet::EMPTY, |a, &h| a | h);
            for _ in 0..5 {
                let hands = knowledge.deal(&mut rng).expect("a deal");
                let dealt = hands.as_slice().iter().fold(CardSet::EMPTY, |a, &h| a | h);
                assert_eq!(dealt, held, "every card still held is dealt once");
                assert_eq!(dealt & play.played(), CardSet::EMPTY);
                for seat in Seat::all(4) {
                    assert_eq!(hands[seat].len(), real[seat].len(), "{seat:?}");
                    if knowledge.unseen.contains(&seat) {
                        assert_eq!(hands[seat] & seen.hand, CardSet::EMPTY);
                        if let Some(d) = play.dummy {
                            assert_eq!(hands[seat] & d, CardSet::EMPTY);
                        }
                        assert_eq!(hands[seat] & knowledge.voids[seat], CardSet::EMPTY);
                    } else {
                        assert_eq!(hands[seat], real[seat], "a seen hand is kept");
                    }
                }
            }
        }
    }

    #[test]
    fn shown_voids_are_read_from_the_history() {
        let mut rng = BotRng::new(13);
        let mut checked = 0;
        for _ in 0..200 {
            let (seen, real) = random_position(&mut rng);
            let knowledge = Knowledge::read(&seen);
            for seat in Seat::all(4) {
                // A shown void is real, and every discard shows one.
                assert_eq!(real[seat] & knowledge.voids[seat], CardSet::EMPTY);
                checked += knowledge.voids[seat].len();
            }
        }
        assert!(checked > 0, "some discards were seen");
    }

    #[test]
    fn an_opening_bid_shapes_the_deals() {
        // Before the opening lead: South opened one spade and plays it; West leads.
        let mut rng = BotRng::new(14);
        let deck = rng.shuffled_deck();
        let west: CardSet = deck[..13].iter().copied().collect();
        let board = Board(3); // South deals.
        let auction = Auction::from_calls(
            SOUTH,
            &[
                Call::bid(1, Strain::Spades),
                Call::Pass,
                Call::Pass,
                Call::Pass,
            ],
        )
        .unwrap();
        let contract = auction.contract().unwrap();
        let seen = BridgeSeen {
            me: WEST,
            board,
            hand: west,
            auction,
            play: Some(PlaySeen {
                contract,
                to_play: WEST,
                dummy: None,
                history: Vec::new(),
                trick_leader: WEST,
                trick: Vec::new(),
                tricks: [0, 0],
                legal: west,
            }),
        };
        let knowledge = Knowledge::read(&seen);
        assert_eq!(knowledge.unseen, vec![NORTH, EAST, SOUTH]);
        let mut fitting = 0;
        for _ in 0..40 {
            let hands = knowledge.deal(&mut rng).unwrap();
            if knowledge.fits_opening(&hands) {
                fitting += 1;
            }
        }
        assert!(fitting >= 38, "only {fitting} of 40 deals fit the opening");
    }

    /// West on lead with the two top spades against dummy's three top hearts at no trump:
    /// cashing the spades takes two tricks, the heart gives dummy three.
    fn spade_ending() -> BridgeSeen {
        let diamonds = cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD");
        let spades = cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS");
        let hearts = cards("6H 7H 8H 9H TH JH");
        let clubs = cards("5C 6C 7C 8C 9C TC JC QC KC AC");
        let order = [WEST, NORTH, EAST, SOUTH];
        let mut history = Vec::new();
        let mut push = |trick: &[Card]| {
            for (i, &c) in trick.iter().enumerate() {
                history.push((order[i], c));
            }
        };
        push(&spades[0..4]);
        push(&spades[4..8]);
        push(&hearts[0..4]);
        push(&clubs[0..4]);
        push(&clubs[4..8]);
        // Diamond leads, with the other cards discarded on them.
        let discards = [
            spades[8], spades[9], spades[10], hearts[4], hearts[5], clubs[8], clubs[9],
        ];
        let mut rest = diamonds[5..].iter().chain(discards.iter()).copied();
        for &lead in &diamonds[..5] {
            let trick = [
                lead,
                rest.next().unwrap(),
                rest.next().unwrap(),
                rest.next().unwrap(),
            ];
            push(&trick);
        }
        assert_eq!(history.len(), 40);
        // The seat that discarded on a diamond must still be able to hold its end cards:
        // only diamonds are shown void, and nobody holds one.
        let west = CardSet::parse_compact("AKs 2h").unwrap();
        let auction = Auction::from_calls(
            NORTH,
            &[
                Call::Pass,
                Call::Pass,
                Call::bid(1, Strain::NoTrump),
                Call::Pass,
                Call::Pass,
                Call::Pass,
            ],
        )
        .unwrap();
        let contract = auction.contract().unwrap();
        assert_eq!(contract.declarer, SOUTH);
        BridgeSeen {
            me: WEST,
            board: Board(1),
            hand: west,
            auction,
            play: Some(PlaySeen {
                contract,
                to_play: WEST,
                dummy: Some(CardSet::parse_compact("AKQh").unwrap()),
                history,
                trick_leader: WEST,
                trick: Vec::new(),
                tricks: [5, 5],
                legal: west,
            }),
        }
    }

    #[test]
    fn cashes_the_winners_before_giving_up_the_lead() {
        let seen = spade_ending();
        for seed in 0..5 {
            // The king and ace are equal: the lower is played.
            assert_eq!(strong_card(&seen, seed, &Budget::DEFAULT), card("KS"));
        }
    }

    /// Times of whole hands played by the strong player in every seat, by trick:
    /// `cargo test --release -p parlor-shared --lib strong_decision_timings -- --ignored --nocapture`
    /// (`BRIDGE_HANDS`, `BRIDGE_SAMPLES` and `BRIDGE_NODES` change the run).
    #[test]
    #[ignore = "prints timings; run in release by hand"]
    fn strong_decision_timings() {
        let var = |name: &str, default: u64| {
            std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
        };
        let budget = Budget {
            samples: var("BRIDGE_SAMPLES", u64::from(Budget::DEFAULT.samples)) as u32,
            nodes_per_sample: var("BRIDGE_NODES", Budget::DEFAULT.nodes_per_sample),
        };
        let mut rng = BotRng::new(2026);
        let mut by_trick = [(std::time::Duration::ZERO, 0u32, 0u32); 13];
        let mut worst = std::time::Duration::ZERO;
        for hand in 0..var("BRIDGE_HANDS", 4) {
            // A random deal at the opening lead, then every card chosen by the strong player.
            let (mut seen, mut real) = loop {
                let (seen, real) = random_position(&mut rng);
                if seen.play.as_ref().unwrap().history.is_empty() {
                    break (seen, real);
                }
            };
            let contract = seen.play.as_ref().unwrap().contract;
            let strain = contract.bid.strain();
            for step in 0..52usize {
                let play = seen.play.as_mut().unwrap();
                let to_play = play.trick_leader.left(play.trick.len() as u8, 4);
                play.to_play = to_play;
                play.legal = legal_for(real[to_play], &play.trick);
                play.dummy = (!play.history.is_empty()).then_some(real[contract.dummy()]);
                seen.me = if to_play == contract.dummy() {
                    contract.declarer
                } else {
                    to_play
                };
                seen.hand = real[seen.me];
                let start = std::time::Instant::now();
                let (chosen, solved) = decide(&seen, hand * 100 + step as u64, &budget, &|| false);
                let took = start.elapsed();
                by_trick[step / 4].2 += solved;
                worst = worst.max(took);
                by_trick[step / 4].0 += took;
                by_trick[step / 4].1 += 1;
                let play = seen.play.as_mut().unwrap();
                real[to_play].remove(chosen);
                play.trick.push(chosen);
                play.history.push((to_play, chosen));
                if play.trick.len() == 4 {
                    let at = winning(&play.trick, strain.trump());
                    play.trick_leader = play.trick_leader.left(at as u8, 4);
                    play.tricks[usize::from(play.trick_leader.0 & 1)] += 1;
                    play.trick.clear();
                }
            }
        }
        let mut total = std::time::Duration::ZERO;
        let mut count = 0;
        for (trick, (time, n, solved)) in by_trick.iter().enumerate() {
            println!(
                "trick {:2}: mean {:?} over {n} decisions, {:.1} deals solved a decision",
                trick + 1,
                *time / (*n).max(1),
                f64::from(*solved) / f64::from((*n).max(1))
            );
            total += *time;
            count += n;
        }
        println!(
            "{budget:?}: mean {:?} a decision, worst {worst:?}",
            total / count.max(1)
        );
    }
}
