//! A sensible rule-of-thumb player for every variant.
//!
//! Two families: in the avoidance games (hearts, filippa, hearts5) it ducks under the winning
//! card, dumps its most dangerous card when void, leads low where others hold higher cards,
//! passes the queen of spades, high spades and high hearts while building voids, and defends
//! against a moon. In the trick games (tricks, whist) it cashes sure winners, plays second hand
//! low and third hand high, wins as cheaply as it can, trumps only when the opponents are
//! winning and never overtakes a partner who is winning. The games where players bid (spades,
//! ohhell) use both, as `contract` decides: take tricks while the bid needs them, duck after.

use super::Strategy;
use super::contract;
use super::euchre;
use super::table::Table;
use crate::card::{Card, CardSet, Rank, Suit};
use crate::rules::{Action, Legal, Variant, filippa};
use crate::view::PlayerView;

/// The rule-of-thumb player; deterministic, it needs no seed.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

impl Strategy for HeuristicBot {
    fn name(&self) -> &'static str {
        "heuristic"
    }

    fn choose(&mut self, view: &PlayerView) -> Action {
        if view.variant == Variant::Bridge
            && let Some(action) = super::bridge::heuristic(view)
        {
            return action;
        }
        match view.legal {
            Legal::Pass { count, from, .. } => Action::Pass {
                cards: pass(view.variant, from, count),
            },
            Legal::Play { cards } if view.variant == Variant::Euchre => Action::Play {
                card: euchre::play_from_view(view, cards),
            },
            Legal::Play { .. } => Action::Play {
                card: play(&Table::from_view(view).expect("a card to play")),
            },
            Legal::Call { .. } => Action::Call(euchre::call(view)),
            Legal::Discard { .. } => Action::Discard {
                card: euchre::discard(view),
            },
            Legal::Bid { .. } => Action::Bid {
                tricks: contract::bid(view),
            },
            Legal::Blind => contract::blind(view),
            Legal::Exchange { count, to, from } => Action::Exchange {
                cards: contract::exchange(view, count, to, from),
            },
            Legal::AnswerClaim { .. } => Action::AnswerClaim {
                accept: super::bridge::claim_holds(view),
            },
            Legal::Wait => panic!("asked to act with nothing legal"),
        }
    }
}

impl HeuristicBot {
    /// The one fallback: the move made for a player that failed to make a legal one (an
    /// outside program that answered late, illegally or not at all, or a strategy that
    /// proposed an illegal move). `None` when the seat has nothing to do.
    #[must_use]
    pub fn fallback(view: &PlayerView) -> Option<Action> {
        (!matches!(view.legal, Legal::Wait)).then(|| HeuristicBot.choose(view))
    }
}

/// True for the variants where tricks are to be avoided.
fn avoids_tricks(variant: Variant) -> bool {
    matches!(
        variant,
        Variant::Hearts | Variant::Filippa | Variant::Hearts5
    )
}

/// What taking `card` in a trick costs, in rough points (0 for harmless cards).
#[must_use]
pub fn cost(variant: Variant, card: Card) -> i32 {
    match variant {
        Variant::Hearts if card == Card::QUEEN_OF_SPADES => 13,
        Variant::Hearts => i32::from(card.suit() == Suit::Hearts),
        // One penalty card costs the whole prize, whatever its size.
        Variant::Filippa => {
            let p = -filippa::penalty(card);
            if p > 0 { 10 + p } else { 0 }
        }
        Variant::Hearts5 if card.suit() == Suit::Hearts => i32::from(card.rank().value()),
        _ => 0,
    }
}

/// The card to play (one of `t.legal`).
#[must_use]
pub fn play(t: &Table) -> Card {
    if t.legal.len() == 1 {
        return t.legal.lowest().expect("one card");
    }
    if t.bids.is_some() {
        return contract::play(t);
    }
    if avoids_tricks(t.variant) {
        avoid::play(t)
    } else {
        take::play(t)
    }
}

/// The `count` cards to pass from `hand`.
#[must_use]
pub fn pass(variant: Variant, hand: CardSet, count: u32) -> Vec<Card> {
    let mut scored: Vec<(i32, Card)> = hand
        .iter()
        .map(|c| (pass_danger(variant, hand, c), c))
        .collect();
    scored.sort_by(|a, b| b.cmp(a));
    scored
        .into_iter()
        .take(count as usize)
        .map(|(_, c)| c)
        .collect()
}

/// How much a card wants to leave the hand before play (higher: pass it first).
fn pass_danger(variant: Variant, hand: CardSet, card: Card) -> i32 {
    let rank = i32::from(card.rank().index());
    let suit_len = hand.of_suit(card.suit()).len() as i32;
    let spades = hand.of_suit(Suit::Spades).len();
    let queen_guarded = spades >= 5;
    if card == Card::QUEEN_OF_SPADES {
        return if queen_guarded { rank } else { 200 };
    }
    if card.suit() == Suit::Spades && card.rank() > Rank::QUEEN {
        // A♠/K♠ attract the queen unless we hold enough low spades to duck.
        return if spades <= 4 { 150 + rank } else { rank };
    }
    if card.suit() == Suit::Hearts {
        let high = if variant == Variant::Filippa { 7 } else { 8 };
        return if rank >= high { 60 + rank } else { rank };
    }
    // Void building: short side suits go first, high cards before low.
    let void_bonus = if suit_len <= 3 { 30 - 5 * suit_len } else { 0 };
    rank * 2 + void_bonus
}

/// Avoidance play: hearts, filippa, hearts5, and ducking in the games that bid.
pub(super) mod avoid {
    use super::{Table, cost};
    use crate::card::{Card, CardSet, Rank, Suit};
    use crate::rules::Variant;
    use crate::seat::Seat;

    /// Points taken so far this hand per seat.
    fn taken_points(t: &Table, seat: Seat) -> i32 {
        t.taken[seat].iter().map(|c| cost(t.variant, c)).sum()
    }

    /// A Hearts player who has every point taken so far and enough of them to be shooting.
    fn moon_threat(t: &Table) -> Option<Seat> {
        if t.variant != Variant::Hearts {
            return None;
        }
        let scorers: Vec<Seat> = Seat::all(t.players)
            .filter(|s| taken_points(t, *s) > 0)
            .collect();
        match scorers.as_slice() {
            [s] if *s != t.me && taken_points(t, *s) >= 10 => Some(*s),
            _ => None,
        }
    }

    /// True while the queen of spades is still in someone else's hand.
    fn queen_out(t: &Table) -> bool {
        matches!(t.variant, Variant::Hearts | Variant::Filippa)
            && t.unseen().contains(Card::QUEEN_OF_SPADES)
    }

    /// How badly the seat wants to get rid of `card` when it may discard anything.
    fn danger(t: &Table, card: Card) -> i32 {
        let rank = i32::from(card.rank().index());
        let c = cost(t.variant, card);
        if c >= 13 {
            return 1000 + c;
        }
        if card.suit() == Suit::Spades && card.rank() > Rank::QUEEN && queen_out(t) {
            return 500 + rank;
        }
        if c > 0 {
            return 100 + c * 4 + rank;
        }
        if Some(card.suit()) == t.trump {
            // High trumps win tricks nobody wants.
            return 60 + rank * 3;
        }
        let suit_len = t.hand.of_suit(card.suit()).len() as i32;
        rank * 4 + (6 - suit_len).max(0)
    }

    pub(in crate::bots) fn play(t: &Table) -> Card {
        let Some((winner, best)) = t.winning() else {
            return lead(t);
        };
        let threat = moon_threat(t);
        let trick_cost: i32 = t.trick().iter().map(|c| cost(t.variant, *c)).sum();
        let (wins, ducks): (Vec<Card>, Vec<Card>) = t.legal.iter().partition(|c| t.beats(*c, best));
        let following = t.led().is_some_and(|s| t.hand.has_suit(s));

        if let Some(shooter) = threat {
            // Stop the moon: take a point trick from the shooter, or hand a heart to someone
            // else.
            if winner == shooter
                && trick_cost > 0
                && let Some(c) = cheapest(t, &wins)
            {
                return c;
            }
            if !following
                && winner != shooter
                && let Some(h) = t.legal.of_suit(Suit::Hearts).highest()
            {
                return h;
            }
        }
        if !ducks.is_empty() {
            if following {
                // Duck as high as possible (Q♠ goes under A♠/K♠ here too).
                return *ducks
                    .iter()
                    .max_by_key(|c| (c.rank(), cost(t.variant, **c)))
                    .expect("a card");
            }
            let keep_hearts = threat.is_some_and(|s| s == winner);
            return *ducks
                .iter()
                .max_by_key(|c| {
                    let d = danger(t, **c);
                    if keep_hearts && c.suit() == Suit::Hearts {
                        -d
                    } else {
                        d
                    }
                })
                .expect("a card");
        }
        // Every card wins for now.
        let last = t.is_last();
        let spade_risk = t.led() == Some(Suit::Spades) && queen_out(t);
        if !last && (spade_risk || Some(best.suit()) == t.trump && t.trump.is_some()) {
            return cheapest(t, &wins).expect("a card");
        }
        // Winning anyway: shed the highest harmless card.
        *wins
            .iter()
            .max_by_key(|c| (-cost(t.variant, **c), c.rank()))
            .expect("a card")
    }

    /// The card that wins at the lowest cost and rank.
    fn cheapest(t: &Table, cards: &[Card]) -> Option<Card> {
        cards
            .iter()
            .copied()
            .min_by_key(|c| (cost(t.variant, *c), c.rank()))
    }

    /// Leads the card least likely to take the trick.
    fn lead(t: &Table) -> Card {
        let unseen = t.unseen();
        let hold_queen = t.hand.contains(Card::QUEEN_OF_SPADES);
        let qo = queen_out(t);
        let risk = |c: Card| -> i32 {
            let out: CardSet = unseen.of_suit(c.suit());
            let higher = out.iter().filter(|o| o.rank() > c.rank()).count() as i32;
            let lower = out.len() as i32 - higher;
            let mut r = if out.is_empty() || higher == 0 {
                // A sure winner: everyone dumps on it.
                200 + i32::from(c.rank().index())
            } else {
                lower * 3 - higher
            };
            r += cost(t.variant, c) * 5;
            if c.suit() == Suit::Spades && matches!(t.variant, Variant::Hearts | Variant::Filippa) {
                if hold_queen {
                    r += 40;
                }
                if qo && c.rank() > Rank::QUEEN {
                    r += 80;
                }
                if qo && c.rank() < Rank::QUEEN && !hold_queen {
                    // Flush the queen out.
                    r -= 6;
                }
            }
            if Some(c.suit()) == t.trump {
                r += 5;
            }
            r
        };
        t.legal
            .iter()
            .min_by_key(|c| (risk(*c), c.rank()))
            .expect("a card")
    }
}

/// Trick-taking play: tricks, whist, and taking tricks in the games that bid.
pub(super) mod take {
    use super::Table;
    use crate::card::Card;
    use crate::rules::Variant;

    pub(in crate::bots) fn play(t: &Table) -> Card {
        let Some((winner, best)) = t.winning() else {
            return lead(t);
        };
        let partnered = matches!(t.variant, Variant::Whist | Variant::Spades);
        let partner_wins = partnered && winner == t.me.partner();
        // The partner's card is safe when nobody after us can beat it.
        let partner_safe = partner_wins && (t.is_last() || sure(t, best));
        let beaters: Vec<Card> = t.legal.iter().filter(|c| t.beats(*c, best)).collect();
        if partner_safe || beaters.is_empty() {
            return discard(t);
        }
        if t.is_last() {
            return cheapest(&beaters);
        }
        let sure_beaters: Vec<Card> = beaters.iter().copied().filter(|c| sure(t, *c)).collect();
        if !sure_beaters.is_empty() {
            return cheapest(&sure_beaters);
        }
        let following = t.led().is_some_and(|s| t.hand.has_suit(s));
        if partnered {
            if t.position() == 1 && following {
                // Second hand low.
                return discard(t);
            }
            if partner_wins {
                return discard(t);
            }
            // Third hand high; ruff with the cheapest trump that takes the lead.
            return if following {
                *beaters.iter().max_by_key(|c| c.rank()).expect("a card")
            } else {
                cheapest(&beaters)
            };
        }
        // `tricks`: keep winners; a high card not yet sure is usually beaten later.
        discard(t)
    }

    /// The cheapest card (lowest rank) of `cards`.
    fn cheapest(cards: &[Card]) -> Card {
        *cards.iter().min_by_key(|c| c.rank()).expect("a card")
    }

    /// True when `card` will win the trick if played now: nothing unseen beats it in its
    /// suit and, with trumps, nobody can ruff it (approximated by no unseen trumps).
    fn sure(t: &Table, card: Card) -> bool {
        if !t.is_master(card) {
            return false;
        }
        match t.trump {
            Some(trump) if card.suit() != trump => t.unseen().of_suit(trump).is_empty(),
            _ => true,
        }
    }

    /// The least useful legal card: not a trump, not a master, lowest rank.
    pub(in crate::bots) fn discard(t: &Table) -> Card {
        t.legal
            .iter()
            .min_by_key(|c| {
                (
                    Some(c.suit()) == t.trump,
                    t.is_master(*c),
                    c.rank(),
                    t.hand.of_suit(c.suit()).len(),
                )
            })
            .expect("a card")
    }

    /// Leads a sure winner if there is one, else low from the longest side suit.
    fn lead(t: &Table) -> Card {
        let masters: Vec<Card> = t
            .legal
            .iter()
            .filter(|c| t.is_master(*c) && !t.unseen().of_suit(c.suit()).is_empty())
            .filter(|c| {
                t.trump.is_none_or(|tr| {
                    c.suit() == tr
                        || t.unseen().of_suit(tr).len() <= 1
                        || t.hand.of_suit(tr).len() >= 4
                })
            })
            .collect();
        if let Some(c) = masters.iter().max_by_key(|c| c.rank()) {
            return *c;
        }
        t.legal
            .iter()
            .min_by_key(|c| {
                (
                    Some(c.suit()) == t.trump,
                    std::cmp::Reverse(t.hand.of_suit(c.suit()).len()),
                    c.rank(),
                )
            })
            .expect("a card")
    }
}
