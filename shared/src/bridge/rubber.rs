//! Rubber scoring, the home game's way of keeping score: part-scores build towards a game
//! below the line, the first side to win two games wins the rubber and its bonus, and
//! everything else (overtricks, penalties, slams, the insult) goes above the line.
//!
//! Vulnerability is not set by a board number here: a side that has won a game is
//! vulnerable. Honours (bonuses for holding the top trumps) are left out: they depend on the
//! hands, not on the result, and players who use them can add them above the line.

use thiserror::Error;

use super::auction::{Contract, Doubling};
use super::call::Strain;
use super::score::{trick_score, undertricks};
use crate::seat::Seat;

/// Why a result cannot be recorded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RubberError {
    /// A side has already won two games.
    #[error("the rubber is over: start a new one")]
    Over,
    /// There are thirteen tricks.
    #[error("declarer's side cannot take {0} tricks: there are thirteen")]
    TooManyTricks(u8),
}

/// One rubber's score sheet. Sides are indexed 0 for North-South, 1 for East-West.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rubber {
    /// Points below the line over the whole rubber.
    below: [i32; 2],
    /// Points above the line.
    above: [i32; 2],
    /// Points below the line in the game being played (reset when a side makes game).
    leg: [i32; 2],
    /// Games won.
    games: [u8; 2],
}

/// The side (0 North-South, 1 East-West) of a seat.
fn side(seat: Seat) -> usize {
    usize::from(seat.0 % 2)
}

impl Rubber {
    /// A fresh score sheet.
    #[must_use]
    pub fn new() -> Rubber {
        Rubber::default()
    }

    /// True when `seat`'s side has won a game.
    #[must_use]
    pub fn is_vulnerable(&self, seat: Seat) -> bool {
        self.games[side(seat)] > 0
    }

    /// True once a side has won two games.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.games.contains(&2)
    }

    /// Games won by North-South and East-West.
    #[must_use]
    pub fn games(&self) -> [u8; 2] {
        self.games
    }

    /// Points below the line, by side.
    #[must_use]
    pub fn below(&self) -> [i32; 2] {
        self.below
    }

    /// Points above the line, by side.
    #[must_use]
    pub fn above(&self) -> [i32; 2] {
        self.above
    }

    /// Each side's total so far.
    #[must_use]
    pub fn totals(&self) -> [i32; 2] {
        [0, 1].map(|s| self.below[s] + self.above[s])
    }

    /// The totals if play stops before the rubber is over: 300 for a side with a game and
    /// 100 for a side with a part-score in the unfinished game, as players agree to settle.
    #[must_use]
    pub fn totals_if_stopped(&self) -> [i32; 2] {
        let mut totals = self.totals();
        if !self.is_over() {
            for ((total, games), leg) in totals.iter_mut().zip(self.games).zip(self.leg) {
                if games == 1 {
                    *total += 300;
                }
                if leg > 0 {
                    *total += 100;
                }
            }
        }
        totals
    }

    /// Records a hand: `contract` is `None` when it was passed out (nothing is scored and
    /// the cards are dealt again), `tricks` is what declarer's side took.
    pub fn record(&mut self, contract: Option<Contract>, tricks: u8) -> Result<(), RubberError> {
        if self.is_over() {
            return Err(RubberError::Over);
        }
        if tricks > 13 {
            return Err(RubberError::TooManyTricks(tricks));
        }
        let Some(c) = contract else {
            return Ok(());
        };
        let us = side(c.declarer);
        let vulnerable = self.is_vulnerable(c.declarer);
        let needed = c.bid.tricks_needed();
        if tricks < needed {
            self.above[1 - us] += undertricks(c.doubled, vulnerable, needed - tricks);
            return Ok(());
        }
        let below = trick_score(c.bid, c.doubled);
        let over = i32::from(tricks - needed);
        let per_overtrick = match c.doubled {
            Doubling::Undoubled if matches!(c.bid.strain(), Strain::Clubs | Strain::Diamonds) => 20,
            Doubling::Undoubled => 30,
            Doubling::Doubled => {
                if vulnerable {
                    200
                } else {
                    100
                }
            }
            Doubling::Redoubled => {
                if vulnerable {
                    400
                } else {
                    200
                }
            }
        };
        let insult = match c.doubled {
            Doubling::Undoubled => 0,
            Doubling::Doubled => 50,
            Doubling::Redoubled => 100,
        };
        let slam = match (c.bid.level(), vulnerable) {
            (6, false) => 500,
            (6, true) => 750,
            (7, false) => 1000,
            (7, true) => 1500,
            _ => 0,
        };
        self.below[us] += below;
        self.leg[us] += below;
        self.above[us] += per_overtrick * over + insult + slam;
        if self.leg[us] >= 100 {
            self.games[us] += 1;
            self.leg = [0, 0];
            if self.games[us] == 2 {
                self.above[us] += if self.games[1 - us] == 0 { 700 } else { 500 };
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::{EAST, NORTH, SOUTH, WEST};

    fn contract(text: &str, declarer: Seat) -> Option<Contract> {
        let (bid, doubled) = if let Some(b) = text.strip_suffix("XX") {
            (b, Doubling::Redoubled)
        } else if let Some(b) = text.strip_suffix('X') {
            (b, Doubling::Doubled)
        } else {
            (text, Doubling::Undoubled)
        };
        Some(Contract {
            bid: bid.parse().unwrap(),
            doubled,
            declarer,
        })
    }

    #[test]
    fn a_rubber_won_two_games_to_one() {
        let mut r = Rubber::new();
        // 2H with an overtrick: 60 below, 30 above.
        r.record(contract("2H", SOUTH), 9).unwrap();
        assert_eq!((r.below(), r.above()), ([60, 0], [30, 0]));
        // 3NT: 100 below, a game for East-West; North-South's 60 no longer counts to game.
        r.record(contract("3NT", WEST), 9).unwrap();
        assert_eq!(r.games(), [0, 1]);
        assert!(r.is_vulnerable(EAST) && !r.is_vulnerable(NORTH));
        // 4S doubled, two down, not vulnerable: 300 above for East-West.
        r.record(contract("4SX", NORTH), 8).unwrap();
        assert_eq!(r.above(), [30, 300]);
        // Passed out: nothing.
        r.record(None, 0).unwrap();
        // Two part-scores make a game: 40 + 40, then 4H's 120.
        r.record(contract("1NT", NORTH), 7).unwrap();
        r.record(contract("2C", SOUTH), 8).unwrap();
        assert_eq!(r.games(), [0, 1]);
        assert_eq!(r.totals_if_stopped(), [30 + 140 + 100, 400 + 300]);
        r.record(contract("4H", SOUTH), 10).unwrap();
        assert_eq!(r.games(), [1, 1]);
        // A vulnerable small slam ends it: 180 below, 750 slam, 500 for the rubber.
        r.record(contract("6S", EAST), 12).unwrap();
        assert!(r.is_over());
        assert_eq!(r.below(), [260, 280]);
        assert_eq!(r.above(), [30, 300 + 750 + 500]);
        assert_eq!(r.totals(), [290, 1830]);
        assert_eq!(r.totals_if_stopped(), r.totals());
        assert_eq!(r.record(contract("1C", NORTH), 7), Err(RubberError::Over));
    }

    #[test]
    fn two_nil_rubber_doubles_and_vulnerable_penalties() {
        let mut r = Rubber::new();
        // 2S doubled and made is 120 below: a game, plus the insult and an overtrick above.
        r.record(contract("2SX", NORTH), 9).unwrap();
        assert_eq!(r.games(), [1, 0]);
        assert_eq!(r.above(), [50 + 100, 0]);
        // Now vulnerable: one down undoubled costs 100, doubled 200, redoubled 400.
        r.record(contract("3H", SOUTH), 8).unwrap();
        r.record(contract("3HX", SOUTH), 8).unwrap();
        r.record(contract("3HXX", SOUTH), 8).unwrap();
        assert_eq!(r.above(), [150, 700]);
        // A vulnerable redoubled overtrick is 400.
        r.record(contract("1NTXX", NORTH), 8).unwrap();
        assert!(r.is_over());
        assert_eq!(r.games(), [2, 0]);
        assert_eq!(r.above()[0], 150 + 400 + 100 + 700);
        assert_eq!(r.below(), [120 + 160, 0]);
    }

    #[test]
    fn refuses_more_than_thirteen_tricks() {
        let mut r = Rubber::new();
        assert_eq!(
            r.record(contract("1C", NORTH), 14),
            Err(RubberError::TooManyTricks(14))
        );
        assert_eq!(r, Rubber::new());
    }
}
