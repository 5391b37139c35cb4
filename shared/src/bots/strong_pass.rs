//! Hearts passing decided by simulation: the candidate passes are the triples of the cards
//! the heuristic most wants to pass; each is tried on the same sampled deals of the other 39
//! cards, where the other seats pass as the heuristic does and the whole hand is played out
//! with the heuristic. The pass with the best mean outcome wins. Deterministic given the rng.

use super::BotRng;
use super::heuristic;
use super::strong_hearts::{self, HeartsDeal};
use crate::card::{Card, CardSet};
use crate::rules::{PassDirection, Variant};
use crate::seat::{PerSeat, Seat};

/// How many of the heuristic's favourite cards to pass make up the candidate triples.
const SHORTLIST: usize = 7;

/// The three cards to pass from `hand` (13 cards) towards `direction`, trying candidates on
/// `worlds` sampled deals; `None` when there is nothing to choose between. `stop()` is asked
/// before each deal.
pub fn choose(
    me: Seat,
    hand: CardSet,
    direction: PassDirection,
    worlds: usize,
    rng: &mut BotRng,
    stop: &dyn Fn() -> bool,
) -> Option<Vec<Card>> {
    if hand.len() != 13 {
        return None;
    }
    let ranked = heuristic::pass(Variant::Hearts, hand, 13);
    let short = &ranked[..SHORTLIST];
    let mut candidates: Vec<[Card; 3]> = Vec::new();
    for a in 0..short.len() {
        for b in a + 1..short.len() {
            for c in b + 1..short.len() {
                candidates.push([short[a], short[b], short[c]]);
            }
        }
    }
    let mut totals = vec![0.0f64; candidates.len()];
    let mut table = strong_hearts::rollout_table();
    let mut played = 0;
    for _ in 0..worlds {
        if stop() {
            break;
        }
        let dealt = deal_around(me, hand, rng);
        // What every other seat passes (the heuristic's choice) and so what each receives.
        let mut passed = PerSeat::<CardSet>::new(4);
        for seat in Seat::all(4).filter(|s| *s != me) {
            passed[seat] = heuristic::pass(Variant::Hearts, dealt[seat], 3)
                .into_iter()
                .collect();
        }
        for (i, cand) in candidates.iter().enumerate() {
            passed[me] = cand.iter().copied().collect();
            let mut hands = dealt;
            for seat in Seat::all(4) {
                let receiver = seat.left(direction.steps(4), 4);
                hands[seat] -= passed[seat];
                hands[receiver] |= passed[seat];
            }
            let mut deal = HeartsDeal::opening(&hands);
            let points = deal.finish(&mut table);
            totals[i] += strong_hearts::hearts_value(&points, me);
        }
        played += 1;
    }
    if played == 0 {
        return None;
    }
    let best = (0..candidates.len()).max_by(|a, b| totals[*a].total_cmp(&totals[*b]))?;
    Some(candidates[best].to_vec())
}

/// A uniform deal of the 39 cards `me` cannot see, 13 to each other seat.
fn deal_around(me: Seat, hand: CardSet, rng: &mut BotRng) -> PerSeat<CardSet> {
    let deck = rng.shuffled_deck();
    let mut hands = PerSeat::<CardSet>::new(4);
    hands[me] = hand;
    let others: Vec<Seat> = Seat::all(4).filter(|s| *s != me).collect();
    for (k, card) in deck
        .iter()
        .copied()
        .filter(|c| !hand.contains(*c))
        .enumerate()
    {
        hands[others[k / 13]].insert(card);
    }
    hands
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{Rollout, Strategy, StrongBot};
    use crate::rules::{Action, Game, Legal, Options};
    use crate::view::PlayerView;

    /// At every passing seat of several deals: three cards of the hand, the same from the
    /// same seed, and a stop that fires at once leaves the heuristic's pass.
    #[test]
    fn strong_passes_three_of_its_cards_the_same_from_a_seed() {
        for seed in 0..8u64 {
            let game = Game::new(Variant::Hearts, &Options::default(), seed).unwrap();
            for seat in game.to_act().iter() {
                let view = PlayerView::of(&game, Some(seat));
                let Legal::Pass { from, .. } = view.legal else {
                    panic!("the first hand passes");
                };
                let a = StrongBot::new(seed, 80, Rollout::Heuristic).choose(&view);
                let b = StrongBot::new(seed, 80, Rollout::Heuristic).choose(&view);
                assert_eq!(a, b);
                let Action::Pass { cards } = a else {
                    panic!("a pass");
                };
                let set: CardSet = cards.iter().copied().collect();
                assert_eq!((cards.len(), set.len()), (3, 3));
                assert_eq!(set & from, set);
                let stopped =
                    StrongBot::new(seed, 80, Rollout::Heuristic).choose_until(&view, &|| true);
                let heuristic = heuristic::pass(Variant::Hearts, from, 3);
                assert_eq!(stopped, Action::Pass { cards: heuristic });
            }
        }
    }

    /// The simulation keeps the queen of spades when long spades guard it and passes it from
    /// a short, exposed holding.
    #[test]
    fn passing_by_simulation_moves_a_bare_queen() {
        let hand = CardSet::parse_compact("QS 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D").unwrap();
        let mut rng = BotRng::new(1);
        let cards = choose(Seat(0), hand, PassDirection::Left, 60, &mut rng, &|| false).unwrap();
        assert!(cards.contains(&Card::QUEEN_OF_SPADES), "{cards:?}");
    }
}
