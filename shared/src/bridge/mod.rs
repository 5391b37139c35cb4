//! Contract Bridge's own rules, apart from the trick-taking engine: calls and the auction,
//! boards (dealer and vulnerability), duplicate and rubber scoring, IMPs and matchpoints,
//! Portable Bridge Notation, and a double-dummy solver for bots.
//!
//! Everything here is pure and deterministic. Seats follow the engine's numbering, read as
//! compass points: seat 0 is North, 1 East, 2 South, 3 West; partners sit two apart.

pub mod auction;
pub mod board;
pub mod call;
pub mod dds;
pub mod imps;
pub mod matchpoints;
pub mod pbn;
pub mod rubber;
pub mod score;

pub use auction::{Auction, AuctionError, AuctionResult, Contract, Doubling, LegalCalls};
pub use board::{Board, Vulnerability};
pub use call::{Bid, Call, CallParseError, Strain};

use crate::seat::Seat;

/// North, seat 0.
pub const NORTH: Seat = Seat(0);
/// East, seat 1.
pub const EAST: Seat = Seat(1);
/// South, seat 2.
pub const SOUTH: Seat = Seat(2);
/// West, seat 3.
pub const WEST: Seat = Seat(3);

/// The compass letter of a seat: `N`, `E`, `S`, `W`.
///
/// # Panics
/// For a seat number above 3.
#[must_use]
pub fn compass(seat: Seat) -> char {
    ['N', 'E', 'S', 'W'][seat.index()]
}

/// The seat of a compass letter (either case), if it is one.
#[must_use]
pub fn seat_of_compass(letter: char) -> Option<Seat> {
    match letter.to_ascii_uppercase() {
        'N' => Some(NORTH),
        'E' => Some(EAST),
        'S' => Some(SOUTH),
        'W' => Some(WEST),
        _ => None,
    }
}

/// The next seat clockwise at the four-seat table.
#[must_use]
pub fn next(seat: Seat) -> Seat {
    seat.left(1, 4)
}

/// True when `a` and `b` are the same partnership.
#[must_use]
pub fn same_side(a: Seat, b: Seat) -> bool {
    a.0 % 2 == b.0 % 2
}
