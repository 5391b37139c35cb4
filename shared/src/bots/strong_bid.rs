//! `strong`'s bids (spades, ohhell), by simulated play: for each sampled deal of the unseen
//! cards that agrees with the view, every candidate bid is made, the seats still to bid bid as
//! the heuristic does, and the hand is played out by the rollout policy (which plays to the
//! bids: take while a bid needs tricks, duck after); the candidate with the best mean outcome
//! is bid. Every candidate is tried on the same deals, so their difference is measured with
//! less noise than their values.

use super::contract;
use super::random::RandomBot;
use super::rng::BotRng;
use super::sample::Constraints;
use super::sim::Position;
use super::strong::{Rollout, bag_cost, play_out, value};
use crate::rules::{Action, Legal, Phase};
use crate::view::PlayerView;

/// How far from the heuristic's bid the search looks, either way.
const SPREAD: u8 = 2;

/// The bids worth trying: the heuristic's `estimate` and those within [`SPREAD`] of it, and
/// nil (0) wherever it is allowed, all within `min..=max` and none `forbidden`.
fn candidates(estimate: u8, min: u8, max: u8, forbidden: Option<u8>) -> Vec<u8> {
    let low = estimate.saturating_sub(SPREAD).max(min);
    let high = estimate.saturating_add(SPREAD).min(max);
    let mut bids: Vec<u8> = (low..=high).collect();
    if min == 0 && low > 0 {
        bids.insert(0, 0);
    }
    bids.retain(|b| Some(*b) != forbidden);
    bids
}

/// The bid with the best mean simulated outcome over `budget` simulated hands, or `None`
/// when the view asks for no bid, no deal could be rebuilt, or `stop()` fired before the
/// first one was played out.
pub(super) fn choose(
    view: &PlayerView,
    budget: u32,
    rollout: Rollout,
    rng: &mut BotRng,
    stop: &dyn Fn() -> bool,
) -> Option<u8> {
    let Legal::Bid {
        min,
        max,
        forbidden,
    } = view.legal
    else {
        return None;
    };
    let me = view.seat?;
    let bids = candidates(contract::bid(view), min, max, forbidden);
    if bids.len() < 2 {
        return bids.first().copied();
    }
    let constraints = Constraints::of(view)?;
    let worlds = (budget as usize / bids.len()).max(8);
    let cost = bag_cost(view.variant, &view.options);
    let mut totals = vec![0.0f64; bids.len()];
    let mut random = RandomBot::new(rng.next_u64());
    let (mut built, mut failures) = (0, 0);
    while built < worlds && !stop() {
        let hands = constraints.sample(rng);
        let Ok(pos) = Position::build(view, &hands, rng) else {
            failures += 1;
            if failures > 2 * worlds {
                break;
            }
            continue;
        };
        built += 1;
        let sim_me = pos.sim_seat(me);
        for (i, &tricks) in bids.iter().enumerate() {
            let mut game = pos.game.clone();
            let hand = game.hand_number();
            game.apply(sim_me, &Action::Bid { tricks }).ok()?;
            // The others still to bid bid as the heuristic does, knowing this bid.
            while game.phase() == Phase::Bidding {
                let seat = game.to_act().iter().next()?;
                let tricks = contract::bid(&game.view(Some(seat)));
                game.apply(seat, &Action::Bid { tricks }).ok()?;
            }
            let result = play_out(&mut game, hand, rollout, &mut random);
            totals[i] += value(view.variant, &result, sim_me, cost);
        }
    }
    if built == 0 {
        return None;
    }
    let best = (0..bids.len()).max_by(|a, b| totals[*a].total_cmp(&totals[*b]))?;
    Some(bids[best])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_surround_the_estimate_with_nil_where_allowed() {
        assert_eq!(candidates(4, 0, 13, None), [0, 2, 3, 4, 5, 6]);
        assert_eq!(candidates(1, 1, 13, None), [1, 2, 3]);
        assert_eq!(candidates(1, 0, 2, Some(2)), [0, 1]);
        assert_eq!(candidates(0, 0, 1, Some(0)), [1]);
    }
}
