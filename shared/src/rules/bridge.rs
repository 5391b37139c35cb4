//! Contract Bridge: everything that differs from plain trick taking. Four players in
//! partnerships (North-South, seats 0 and 2, against East-West), thirteen cards each. The
//! board's number fixes the dealer and who is vulnerable, as in duplicate. The auction is the
//! calling phase: from the dealer each seat bids, passes, doubles or redoubles, and three passes
//! after a bid end it (four at the start pass the board out). The contract's strain is trump,
//! declarer's left leads, and declarer plays dummy's cards too (the engine's dummy). Boards
//! score as in duplicate, North-South's score the negative of East-West's; with rubber scoring
//! the match is one rubber (settled as it stands if still unfinished after its boards). The auction's and the score's rules live in `crate::bridge`; this
//! file joins them to the engine through the [`VariantRules`] hooks.

use std::collections::BTreeMap;

use super::RuleError;
use super::event::{BoardResult, Call, Legal};
use super::facts::{FirstLead, TrumpRule, VariantFacts};
use super::variant::Rules;
use super::variant_rules::{
    AfterCall, CallOutcome, HandScore, HandSetup, VariantRules, add_points, highest,
};
use crate::bridge::rubber::Rubber;
use crate::bridge::score::north_south_score;
use crate::bridge::{Auction, AuctionResult, Board, Contract, Vulnerability};
use crate::card::{Card, CardSet};
use crate::seat::{PerSeat, Seat};

/// Boards in a match by default (duplicate scoring).
pub const BOARDS: u32 = 4;

/// The most boards a rubber lasts by default: one still unfinished then is settled as it
/// stands.
pub const RUBBER_BOARDS: u32 = 12;

/// Bridge's options and the board being played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Bridge {
    /// Boards in a match: all of them with duplicate scoring, at most with rubber scoring.
    boards: u32,
    /// The hand being played, from 0.
    hand: u32,
    /// The rubber's score sheet, with rubber scoring (the match is one rubber).
    rubber: Option<Rubber>,
    /// The board being played.
    board: Board,
    /// At a practice table with a fixed deal, the board number every hand is played as.
    fixed_board: Option<Board>,
    /// Its auction.
    auction: Auction,
}

impl Bridge {
    pub(super) fn new(rules: &Rules) -> Bridge {
        Bridge {
            boards: rules.hands,
            rubber: rules.rubber.then(Rubber::new),
            hand: 0,
            board: Board(1),
            fixed_board: rules.deal.map(|_| Board(rules.board)),
            auction: Auction::new(Seat(0)),
        }
    }

    /// Who is vulnerable on this board: by its number, or by the rubber's games.
    fn vulnerability(&self) -> Vulnerability {
        let Some(rubber) = &self.rubber else {
            return self.board.vulnerability();
        };
        match (rubber.is_vulnerable(Seat(0)), rubber.is_vulnerable(Seat(1))) {
            (false, false) => Vulnerability::None,
            (true, false) => Vulnerability::NorthSouth,
            (false, true) => Vulnerability::EastWest,
            (true, true) => Vulnerability::Both,
        }
    }

    /// The board played as the hand numbered `hand` (from 0): a fixed deal's board every
    /// time, else 1 to 16 and round again.
    fn board_of(&self, hand: u32) -> Board {
        self.fixed_board.unwrap_or(Board(hand % 16 + 1))
    }

    /// The contract, once the auction has ended in one.
    fn contract(&self) -> Option<Contract> {
        self.auction.contract()
    }
}

impl VariantRules for Bridge {
    /// Boards go 1 to 16 and round again (a fixed deal keeps its board); the board's number
    /// names the dealer.
    fn dealer(&self, hand: u32) -> Option<Seat> {
        Some(self.board_of(hand).dealer())
    }

    fn start_hand(&mut self, hand: u32, _deck: &[Card], _dealt: usize) -> HandSetup {
        self.hand = hand;
        self.board = self.board_of(hand);
        self.auction = Auction::new(self.board.dealer());
        HandSetup::PLAIN
    }

    fn board(&self) -> Option<(u32, Vulnerability)> {
        Some((self.board.0, self.vulnerability()))
    }

    /// Declarer's left leads.
    fn first_leader(&self, _hands: &PerSeat<CardSet>, dealer: Seat) -> Seat {
        self.contract()
            .map_or(dealer.next(4), |contract| contract.opening_leader())
    }

    fn calls(&self) -> bool {
        true
    }

    /// The dealer calls first.
    fn first_caller(&self, dealer: Seat, _players: u8) -> Seat {
        dealer
    }

    fn legal_calls(&self, seat: Seat, _dealer: Seat) -> Legal {
        match self.auction.legal() {
            Some(legal) if legal.seat == seat => Legal::Call {
                order_up: false,
                name: false,
                except: None,
                pass: true,
                alone: false,
                defend_alone: false,
                bid_from: legal.lowest_bid,
                double: legal.double,
                redouble: legal.redouble,
            },
            _ => Legal::Wait,
        }
    }

    fn call_refusal(&self, call: Call) -> RuleError {
        let lowest = self.auction.legal().and_then(|legal| legal.lowest_bid);
        match call {
            Call::Bid(_) => lowest.map_or(RuleError::NoHigherBid, RuleError::BidTooLow),
            Call::Double => RuleError::CannotDouble,
            Call::Redouble => RuleError::CannotRedouble,
            _ => RuleError::NotThisGamesCall,
        }
    }

    fn call(&mut self, seat: Seat, call: Call, _dealer: Seat) -> CallOutcome {
        let call = call
            .in_auction()
            .expect("a call of the auction, checked first");
        self.auction
            .call(seat, call)
            .expect("calls are checked against the legal ones first");
        let mut outcome = CallOutcome {
            made: None,
            sits_out: None,
            contract: None,
            next: AfterCall::Play,
        };
        match self.auction.result() {
            None => {
                outcome.next =
                    AfterCall::Call(self.auction.next_seat().expect("the auction goes on"));
            }
            Some(AuctionResult::PassedOut) => outcome.next = AfterCall::ThrowIn,
            Some(AuctionResult::Contract(contract)) => outcome.contract = Some(contract),
        }
        outcome
    }

    /// Duplicate: North-South score the board, East-West its negative. Rubber: each side
    /// scores what the board added to its side of the sheet.
    fn score_hand(
        &mut self,
        _taken: &PerSeat<CardSet>,
        tricks_won: &PerSeat<u8>,
        _bids: &PerSeat<Option<u8>>,
        totals: &mut PerSeat<i32>,
    ) -> HandScore {
        let vulnerability = self.vulnerability();
        let contract = self.contract();
        let declarer_tricks = contract.map_or(0, |c| {
            tricks_won[c.declarer] + tricks_won[c.declarer.partner()]
        });
        let score = north_south_score(contract, vulnerability, declarer_tricks);
        let side_points = match &mut self.rubber {
            None => [score, -score],
            Some(rubber) => {
                let before = rubber.totals();
                rubber
                    .record(contract, declarer_tricks)
                    .expect("a rubber still on, thirteen tricks at most");
                // The last board of a rubber still unfinished settles it as it stands.
                let after = if self.hand + 1 >= self.boards {
                    rubber.totals_if_stopped()
                } else {
                    rubber.totals()
                };
                [after[0] - before[0], after[1] - before[1]]
            }
        };
        let points = PerSeat::from_slice(&[
            side_points[0],
            side_points[1],
            side_points[0],
            side_points[1],
        ]);
        add_points(totals, &points);
        HandScore {
            board: Some(BoardResult {
                board: self.board.0,
                vulnerability,
                contract,
                declarer_tricks,
                score,
            }),
            ..HandScore::points(points)
        }
    }

    /// After the match's boards, or once a side has won two games of a rubber. The side
    /// ahead wins (both partners, who score alike).
    fn match_winners(&self, totals: &PerSeat<i32>, hand: u32) -> Option<Vec<Seat>> {
        let over = hand + 1 >= self.boards || self.rubber.as_ref().is_some_and(Rubber::is_over);
        over.then(|| highest(totals))
    }
}

/// What clients need to know to follow and draw a board of bridge.
pub(super) fn facts() -> VariantFacts {
    VariantFacts {
        hand_size: 13,
        pass_count: 0,
        prize: 0,
        partnerships: true,
        first_lead: FirstLead::DeclarersLeft,
        trump: TrumpRule::Contract,
        bad_card_penalty: None,
        low_score_wins: false,
        two_totals: false,
        points_in_hand: false,
        trick_points: false,
        card_points: BTreeMap::new(),
        scoring: "Duplicate scoring: tricks over six bid and made, overtricks, the part-score, game and slam bonuses, undertricks by vulnerability, doubled and redoubled; North-South score the board, East-West its negative. With rubber scoring the match is one rubber."
            .into(),
        bidding: false,
        hand_size_varies: false,
        player_counts: None,
    }
}
