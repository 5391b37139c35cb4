//! Who plays this hand, and in what order. Most hands every seat plays its own cards in turn
//! round the table; Euchre's lone player's partner sits a hand out and Bridge's declarer plays
//! dummy's cards. [`Seating`] is worked out again only when one of those changes (each deal, a
//! seat sitting out, a contract naming dummy), so a card played looks up the next seat, whose
//! turn it is and when the trick is full instead of testing for seats out and dummy each time.

use super::Game;
use crate::seat::{MAX_SEATS, Seat, SeatSet};

impl Game {
    /// Works the order of play out again, after the seats sitting out or dummy changed.
    pub(super) fn update_seating(&mut self) {
        self.seating = Seating::new(self.players, self.out, self.dummy);
    }
}

/// The order of play this hand, from the seats that sit it out and the seat whose cards its
/// partner plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Seating {
    /// The seat to play after each seat.
    next: [Seat; MAX_SEATS],
    /// Who plays each seat's cards: the seat itself, or declarer for dummy.
    player: [Seat; MAX_SEATS],
    /// Cards in a full trick: one from each seat that plays.
    trick_size: u8,
}

impl Seating {
    /// A table of `n` where the seats of `out` play no card and `dummy`'s cards are played by
    /// its partner.
    pub fn new(n: u8, out: SeatSet, dummy: Option<Seat>) -> Seating {
        let mut seating = Seating {
            next: [Seat(0); MAX_SEATS],
            player: [Seat(0); MAX_SEATS],
            trick_size: n - u8::try_from(out.len()).expect("at most seven seats"),
        };
        for seat in Seat::all(n) {
            seating.next[seat.index()] = out.next_outside(seat, n);
            seating.player[seat.index()] = match dummy {
                Some(dummy) if dummy == seat => dummy.partner(),
                _ => seat,
            };
        }
        seating
    }

    /// The seat to play after `seat`.
    #[inline]
    pub fn next(&self, seat: Seat) -> Seat {
        self.next[seat.index()]
    }

    /// The seat that plays `seat`'s cards.
    #[inline]
    pub fn player(&self, seat: Seat) -> Seat {
        self.player[seat.index()]
    }

    /// Cards in a full trick.
    #[inline]
    pub fn trick_size(&self) -> usize {
        usize::from(self.trick_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seat_plays_its_own_cards_in_turn_without_seats_out_or_dummy() {
        let seating = Seating::new(4, SeatSet::EMPTY, None);
        let order: Vec<u8> = Seat::all(4).map(|s| seating.next(s).0).collect();
        assert_eq!(order, [1, 2, 3, 0]);
        assert!(Seat::all(4).all(|s| seating.player(s) == s));
        assert_eq!(seating.trick_size(), 4);
    }

    #[test]
    fn a_seat_sitting_out_is_passed_over_and_the_trick_is_one_card_shorter() {
        let seating = Seating::new(4, SeatSet::one(Seat(2)), None);
        assert_eq!(seating.next(Seat(1)), Seat(3));
        assert_eq!(seating.next(Seat(3)), Seat(0));
        assert_eq!(seating.trick_size(), 3);
    }

    #[test]
    fn declarer_plays_dummy_s_cards() {
        let seating = Seating::new(4, SeatSet::EMPTY, Some(Seat(1)));
        assert_eq!(seating.player(Seat(1)), Seat(3));
        assert_eq!(seating.player(Seat(3)), Seat(3));
        assert_eq!(seating.next(Seat(1)), Seat(2));
        assert_eq!(seating.trick_size(), 4);
    }
}
