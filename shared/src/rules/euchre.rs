//! Euchre: everything that differs from plain trick taking. A 24-card deck (nine to ace), five
//! cards each and the next card turned up; partnerships 0+2 against 1+3. Trump is made by
//! calls: in turn from the dealer's left each seat orders the turned card up (the dealer picks
//! it up and discards one) or passes; if all pass, each may name another suit or pass, and if
//! all pass again the hand is thrown in (with "stick the dealer" the dealer must name one). The
//! maker may go alone, their partner sitting out; with "defend alone" a defender may do the
//! same. The jacks of trump and of its colour are the bowers. Makers taking 3 or 4 tricks score
//! 1, all 5 score 2 (4 alone); makers held under 3 are euchred and the defenders score 2 (4
//! for a lone defender). Reads only what the [`VariantRules`] hooks hand it.

use std::collections::BTreeMap;

use super::RuleError;
use super::event::{Call, Legal, TrumpMade};
use super::facts::{FirstLead, TrumpRule, VariantFacts};
use super::variant::Rules;
use super::variant_rules::{
    AfterCall, CallOutcome, HandScore, HandSetup, VariantRules, add_points, highest_at,
};
use crate::card::{Card, CardSet};
use crate::seat::{PerSeat, Seat};

/// Cards each player is dealt.
pub const HAND_SIZE: u32 = 5;

/// Where the making of trump stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The turned-up card may be ordered up; `passes` seats have passed it.
    OrderUp { passes: u8 },
    /// Everyone passed the turned-up card; a suit may be named.
    Name { passes: u8 },
    /// Trump is made; the defenders decide in turn whether one defends alone.
    Defend { passes: u8 },
    /// Calling is over (or the hand was thrown in).
    Done,
}

/// Euchre's options and the hand's calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Euchre {
    /// Points that end the match.
    target: i32,
    /// The dealer must name a suit when everyone else passed twice.
    stick_the_dealer: bool,
    /// A maker may play alone.
    alone: bool,
    /// A defender may defend alone.
    defend_alone: bool,
    /// This hand's turned-up card.
    turned: Card,
    stage: Stage,
    /// Trump as made this hand, once made.
    made: Option<TrumpMade>,
}

impl Euchre {
    pub(super) fn new(rules: &Rules) -> Euchre {
        Euchre {
            target: rules.target,
            stick_the_dealer: rules.stick_the_dealer,
            alone: rules.alone,
            defend_alone: rules.defend_alone,
            turned: Card::TWO_OF_CLUBS,
            stage: Stage::Done,
            made: None,
        }
    }

    /// After trump is made: the defenders' choice, or the dealer's pick-up, or play.
    fn after_made(&mut self, dealer: Seat, maker: Seat) -> AfterCall {
        if self.defend_alone {
            self.stage = Stage::Defend { passes: 0 };
            return AfterCall::Call(maker.next(4));
        }
        self.stage = Stage::Done;
        self.pick_up_or_play(dealer)
    }

    /// The dealer picks up an ordered-up card, unless they sit the hand out.
    fn pick_up_or_play(&self, dealer: Seat) -> AfterCall {
        let made = self.made.expect("trump is made");
        // The turned-up suit cannot be named once passed: made in it, it was ordered up.
        let ordered_up = made.trump == self.turned.suit();
        let dealer_out = (made.alone && made.maker.partner() == dealer)
            || made.defender_alone.is_some_and(|d| d.partner() == dealer);
        if ordered_up && !dealer_out {
            AfterCall::PickUp(dealer, self.turned)
        } else {
            AfterCall::Play
        }
    }
}

impl VariantRules for Euchre {
    /// The card after the players' twenty is turned up; nobody has trump yet.
    fn start_hand(&mut self, _hand: u32, deck: &[Card], dealt: usize) -> HandSetup {
        self.turned = deck[dealt];
        self.stage = Stage::OrderUp { passes: 0 };
        self.made = None;
        HandSetup {
            trump: None,
            face_up: CardSet::single(self.turned),
            pass: None,
        }
    }

    fn calls(&self) -> bool {
        true
    }

    fn legal_calls(&self, seat: Seat, dealer: Seat) -> Legal {
        let call = |order_up, name: bool, pass, defend_alone: bool| Legal::Call {
            order_up,
            name,
            except: name.then(|| self.turned.suit()),
            pass,
            alone: self.alone && !defend_alone,
            defend_alone,
            bid_from: None,
            double: false,
            redouble: false,
        };
        match self.stage {
            Stage::OrderUp { .. } => call(true, false, true, false),
            Stage::Name { .. } => call(
                false,
                true,
                !(self.stick_the_dealer && seat == dealer),
                false,
            ),
            Stage::Defend { .. } => call(false, false, true, true),
            Stage::Done => Legal::Wait,
        }
    }

    fn call_refusal(&self, call: Call) -> RuleError {
        match (self.stage, call) {
            (_, Call::OrderUp { alone: true } | Call::Trump { alone: true, .. }) if !self.alone => {
                RuleError::NoGoingAlone
            }
            (_, Call::DefendAlone) => RuleError::NoDefendingAlone,
            (Stage::OrderUp { .. }, _) => RuleError::OrderUpOrPass,
            (Stage::Name { .. }, Call::Trump { suit, .. }) => RuleError::TurnedSuitPassed(suit),
            (Stage::Name { .. }, Call::Pass) => RuleError::DealerMustName,
            (Stage::Name { .. }, _) => RuleError::NameOrPass,
            (Stage::Defend { .. } | Stage::Done, _) => RuleError::NoDefendingAlone,
        }
    }

    fn call(&mut self, seat: Seat, call: Call, dealer: Seat) -> CallOutcome {
        let mut outcome = CallOutcome {
            made: None,
            sits_out: None,
            contract: None,
            next: AfterCall::Call(seat.next(4)),
        };
        match (self.stage, call) {
            (Stage::OrderUp { passes }, Call::Pass) => {
                self.stage = if passes == 3 {
                    Stage::Name { passes: 0 }
                } else {
                    Stage::OrderUp { passes: passes + 1 }
                };
            }
            (Stage::Name { passes }, Call::Pass) => {
                if passes == 3 {
                    self.stage = Stage::Done;
                    outcome.next = AfterCall::ThrowIn;
                } else {
                    self.stage = Stage::Name { passes: passes + 1 };
                }
            }
            (Stage::OrderUp { .. } | Stage::Name { .. }, Call::OrderUp { alone })
            | (Stage::OrderUp { .. } | Stage::Name { .. }, Call::Trump { alone, .. }) => {
                let trump = match call {
                    Call::Trump { suit, .. } => suit,
                    _ => self.turned.suit(),
                };
                let made = TrumpMade {
                    trump,
                    maker: seat,
                    alone,
                    defender_alone: None,
                };
                self.made = Some(made);
                outcome.made = Some((made, true));
                outcome.sits_out = alone.then(|| seat.partner());
                outcome.next = self.after_made(dealer, seat);
            }
            (Stage::Defend { passes }, Call::Pass) => {
                if passes == 1 {
                    self.stage = Stage::Done;
                    outcome.next = self.pick_up_or_play(dealer);
                } else {
                    self.stage = Stage::Defend { passes: 1 };
                    outcome.next = AfterCall::Call(seat.partner());
                }
            }
            (Stage::Defend { .. }, Call::DefendAlone) => {
                if let Some(made) = &mut self.made {
                    made.defender_alone = Some(seat);
                }
                self.stage = Stage::Done;
                outcome.sits_out = Some(seat.partner());
                outcome.next = self.pick_up_or_play(dealer);
            }
            _ => unreachable!("calls are checked against the legal ones first"),
        }
        outcome
    }

    fn score_hand(
        &mut self,
        _taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        _bids: &PerSeat<Option<u8>>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        let points = self
            .made
            .map_or(PerSeat::new(4), |made| score(made, tricks_won));
        add_points(totals, &points);
        HandScore {
            trump_made: self.made,
            ..HandScore::points(points)
        }
    }

    /// The first side to the target wins (both partners, who score alike).
    fn match_winners(&self, totals: &PerSeat<i32>, _hand: u32) -> Option<Vec<Seat>> {
        highest_at(totals, self.target)
    }
}

/// Points per seat for a hand in which trump was `made` (partners score alike).
pub fn score(made: TrumpMade, tricks_won: &PerSeat<u8>) -> PerSeat<i32> {
    let makers = made.maker.0 % 2;
    let tricks = tricks_won[Seat(makers)] + tricks_won[Seat(makers + 2)];
    let (side, points) = match tricks {
        5 if made.alone => (makers, 4),
        5 => (makers, 2),
        3 | 4 => (makers, 1),
        _ if made.defender_alone.is_some() => (1 - makers, 4),
        _ => (1 - makers, 2),
    };
    let mut per_seat = PerSeat::new(4);
    per_seat[Seat(side)] = points;
    per_seat[Seat(side + 2)] = points;
    per_seat
}

/// The deck: nine to ace of each suit.
#[must_use]
pub fn deck_cards() -> CardSet {
    // Ranks nine (index 7) to ace (12) of each suit's thirteen bits.
    let nine_to_ace: u64 = 0b1_1111_1000_0000;
    CardSet::from_bits((0..4).fold(0, |all, suit| all | nine_to_ace << (13 * suit)))
}

/// What clients need to know to follow and draw a hand of euchre.
pub(super) fn facts() -> VariantFacts {
    VariantFacts {
        hand_size: HAND_SIZE,
        pass_count: 0,
        prize: 0,
        partnerships: true,
        first_lead: FirstLead::DealerLeft,
        trump: TrumpRule::Called,
        bad_card_penalty: None,
        low_score_wins: false,
        two_totals: false,
        points_in_hand: false,
        trick_points: false,
        card_points: BTreeMap::new(),
        scoring: "Makers taking 3 or 4 tricks score 1, all 5 score 2 (4 alone); makers held under 3 are euchred and the defenders score 2; first side to the target wins."
            .into(),
        bidding: false,
        hand_size_varies: false,
        player_counts: None,
    }
}
