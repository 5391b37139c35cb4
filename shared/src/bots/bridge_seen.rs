//! What a Bridge bot sees when it must act, in Bridge's own terms: the board, its cards, the
//! auction so far and, in the play, the contract, dummy's cards once shown and every card
//! played. The bidding system and the card players decide from this alone, so they can be
//! tested on hand-made positions without a game.

use crate::bridge::{Auction, Board, Contract};
use crate::card::{Card, CardSet};
use crate::seat::Seat;

/// A Bridge position as one seat sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeSeen {
    /// The seat deciding. In the play this is declarer when a card of dummy's is asked for.
    pub me: Seat,
    /// The board being played: its dealer and vulnerability.
    pub board: Board,
    /// The cards `me` still holds.
    pub hand: CardSet,
    /// The calls so far (complete once the play has started).
    pub auction: Auction,
    /// The play, once the auction has ended in a contract.
    pub play: Option<PlaySeen>,
}

/// The play of a contract as one seat sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaySeen {
    /// The contract being played.
    pub contract: Contract,
    /// The seat whose card is asked for: `me`, or dummy when `me` is declarer.
    pub to_play: Seat,
    /// Dummy's remaining cards, once shown (after the opening lead); `None` before. For dummy's
    /// partner (declarer) this is the hand they play from on dummy's turns.
    pub dummy: Option<CardSet>,
    /// Every card played so far in this hand, in order, with who played it (the current trick's
    /// cards last). Voids shown by failing to follow suit are read from here.
    pub history: Vec<(Seat, Card)>,
    /// Who led the current trick.
    pub trick_leader: Seat,
    /// The current trick's cards, in the order played (empty when a lead is asked for).
    pub trick: Vec<Card>,
    /// Tricks taken so far by North-South (index 0) and East-West (index 1).
    pub tricks: [u8; 2],
    /// The cards `to_play` may play now.
    pub legal: CardSet,
}

impl PlaySeen {
    /// The cards gone: every card played this hand, including the current trick's.
    #[must_use]
    pub fn played(&self) -> CardSet {
        self.history.iter().fold(CardSet::EMPTY, |set, &(_, card)| {
            set | CardSet::single(card)
        })
    }
}
