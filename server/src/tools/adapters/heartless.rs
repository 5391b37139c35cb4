//! The heartless script interface: the 24 `--key=value` arguments a heartless AI script gets
//! for one decision, built from a Parlor view, and the reverse (a view rebuilt from them).
//!
//! Every argument is written and read as the heartless crate's own `run_script_to_pick_cards`
//! does. Seats are relative: 0 me, 1 left, 2 opposite, 3 right, 4 nobody. Cards are rank +
//! lower-case suit with ten written `0` (`2c0c4dQs`), suits in heartless's order c, d, s, h;
//! `--suit_to_follow` is a name (`club`); `--discarded` includes the round on the table;
//! `_suit_chars` lists, in the order h, s, d, c, the suits a player has not yet failed to
//! follow.

use std::collections::HashMap;

use parlor_shared::bots::heuristic::cost;
use parlor_shared::rules::{CompletedTrick, FirstLead, PassDirection, Phase, TrickCards};
use parlor_shared::view::{PassView, PlayedCard, TrickView};
use parlor_shared::{
    Card, CardSet, Legal, Options, PerSeat, PlayerView, Rank, Seat, Suit, Variant,
};
use thiserror::Error;

/// The relative seats in argument order, with their argument prefix.
pub const PLAYERS: [&str; 4] = ["my", "left", "opposite", "right"];

/// Suits in heartless's order.
const ORDER: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Spades, Suit::Hearts];

/// A card in heartless notation (`0h`, `Qs`).
#[must_use]
pub fn card_text(card: Card) -> String {
    let rank = if card.rank() == Rank::TEN {
        '0'
    } else {
        card.rank().letter()
    };
    format!("{rank}{}", card.suit().letter().to_ascii_lowercase())
}

/// Cards in heartless notation, suits c, d, s, h, ranks low to high, no spaces.
#[must_use]
pub fn cards_text(cards: CardSet) -> String {
    ORDER
        .iter()
        .flat_map(|s| cards.of_suit(*s).iter())
        .map(card_text)
        .collect()
}

/// heartless's name for a suit in `--suit_to_follow`.
fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => "club",
        Suit::Diamonds => "diamond",
        Suit::Spades => "spade",
        Suit::Hearts => "heart",
    }
}

/// The suit heartless says to follow: the suit led, and clubs in the first round before
/// anyone plays when the 2 of clubs must open it. `None` while passing.
#[must_use]
pub fn suit_to_follow(view: &PlayerView) -> Option<Suit> {
    if view.phase == Phase::Passing {
        return None;
    }
    let led = view.trick.plays.first().map(|p| p.card.suit());
    let opening =
        view.tricks.is_empty() && view.variant.facts().first_lead == FirstLead::TwoOfClubs;
    led.or(opening.then_some(Suit::Clubs))
}

/// Suits each seat has shown it lacks by not following them, as everyone at the table can
/// tell (heartless's `suit_chars` start from all four each deal and only ever lose one so).
fn shown_voids(view: &PlayerView) -> PerSeat<CardSet> {
    let n = view.players;
    let mut voids = PerSeat::<CardSet>::new(n);
    let finished = view.tricks.iter().map(|t| (t.leader, t.cards.to_vec()));
    let current = std::iter::once((
        view.trick.leader,
        view.trick.plays.iter().map(|p| p.card).collect::<Vec<_>>(),
    ));
    for (leader, cards) in finished.chain(current) {
        let Some(led) = cards.first().map(|c| c.suit()) else {
            continue;
        };
        for (i, card) in cards.iter().enumerate() {
            if card.suit() != led {
                voids[leader.left(i as u8, n)] |= CardSet::suit(led);
            }
        }
    }
    voids
}

/// Points taken this hand as heartless shows them: a heart 1, the queen of spades 13, and once
/// a player has all 26, 0 for them and 26 for everyone else.
fn hand_scores(view: &PlayerView) -> PerSeat<i32> {
    let mut scores = PerSeat::<i32>::new(view.players);
    for t in &view.tricks {
        scores[t.winner] += t
            .cards
            .iter()
            .map(|c| cost(Variant::Hearts, *c))
            .sum::<i32>();
    }
    if scores.iter().any(|(_, s)| *s == 26) {
        for seat in Seat::all(view.players) {
            scores[seat] = if scores[seat] == 26 { 0 } else { 26 };
        }
    }
    scores
}

/// The arguments for the seat of `view` (a 4-seat view with a decision to make), in
/// heartless's order, as `--key=value` strings. The script sits at heartless's seat 0.
#[must_use]
pub fn arguments(view: &PlayerView) -> Vec<String> {
    let me = view.seat.expect("a seated view");
    let n = view.players;
    let rel = |s: Seat| (s.0 + n - me.0) % n;
    let real = |r: u8| me.left(r, n);
    let mut args: Vec<(String, String)> = Vec::with_capacity(24);
    let passing = view.phase == Phase::Passing;
    let on_table: CardSet = view.trick.plays.iter().map(|p| p.card).collect();
    // heartless counts the round's cards as discarded the moment they are played.
    let discarded: CardSet = view
        .tricks
        .iter()
        .flat_map(|t| t.cards.iter().copied())
        .collect::<CardSet>()
        | on_table;
    let winner = winning(view);
    args.push(("who".into(), "0".into()));
    args.push(("hand".into(), cards_text(view.hand)));
    args.push(("discarded".into(), cards_text(discarded)));
    args.push((
        "suit_to_follow".into(),
        suit_to_follow(view)
            .map(suit_name)
            .unwrap_or_default()
            .into(),
    ));
    let round = if passing { 0 } else { view.tricks.len() + 1 };
    args.push(("round".into(), round.to_string()));
    let gun = if passing { 4 } else { rel(view.trick.leader) };
    args.push(("under_the_gun".into(), gun.to_string()));
    args.push((
        "round_winner".into(),
        winner.map_or(4, |(s, _)| rel(s)).to_string(),
    ));
    args.push((
        "high_card".into(),
        winner.map(|(_, c)| card_text(c)).unwrap_or_default(),
    ));
    let voids = shown_voids(view);
    let scores = hand_scores(view);
    for (r, name) in PLAYERS.iter().enumerate() {
        let seat = real(r as u8);
        let playing = view
            .trick
            .plays
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| card_text(p.card))
            .unwrap_or_default();
        // heartless writes the suits a player may hold as h, s, d, c.
        let suits: String = [Suit::Hearts, Suit::Spades, Suit::Diamonds, Suit::Clubs]
            .iter()
            .filter(|s| !voids[seat].has_suit(**s))
            .map(|s| s.letter().to_ascii_lowercase())
            .collect();
        args.push((format!("{name}_discarding"), playing));
        args.push((format!("{name}_hand_score"), scores[seat].to_string()));
        args.push((format!("{name}_game_score"), view.totals[seat].to_string()));
        args.push((format!("{name}_suit_chars"), suits));
    }
    args.into_iter()
        .map(|(k, v)| format!("--{k}={v}"))
        .collect()
}

/// The seat and card winning the trick on the table.
fn winning(view: &PlayerView) -> Option<(Seat, Card)> {
    let mut best: Option<PlayedCard> = None;
    for p in &view.trick.plays {
        let beats = match best {
            None => true,
            Some(b) if p.card.suit() == b.card.suit() => p.card.rank() > b.card.rank(),
            Some(_) => Some(p.card.suit()) == view.trump,
        };
        if beats {
            best = Some(*p);
        }
    }
    best.map(|p| (p.seat, p.card))
}

/// A suit character as heartless reads it.
fn suit_char(c: char) -> Option<Suit> {
    match c {
        'c' | 'C' | '♣' => Some(Suit::Clubs),
        'd' | 'D' | '♦' => Some(Suit::Diamonds),
        's' | 'S' | '♠' => Some(Suit::Spades),
        'h' | 'H' | '♥' => Some(Suit::Hearts),
        _ => None,
    }
}

/// A rank character as heartless reads it: `2`-`9`, `0` for ten, `J`, `Q`, `K`, `A` in either
/// case (no `T`, no `10`).
fn rank_char(c: char) -> Option<Rank> {
    let i = match c.to_ascii_uppercase() {
        d @ '2'..='9' => d as u8 - b'2',
        '0' => 8,
        'J' => 9,
        'Q' => 10,
        'K' => 11,
        'A' => 12,
        _ => return None,
    };
    Some(Rank::from_index(i))
}

/// Reads cards as heartless reads a script's answer (and its own arguments): each rank takes
/// the nearest suit written after it; spaces are ignored, letters may be in either case. A
/// rank with no suit after it is of `follow` when `hand` holds that suit, else the one card
/// of that rank in `hand`. With a `hand`, cards it does not hold are dropped. `None` for a
/// character that is neither, a rank that could be several cards, or no card at all.
#[must_use]
pub fn parse_cards(text: &str, hand: Option<CardSet>, follow: Option<Suit>) -> Option<CardSet> {
    let held = |card: Card| hand.is_none_or(|h| h.contains(card));
    let follow = follow.filter(|s| hand.is_none_or(|h| h.has_suit(*s)));
    let mut cards = CardSet::EMPTY;
    let mut suit = None;
    for c in text.trim().chars().rev() {
        if c == ' ' {
            continue;
        }
        if let Some(s) = suit_char(c) {
            suit = Some(s);
            continue;
        }
        let rank = rank_char(c)?;
        match suit.or(follow) {
            Some(s) => {
                let card = Card::new(rank, s);
                if held(card) {
                    cards.insert(card);
                }
            }
            None => {
                let mut candidates = Suit::ALL
                    .iter()
                    .map(|s| Card::new(rank, *s))
                    .filter(|c| held(*c));
                match (candidates.next(), candidates.next()) {
                    (Some(card), None) => {
                        cards.insert(card);
                    }
                    (Some(_), Some(_)) => return None,
                    (None, _) => {}
                }
            }
        }
    }
    (!cards.is_empty()).then_some(cards)
}

/// Why heartless arguments do not describe a position.
#[derive(Debug, Error)]
pub enum ArgsError {
    /// A required argument is absent.
    #[error("missing --{0}")]
    Missing(&'static str),
    /// An argument does not parse.
    #[error("bad --{key}: {value:?}")]
    Bad {
        /// The argument.
        key: String,
        /// Its value.
        value: String,
    },
}

/// Reads `--key=value` (or `--key value`) arguments into a map.
#[must_use]
pub fn parse_arguments(args: &[String]) -> HashMap<String, String> {
    let mut map = HashMap::new();
    let mut i = 0;
    while i < args.len() {
        if let Some(rest) = args[i].strip_prefix("--") {
            if let Some((k, v)) = rest.split_once('=') {
                map.insert(k.to_string(), v.to_string());
            } else if i + 1 < args.len() && !args[i + 1].starts_with("--") {
                map.insert(rest.to_string(), args[i + 1].clone());
                i += 1;
            } else {
                map.insert(rest.to_string(), String::new());
            }
        }
        i += 1;
    }
    map
}

/// Rebuilds the Hearts view heartless's arguments describe, for the seat `--who`. Who took
/// which finished trick is not in the arguments: each player's point cards are credited to
/// them (from the hand scores) and the rest of the discards fill the tricks.
pub fn view_from_arguments(map: &HashMap<String, String>) -> Result<PlayerView, ArgsError> {
    let get = |k: &'static str| map.get(k).map(String::as_str).ok_or(ArgsError::Missing(k));
    let bad = |k: &str, v: &str| ArgsError::Bad {
        key: k.to_string(),
        value: v.to_string(),
    };
    let cards = |k: &'static str| -> Result<CardSet, ArgsError> {
        let v = get(k)?;
        if v.trim().is_empty() {
            return Ok(CardSet::EMPTY);
        }
        parse_cards(v, None, None).ok_or_else(|| bad(k, v))
    };
    let number = |k: &str| -> Result<i64, ArgsError> {
        let v = map.get(k).map(String::as_str).unwrap_or("0");
        v.trim().parse().map_err(|_| bad(k, v))
    };
    let who = number("who")?;
    if !(0..4).contains(&who) {
        return Err(bad("who", &who.to_string()));
    }
    let me = Seat(who as u8);
    let hand = cards("hand")?;
    let discarded = cards("discarded")?;
    let round = number("round")?;
    let gun = number("under_the_gun")?;
    let mut plays = Vec::new();
    let mut on_table = CardSet::EMPTY;
    if (0..4).contains(&gun) {
        for i in 0..4u8 {
            let seat = Seat(gun as u8).left(i, 4);
            let key = format!("{}_discarding", PLAYERS[seat.index()]);
            let text = map.get(&key).map(String::as_str).unwrap_or("");
            if text.is_empty() {
                break;
            }
            let card = parse_cards(text, None, None)
                .filter(|c| c.len() == 1)
                .and_then(CardSet::lowest)
                .ok_or_else(|| bad(&key, text))?;
            on_table.insert(card);
            plays.push(PlayedCard { seat, card });
        }
    }
    let mut totals = PerSeat::<i32>::new(4);
    let mut scores = PerSeat::<i32>::new(4);
    for seat in Seat::all(4) {
        let name = PLAYERS[seat.index()];
        totals[seat] = number(&format!("{name}_game_score"))? as i32;
        scores[seat] = number(&format!("{name}_hand_score"))? as i32;
    }
    if scores.iter().filter(|(_, s)| **s == 26).count() == 3 {
        // Someone shot the moon: heartless shows them 0 and everyone else 26.
        for seat in Seat::all(4) {
            scores[seat] = if scores[seat] == 26 { 0 } else { 26 };
        }
    }
    // heartless counts the round on the table as discarded already.
    let tricks = synthetic_tricks(discarded - on_table, &scores);
    let passing = round == 0;
    let mut hand_sizes = PerSeat::<u8>::new(4);
    for seat in Seat::all(4) {
        let on = u8::from(plays.iter().any(|p| p.seat == seat));
        hand_sizes[seat] = (13 - tricks.len() as u8).saturating_sub(on);
    }
    hand_sizes[me] = hand.len() as u8;
    let broken = discarded.has_suit(Suit::Hearts);
    let legal = if passing {
        Legal::Pass {
            count: 3,
            direction: PassDirection::Left,
            from: hand,
        }
    } else {
        Legal::Play {
            cards: hearts_legal(hand, &plays, tricks.is_empty(), broken),
        }
    };
    let leader = if (0..4).contains(&gun) {
        Seat(gun as u8)
    } else {
        me
    };
    let mut tricks_won = PerSeat::<u8>::new(4);
    for t in &tricks {
        tricks_won[t.winner] += 1;
    }
    Ok(PlayerView {
        variant: Variant::Hearts,
        options: Options::default(),
        seat: Some(me),
        players: 4,
        phase: if passing {
            Phase::Passing
        } else {
            Phase::Playing
        },
        hand_number: 0,
        dealer: Seat(3),
        hand,
        hand_sizes,
        trump: None,
        face_up: CardSet::EMPTY,
        trick: TrickView {
            leader,
            plays: plays.into_iter().collect(),
        },
        // At most 13 tricks hold the 52 cards; a view has room for no more.
        tricks: tricks.into_iter().take(Variant::MAX_HAND_SIZE).collect(),
        tricks_won,
        bids: None,
        blind: None,
        calling: None,
        bridge: None,
        hearts_broken: broken,
        pass: passing.then(|| PassView {
            direction: PassDirection::Left,
            given: CardSet::EMPTY,
            received: CardSet::EMPTY,
            waiting: [me].into_iter().collect(),
        }),
        totals,
        negatives: PerSeat::new(4),
        pool: 0,
        history: Default::default(),
        to_act: [me].into_iter().collect(),
        legal,
        winners: Default::default(),
        deal_commitment: None,
    })
}

/// The suits each seat has shown it lacks, from the `*_suit_chars` arguments (the suits a
/// player has not yet failed to follow; a missing argument means all four). Seats are
/// heartless's, as in [`view_from_arguments`].
#[must_use]
pub fn known_voids(map: &HashMap<String, String>) -> PerSeat<CardSet> {
    let mut voids = PerSeat::<CardSet>::new(4);
    for seat in Seat::all(4) {
        let key = format!("{}_suit_chars", PLAYERS[seat.index()]);
        let Some(chars) = map.get(&key) else {
            continue;
        };
        let held: Vec<Suit> = chars.chars().filter_map(suit_char).collect();
        for suit in Suit::ALL {
            if !held.contains(&suit) {
                voids[seat] |= CardSet::suit(suit);
            }
        }
    }
    voids
}

/// Hearts' legal plays: the 2♣ opens, follow suit, no points on the first trick, no heart
/// led before hearts are broken (unless nothing else is held).
fn hearts_legal(hand: CardSet, plays: &[PlayedCard], first: bool, broken: bool) -> CardSet {
    let points = CardSet::suit(Suit::Hearts) | CardSet::single(Card::QUEEN_OF_SPADES);
    match plays.first() {
        None if first && hand.contains(Card::TWO_OF_CLUBS) => CardSet::single(Card::TWO_OF_CLUBS),
        None => {
            let safe = hand - CardSet::suit(Suit::Hearts);
            if broken || safe.is_empty() {
                hand
            } else {
                safe
            }
        }
        Some(lead) => {
            let follow = hand.of_suit(lead.card.suit());
            if !follow.is_empty() {
                return follow;
            }
            let safe = hand - points;
            if first && !safe.is_empty() {
                safe
            } else {
                hand
            }
        }
    }
}

/// Finished tricks that credit each seat with point cards matching its hand score.
fn synthetic_tricks(discarded: CardSet, scores: &PerSeat<i32>) -> Vec<CompletedTrick> {
    let mut pool = discarded;
    let mut owned: Vec<(Seat, Vec<Card>)> = Vec::new();
    for seat in Seat::all(4) {
        let mut want = scores[seat];
        let mut mine = Vec::new();
        if want >= 13 && pool.contains(Card::QUEEN_OF_SPADES) {
            pool.remove(Card::QUEEN_OF_SPADES);
            mine.push(Card::QUEEN_OF_SPADES);
            want -= 13;
        }
        while want > 0 {
            let Some(h) = pool.of_suit(Suit::Hearts).lowest() else {
                break;
            };
            pool.remove(h);
            mine.push(h);
            want -= 1;
        }
        owned.push((seat, mine));
    }
    let mut filler: Vec<Card> = pool.iter().collect();
    let mut tricks = Vec::new();
    for (seat, mut cards) in owned {
        while !cards.is_empty() {
            let mut trick: Vec<Card> = cards.drain(..cards.len().min(4)).collect();
            while trick.len() < 4 {
                match filler.pop() {
                    Some(c) => trick.push(c),
                    None => break,
                }
            }
            tricks.push(CompletedTrick {
                leader: seat,
                cards: TrickCards::from_slice(&trick),
                winner: seat,
            });
        }
    }
    for chunk in filler.chunks(4) {
        tricks.push(CompletedTrick {
            leader: Seat(0),
            cards: TrickCards::from_slice(chunk),
            winner: Seat(0),
        });
    }
    tricks
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::bots::RandomBot;
    use parlor_shared::{Game, PlayerView};

    #[test]
    fn cards_use_heartless_notation() {
        let set = CardSet::parse_compact("2C TC 4D QS AH").unwrap();
        assert_eq!(cards_text(set), "2c0c4dQsAh");
        assert_eq!(CardSet::parse_compact(&cards_text(set)).unwrap(), set);
    }

    #[test]
    fn arguments_round_trip_to_the_same_decision_inputs() {
        for seed in 0..30u64 {
            let mut game = Game::new(Variant::Hearts, &Options::default(), seed).unwrap();
            let mut random = RandomBot::new(seed);
            for _ in 0..(seed * 7 % 45) {
                let seat = game.to_act().iter().next().unwrap();
                let a = random.choose_legal(&game.legal_actions(seat)).unwrap();
                game.apply(seat, &a).unwrap();
            }
            let seat = game.to_act().iter().next().unwrap();
            let view = PlayerView::of(&game, Some(seat));
            let args = arguments(&view);
            assert_eq!(args.len(), 24);
            assert_eq!(args[0], "--who=0");
            let rebuilt = view_from_arguments(&parse_arguments(&args)).unwrap();
            assert_eq!(rebuilt.hand, view.hand);
            assert_eq!(rebuilt.played_cards(), view.played_cards());
            // Seats are relative in the arguments: who=0 is the viewer.
            let plays: Vec<Card> = rebuilt.trick.plays.iter().map(|p| p.card).collect();
            let real: Vec<Card> = view.trick.plays.iter().map(|p| p.card).collect();
            assert_eq!(plays, real);
            match (rebuilt.legal, view.legal) {
                (Legal::Play { cards: a }, Legal::Play { cards: b }) => assert_eq!(a, b),
                (Legal::Pass { from: a, .. }, Legal::Pass { from: b, .. }) => assert_eq!(a, b),
                other => panic!("legal moves differ: {other:?}"),
            }
        }
    }
}
