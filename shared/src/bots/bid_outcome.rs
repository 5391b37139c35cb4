//! How each seat's bid went in a finished hand of a game that bids (spades, ohhell), read off
//! its score line: made or not, nil made or not, and the tricks taken beyond the bid (Spades'
//! bags). The arena reports these per bot, and `strong` charges bags by them when it weighs a
//! simulated hand.

use crate::rules::HandResult;
use crate::seat::{PerSeat, Seat};

/// How one seat's bid went in one hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BidOutcome {
    /// Its bid was made: with partners (Spades), the side's contract, or its own nil when it
    /// bid nil; alone (Oh Hell), exactly.
    pub made: bool,
    /// `Some(made)` when it bid nil (Spades with nil played).
    pub nil: Option<bool>,
    /// Tricks beyond the bid: with partners, the side's bags this hand (overtricks of a made
    /// contract plus every trick a nil bidder took), the same for both partners; alone, the
    /// seat's tricks over its bid.
    pub bags: u8,
}

/// Every seat's outcome in `result`, or `None` when the hand had no bids. `partnerships`
/// pairs seat `s` with seat `s + 2` (the variant's facts say so).
#[must_use]
pub fn outcomes(result: &HandResult, partnerships: bool) -> Option<PerSeat<BidOutcome>> {
    let bids = result.bids?;
    let n = bids.len() as u8;
    let nil = |seat: Seat| result.nil.and_then(|nil| nil[seat]);
    let mut out = PerSeat::new(n);
    for seat in Seat::all(n) {
        let side: &[Seat] = if partnerships {
            &[seat, seat.partner()]
        } else {
            &[seat]
        };
        // A nil bidder's tricks count for no contract: they are bags.
        let (mut contract, mut toward, mut nil_tricks) = (0u8, 0u8, 0u8);
        for &member in side {
            if nil(member).is_some() {
                nil_tricks += result.tricks[member];
            } else {
                contract += bids[member];
                toward += result.tricks[member];
            }
        }
        let contract_made = if partnerships {
            toward >= contract
        } else {
            toward == contract
        };
        out[seat] = BidOutcome {
            made: nil(seat).unwrap_or(contract_made),
            nil: nil(seat),
            // A contract that fell short has no overtricks.
            bags: toward.saturating_sub(contract) + nil_tricks,
        };
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{HeuristicBot, RandomBot, Strategy};
    use crate::rules::{Game, Options, Variant};

    /// A score line with only what [`outcomes`] reads filled in.
    fn line(bids: [u8; 4], tricks: [u8; 4], nil: Option<[Option<bool>; 4]>) -> HandResult {
        HandResult {
            hand: 0,
            points: PerSeat::new(4),
            penalties: PerSeat::new(4),
            tricks: PerSeat::from_slice(&tricks),
            totals: PerSeat::new(4),
            pool_carried: 0,
            moon: None,
            bids: Some(PerSeat::from_slice(&bids)),
            bags: None,
            bag_penalty: None,
            board: None,
            nil: nil.map(|n| PerSeat::from_slice(&n)),
            blind_nil: None,
            trump_made: None,
            secret: None,
        }
    }

    #[test]
    fn spades_sides_count_overtricks_and_nil_tricks_as_bags() {
        // North bid nil and took a trick; South's 4 fell short at 3: set, one bag (the nil's).
        // East and West bid 5 and took 9: four bags.
        let r = line(
            [0, 3, 4, 2],
            [1, 4, 3, 5],
            Some([Some(false), None, None, None]),
        );
        let o = outcomes(&r, true).unwrap();
        let got: Vec<(bool, Option<bool>, u8)> =
            o.iter().map(|(_, o)| (o.made, o.nil, o.bags)).collect();
        assert_eq!(
            got,
            [
                (false, Some(false), 1),
                (true, None, 4),
                (false, None, 1),
                (true, None, 4)
            ]
        );
    }

    #[test]
    fn oh_hell_seats_make_exactly_or_not() {
        let r = line([2, 0, 3, 1], [2, 1, 1, 1], None);
        let o = outcomes(&r, false).unwrap();
        let got: Vec<(bool, u8)> = o.iter().map(|(_, o)| (o.made, o.bags)).collect();
        assert_eq!(got, [(true, 0), (false, 1), (false, 0), (true, 0)]);
    }

    #[test]
    fn bags_add_up_to_the_engines_count_over_whole_matches() {
        let (mut nils, mut penalties) = (0, 0);
        for seed in 0..6 {
            // The heuristic side takes bags and makes its bids, the random side bids nil now
            // and then; with no mercy line the match runs until the heuristic side's target.
            let options = Options {
                target: Some(300),
                mercy: Some(0),
                ..Options::default()
            };
            let mut game = Game::new(Variant::Spades, &options, seed).unwrap();
            let limit = game.rules().bag_limit;
            let mut random = RandomBot::new(seed);
            let mut events = Vec::new();
            while !game.is_over() {
                let seat = game.to_act().iter().next().unwrap();
                if seat.0.is_multiple_of(2) {
                    let action = HeuristicBot.choose(&game.view(Some(seat)));
                    game.apply(seat, &action).unwrap();
                } else {
                    random.act_on(&mut game, seat, &mut events).unwrap();
                }
            }
            let mut held = [0i32; 2];
            for r in game.history().iter() {
                let o = outcomes(r, true).unwrap();
                for side in 0..2u8 {
                    let (a, b) = (o[Seat(side)], o[Seat(side + 2)]);
                    assert_eq!(a.bags, b.bags, "partners share the side's bags");
                    held[side as usize] = (held[side as usize] + i32::from(a.bags)) % limit;
                    assert_eq!(held[side as usize], r.bags.unwrap()[Seat(side)], "{seed}");
                }
                for (seat, o) in o.iter() {
                    assert_eq!(o.nil, r.nil.and_then(|n| n[seat]));
                    nils += usize::from(o.nil.is_some());
                }
                penalties += usize::from(r.bag_penalty.is_some());
            }
        }
        assert!(
            nils > 0 && penalties > 0,
            "nil bids {nils}, penalties {penalties}"
        );
    }
}
