//! Inference from play: how well a sampled deal explains the cards the other seats have
//! played this hand. Each seat's past plays are replayed in the sampled deal and compared with
//! what the heuristic would have played there; every play it would not have made costs a
//! factor [`SURPRISE`]. The search draws several deals per determinization and keeps one in
//! proportion to these weights, so its playouts go to deals that fit what the others did
//! (where the queen of spades is after a seat ducked, who is long in a suit).
//!
//! The factor is soft on purpose: opponents that do not play like the heuristic (people,
//! other programs) make every deal equally surprising and the weights then change little,
//! while plays that break a rule in the sampled deal rule it out.

use super::heuristic;
use super::strong_hearts::HeartsDeal;
use super::table::Table;
use crate::card::{Card, CardSet};
use crate::seat::{PerSeat, Seat};
use crate::view::PlayerView;

/// The weight of one play the heuristic would not have made.
pub const SURPRISE: f64 = 0.1;

/// Every card played this hand, in order, with its seat.
#[must_use]
pub fn plays(view: &PlayerView) -> Vec<(Seat, Card)> {
    let n = view.players;
    let mut out = Vec::with_capacity(52);
    for t in &view.tricks {
        for (i, &c) in t.cards.iter().enumerate() {
            out.push((t.leader.left(i as u8, n), c));
        }
    }
    out.extend(view.trick.plays.iter().map(|p| (p.seat, p.card)));
    out
}

/// The weight of the 4-seat Hearts deal `hands` (each seat's cards now) given `plays` (from
/// [`plays`]): [`SURPRISE`] to the power of the other seats' plays the heuristic would not
/// have made, 0 when a play breaks a rule in this deal. `me`'s own plays are not judged.
#[must_use]
pub fn weight(
    hands: &PerSeat<CardSet>,
    plays: &[(Seat, Card)],
    me: Seat,
    table: &mut Table,
) -> f64 {
    let mut start = *hands;
    for &(seat, card) in plays {
        start[seat].insert(card);
    }
    let mut deal = HeartsDeal::opening(&start);
    let mut w = 1.0;
    for &(seat, card) in plays {
        if deal.to_play() != seat {
            return 0.0;
        }
        let legal = deal.legal(seat);
        if !legal.contains(card) {
            return 0.0;
        }
        if seat != me && legal.len() > 1 {
            deal.fill(table, seat);
            if heuristic::play(table) != card {
                w *= SURPRISE;
            }
        }
        deal.play(card);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{HeuristicBot, Strategy, strong_hearts};
    use crate::rules::{Game, Options, Phase, Variant};

    /// In hands the heuristic plays at every seat, the real deal explains every play (weight
    /// 1), while deals that swap two seats' cards are surprised (or ruled out) in most hands.
    #[test]
    fn the_real_deal_explains_the_heuristics_play() {
        let mut moved_surprised = 0;
        let mut checked = 0;
        for seed in 0..20u64 {
            let mut game = Game::new(Variant::Hearts, &Options::default(), seed).unwrap();
            let mut played = 0;
            while played < 20 + (seed as usize % 20) || !matches!(game.phase(), Phase::Playing) {
                let seat = game.to_act().iter().next().unwrap();
                let view = game.view(Some(seat));
                let action = HeuristicBot.choose(&view);
                if matches!(action, crate::rules::Action::Play { .. }) {
                    played += 1;
                }
                game.apply(seat, &action).unwrap();
            }
            let me = game.next_to_play();
            let view = game.view(Some(me));
            let mut hands = PerSeat::<CardSet>::new(4);
            for s in Seat::all(4) {
                hands[s] = game.hand(s);
            }
            let plays = plays(&view);
            let mut table = strong_hearts::rollout_table();
            assert_eq!(weight(&hands, &plays, me, &mut table), 1.0, "seed {seed}");
            // Swap the lowest cards of two other seats.
            let a = me.next(4);
            let b = a.next(4);
            let (Some(x), Some(y)) = (hands[a].lowest(), hands[b].lowest()) else {
                continue;
            };
            let mut moved = hands;
            moved[a].remove(x);
            moved[a].insert(y);
            moved[b].remove(y);
            moved[b].insert(x);
            checked += 1;
            if weight(&moved, &plays, me, &mut table) < 1.0 {
                moved_surprised += 1;
            }
        }
        assert!(
            checked >= 10 && moved_surprised * 2 >= checked,
            "{moved_surprised}/{checked}"
        );
    }
}
