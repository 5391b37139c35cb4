//! The facts about a variant that clients need to follow and draw a game, in one place.
//!
//! `GET /api/variants` publishes them (see `protocol::VariantInfo`), so the browser and the
//! SDKs read hand sizes, the prize or the bad-card rule from the server instead of writing the
//! numbers again. Each number comes from the engine's own constant where one exists. This module
//! only describes the rules: it may not change how a game is played.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet};
use crate::seat::PerSeat;

/// What a client needs to know about a variant's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VariantFacts {
    /// Cards dealt to each seat.
    pub hand_size: u32,
    /// Cards passed in a passing hand; 0 when the variant never passes.
    pub pass_count: u32,
    /// Points added to the prize pool each hand (filippa), else 0.
    pub prize: i32,
    /// Seats 0 and 2 (North/South) play against 1 and 3 (East/West).
    pub partnerships: bool,
    /// Who leads the first trick of a hand.
    pub first_lead: FirstLead,
    /// Where the trump suit comes from.
    pub trump: TrumpRule,
    /// What an illegal card costs when the `bad_card` option is `penalty` (tricks), else none.
    pub bad_card_penalty: Option<i32>,
    /// The lowest total wins.
    pub low_score_wins: bool,
    /// Positive and negative totals are kept apart (filippa).
    pub two_totals: bool,
    /// A hand's points can be counted while it is played, from what each seat has taken.
    pub points_in_hand: bool,
    /// Each trick won adds a point to the taker's match total at once (tricks), rather than
    /// when the hand is scored.
    pub trick_points: bool,
    /// What each card that scores is worth to the seat that takes it in a trick, before any
    /// end-of-hand adjustment (hearts' moon, filippa's prize); empty where cards carry no points
    /// (tricks and whist count tricks). Clients show running points during a hand from it.
    pub card_points: BTreeMap<Card, i32>,
    /// How a hand scores and who wins, in one line for people.
    pub scoring: String,
    /// Every seat bids the tricks it expects before play, in turn from the dealer's left:
    /// `bid` actions, and the bids in views and score lines (spades, ohhell).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bidding: bool,
    /// Hands change size from hand to hand (ohhell): each `hand_started` says how many cards
    /// each seat is dealt, and `hand_size` is only the first hand's at the default table.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hand_size_varies: bool,
    /// The seat counts the `players` option allows (ohhell); absent when the variant is
    /// played by its one count of players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_counts: Option<PlayerCounts>,
}

/// The seat counts a variant can be played with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerCounts {
    /// The fewest seats.
    pub min: u8,
    /// The most seats.
    pub max: u8,
}

/// Who leads the first trick of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstLead {
    /// The holder of the two of clubs, who must lead it (known only to that seat until it is
    /// played).
    TwoOfClubs,
    /// The seat to the dealer's left.
    DealerLeft,
    /// The seat to declarer's left, once the auction has named declarer (bridge).
    DeclarersLeft,
}

/// Where a hand's trump suit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TrumpRule {
    /// No trumps.
    #[serde(rename = "none")]
    NoTrump,
    /// The two undealt cards, shown to everyone, pick the suit (hearts5).
    Undealt,
    /// The dealer's last card, shown until it is played, sets the suit (whist).
    DealerLast,
    /// Spades are always trump; no card is shown (spades).
    AlwaysSpades,
    /// The first card after the deal is turned up and sets the suit; no trump when no card
    /// is left (ohhell).
    TurnedUp,
    /// The players make trump by calls after the deal, a card turned up to start from
    /// (euchre).
    Called,
    /// The auction's contract names the trump suit or no trump (bridge).
    Contract,
}

/// The points of each card that scores, found by scoring a hand in which seat 0 took only that
/// card (`score` is the variant's own scoring of the cards each seat took).
pub(super) fn card_points(score: impl Fn(&PerSeat<CardSet>) -> i32) -> BTreeMap<Card, i32> {
    CardSet::FULL
        .iter()
        .filter_map(|card| {
            let mut taken = PerSeat::new(4);
            taken[crate::seat::Seat(0)] = CardSet::single(card);
            let points = score(&taken);
            (points != 0).then_some((card, points))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::RandomBot;
    use crate::card::Card;
    use crate::rules::{Action, BadCard, Event, Game, Legal, Options, Variant};
    use crate::seat::Seat;

    /// Plays a few matches of `variant` with random moves and collects every event.
    fn events_of(variant: Variant) -> Vec<(Game, Vec<Event>)> {
        // Short matches that still last several hands.
        let target = match variant {
            Variant::Hearts5 | Variant::OhHell | Variant::Bridge => None,
            Variant::Whist => Some(3),
            Variant::Spades => Some(100),
            _ => Some(30),
        };
        let mut out = Vec::new();
        for seed in 0..6 {
            let mut options = Options {
                target,
                ..Options::default()
            };
            if variant == Variant::OhHell {
                // Every table size.
                options.players = Some(3 + seed as u8 % 5);
                options.schedule = Some(crate::rules::Schedule::Up);
            }
            let mut game = Game::new(variant, &options, seed).unwrap();
            let start = game.clone();
            let mut bot = RandomBot::new(seed);
            let mut events = game.opening_events();
            while let Some(seat) = game.to_act().iter().next() {
                let action = bot.choose_legal(&game.legal_actions(seat)).unwrap();
                events.extend(game.apply(seat, &action).unwrap());
            }
            out.push((start, events));
        }
        out
    }

    #[test]
    fn the_facts_agree_with_the_engine() {
        for variant in Variant::ALL {
            let facts = variant.facts();
            let mut passed = false;
            let mut bid = false;
            for (start, events) in events_of(variant) {
                let n = start.players();
                assert!(variant.player_range().contains(&n), "{variant}");
                if facts.prize != 0 {
                    assert_eq!(start.pool(), facts.prize, "{variant}");
                }
                let mut dealer = start.dealer();
                let mut first_play = true;
                let mut out = crate::seat::SeatSet::EMPTY;
                let mut contract = None;
                let mut size = facts.hand_size;
                for event in &events {
                    match event {
                        Event::HandStarted {
                            dealer: d,
                            pass,
                            hand_size,
                            ..
                        } => {
                            dealer = *d;
                            out = crate::seat::SeatSet::EMPTY;
                            contract = None;
                            first_play = true;
                            passed |= pass.is_some();
                            assert!(facts.pass_count > 0 || pass.is_none(), "{variant}");
                            assert_eq!(hand_size.is_some(), facts.hand_size_varies, "{variant}");
                            size = hand_size.unwrap_or(facts.hand_size);
                        }
                        Event::Dealt { cards, .. } => {
                            assert_eq!(cards.len(), size, "{variant}");
                        }
                        Event::TrumpShown { trump, cards } => {
                            let expected = match facts.trump {
                                TrumpRule::Undealt => 52 - u32::from(n) * size,
                                TrumpRule::DealerLast | TrumpRule::TurnedUp => 1,
                                TrumpRule::AlwaysSpades => {
                                    assert_eq!(*trump, crate::card::Suit::Spades);
                                    0
                                }
                                TrumpRule::NoTrump | TrumpRule::Called | TrumpRule::Contract => {
                                    panic!("{variant} shows no trump at the deal")
                                }
                            };
                            assert_eq!(cards.len(), expected, "{variant}");
                        }
                        Event::SitsOut { seat } => out.insert(*seat),
                        Event::Contract { contract: c } => contract = Some(*c),
                        Event::Bid { .. } => {
                            bid = true;
                            assert!(first_play, "{variant}: bids come before play");
                        }
                        Event::Played { seat, card } if first_play => {
                            first_play = false;
                            match facts.first_lead {
                                FirstLead::TwoOfClubs => assert_eq!(*card, Card::TWO_OF_CLUBS),
                                FirstLead::DealerLeft => {
                                    assert_eq!(*seat, out.next_outside(dealer, n));
                                }
                                FirstLead::DeclarersLeft => {
                                    let declarer = contract.expect("a contract before play");
                                    assert_eq!(*seat, declarer.declarer.next(n));
                                }
                            }
                        }
                        Event::HandScored(result) if facts.partnerships => {
                            for seat in Seat::all(n) {
                                let partner = seat.left(2, n);
                                assert_eq!(result.points[seat], result.points[partner]);
                            }
                        }
                        Event::HandScored(result) if !facts.two_totals => {
                            assert!(result.penalties.as_slice().iter().all(|p| *p == 0));
                        }
                        _ => {}
                    }
                }
            }
            assert_eq!(passed, facts.pass_count > 0, "{variant}");
            assert_eq!(bid, facts.bidding, "{variant}");
            assert_eq!(facts.low_score_wins, variant.low_score_wins());
            let counts = facts.player_counts.map(|c| c.min..=c.max);
            let range = variant.player_range();
            assert_eq!(counts.unwrap_or(range.clone()), range, "{variant}");
        }
    }

    #[test]
    fn passing_hands_ask_for_pass_count_cards() {
        for variant in Variant::ALL {
            let game = Game::new(variant, &Options::default(), 1).unwrap();
            if let Legal::Pass { count, .. } = game.legal_actions(Seat(0)) {
                assert_eq!(count, variant.facts().pass_count);
            }
        }
    }

    #[test]
    fn a_bad_card_costs_the_published_penalty() {
        let options = Options {
            bad_card: Some(BadCard::Penalty),
            ..Options::default()
        };
        let mut game = Game::new(Variant::Tricks, &options, 3).unwrap();
        let mut bot = RandomBot::new(3);
        loop {
            let seat = game.to_act().iter().next().unwrap();
            let legal = game.legal_plays(seat);
            if let Some(card) = (game.hand(seat) - legal).lowest() {
                let events = game.apply(seat, &Action::Play { card }).unwrap();
                let Event::BadCard { penalty, .. } = events[0] else {
                    panic!("{events:?}")
                };
                assert_eq!(Some(penalty), Variant::Tricks.facts().bad_card_penalty);
                return;
            }
            let action = bot.choose_legal(&game.legal_actions(seat)).unwrap();
            game.apply(seat, &action).unwrap();
        }
    }

    #[test]
    fn card_points_are_what_a_hand_scores() {
        let sum = |variant: Variant| variant.facts().card_points.values().sum::<i32>();
        assert_eq!(sum(Variant::Hearts), 26);
        assert_eq!(sum(Variant::Filippa), -36);
        assert_eq!(sum(Variant::Hearts5), (2..=14).sum::<i32>());
        for variant in [
            Variant::Tricks,
            Variant::Whist,
            Variant::Spades,
            Variant::OhHell,
        ] {
            assert!(variant.facts().card_points.is_empty(), "{variant}");
        }
        let queen = Card::QUEEN_OF_SPADES;
        assert_eq!(Variant::Hearts.facts().card_points.get(&queen), Some(&13));
        assert_eq!(Variant::Filippa.facts().card_points.get(&queen), Some(&-13));
        assert_eq!(Variant::Hearts5.facts().card_points.get(&queen), None);
        let json = serde_json::to_value(Variant::Hearts.facts()).unwrap();
        assert_eq!(json["card_points"]["QS"], 13);
        assert_eq!(json["card_points"]["2H"], 1);
    }
}
