//! The auction: who may call what, when it ends, and the contract it reaches.
//!
//! The state is only the dealer and the calls made; everything else (the last bid, who made
//! it, whether it is doubled, how many passes follow) is read from the calls, so an auction
//! can be rebuilt from a log or a PBN file by replaying its calls.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::call::{Bid, Call, Strain};
use super::{compass, next, same_side};
use crate::seat::Seat;

/// Whether the contract was doubled or redoubled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Doubling {
    /// Neither.
    #[default]
    Undoubled,
    /// Doubled by an opponent.
    Doubled,
    /// Doubled, then redoubled by declarer's side.
    Redoubled,
}

impl Doubling {
    /// The suffix players write after a contract: ``, `X`, `XX`.
    #[must_use]
    pub fn suffix(self) -> &'static str {
        ["", "X", "XX"][self as usize]
    }
}

/// The contract an auction reached: the final bid, its doubling, and the declarer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Contract {
    /// The last bid of the auction.
    pub bid: Bid,
    /// Doubled or redoubled, or neither.
    pub doubled: Doubling,
    /// The first of the winning side to name the final strain: plays both hands.
    pub declarer: Seat,
}

impl Contract {
    /// The seat that leads to the first trick: declarer's left.
    #[must_use]
    pub fn opening_leader(&self) -> Seat {
        next(self.declarer)
    }

    /// Declarer's partner, whose hand is laid face up.
    #[must_use]
    pub fn dummy(&self) -> Seat {
        self.declarer.partner()
    }
}

impl fmt::Display for Contract {
    /// `4HX by S`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{} by {}",
            self.bid,
            self.doubled.suffix(),
            compass(self.declarer)
        )
    }
}

/// How an auction ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum AuctionResult {
    /// Four passes: nobody plays the board and it scores 0.
    PassedOut,
    /// A contract to play.
    Contract(Contract),
}

impl AuctionResult {
    /// The contract, unless the board was passed out.
    #[must_use]
    pub fn contract(self) -> Option<Contract> {
        match self {
            AuctionResult::PassedOut => None,
            AuctionResult::Contract(c) => Some(c),
        }
    }
}

/// What the next caller may do. Pass is always allowed while the auction is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegalCalls {
    /// Whose turn it is.
    pub seat: Seat,
    /// The lowest bid allowed, `None` after seven no trump.
    pub lowest_bid: Option<Bid>,
    /// True when the last bid is the opponents' and not yet doubled.
    pub double: bool,
    /// True when the opponents doubled this side's last bid and nobody redoubled yet.
    pub redouble: bool,
}

impl LegalCalls {
    /// True when `call` is allowed now.
    #[must_use]
    pub fn allows(&self, call: Call) -> bool {
        match call {
            Call::Pass => true,
            Call::Bid(bid) => self.lowest_bid.is_some_and(|low| bid >= low),
            Call::Double => self.double,
            Call::Redouble => self.redouble,
        }
    }

    /// Every allowed call: pass, double, redouble, then the bids from the lowest up.
    #[must_use]
    pub fn calls(&self) -> Vec<Call> {
        let mut calls = vec![Call::Pass];
        if self.double {
            calls.push(Call::Double);
        }
        if self.redouble {
            calls.push(Call::Redouble);
        }
        if let Some(low) = self.lowest_bid {
            calls.extend(low.and_above().map(Call::Bid));
        }
        calls
    }
}

/// Why a call is refused, in words of the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AuctionError {
    /// Another seat is to call.
    #[error("it is {expected}'s turn to call, not {got}'s")]
    NotYourTurn {
        /// Whose turn it is.
        expected: Seat,
        /// Who tried to call.
        got: Seat,
    },
    /// A bid must be higher than the last one.
    #[error("{bid} is insufficient: the last bid was {last}, so bid at least {lowest}")]
    InsufficientBid {
        /// The bid tried.
        bid: Bid,
        /// The bid to beat.
        last: Bid,
        /// The lowest bid allowed.
        lowest: Bid,
    },
    /// Nothing beats seven no trump.
    #[error("{bid} is insufficient: nothing is higher than 7NT")]
    NothingHigher {
        /// The bid tried.
        bid: Bid,
    },
    /// Double needs a bid to double.
    #[error("there is no bid to double yet")]
    NothingToDouble,
    /// Only the opponents' bid may be doubled.
    #[error("you may double only the opponents' bid, not your own side's")]
    DoubleOfOwnSide,
    /// A bid may be doubled once.
    #[error("the last bid is already doubled")]
    AlreadyDoubled,
    /// Redouble answers a double of this side's bid.
    #[error("you may redouble only when the opponents have doubled your side's bid")]
    RedoubleWithoutDouble,
    /// A bid may be redoubled once.
    #[error("the last bid is already redoubled")]
    AlreadyRedoubled,
    /// The auction has ended.
    #[error("the auction is over")]
    AuctionOver,
}

/// One board's auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Auction {
    /// Makes the first call.
    dealer: Seat,
    /// Every call so far, from the dealer.
    calls: Vec<Call>,
}

/// The last bid with its bidder and doubling, read from the calls.
#[derive(Clone, Copy)]
struct Standing {
    bid: Bid,
    by: Seat,
    doubled: Doubling,
}

impl Auction {
    /// An auction about to start, `dealer` to call first.
    #[must_use]
    pub fn new(dealer: Seat) -> Auction {
        Auction {
            dealer,
            calls: Vec::new(),
        }
    }

    /// Replays `calls` from `dealer`, stopping at the first illegal one.
    pub fn from_calls(dealer: Seat, calls: &[Call]) -> Result<Auction, AuctionError> {
        let mut auction = Auction::new(dealer);
        for &call in calls {
            auction.call(auction.next_seat().ok_or(AuctionError::AuctionOver)?, call)?;
        }
        Ok(auction)
    }

    /// The dealer.
    #[must_use]
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The calls so far, the dealer's first.
    #[must_use]
    pub fn calls(&self) -> &[Call] {
        &self.calls
    }

    /// The seat that made call number `i` (0-based).
    #[must_use]
    pub fn caller(&self, i: usize) -> Seat {
        self.dealer.left((i % 4) as u8, 4)
    }

    /// True after four passes at the start, or three passes after a bid.
    #[must_use]
    pub fn is_over(&self) -> bool {
        let passes = self.trailing_passes();
        if self.calls.iter().any(|c| matches!(c, Call::Bid(_))) {
            passes >= 3
        } else {
            passes >= 4
        }
    }

    /// Whose turn it is, or `None` when the auction is over.
    #[must_use]
    pub fn next_seat(&self) -> Option<Seat> {
        (!self.is_over()).then(|| self.caller(self.calls.len()))
    }

    /// What the seat on turn may call, or `None` when the auction is over.
    #[must_use]
    pub fn legal(&self) -> Option<LegalCalls> {
        let seat = self.next_seat()?;
        let standing = self.standing();
        Some(LegalCalls {
            seat,
            lowest_bid: match standing {
                None => Some(Bid::LOWEST),
                Some(s) => s.bid.next(),
            },
            double: standing
                .is_some_and(|s| !same_side(s.by, seat) && s.doubled == Doubling::Undoubled),
            redouble: standing
                .is_some_and(|s| same_side(s.by, seat) && s.doubled == Doubling::Doubled),
        })
    }

    /// Makes `seat`'s call, or says which rule forbids it (the auction is then unchanged).
    pub fn call(&mut self, seat: Seat, call: Call) -> Result<(), AuctionError> {
        let expected = self.next_seat().ok_or(AuctionError::AuctionOver)?;
        if seat != expected {
            return Err(AuctionError::NotYourTurn {
                expected,
                got: seat,
            });
        }
        let standing = self.standing();
        match call {
            Call::Pass => {}
            Call::Bid(bid) => {
                if let Some(s) = standing {
                    match s.bid.next() {
                        None => return Err(AuctionError::NothingHigher { bid }),
                        Some(lowest) if bid < lowest => {
                            return Err(AuctionError::InsufficientBid {
                                bid,
                                last: s.bid,
                                lowest,
                            });
                        }
                        Some(_) => {}
                    }
                }
            }
            Call::Double => {
                let s = standing.ok_or(AuctionError::NothingToDouble)?;
                if same_side(s.by, seat) {
                    return Err(AuctionError::DoubleOfOwnSide);
                }
                if s.doubled != Doubling::Undoubled {
                    return Err(AuctionError::AlreadyDoubled);
                }
            }
            Call::Redouble => {
                let s = standing.ok_or(AuctionError::RedoubleWithoutDouble)?;
                match s.doubled {
                    Doubling::Redoubled => return Err(AuctionError::AlreadyRedoubled),
                    Doubling::Doubled if same_side(s.by, seat) => {}
                    _ => return Err(AuctionError::RedoubleWithoutDouble),
                }
            }
        }
        self.calls.push(call);
        Ok(())
    }

    /// How the auction ended, or `None` while it goes on.
    #[must_use]
    pub fn result(&self) -> Option<AuctionResult> {
        if !self.is_over() {
            return None;
        }
        let Some(standing) = self.standing() else {
            return Some(AuctionResult::PassedOut);
        };
        let declarer = self
            .first_to_name(standing.bid.strain(), standing.by)
            .expect("the last bid names its strain");
        Some(AuctionResult::Contract(Contract {
            bid: standing.bid,
            doubled: standing.doubled,
            declarer,
        }))
    }

    /// The contract, once the auction is over and not passed out.
    #[must_use]
    pub fn contract(&self) -> Option<Contract> {
        self.result().and_then(AuctionResult::contract)
    }

    /// The first of `seat`'s side to bid `strain`, if any: the one who would declare a
    /// contract in that strain (bots ask it to know who would play the hand).
    #[must_use]
    pub fn first_to_name(&self, strain: Strain, seat: Seat) -> Option<Seat> {
        (0..self.calls.len())
            .find(|&i| {
                matches!(self.calls[i], Call::Bid(b) if b.strain() == strain)
                    && same_side(self.caller(i), seat)
            })
            .map(|i| self.caller(i))
    }

    /// Passes at the end of the calls.
    fn trailing_passes(&self) -> usize {
        self.calls
            .iter()
            .rev()
            .take_while(|c| **c == Call::Pass)
            .count()
    }

    /// The last bid, its bidder and whether it stands doubled or redoubled.
    fn standing(&self) -> Option<Standing> {
        let mut doubled = Doubling::Undoubled;
        for i in (0..self.calls.len()).rev() {
            match self.calls[i] {
                Call::Pass => {}
                Call::Double if doubled == Doubling::Undoubled => doubled = Doubling::Doubled,
                Call::Redouble => doubled = Doubling::Redoubled,
                Call::Double => {}
                Call::Bid(bid) => {
                    return Some(Standing {
                        bid,
                        by: self.caller(i),
                        doubled,
                    });
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::{EAST, NORTH, SOUTH, WEST};

    fn calls(text: &str) -> Vec<Call> {
        text.split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect()
    }

    fn run(dealer: Seat, text: &str) -> Auction {
        Auction::from_calls(dealer, &calls(text)).unwrap()
    }

    #[test]
    fn four_passes_pass_the_board_out() {
        let a = run(EAST, "P P P");
        assert!(!a.is_over());
        assert_eq!(a.next_seat(), Some(NORTH));
        let a = run(EAST, "P P P P");
        assert!(a.is_over());
        assert_eq!(a.result(), Some(AuctionResult::PassedOut));
        assert_eq!(a.contract(), None);
        assert_eq!(a.next_seat(), None);
        assert_eq!(a.legal(), None);
    }

    #[test]
    fn three_passes_after_a_bid_end_it() {
        let a = run(NORTH, "P 1H P P");
        assert!(!a.is_over(), "two passes after the bid: North still calls");
        let a = run(NORTH, "P 1H P P P");
        let c = a.contract().unwrap();
        assert_eq!(c.bid.to_string(), "1H");
        assert_eq!(c.declarer, EAST);
        assert_eq!(c.doubled, Doubling::Undoubled);
        assert_eq!(c.opening_leader(), SOUTH);
        assert_eq!(c.dummy(), WEST);
    }

    #[test]
    fn declarer_is_the_first_of_the_side_to_name_the_strain() {
        // North opens 1H, South raises to 4H: North declares even though South bid last.
        let a = run(NORTH, "1H P 2C P 2H P 4H P P P");
        let c = a.contract().unwrap();
        assert_eq!(c.declarer, NORTH);
        assert_eq!(c.to_string(), "4H by N");
        // An opponent's earlier heart bid does not count.
        let a = run(EAST, "1H 1S P 2H P 3NT P P P");
        // E 1H, S 1S, W P, N 2H (cue bid), E P, S 3NT: South declares NT.
        assert_eq!(a.contract().unwrap().declarer, SOUTH);
        let a = run(EAST, "1H 2C 2H 3C 3H P P P");
        assert_eq!(a.contract().unwrap().declarer, EAST);
    }

    #[test]
    fn doubles_and_redoubles() {
        let a = run(NORTH, "1S X XX P P P");
        let c = a.contract().unwrap();
        assert_eq!(c.doubled, Doubling::Redoubled);
        assert_eq!(c.to_string(), "1SXX by N");
        // A new bid wipes the double out.
        let a = run(NORTH, "1S X 2S P P P");
        assert_eq!(a.contract().unwrap().doubled, Doubling::Undoubled);
        // Partner of the doubler may pass, then the doubled side's partner redoubles.
        let a = run(NORTH, "1S X P P XX P P P");
        assert_eq!(a.contract().unwrap().doubled, Doubling::Redoubled);
        // Doubled contract stands after three passes.
        let a = run(WEST, "1NT P P X P P P");
        let c = a.contract().unwrap();
        assert_eq!((c.doubled, c.declarer), (Doubling::Doubled, WEST));
    }

    #[test]
    fn what_the_next_caller_may_do() {
        let a = run(NORTH, "");
        let legal = a.legal().unwrap();
        assert_eq!(legal.seat, NORTH);
        assert_eq!(legal.lowest_bid, Some(Bid::LOWEST));
        assert!(!legal.double && !legal.redouble);
        assert_eq!(legal.calls().len(), 36);

        let a = run(NORTH, "1NT");
        let legal = a.legal().unwrap();
        assert_eq!(legal.lowest_bid.unwrap().to_string(), "2C");
        assert!(legal.double && !legal.redouble);
        assert!(!legal.allows(Call::bid(1, Strain::NoTrump)));
        assert!(legal.allows(Call::bid(2, Strain::Clubs)));

        let a = run(NORTH, "1NT X");
        let legal = a.legal().unwrap();
        assert_eq!(legal.seat, SOUTH);
        assert!(!legal.double && legal.redouble);

        let a = run(NORTH, "1NT P");
        let legal = a.legal().unwrap();
        assert!(!legal.double, "partner's bid cannot be doubled");

        let a = run(NORTH, "7NT");
        let legal = a.legal().unwrap();
        assert_eq!(legal.lowest_bid, None);
        assert_eq!(legal.calls(), vec![Call::Pass, Call::Double]);
    }

    #[test]
    fn illegal_calls_name_the_rule_and_change_nothing() {
        let mut a = run(NORTH, "1H");
        let before = a.clone();
        let err = |a: &mut Auction, seat, call: &str| a.call(seat, call.parse().unwrap());
        assert_eq!(
            err(&mut a, NORTH, "P"),
            Err(AuctionError::NotYourTurn {
                expected: EAST,
                got: NORTH
            })
        );
        assert!(matches!(
            err(&mut a, EAST, "1D"),
            Err(AuctionError::InsufficientBid { .. })
        ));
        assert!(
            err(&mut a, EAST, "1H")
                .unwrap_err()
                .to_string()
                .contains("bid at least 1S")
        );
        assert_eq!(
            err(&mut a, EAST, "XX"),
            Err(AuctionError::RedoubleWithoutDouble)
        );
        assert_eq!(a, before);
        a.call(EAST, Call::Pass).unwrap();
        assert_eq!(err(&mut a, SOUTH, "X"), Err(AuctionError::DoubleOfOwnSide));
        a.call(SOUTH, Call::Pass).unwrap();
        a.call(WEST, Call::Double).unwrap();
        assert_eq!(err(&mut a, NORTH, "X"), Err(AuctionError::DoubleOfOwnSide));
        assert_eq!(
            err(&mut a, NORTH, "P").and_then(|()| err(&mut a, EAST, "X")),
            Err(AuctionError::AlreadyDoubled)
        );
        assert_eq!(
            err(&mut a, EAST, "XX"),
            Err(AuctionError::RedoubleWithoutDouble)
        );
        a.call(EAST, Call::Pass).unwrap();
        a.call(SOUTH, Call::Redouble).unwrap();
        assert_eq!(err(&mut a, WEST, "XX"), Err(AuctionError::AlreadyRedoubled));
        assert_eq!(err(&mut a, WEST, "X"), Err(AuctionError::AlreadyDoubled));

        let mut b = run(NORTH, "");
        assert_eq!(err(&mut b, NORTH, "X"), Err(AuctionError::NothingToDouble));
        let mut c = run(NORTH, "7NT");
        assert_eq!(
            err(&mut c, EAST, "7NT"),
            Err(AuctionError::NothingHigher {
                bid: "7NT".parse().unwrap()
            })
        );
        let mut d = run(NORTH, "P P P P");
        assert_eq!(err(&mut d, NORTH, "1C"), Err(AuctionError::AuctionOver));
    }

    #[test]
    fn random_legal_auctions_end_with_the_last_bid_and_a_declarer_of_its_side() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(51);
        for _ in 0..2000 {
            let dealer = Seat(rng.random_range(0..4));
            let mut a = Auction::new(dealer);
            // At most 4 passes, then 35 bids each followed by at most X, XX and 3 passes.
            for _ in 0..(4 + 35 * 6) {
                let Some(legal) = a.legal() else { break };
                let calls = legal.calls();
                let call = if rng.random_bool(0.6) {
                    Call::Pass
                } else {
                    calls[rng.random_range(0..calls.len())]
                };
                a.call(legal.seat, call).unwrap();
            }
            assert!(a.is_over(), "{:?}", a.calls());
            let last_bid = a
                .calls()
                .iter()
                .enumerate()
                .rev()
                .find_map(|(i, c)| match c {
                    Call::Bid(b) => Some((i, *b)),
                    _ => None,
                });
            match (a.result().unwrap(), last_bid) {
                (AuctionResult::PassedOut, None) => assert_eq!(a.calls().len(), 4),
                (AuctionResult::Contract(c), Some((i, bid))) => {
                    assert_eq!(c.bid, bid);
                    assert!(same_side(c.declarer, a.caller(i)));
                    let first = a.calls().iter().enumerate().position(|(j, call)| {
                        matches!(call, Call::Bid(b) if b.strain() == bid.strain())
                            && same_side(a.caller(j), c.declarer)
                    });
                    assert_eq!(first.map(|j| a.caller(j)), Some(c.declarer));
                    assert_eq!(&a.calls()[a.calls().len() - 3..], &[Call::Pass; 3]);
                }
                other => panic!("{other:?} for {:?}", a.calls()),
            }
            // Replaying the calls gives the same auction.
            assert_eq!(Auction::from_calls(dealer, a.calls()).unwrap(), a);
        }
    }

    #[test]
    fn legal_agrees_with_call_for_every_call_in_many_positions() {
        let every: Vec<Call> = [Call::Pass, Call::Double, Call::Redouble]
            .into_iter()
            .chain(Bid::LOWEST.and_above().map(Call::Bid))
            .collect();
        for text in [
            "",
            "1C",
            "1C X",
            "1C X XX",
            "1C P P X",
            "1C X P P",
            "P 2S P P X P",
            "7NT X",
        ] {
            let a = run(SOUTH, text);
            let legal = a.legal().unwrap();
            for &call in &every {
                let mut b = a.clone();
                assert_eq!(
                    b.call(legal.seat, call).is_ok(),
                    legal.allows(call),
                    "{text} then {call}"
                );
            }
        }
    }
}
