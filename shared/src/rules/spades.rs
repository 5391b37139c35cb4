//! Spades: everything that differs from plain trick taking. Partnerships 0+2 against 1+3 each
//! bid the tricks they expect (0 is nil), spades are always trump and may not be led until one
//! has been played, a side that makes its contract scores 10 a trick bid and a point a bag
//! (overtrick), every `bag_limit` bags cost `bag_penalty`, and the first side to the target
//! wins (the other side, once one sinks to the mercy line). With `blind_nil`, a player of a
//! side behind by `blind_nil_behind` may bid nil before looking (the kit's blind bid and
//! exchange, `game::blind`), for twice a nil. Jokers (option `jokers`) are only the rules'
//! deck (`Rules::deck`): they are spades above the ace, so nothing here treats them apart.
//! Owns each side's bags and this hand's blind bids; it may not touch the game's state
//! beyond what the [`VariantRules`] hooks hand it.

use std::collections::BTreeMap;

use super::RuleError;
use super::facts::{FirstLead, TrumpRule, VariantFacts};
use super::variant::Rules;
use super::variant_rules::{BidRange, HandScore, HandSetup, Table, VariantRules, add_points};
use crate::card::{Card, CardSet, Suit};
use crate::seat::{PerSeat, Seat, SeatSet};

/// What a nil bid wins when the bidder takes no trick, and loses when they take one.
pub(super) const NIL: i32 = 100;

/// What a blind nil wins or loses: twice a nil.
const BLIND_NIL: i32 = 2 * NIL;

/// Points per trick of a contract, won when it is made and lost when it is not.
const PER_TRICK: i32 = 10;

/// Spades' options and each side's bags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Spades {
    /// Points that win the match.
    target: i32,
    /// A side at `-mercy` or below loses; 0 never.
    mercy: i32,
    /// A bid of 0 is nil.
    nil: bool,
    /// Bags that cost the penalty; 0 when bags are not counted.
    bag_limit: i32,
    /// What each full count of bags costs.
    bag_penalty: i32,
    /// No spade lead until a spade has been played.
    spades_broken: bool,
    /// A side behind by `blind_nil_behind` or more may bid nil before looking.
    blind_nil: bool,
    /// How far behind a side must be to bid blind nil.
    blind_nil_behind: i32,
    /// The bags each side holds, North/South (seats 0 and 2) first.
    bags: [i32; 2],
    /// The seats that bid blind nil this hand.
    blind: SeatSet,
}

impl Spades {
    pub(super) fn new(rules: &Rules) -> Spades {
        Spades {
            target: rules.target,
            mercy: rules.mercy,
            nil: rules.nil,
            bag_limit: rules.bag_limit,
            bag_penalty: rules.bag_penalty,
            spades_broken: rules.spades_broken,
            blind_nil: rules.blind_nil,
            blind_nil_behind: rules.blind_nil_behind,
            bags: [0; 2],
            blind: SeatSet::EMPTY,
        }
    }

    /// Scores one side's hand (`side` 0: seats 0 and 2; 1: seats 1 and 3): its points, and
    /// the nil outcomes in `nil`. Adds its bags to the side's count and takes the penalty off
    /// for each full `bag_limit`; returns `(points, penalty)`.
    fn score_side(
        &mut self,
        side: u8,
        bids: &PerSeat<u8>,
        tricks: &PerSeat<u8>,
        nil: &mut PerSeat<Option<bool>>,
    ) -> (i32, i32) {
        let (mut contract, mut toward, mut bags, mut points) = (0, 0, 0, 0);
        for seat in [Seat(side), Seat(side + 2)] {
            let (bid, took) = (i32::from(bids[seat]), i32::from(tricks[seat]));
            let blind = self.blind.contains(seat);
            if blind || (self.nil && bid == 0) {
                // A nil bidder's tricks do not help the partner's bid: they are the side's bags.
                let value = if blind { BLIND_NIL } else { NIL };
                nil[seat] = Some(took == 0);
                points += if took == 0 { value } else { -value };
                bags += took;
            } else {
                contract += bid;
                toward += took;
            }
        }
        if toward >= contract {
            points += PER_TRICK * contract;
            bags += toward - contract;
        } else {
            points -= PER_TRICK * contract;
        }
        // Every bag is a point, and piles up towards the penalty.
        points += bags;
        let mut penalty = 0;
        if self.bag_limit > 0 {
            let held = &mut self.bags[usize::from(side)];
            *held += bags;
            while *held >= self.bag_limit {
                *held -= self.bag_limit;
                penalty -= self.bag_penalty;
            }
        }
        (points + penalty, penalty)
    }
}

impl VariantRules for Spades {
    /// Spades are trump in every hand; nothing is turned up.
    fn start_hand(&mut self, _hand: u32, _deck: &[Card], _dealt: usize) -> HandSetup {
        self.blind = SeatSet::EMPTY;
        HandSetup {
            trump: Some(Suit::Spades),
            ..HandSetup::PLAIN
        }
    }

    /// No spade lead before spades are broken, unless the hand is all spades.
    fn lead_options(&self, hand: CardSet, table: Table) -> CardSet {
        let others = hand - CardSet::suit(Suit::Spades);
        if !self.spades_broken || table.played.has_suit(Suit::Spades) || others.is_empty() {
            hand
        } else {
            others
        }
    }

    fn lead_refusal(&self, _hand: CardSet, _table: Table) -> RuleError {
        RuleError::SpadesNotBroken
    }

    fn bids(&self) -> bool {
        true
    }

    /// Any number of tricks; 0 (nil) only when nil is played.
    fn bid_range(&self, tricks: u8, _earlier: u32, _last: bool) -> BidRange {
        BidRange {
            min: u8::from(!self.nil),
            max: tricks,
            forbidden: None,
        }
    }

    /// Both players of a side behind by `blind_nil_behind` or more (one of them at most
    /// bids: the kit lets a blind bidder's partner look).
    fn blind_bidders(&self, totals: &PerSeat<i32>) -> SeatSet {
        let (ours, theirs) = (totals[Seat(0)], totals[Seat(1)]);
        let side = if ours < theirs { 0 } else { 1 };
        let gap = (ours - theirs).abs();
        let mut seats = SeatSet::EMPTY;
        if self.blind_nil && gap > 0 && gap >= self.blind_nil_behind {
            seats.insert(Seat(side));
            seats.insert(Seat(side + 2));
        }
        seats
    }

    fn blind_refusal(&self) -> RuleError {
        if self.blind_nil {
            RuleError::BlindNilNotBehind {
                behind: self.blind_nil_behind,
            }
        } else {
            RuleError::NoBlindNil
        }
    }

    fn blind_bid(&mut self, seat: Seat) {
        self.blind.insert(seat);
    }

    fn score_hand(
        &mut self,
        _taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        bids: &PerSeat<Option<u8>>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        let mut made = PerSeat::<u8>::new(4);
        for (seat, bid) in bids.iter() {
            made[seat] = bid.expect("every seat bids before play");
        }
        let mut nil = PerSeat::new(4);
        let mut points = PerSeat::new(4);
        let mut penalties = PerSeat::new(4);
        let mut bags = PerSeat::new(4);
        for side in 0..2 {
            let (side_points, penalty) = self.score_side(side, &made, tricks_won, &mut nil);
            for seat in [Seat(side), Seat(side + 2)] {
                points[seat] = side_points;
                penalties[seat] = penalty;
                bags[seat] = self.bags[usize::from(side)];
            }
        }
        add_points(totals, &points);
        let someone_bid_nil = nil.as_slice().iter().any(Option::is_some);
        let penalised = penalties.as_slice().iter().any(|p| *p != 0);
        HandScore {
            bags: Some(bags),
            bag_penalty: penalised.then_some(penalties),
            nil: someone_bid_nil.then_some(nil),
            blind_nil: (!self.blind.is_empty()).then_some(self.blind),
            ..HandScore::points(points)
        }
    }

    /// Once a side reaches the target, or one sinks to minus the mercy line, the side ahead
    /// wins (both partners). Equal totals play on.
    fn match_winners(&self, totals: &PerSeat<i32>, _hand: u32) -> Option<Vec<Seat>> {
        let (ours, theirs) = (totals[Seat(0)], totals[Seat(1)]);
        let reached = ours.max(theirs) >= self.target;
        let sunk = self.mercy > 0 && ours.min(theirs) <= -self.mercy;
        if !(reached || sunk) || ours == theirs {
            return None;
        }
        let side = if ours > theirs { 0 } else { 1 };
        Some(vec![Seat(side), Seat(side + 2)])
    }
}

/// What clients need to know to follow and draw a hand of spades.
pub(super) fn facts() -> VariantFacts {
    VariantFacts {
        hand_size: super::Variant::Spades.hand_size(),
        pass_count: 0,
        prize: 0,
        partnerships: true,
        first_lead: FirstLead::DealerLeft,
        trump: TrumpRule::AlwaysSpades,
        bad_card_penalty: None,
        low_score_wins: false,
        two_totals: false,
        points_in_hand: false,
        trick_points: false,
        card_points: BTreeMap::new(),
        scoring: "Partners bid; a side making its bids scores 10 a trick bid and 1 a bag, \
                  else loses 10 a trick bid; nil ±100; bags cost 100 every 10; first side to \
                  the target wins."
            .into(),
        bidding: true,
        hand_size_varies: false,
        player_counts: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Options, Variant};

    fn spades(options: Options) -> Spades {
        Spades::new(&Rules::new(Variant::Spades, &options).unwrap())
    }

    fn standard() -> Spades {
        spades(Options::default())
    }

    fn bids(values: [u8; 4]) -> PerSeat<Option<u8>> {
        PerSeat::from_slice(&values.map(Some))
    }

    /// Scores one hand from bids and tricks (seats 0 to 3), adding to `totals`.
    fn hand(rules: &mut Spades, bid: [u8; 4], took: [u8; 4], totals: &mut [i32; 4]) -> HandScore {
        assert_eq!(took.iter().map(|t| u32::from(*t)).sum::<u32>(), 13);
        let mut sum = PerSeat::from_slice(totals);
        let score = rules.score_hand(
            &PerSeat::new(4),
            &PerSeat::from_slice(&took),
            &bids(bid),
            &mut sum,
        );
        totals.copy_from_slice(sum.as_slice());
        score
    }

    #[test]
    fn a_made_contract_scores_ten_a_trick_and_a_point_a_bag() {
        let mut rules = standard();
        let mut totals = [0; 4];
        // North/South bid 4 + 3 and take 5 + 3: 70 and a bag. East/West bid 3 + 2, take 3 + 2.
        let score = hand(&mut rules, [4, 3, 3, 2], [5, 3, 3, 2], &mut totals);
        assert_eq!(score.points.as_slice(), &[71, 50, 71, 50]);
        assert_eq!(totals, [71, 50, 71, 50]);
        assert_eq!(score.bags.unwrap().as_slice(), &[1, 0, 1, 0]);
        assert_eq!(score.bag_penalty, None);
        assert_eq!(score.nil, None);
    }

    #[test]
    fn a_set_contract_loses_ten_a_trick_bid() {
        let mut rules = standard();
        let mut totals = [0; 4];
        // North/South bid 5 + 4 = 9 and take 4 + 4 = 8: set, −90, and no bag.
        let score = hand(&mut rules, [5, 2, 4, 1], [4, 3, 4, 2], &mut totals);
        assert_eq!(score.points.as_slice(), &[-90, 32, -90, 32]);
        assert_eq!(score.bags.unwrap().as_slice(), &[0, 2, 0, 2]);
    }

    #[test]
    fn ten_bags_cost_a_hundred_and_leave_the_rest_counted() {
        let mut rules = standard();
        let mut totals = [0; 4];
        // North/South bid 1 + 1 and take 6 + 5: 20 + 9 bags.
        let score = hand(&mut rules, [1, 1, 1, 1], [6, 1, 5, 1], &mut totals);
        assert_eq!(score.points.as_slice(), &[29, 20, 29, 20]);
        assert_eq!(score.bags.unwrap().as_slice(), &[9, 0, 9, 0]);
        // Three more bags: 12, so 100 off and 2 carried.
        let score = hand(&mut rules, [2, 3, 3, 3], [4, 2, 4, 3], &mut totals);
        assert_eq!(score.bag_penalty.unwrap().as_slice(), &[-100, 0, -100, 0]);
        assert_eq!(score.bags.unwrap().as_slice(), &[2, 0, 2, 0]);
        // 50 for the contract, 3 for the bags, −100: −47; East/West are set (5 of 6): −60.
        assert_eq!(score.points.as_slice(), &[-47, -60, -47, -60]);
        assert_eq!(totals, [-18, -40, -18, -40]);
    }

    #[test]
    fn without_a_bag_limit_bags_score_a_point_and_never_cost() {
        let mut rules = spades(Options {
            bag_limit: Some(0),
            ..Options::default()
        });
        let mut totals = [0; 4];
        for _ in 0..3 {
            let score = hand(&mut rules, [1, 1, 1, 1], [6, 1, 5, 1], &mut totals);
            assert_eq!(score.points.as_slice(), &[29, 20, 29, 20]);
            assert_eq!(score.bags.unwrap().as_slice(), &[0, 0, 0, 0]);
        }
    }

    #[test]
    fn a_made_nil_wins_a_hundred_and_the_partner_scores_their_own_bid() {
        let mut rules = standard();
        let mut totals = [0; 4];
        // Seat 0 bids nil and takes nothing; seat 2 bids 4 and takes 5.
        let score = hand(&mut rules, [0, 4, 4, 4], [0, 4, 5, 4], &mut totals);
        assert_eq!(score.points.as_slice(), &[141, 80, 141, 80]);
        assert_eq!(
            score.nil.unwrap().as_slice(),
            &[Some(true), None, None, None]
        );
    }

    #[test]
    fn a_failed_nil_loses_a_hundred_and_its_tricks_are_bags_not_the_partners() {
        let mut rules = standard();
        let mut totals = [0; 4];
        // Seat 0 bids nil and takes 2; seat 2 bids 4 and takes 3: the nil's tricks do not make
        // the partner's 4, so the side is set (−40), loses 100 for the nil, and has 2 bags.
        let score = hand(&mut rules, [0, 3, 4, 3], [2, 4, 3, 4], &mut totals);
        assert_eq!(score.points.as_slice(), &[-138, 62, -138, 62]);
        assert_eq!(
            score.nil.unwrap().as_slice(),
            &[Some(false), None, None, None]
        );
        assert_eq!(score.bags.unwrap().as_slice(), &[2, 2, 2, 2]);
    }

    #[test]
    fn a_blind_nil_wins_or_loses_two_hundred_even_where_nil_is_off() {
        let mut rules = spades(Options {
            nil: Some(false),
            blind_nil: Some(true),
            ..Options::default()
        });
        let mut totals = [0; 4];
        rules.start_hand(1, &[Card::TWO_OF_CLUBS; 52], 52);
        rules.blind_bid(Seat(1));
        // Seat 1 bid blind nil and takes nothing; seat 3 bids 4 and takes 4.
        let score = hand(&mut rules, [4, 0, 5, 4], [4, 0, 5, 4], &mut totals);
        assert_eq!(score.points.as_slice(), &[90, 240, 90, 240]);
        assert_eq!(score.blind_nil, Some(SeatSet::one(Seat(1))));
        // Failed: −200, and its 3 tricks are the side's bags, not towards seat 3's 4.
        rules.start_hand(2, &[Card::TWO_OF_CLUBS; 52], 52);
        rules.blind_bid(Seat(3));
        let score = hand(&mut rules, [4, 4, 3, 0], [4, 3, 3, 3], &mut totals);
        assert_eq!(score.points.as_slice(), &[70, -237, 70, -237]);
        assert_eq!(
            score.nil.unwrap().as_slice(),
            &[None, None, None, Some(false)]
        );
        // A new hand forgets the blind bids.
        rules.start_hand(3, &[Card::TWO_OF_CLUBS; 52], 52);
        let score = hand(&mut rules, [4, 4, 4, 1], [4, 4, 4, 1], &mut totals);
        assert_eq!(score.blind_nil, None);
    }

    #[test]
    fn blind_nil_is_for_a_side_behind_by_the_threshold() {
        let rules = spades(Options {
            blind_nil: Some(true),
            ..Options::default()
        });
        let totals = |v: [i32; 4]| PerSeat::from_slice(&v);
        let seats = |set: SeatSet| set.iter().collect::<Vec<_>>();
        assert_eq!(
            seats(rules.blind_bidders(&totals([200, 100, 200, 100]))),
            [Seat(1), Seat(3)]
        );
        assert_eq!(seats(rules.blind_bidders(&totals([-50, 49, -50, 49]))), []);
        assert_eq!(
            seats(rules.blind_bidders(&totals([-60, 40, -60, 40]))),
            [Seat(0), Seat(2)]
        );
        assert!(
            standard()
                .blind_bidders(&totals([0, 500, 0, 500]))
                .is_empty()
        );
        assert_eq!(standard().blind_refusal(), RuleError::NoBlindNil);
        assert_eq!(
            rules.blind_refusal().to_string(),
            "blind nil is allowed only for a side behind by 100 or more"
        );
    }

    #[test]
    fn without_nil_a_bid_starts_at_one() {
        let no_nil = spades(Options {
            nil: Some(false),
            ..Options::default()
        });
        assert_eq!(no_nil.bid_range(13, 0, false).min, 1);
        assert_eq!(
            standard().bid_range(13, 12, true),
            BidRange {
                min: 0,
                max: 13,
                forbidden: None
            }
        );
    }

    #[test]
    fn the_first_side_to_the_target_wins_and_equal_totals_play_on() {
        let rules = standard();
        let totals = |v: [i32; 4]| PerSeat::from_slice(&v);
        assert_eq!(rules.match_winners(&totals([499, 300, 499, 300]), 9), None);
        assert_eq!(
            rules.match_winners(&totals([510, 505, 510, 505]), 9),
            Some(vec![Seat(0), Seat(2)])
        );
        assert_eq!(
            rules.match_winners(&totals([480, 520, 480, 520]), 9),
            Some(vec![Seat(1), Seat(3)])
        );
        assert_eq!(rules.match_winners(&totals([500, 500, 500, 500]), 9), None);
    }

    #[test]
    fn a_side_at_the_mercy_line_loses_unless_mercy_is_off() {
        let totals = PerSeat::from_slice(&[-200, 90, -200, 90]);
        assert_eq!(
            standard().match_winners(&totals, 3),
            Some(vec![Seat(1), Seat(3)])
        );
        let no_mercy = spades(Options {
            mercy: Some(0),
            ..Options::default()
        });
        assert_eq!(no_mercy.match_winners(&totals, 3), None);
        let above = PerSeat::from_slice(&[-199, 90, -199, 90]);
        assert_eq!(standard().match_winners(&above, 3), None);
    }

    #[test]
    fn spades_are_led_only_once_broken_or_when_nothing_else_is_held() {
        let rules = standard();
        let table = |played: &str| Table {
            first_trick: false,
            played: CardSet::parse_compact(played).unwrap(),
            trump: Some(Suit::Spades),
        };
        let hand = CardSet::parse_compact("AS 3S 4D").unwrap();
        assert_eq!(
            rules.lead_options(hand, table("2C 3C 4C 5C")),
            CardSet::parse_compact("4D").unwrap()
        );
        assert_eq!(rules.lead_options(hand, table("2C 3C 4C 2S")), hand);
        let only_spades = CardSet::parse_compact("AS 3S").unwrap();
        assert_eq!(rules.lead_options(only_spades, table("")), only_spades);
        assert_eq!(
            rules.lead_refusal(hand, table("")),
            RuleError::SpadesNotBroken
        );
        let unbroken = spades(Options {
            spades_broken: Some(false),
            ..Options::default()
        });
        assert_eq!(unbroken.lead_options(hand, table("")), hand);
    }
}
