//! A finished Bridge board of a replay in Portable Bridge Notation: the deal, the auction, the
//! play, the contract, the result and the score, for other bridge programs to read.
//!
//! Pure: it turns a [`HandReplay`] into text with the engine's PBN writer.

use parlor_shared::bridge::pbn::{self, PbnBoard};
use parlor_shared::bridge::{AuctionResult, Board};
use parlor_shared::{PerSeat, Seat};

use super::hands::HandReplay;

impl HandReplay {
    /// The board as PBN; `None` for a hand of a game other than Bridge.
    #[must_use]
    pub fn to_pbn(&self) -> Option<String> {
        let board = self.result.board.as_ref()?;
        let mut deal = PerSeat::new(4);
        for (i, cards) in self.dealt.iter().enumerate() {
            deal[Seat(u8::try_from(i).ok()?)] = *cards;
        }
        let players = std::array::from_fn(|i| {
            self.players
                .get(i)
                .and_then(|p| p.name.clone())
                .unwrap_or_default()
        });
        let contract = board.contract;
        Some(pbn::write(&PbnBoard {
            event: format!("Parlor table {}", self.table),
            site: "Parlor".to_string(),
            date: "????.??.??".to_string(),
            board: Board(board.board),
            players,
            dealer: self.dealer,
            vulnerability: board.vulnerability,
            deal,
            auction: self
                .calls
                .iter()
                .filter_map(|c| c.call.in_auction())
                .collect(),
            contract: Some(contract.map_or(AuctionResult::PassedOut, AuctionResult::Contract)),
            tricks: contract.map(|_| board.declarer_tricks),
            score: Some(board.score),
            play: self
                .tricks
                .iter()
                .flat_map(|t| t.plays.iter().map(|p| p.card))
                .collect(),
        }))
    }
}
