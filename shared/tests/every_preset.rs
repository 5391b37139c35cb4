//! Random legal matches of every variant at every preset the lobby offers (each Oh Hell preset
//! at every table size; default options for a variant without presets): 155,000 hands in all,
//! 15,000 a variant (Euchre 50,000), played by a cheap random player.
//!
//! Every hand: each seat is dealt the hand's size (Oh Hell: the schedule worked out again here)
//! by the seat on the last dealer's left; every card dealt is played exactly once, by a seat
//! holding it (passes included); each trick has one card a seat and the tricks add up to the
//! hand's size (but in the last hand of plain tricks, which stops at the target); in Spades the
//! line's bags, bag penalties and nil results agree with the bids and tricks (`common::bids`);
//! in Oh Hell every seat bids once in turn and the dealer's hook holds; the totals are the sum
//! of the score lines; an Oh Hell match lasts its schedule. In Euchre (50,000 hands) a card is
//! followed as its players know it (the left bower is a trump), a seat sitting out never
//! plays, the dealer picks up the turned card and discards one, a thrown-in hand scores
//! nothing, and every hand scores as the rules say, worked out again here. `properties.rs` checks more at every
//! step of fewer matches.

mod common;

use common::bids::{ohhell_points, spades_line_blind};
use parlor_shared::bridge::{Auction, Contract, Doubling, Strain};
use parlor_shared::deck::DeckRng;
use parlor_shared::rules::{HandResult, Legal, Schedule, presets};
use parlor_shared::{Action, CardSet, Event, Game, Options, Rules, Seat, Variant};

/// Hands played of each variant.
const HANDS_PER_VARIANT: usize = 15_000;

/// Hands of Euchre played (short ones: five cards each).
const EUCHRE_HANDS: usize = 50_000;

/// The option sets played of `variant`: its presets, and Oh Hell's at every table size.
fn option_sets(variant: Variant) -> Vec<Options> {
    let mut sets: Vec<Options> = presets(variant).into_iter().map(|p| p.options).collect();
    if sets.is_empty() {
        sets.push(Options::default());
    }
    if variant == Variant::OhHell {
        sets = sets
            .iter()
            .flat_map(|options| {
                variant.player_range().map(|players| Options {
                    players: Some(players),
                    ..options.clone()
                })
            })
            .collect();
    }
    sets
}

/// The cards each seat is dealt in Oh Hell's hand numbered `hand`, worked out from the
/// schedule: the largest hand leaves one card to turn up for trump.
fn ohhell_size(players: u8, schedule: Schedule, hand: u32) -> u32 {
    let largest = 51 / u32::from(players);
    let down: Vec<u32> = (1..=largest).rev().collect();
    let up: Vec<u32> = (1..=largest).collect();
    let sizes: Vec<u32> = match schedule {
        Schedule::Down => down,
        Schedule::Up => up,
        Schedule::DownUp => down.iter().chain(&up[1..]).copied().collect(),
        Schedule::UpDown => up.iter().chain(&down[1..]).copied().collect(),
    };
    sizes[hand as usize]
}

/// How many hands an Oh Hell match lasts.
fn ohhell_hands(players: u8, schedule: Schedule) -> usize {
    let largest = 51 / usize::from(players);
    match schedule {
        Schedule::Down | Schedule::Up => largest,
        Schedule::DownUp | Schedule::UpDown => 2 * largest - 1,
    }
}

fn hand_size(rules: &Rules, hand: u32) -> u32 {
    match rules.variant {
        Variant::OhHell => ohhell_size(rules.players, rules.schedule, hand),
        variant => variant.hand_size(),
    }
}

/// What one hand's checks keep while it is played.
struct Hand {
    size: u32,
    dealer: Seat,
    /// What each seat holds, as the events told it.
    holding: Vec<CardSet>,
    dealt: CardSet,
    played: CardSet,
    /// The cards of the trick on the table.
    trick: CardSet,
    tricks: u32,
    bids: Vec<Option<u8>>,
    /// The seats that bid blind nil.
    blind: Vec<usize>,
    /// Euchre: the card the dealer discarded, the seats sitting out, and trump once made.
    discarded: CardSet,
    out: Vec<Seat>,
    trump: Option<parlor_shared::Suit>,
    /// The cards each seat held when the trick on the table was led, and the led card.
    led: Option<parlor_shared::Card>,
    /// Bridge: the auction's calls so far, the contract, and whether dummy was shown.
    auction: Option<Auction>,
    contract: Option<Contract>,
    dummy_shown: bool,
}

impl Hand {
    fn new(rules: &Rules, hand: u32, dealer: Seat) -> Hand {
        let n = usize::from(rules.players);
        Hand {
            size: hand_size(rules, hand),
            dealer,
            holding: vec![CardSet::EMPTY; n],
            dealt: CardSet::EMPTY,
            played: CardSet::EMPTY,
            trick: CardSet::EMPTY,
            tricks: 0,
            bids: vec![None; n],
            blind: Vec::new(),
            discarded: CardSet::EMPTY,
            out: Vec::new(),
            trump: None,
            led: None,
            auction: (rules.variant == Variant::Bridge).then(|| Auction::new(dealer)),
            contract: None,
            dummy_shown: false,
        }
    }

    /// Follows one event of the hand.
    fn follow(&mut self, event: &Event, n: u8) {
        match event {
            Event::Dealt { seat, cards } => {
                assert_eq!(cards.len(), self.size, "dealt the hand's size");
                assert!((self.dealt & *cards).is_empty(), "a card dealt twice");
                self.dealt |= *cards;
                self.holding[seat.index()] = *cards;
            }
            Event::CardsPassed { from, to, cards } => {
                assert_eq!(self.holding[from.index()] & *cards, *cards);
                self.holding[from.index()] -= *cards;
                self.holding[to.index()] |= *cards;
            }
            Event::Bid { seat, tricks } => {
                let so_far = self.bids.iter().flatten().count() as u8;
                assert_eq!(*seat, self.dealer.left(1 + so_far, n), "bids go in turn");
                assert_eq!(self.bids[seat.index()], None, "one bid a hand");
                self.bids[seat.index()] = Some(*tricks);
            }
            Event::BlindNil { seat } => self.blind.push(seat.index()),
            Event::Called { seat, call } if self.auction.is_some() => {
                let auction = self.auction.as_mut().unwrap();
                assert_eq!(auction.next_seat(), Some(*seat), "calls go in turn");
                let call = call.in_auction().expect("a call of the auction");
                auction.call(*seat, call).expect("a legal call");
            }
            Event::Contract { contract } => {
                let auction = self.auction.as_ref().expect("an auction");
                assert_eq!(
                    auction.contract(),
                    Some(*contract),
                    "the auction's contract"
                );
                self.contract = Some(*contract);
            }
            Event::DummyShown { seat, cards } => {
                let contract = self.contract.expect("a contract");
                assert_eq!(*seat, contract.dummy());
                assert_eq!(
                    self.played.len(),
                    1,
                    "dummy is shown after the opening lead"
                );
                assert_eq!(*cards, self.holding[seat.index()]);
                self.dummy_shown = true;
            }
            Event::TrumpMade { trump, .. } => self.trump = Some(*trump),
            Event::SitsOut { seat } => self.out.push(*seat),
            Event::PickedUp { seat, card } => {
                assert_eq!(*seat, self.dealer, "the dealer picks up");
                assert!(
                    !self.dealt.contains(*card),
                    "the turned-up card was not dealt"
                );
                self.dealt.insert(*card);
                self.holding[seat.index()].insert(*card);
            }
            Event::DiscardedCard { seat, card } => {
                assert!(self.holding[seat.index()].remove(*card));
                self.discarded.insert(*card);
            }
            Event::Played { seat, card } => {
                assert!(!self.out.contains(seat), "{seat:?} sits this hand out");
                if let Some(contract) = self.contract {
                    if self.played.is_empty() {
                        assert_eq!(*seat, contract.opening_leader(), "declarer's left leads");
                    } else {
                        assert!(self.dummy_shown, "dummy is shown before its first card");
                    }
                }
                if let (Some(trump), Some(led)) = (self.trump, self.led) {
                    // Following suit as Euchre players know it, worked out here: the jack of
                    // trump's colour is a trump.
                    let suit = euchre_suit(trump, led);
                    let held = self.holding[seat.index()];
                    if held.iter().any(|c| euchre_suit(trump, c) == suit) {
                        assert_eq!(euchre_suit(trump, *card), suit, "{seat:?} must follow");
                    }
                }
                if self.trick.is_empty() {
                    self.led = Some(*card);
                }
                assert!(
                    self.holding[seat.index()].remove(*card),
                    "{seat:?} held {card}"
                );
                assert!(!self.played.contains(*card), "{card} played twice");
                self.played.insert(*card);
                self.trick.insert(*card);
            }
            Event::TrickWon { cards, winner } => {
                let playing = u32::from(n) - self.out.len() as u32;
                assert_eq!(cards.len(), playing, "one card a seat playing");
                assert!(!self.out.contains(winner));
                assert_eq!(*cards, self.trick);
                self.trick = CardSet::EMPTY;
                self.led = None;
                self.tricks += 1;
            }
            _ => {}
        }
    }

    /// The hand's score line and the game after it agree with what was played.
    fn check_end(&self, game: &Game, line: &HandResult, bags: &mut [i32; 2]) {
        let took = line.tricks.as_slice();
        let rules = game.rules();
        if rules.variant != Variant::Bridge {
            // (A claim settles a Bridge hand's last tricks unplayed.)
            assert_eq!(took.iter().map(|t| u32::from(*t)).sum::<u32>(), self.tricks);
        }
        let held = self.holding.iter().fold(CardSet::EMPTY, |all, h| all | *h);
        assert_eq!(
            self.played | held | self.discarded,
            self.dealt,
            "every card dealt was played, held or discarded"
        );
        if rules.variant == Variant::Euchre {
            check_euchre_end(self, line);
        } else if rules.variant == Variant::Bridge {
            check_bridge_end(self, rules, line);
        } else if rules.variant == Variant::Tricks && game.is_over() {
            // The match ends the moment a total reaches the target, mid-hand.
            let top = game.totals().as_slice().iter().copied().max().unwrap();
            assert!(top >= rules.target);
            assert_eq!(
                held.len(),
                u32::from(rules.players) * (self.size - self.tricks)
            );
        } else {
            assert_eq!(self.tricks, self.size, "the tricks add up to the hand");
            assert!(held.is_empty());
        }
        let bids = || -> Vec<u8> {
            self.bids
                .iter()
                .map(|b| b.expect("every seat bid"))
                .collect()
        };
        match rules.variant {
            Variant::Spades => {
                let bids = bids();
                assert_eq!(line.bids.expect("the bids").as_slice(), bids.as_slice());
                let (points, after, penalties, nil) =
                    spades_line_blind(rules, &bids, took, *bags, &self.blind);
                assert_eq!(line.points.as_slice(), points.as_slice());
                let per_side = |v: [i32; 2]| vec![v[0], v[1], v[0], v[1]];
                assert_eq!(line.bags.expect("bags").as_slice(), per_side(after));
                let penalised = penalties != [0, 0];
                let penalty = line.bag_penalty.map(|p| p.as_slice().to_vec());
                assert_eq!(penalty, penalised.then(|| per_side(penalties)));
                let nil_bid = nil.iter().any(Option::is_some);
                let nils = line.nil.map(|n| n.as_slice().to_vec());
                assert_eq!(nils, nil_bid.then_some(nil));
                *bags = after;
            }
            Variant::OhHell => {
                let bids = bids();
                assert_eq!(line.bids.expect("the bids").as_slice(), bids.as_slice());
                let points = ohhell_points(rules, &bids, took);
                assert_eq!(line.points.as_slice(), points.as_slice());
                if rules.hook {
                    let sum: u32 = bids.iter().map(|b| u32::from(*b)).sum();
                    assert_ne!(sum, self.size, "the hook let the bids add up");
                }
            }
            _ => assert_eq!(line.bids, None),
        }
        for seat in Seat::all(game.players()) {
            let points: i32 = game.history().iter().map(|l| l.points[seat]).sum();
            assert_eq!(game.totals()[seat], points, "totals are the lines' sum");
            assert_eq!(line.totals[seat], points);
            let minus: i32 = game.history().iter().map(|l| l.penalties[seat]).sum();
            assert_eq!(game.negatives()[seat], minus);
        }
    }
}

/// The suit a card follows as in Euchre with `trump` trump: the left bower is a trump.
fn euchre_suit(trump: parlor_shared::Suit, card: parlor_shared::Card) -> parlor_shared::Suit {
    use parlor_shared::Suit::{Clubs, Diamonds, Hearts, Spades};
    let colour_mate = match trump {
        Clubs => Spades,
        Spades => Clubs,
        Hearts => Diamonds,
        Diamonds => Hearts,
    };
    if card.rank() == parlor_shared::Rank::JACK && card.suit() == colour_mate {
        trump
    } else {
        card.suit()
    }
}

/// A Euchre hand's end: a thrown-in hand plays nothing and scores nothing; otherwise five
/// tricks, the seats sitting out held their five cards, and the score as the rules say.
fn check_euchre_end(hand: &Hand, line: &HandResult) {
    let took = line.tricks.as_slice();
    match line.trump_made {
        None => {
            assert_eq!(hand.tricks, 0, "a thrown-in hand");
            assert!(hand.played.is_empty());
            assert_eq!(line.points.as_slice(), &[0, 0, 0, 0]);
        }
        Some(made) => {
            assert_eq!(hand.tricks, 5);
            for (seat, holding) in hand.holding.iter().enumerate() {
                let out = hand.out.contains(&Seat(seat as u8));
                assert_eq!(holding.len(), if out { 5 } else { 0 });
            }
            assert_eq!(line.points.as_slice(), euchre_points(&made, took));
        }
    }
}

/// A Bridge board's end: a board passed out plays nothing and scores nothing; otherwise the
/// thirteen tricks are shared out (a claim settles those left), and the score is worked out
/// again from the laws of duplicate scoring.
fn check_bridge_end(hand: &Hand, rules: &Rules, line: &HandResult) {
    let took = line.tricks.as_slice();
    let result = line.board.expect("a board's result");
    assert_eq!(result.contract, hand.contract);
    let Some(contract) = hand.contract else {
        assert!(hand.auction.as_ref().unwrap().is_over(), "passed out");
        assert_eq!(hand.tricks, 0);
        assert!(hand.played.is_empty());
        assert_eq!(result.score, 0);
        if !rules.rubber {
            // (A rubber's last board settles the rubber as it stands, passed out or not.)
            assert_eq!(line.points.as_slice(), &[0, 0, 0, 0]);
        }
        return;
    };
    assert_eq!(took.iter().map(|t| u32::from(*t)).sum::<u32>(), 13);
    assert!(hand.tricks <= 13);
    let side = contract.declarer.index() % 2;
    assert_eq!(result.declarer_tricks, took[side] + took[side + 2]);
    let vulnerable = result.vulnerability.is_vulnerable(contract.declarer);
    let score = duplicate_score(&contract, vulnerable, result.declarer_tricks);
    let north_south = if side == 0 { score } else { -score };
    assert_eq!(result.score, north_south);
    if rules.rubber {
        assert!(line.points.as_slice().iter().all(|p| *p >= 0));
    } else {
        assert_eq!(
            line.points.as_slice(),
            &[north_south, -north_south, north_south, -north_south]
        );
    }
}

/// A contract's duplicate score for declarer's side, worked out again from the laws.
fn duplicate_score(contract: &Contract, vulnerable: bool, tricks: u8) -> i32 {
    let level = i32::from(contract.bid.level());
    let needed = level + 6;
    let got = i32::from(tricks);
    let times = match contract.doubled {
        Doubling::Undoubled => 1,
        Doubling::Doubled => 2,
        Doubling::Redoubled => 4,
    };
    if got < needed {
        let down = needed - got;
        if times == 1 {
            return -down * if vulnerable { 100 } else { 50 };
        }
        // Doubled: 100/200/200/300... not vulnerable, 200/300/300... vulnerable.
        let doubled: i32 = (1..=down)
            .map(|i| match (vulnerable, i) {
                (true, 1) => 200,
                (true, _) => 300,
                (false, 1) => 100,
                (false, 2 | 3) => 200,
                (false, _) => 300,
            })
            .sum();
        return -doubled * times / 2;
    }
    let (first, rest) = match contract.bid.strain() {
        Strain::Clubs | Strain::Diamonds => (20, 20),
        Strain::Hearts | Strain::Spades => (30, 30),
        Strain::NoTrump => (40, 30),
    };
    let trick_score = (first + rest * (level - 1)) * times;
    let game = if trick_score >= 100 {
        if vulnerable { 500 } else { 300 }
    } else {
        50
    };
    let slam = match level {
        6 => {
            if vulnerable {
                750
            } else {
                500
            }
        }
        7 => {
            if vulnerable {
                1500
            } else {
                1000
            }
        }
        _ => 0,
    };
    let over = got - needed;
    let overtricks = if times == 1 {
        over * rest
    } else {
        over * times / 2 * if vulnerable { 200 } else { 100 }
    };
    let insult = match times {
        2 => 50,
        4 => 100,
        _ => 0,
    };
    trick_score + game + slam + overtricks + insult
}

/// A Euchre hand's points per seat, worked out again from the rules.
fn euchre_points(made: &parlor_shared::rules::TrumpMade, took: &[u8]) -> [i32; 4] {
    let side = made.maker.index() % 2;
    let makers = took[side] + took[side + 2];
    let (winners, points) = match makers {
        5 if made.alone => (side, 4),
        5 => (side, 2),
        3 | 4 => (side, 1),
        _ if made.defender_alone.is_some() => (1 - side, 4),
        _ => (1 - side, 2),
    };
    std::array::from_fn(|s| if s % 2 == winners { points } else { 0 })
}

/// A random player's bid: uniformly among those allowed half the time, else one of the three
/// lowest (contracts random players can make, so that matches end).
fn choose_bid(min: u8, max: u8, forbidden: Option<u8>, rng: &mut DeckRng) -> u8 {
    let allowed: Vec<u8> = (min..=max).filter(|b| Some(*b) != forbidden).collect();
    let pick = if rng.below(2) == 0 {
        rng.below(allowed.len() as u32)
    } else {
        rng.below(allowed.len().min(3) as u32)
    };
    allowed[pick as usize]
}

/// `count` random cards of `from`.
fn choose_pass(from: CardSet, count: u32, rng: &mut DeckRng) -> Vec<parlor_shared::Card> {
    let mut left = from;
    (0..count)
        .map(|_| {
            let card = left.select(rng.below(left.len()));
            left.remove(card);
            card
        })
        .collect()
}

/// Plays one match with random legal moves, checking every hand; returns the hands played.
fn play_match(variant: Variant, options: &Options, seed: u64) -> usize {
    let mut game = Game::new(variant, options, seed).unwrap();
    let rules = *game.rules();
    let n = rules.players;
    let mut rng = DeckRng::new(seed ^ 0x5EED);
    let mut hand = Hand::new(&rules, 0, game.dealer());
    let mut bags = [0, 0];
    let mut events = game.opening_events();
    let mut steps = 0;
    loop {
        for event in &events {
            hand.follow(event, n);
            match event {
                Event::HandScored(line) => hand.check_end(&game, line, &mut bags),
                Event::HandStarted {
                    hand: number,
                    dealer,
                    ..
                } => {
                    let expected = if *number == 0 {
                        hand.dealer
                    } else {
                        hand.dealer.next(n)
                    };
                    assert_eq!(*dealer, expected, "the deal moves left");
                    hand = Hand::new(&rules, *number, *dealer);
                }
                _ => {}
            }
        }
        let Some(seat) = game.to_act().first() else {
            break;
        };
        steps += 1;
        assert!(
            steps < 50_000,
            "{variant:?} {options:?} seed {seed}: no end"
        );
        let action = match game.legal_actions(seat) {
            Legal::Play { cards } => Action::Play {
                card: cards.select(rng.below(cards.len())),
            },
            Legal::Pass { count, from, .. } => Action::Pass {
                cards: choose_pass(from, count, &mut rng),
            },
            Legal::Bid {
                min,
                max,
                forbidden,
            } => {
                if let Some(hooked) = forbidden {
                    assert!(
                        rules.hook && seat == hand.dealer,
                        "only the dealer is hooked"
                    );
                    let others: u32 = hand.bids.iter().flatten().map(|b| u32::from(*b)).sum();
                    assert_eq!(u32::from(hooked) + others, hand.size);
                    let refused = game.clone().apply(seat, &Action::Bid { tricks: hooked });
                    assert!(refused.is_err(), "the hooked bid is refused");
                }
                Action::Bid {
                    tricks: choose_bid(min, max, forbidden, &mut rng),
                }
            }
            Legal::Blind => {
                if rng.below(4) == 0 {
                    Action::BlindNil
                } else {
                    Action::SeeCards
                }
            }
            Legal::Exchange { count, from, .. } => Action::Exchange {
                cards: choose_pass(from, count, &mut rng),
            },
            Legal::Call { .. } => {
                let calls = game.legal_actions(seat).calls();
                // Passing half the time, so that second rounds and thrown-in hands come too.
                if rng.below(2) == 0 && calls[0] == parlor_shared::rules::Call::Pass {
                    Action::Call(calls[0])
                } else {
                    Action::Call(calls[rng.below(calls.len() as u32) as usize])
                }
            }
            Legal::Discard { from } => Action::Discard {
                card: from.select(rng.below(from.len())),
            },
            Legal::AnswerClaim { .. } => Action::AnswerClaim {
                accept: rng.below(2) == 0,
            },
            Legal::Wait => panic!("{seat:?} is to act but may only wait"),
        };
        let action = match (action, game.dummy()) {
            // Declarer claims now and then: a random number of the tricks left.
            (Action::Play { .. }, Some(dummy)) if seat == dummy.partner() && rng.below(20) == 0 => {
                let left = game.hand(game.next_to_play()).len();
                Action::Claim {
                    tricks: rng.below(left + 1) as u8,
                }
            }
            (action, dummy) => {
                if matches!(action, Action::Play { .. }) && dummy == Some(game.next_to_play()) {
                    assert_eq!(
                        seat,
                        dummy.unwrap().partner(),
                        "declarer plays dummy's cards"
                    );
                    let card = game.hand(game.next_to_play()).lowest().unwrap();
                    let refused = game.clone().apply(dummy.unwrap(), &Action::Play { card });
                    assert!(refused.is_err(), "dummy plays no card");
                }
                action
            }
        };
        events.clear();
        game.apply_into(seat, &action, &mut events).unwrap();
    }
    assert!(game.is_over());
    if variant == Variant::OhHell {
        assert_eq!(game.history().len(), ohhell_hands(n, rules.schedule));
    }
    game.history().len()
}

#[test]
fn random_matches_of_every_preset_keep_the_rules_of_every_hand() {
    let mut total = 0;
    for variant in Variant::ALL {
        let sets = option_sets(variant);
        let mut hands = 0;
        let mut seed = 0;
        // Euchre's hands are five cards: more of them, every option set many times.
        let goal = if variant == Variant::Euchre {
            EUCHRE_HANDS
        } else {
            HANDS_PER_VARIANT
        };
        while hands < goal {
            hands += play_match(variant, &sets[seed as usize % sets.len()], seed);
            seed += 1;
        }
        assert!(
            seed as usize >= sets.len(),
            "{variant:?}: every option set played"
        );
        total += hands;
    }
    assert!(total >= 105_000, "{total} hands");
}
