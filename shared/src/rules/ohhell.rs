//! Oh Hell: everything that differs from plain trick taking. Three to seven players, no
//! partnerships; hand sizes follow a schedule between the largest hand that leaves a card to
//! turn up (51 / players) and one card; the card after the deal is turned up and its suit is
//! trump; each player bids the exact tricks they expect, the dealer last and (with the hook)
//! not the bid that would make the bids add up to the tricks, so someone must miss; an exact
//! bid scores. The highest total after the last hand wins. It keeps no state; it may not touch
//! the game's state beyond what the [`VariantRules`] hooks hand it.

use std::collections::BTreeMap;

use super::facts::{FirstLead, PlayerCounts, TrumpRule, VariantFacts};
use super::variant::{OhHellScoring, Rules, Schedule};
use super::variant_rules::{BidRange, HandScore, HandSetup, VariantRules, add_points, highest};
use crate::card::{Card, CardSet};
use crate::seat::{PerSeat, Seat};

/// What an exact bid earns besides the bid itself (standard and minus-difference scoring),
/// or besides the tricks (tricks-plus-ten).
const EXACT: i32 = 10;

/// Oh Hell's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct OhHell {
    /// Seats at the table.
    players: u8,
    /// How hand sizes go.
    schedule: Schedule,
    /// The dealer may not make the bids add up to the tricks.
    hook: bool,
    /// How a hand scores.
    scoring: OhHellScoring,
}

impl OhHell {
    pub(super) fn new(rules: &Rules) -> OhHell {
        OhHell {
            players: rules.players,
            schedule: rules.schedule,
            hook: rules.hook,
            scoring: rules.scoring,
        }
    }
}

/// The largest hand that leaves a card to turn up for trump: 17 cards at three seats, 12 at
/// four, 10 at five, 8 at six, 7 at seven.
pub(super) fn largest_hand(players: u8) -> u32 {
    51 / u32::from(players)
}

/// How many hands a match lasts: every size once, going down or up, or going down and up
/// again with the one-card hand (or the largest) played once at the turn.
pub(super) fn hands_in_match(players: u8, schedule: Schedule) -> u32 {
    let largest = largest_hand(players);
    match schedule {
        Schedule::Down | Schedule::Up => largest,
        Schedule::DownUp | Schedule::UpDown => 2 * largest - 1,
    }
}

/// The cards each seat is dealt in the hand numbered `hand` (from 0).
pub(super) fn hand_size(players: u8, schedule: Schedule, hand: u32) -> u32 {
    let largest = largest_hand(players);
    let k = hand % hands_in_match(players, schedule);
    match schedule {
        Schedule::Down => largest - k,
        Schedule::Up => k + 1,
        Schedule::DownUp if k < largest => largest - k,
        Schedule::DownUp => k - largest + 2,
        Schedule::UpDown if k < largest => k + 1,
        Schedule::UpDown => 2 * largest - 1 - k,
    }
}

/// What one seat scores for taking `took` tricks on a bid of `bid`.
pub(super) fn score(scoring: OhHellScoring, bid: u8, took: u8) -> i32 {
    let (bid, took) = (i32::from(bid), i32::from(took));
    let exact = bid == took;
    match scoring {
        OhHellScoring::Standard if exact => EXACT + bid,
        OhHellScoring::Standard => 0,
        OhHellScoring::MinusDifference if exact => EXACT + bid,
        OhHellScoring::MinusDifference => -(bid - took).abs(),
        OhHellScoring::TricksPlusTen => took + if exact { EXACT } else { 0 },
    }
}

impl VariantRules for OhHell {
    /// The first card after the deal is turned up and its suit is trump; with no card left
    /// the hand has no trump.
    fn start_hand(&mut self, _hand: u32, deck: &[Card], dealt: usize) -> HandSetup {
        match deck.get(dealt) {
            Some(&turned) => HandSetup {
                trump: Some(turned.suit()),
                face_up: CardSet::single(turned),
                pass: None,
            },
            None => HandSetup::PLAIN,
        }
    }

    fn bids(&self) -> bool {
        true
    }

    /// Any number of tricks; with the hook, the dealer (bidding last) may not bid what makes
    /// the bids add up to the tricks, so the hand cannot go exactly as everyone bid.
    fn bid_range(&self, tricks: u8, earlier: u32, last: bool) -> BidRange {
        let forbidden = if self.hook && last {
            u32::from(tricks)
                .checked_sub(earlier)
                .and_then(|bid| u8::try_from(bid).ok())
        } else {
            None
        };
        BidRange {
            min: 0,
            max: tricks,
            forbidden,
        }
    }

    fn score_hand(
        &mut self,
        _taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        bids: &PerSeat<Option<u8>>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        let mut points = PerSeat::new(self.players);
        for (seat, bid) in bids.iter() {
            let bid = bid.expect("every seat bids before play");
            points[seat] = score(self.scoring, bid, tricks_won[seat]);
        }
        add_points(totals, &points);
        HandScore::points(points)
    }

    /// After the schedule's last hand, the highest total wins; equal totals share the win.
    fn match_winners(&self, totals: &PerSeat<i32>, hand: u32) -> Option<Vec<Seat>> {
        (hand + 1 >= hands_in_match(self.players, self.schedule)).then(|| highest(totals))
    }
}

/// What clients need to know to follow and draw a hand of Oh Hell.
pub(super) fn facts() -> VariantFacts {
    let range = super::Variant::OhHell.player_range();
    VariantFacts {
        hand_size: super::Variant::OhHell.hand_size(),
        pass_count: 0,
        prize: 0,
        partnerships: false,
        first_lead: FirstLead::DealerLeft,
        trump: TrumpRule::TurnedUp,
        bad_card_penalty: None,
        low_score_wins: false,
        two_totals: false,
        points_in_hand: false,
        trick_points: false,
        card_points: BTreeMap::new(),
        scoring: "Bid the exact tricks you will take: an exact bid scores 10 plus the bid; \
                  highest total after the last hand wins."
            .into(),
        bidding: true,
        hand_size_varies: true,
        player_counts: Some(PlayerCounts {
            min: *range.start(),
            max: *range.end(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Options, Variant};

    fn ohhell(options: Options) -> OhHell {
        OhHell::new(&Rules::new(Variant::OhHell, &options).unwrap())
    }

    fn sizes(players: u8, schedule: Schedule) -> Vec<u32> {
        (0..hands_in_match(players, schedule))
            .map(|hand| hand_size(players, schedule, hand))
            .collect()
    }

    #[test]
    fn the_largest_hand_leaves_a_card_to_turn_up() {
        let largest: Vec<u32> = (3..=7).map(largest_hand).collect();
        assert_eq!(largest, [17, 12, 10, 8, 7]);
        for players in 3..=7u8 {
            assert!(u32::from(players) * largest_hand(players) < 52);
            assert!(largest_hand(players) as usize <= Variant::MAX_HAND_SIZE);
        }
    }

    #[test]
    fn each_schedule_goes_its_way_for_every_table() {
        assert_eq!(sizes(5, Schedule::Down), (1..=10).rev().collect::<Vec<_>>());
        assert_eq!(sizes(5, Schedule::Up), (1..=10).collect::<Vec<_>>());
        let down_up: Vec<u32> = (1..=10).rev().chain(2..=10).collect();
        assert_eq!(sizes(5, Schedule::DownUp), down_up);
        let up_down: Vec<u32> = (1..=10).chain((1..=9).rev()).collect();
        assert_eq!(sizes(5, Schedule::UpDown), up_down);
        for players in 3..=7u8 {
            let largest = largest_hand(players);
            let down_up = sizes(players, Schedule::DownUp);
            assert_eq!(down_up.len() as u32, 2 * largest - 1, "{players} seats");
            assert_eq!(down_up.first(), Some(&largest));
            assert_eq!(down_up.last(), Some(&largest));
            assert_eq!(down_up.iter().filter(|s| **s == 1).count(), 1);
            assert_eq!(*down_up.iter().max().unwrap(), largest);
            assert_eq!(sizes(players, Schedule::Up).len() as u32, largest);
        }
    }

    #[test]
    fn the_hook_forbids_the_dealer_exactly_the_bid_that_adds_up() {
        let rules = ohhell(Options::default());
        // Five tricks; the others bid 1 + 0 + 2 = 3: the dealer may bid anything but 2.
        let dealer = rules.bid_range(5, 3, true);
        assert_eq!(
            dealer,
            BidRange {
                min: 0,
                max: 5,
                forbidden: Some(2)
            }
        );
        // Only the dealer is hooked.
        assert_eq!(rules.bid_range(5, 3, false).forbidden, None);
        // Bids already over the tricks: nothing the dealer bids can add up.
        assert_eq!(rules.bid_range(5, 6, true).forbidden, None);
        // Exactly the tricks bid already: the dealer may not bid 0.
        assert_eq!(rules.bid_range(5, 5, true).forbidden, Some(0));
        let unhooked = ohhell(Options {
            hook: Some(false),
            ..Options::default()
        });
        assert_eq!(unhooked.bid_range(5, 3, true).forbidden, None);
    }

    #[test]
    fn each_scoring_rewards_an_exact_bid() {
        use OhHellScoring::{MinusDifference, Standard, TricksPlusTen};
        assert_eq!(score(Standard, 3, 3), 13);
        assert_eq!(score(Standard, 0, 0), 10);
        assert_eq!(score(Standard, 3, 1), 0);
        assert_eq!(score(MinusDifference, 3, 3), 13);
        assert_eq!(score(MinusDifference, 3, 1), -2);
        assert_eq!(score(MinusDifference, 1, 4), -3);
        assert_eq!(score(TricksPlusTen, 3, 3), 13);
        assert_eq!(score(TricksPlusTen, 2, 4), 4);
        assert_eq!(score(TricksPlusTen, 0, 0), 10);
    }

    #[test]
    fn a_hand_scores_every_seat_by_its_bid_and_the_highest_total_wins_at_the_end() {
        let mut rules = ohhell(Options {
            players: Some(3),
            schedule: Some(Schedule::Down),
            ..Options::default()
        });
        let mut totals = PerSeat::from_slice(&[5, 0, 0]);
        let bids = PerSeat::from_slice(&[Some(2), Some(0), Some(1)]);
        let took = PerSeat::from_slice(&[2, 1, 0]);
        let score = rules.score_hand(&PerSeat::new(3), &took, &bids, &mut totals);
        assert_eq!(score.points.as_slice(), &[12, 0, 0]);
        assert_eq!(totals.as_slice(), &[17, 0, 0]);
        // Seventeen hands at three seats, down only.
        assert_eq!(rules.match_winners(&totals, 15), None);
        let tied = PerSeat::from_slice(&[40, 40, 12]);
        assert_eq!(rules.match_winners(&tied, 16), Some(vec![Seat(0), Seat(1)]));
    }

    #[test]
    fn the_card_after_the_deal_is_turned_up_for_trump() {
        let mut rules = ohhell(Options::default());
        let deck: [Card; 52] = std::array::from_fn(|i| Card::from_index(i as u8));
        let setup = rules.start_hand(0, &deck, 48);
        assert_eq!(setup.trump, Some(deck[48].suit()));
        assert_eq!(setup.face_up, CardSet::single(deck[48]));
        assert_eq!(rules.start_hand(0, &deck, 52), HandSetup::PLAIN);
    }
}
