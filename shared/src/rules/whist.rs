//! Whist: partnerships 0+2 against 1+3; the side with more tricks scores those over six.

use crate::seat::{PerSeat, Seat};

/// Tricks a side must pass before it scores.
const BOOK: i32 = 6;

/// Points per seat (partners score alike).
pub(super) fn score(tricks: &PerSeat<u8>) -> PerSeat<i32> {
    let side = |s: u8| i32::from(tricks[Seat(s)] + tricks[Seat(s + 2)]);
    let (north_south, east_west) = (side(0), side(1));
    let mut points = PerSeat::new(4);
    for seat in Seat::all(4) {
        let (ours, theirs) = if seat.0 % 2 == 0 {
            (north_south, east_west)
        } else {
            (east_west, north_south)
        };
        points[seat] = if ours > theirs { ours - BOOK } else { 0 };
    }
    points
}
