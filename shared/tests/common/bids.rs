//! The scores of the games that bid, worked out again from each seat's bid and tricks, the
//! plain way, to hold the engine's scoring to.

use parlor_shared::Rules;
use parlor_shared::rules::OhHellScoring;

/// A Spades hand worked out again from the bids and tricks: each seat's points, each side's
/// bags after the hand and what bags cost it, each seat's nil outcome.
pub type SpadesLine = (Vec<i32>, [i32; 2], [i32; 2], Vec<Option<bool>>);

pub fn spades_line(rules: &Rules, bids: &[u8], took: &[u8], bags: [i32; 2]) -> SpadesLine {
    spades_line_blind(rules, bids, took, bags, &[])
}

/// [`spades_line`] of a hand where the seats in `blind` bid blind nil: 200 made, -200 not.
pub fn spades_line_blind(
    rules: &Rules,
    bids: &[u8],
    took: &[u8],
    bags: [i32; 2],
    blind: &[usize],
) -> SpadesLine {
    let mut points = vec![0; 4];
    let mut nil = vec![None; 4];
    let mut bags_after = [0; 2];
    let mut penalties = [0; 2];
    for side in 0..2 {
        let seats = [side, side + 2];
        let is_nil = |s: usize| blind.contains(&s) || (rules.nil && bids[s] == 0);
        let mut side_points = 0;
        let mut new_bags = 0;
        for &s in seats.iter().filter(|s| is_nil(**s)) {
            let value = if blind.contains(&s) { 200 } else { 100 };
            nil[s] = Some(took[s] == 0);
            side_points += if took[s] == 0 { value } else { -value };
            new_bags += i32::from(took[s]);
        }
        let contract: i32 = seats
            .iter()
            .filter(|s| !is_nil(**s))
            .map(|s| i32::from(bids[*s]))
            .sum();
        let made: i32 = seats
            .iter()
            .filter(|s| !is_nil(**s))
            .map(|s| i32::from(took[*s]))
            .sum();
        if made >= contract {
            side_points += 10 * contract;
            new_bags += made - contract;
        } else {
            side_points -= 10 * contract;
        }
        side_points += new_bags;
        if rules.bag_limit > 0 {
            let held = bags[side] + new_bags;
            let times = held / rules.bag_limit;
            penalties[side] = -times * rules.bag_penalty;
            bags_after[side] = held - times * rules.bag_limit;
        }
        for s in seats {
            points[s] = side_points + penalties[side];
        }
    }
    (points, bags_after, penalties, nil)
}

/// Each seat's points for an Oh Hell hand.
pub fn ohhell_points(rules: &Rules, bids: &[u8], took: &[u8]) -> Vec<i32> {
    bids.iter()
        .zip(took)
        .map(|(&bid, &took)| {
            let (bid, took) = (i32::from(bid), i32::from(took));
            let exact = bid == took;
            match rules.scoring {
                OhHellScoring::Standard if exact => 10 + bid,
                OhHellScoring::Standard => 0,
                OhHellScoring::MinusDifference if exact => 10 + bid,
                OhHellScoring::MinusDifference => -(bid - took).abs(),
                OhHellScoring::TricksPlusTen => took + if exact { 10 } else { 0 },
            }
        })
        .collect()
}
