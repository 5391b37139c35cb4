//! Seats around the table, and small fixed-size per-seat collections.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A seat number, `0..n` clockwise. The seat "left" of `s` is `s + 1 mod n`, the next to play.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat `steps` places to the left (clockwise) at a table of `n`.
    #[must_use]
    #[inline]
    pub fn left(self, steps: u8, n: u8) -> Seat {
        // A compare-and-select rather than `%` or a loop: this is on the engine's hottest path,
        // and which seat wins a trick is random, so a branch here would be mispredicted.
        let s = self.0 + steps;
        let s = if s >= n { s - n } else { s };
        if s >= n {
            // Only when `steps` is a whole table or more.
            return Seat(s % n);
        }
        Seat(s)
    }

    /// The next seat clockwise at a table of `n`. One step needs one compare-and-select, not
    /// [`Seat::left`]'s second check for several laps: every card played takes this step.
    /// One step from a seat at the table reaches `n` at most, so the select is between the
    /// sum and zero (no subtraction to wait for).
    #[must_use]
    #[inline]
    pub fn next(self, n: u8) -> Seat {
        debug_assert!(self.0 < n, "{self} at a table of {n}");
        let s = self.0 + 1;
        Seat(if s == n { 0 } else { s })
    }

    /// The partner across a four-seat table.
    #[must_use]
    pub fn partner(self) -> Seat {
        Seat((self.0 + 2) % 4)
    }

    /// The index for per-seat arrays.
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// All seats of a table of `n`.
    pub fn all(n: u8) -> impl Iterator<Item = Seat> {
        (0..n).map(Seat)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// The most seats any variant has (Oh Hell seats three to seven).
pub const MAX_SEATS: usize = 7;

/// A set of seats as a bitmask, e.g. everyone who still has to pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(u8);

impl SeatSet {
    /// Nobody.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// Every seat of a table of `n`.
    #[must_use]
    pub fn all(n: u8) -> SeatSet {
        SeatSet((1 << n) - 1)
    }

    /// Just `seat`.
    #[must_use]
    pub fn one(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }

    /// True when `seat` is in the set.
    #[must_use]
    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    /// Puts `seat` in.
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    /// Takes `seat` out.
    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat.0);
    }

    /// True when there is nobody.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The next seat after `seat` clockwise at a table of `n` that is not in this set (the
    /// seats sitting a hand out); `seat.next(n)` when the set is empty.
    #[must_use]
    #[inline]
    pub fn next_outside(self, seat: Seat, n: u8) -> Seat {
        let mut next = seat.next(n);
        for _ in 0..n {
            if !self.contains(next) {
                break;
            }
            next = next.next(n);
        }
        next
    }

    /// The seats, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let seat = Seat(bits.trailing_zeros() as u8);
            bits &= bits - 1;
            Some(seat)
        })
    }

    /// The lowest seat in the set, if any.
    #[must_use]
    #[inline]
    pub fn first(self) -> Option<Seat> {
        (self.0 != 0).then(|| Seat(self.0.trailing_zeros() as u8))
    }

    /// How many seats.
    #[must_use]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
}

/// A few seats in order, stored inline (at most [`MAX_SEATS`]): serialized, and described to
/// JSON Schema, exactly as a `Vec<Seat>`. Why not a `Vec`: a match's winners travel in an
/// event, and an event that owns no heap memory needs no dropping, so a buffer of events is
/// emptied at once instead of dropped event by event.
#[derive(Clone, Copy)]
pub struct SeatList {
    len: u8,
    seats: [Seat; MAX_SEATS],
}

impl SeatList {
    /// Nobody.
    pub const EMPTY: SeatList = SeatList {
        len: 0,
        seats: [Seat(0); MAX_SEATS],
    };

    /// The seats of `seats`, in order.
    ///
    /// # Panics
    /// With more than [`MAX_SEATS`] seats.
    #[must_use]
    pub fn from_slice(seats: &[Seat]) -> SeatList {
        assert!(seats.len() <= MAX_SEATS, "at most {MAX_SEATS} seats");
        let mut list = SeatList::EMPTY;
        list.seats[..seats.len()].copy_from_slice(seats);
        list.len = seats.len() as u8;
        list
    }
}

impl std::ops::Deref for SeatList {
    type Target = [Seat];
    fn deref(&self) -> &[Seat] {
        &self.seats[..usize::from(self.len)]
    }
}

impl PartialEq for SeatList {
    fn eq(&self, other: &SeatList) -> bool {
        **self == **other
    }
}

impl Eq for SeatList {}

impl PartialEq<Vec<Seat>> for SeatList {
    fn eq(&self, other: &Vec<Seat>) -> bool {
        **self == other[..]
    }
}

impl From<&[Seat]> for SeatList {
    fn from(seats: &[Seat]) -> SeatList {
        SeatList::from_slice(seats)
    }
}

impl From<Vec<Seat>> for SeatList {
    fn from(seats: Vec<Seat>) -> SeatList {
        SeatList::from_slice(&seats)
    }
}

impl fmt::Debug for SeatList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for SeatList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for SeatList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let seats = Vec::<Seat>::deserialize(d)?;
        if seats.len() > MAX_SEATS {
            return Err(serde::de::Error::custom("at most seven seats"));
        }
        Ok(SeatList::from_slice(&seats))
    }
}

impl JsonSchema for SeatList {
    fn inline_schema() -> bool {
        <Vec<Seat>>::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Vec<Seat>>::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        <Vec<Seat>>::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<Seat>>::json_schema(generator)
    }
}

/// One value per seat, stored inline (no allocation), serialized as a list of `len` values.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PerSeat<T> {
    len: u8,
    values: [T; MAX_SEATS],
}

impl<T: Copy + Default> PerSeat<T> {
    /// `n` default values.
    #[must_use]
    pub fn new(n: u8) -> Self {
        PerSeat {
            len: n,
            values: [T::default(); MAX_SEATS],
        }
    }

    /// From a slice of at most [`MAX_SEATS`] values.
    #[must_use]
    pub fn from_slice(values: &[T]) -> Self {
        let mut per = Self::new(values.len() as u8);
        per.values[..values.len()].copy_from_slice(values);
        per
    }
}

impl<T> PerSeat<T> {
    /// How many seats.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True for a table of no seats (never in a game).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        &self.values[..self.len as usize]
    }

    /// The values as a mutable slice.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.values[..self.len as usize]
    }

    /// The values with their seats.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.as_slice()
            .iter()
            .enumerate()
            .map(|(i, v)| (Seat(i as u8), v))
    }
}

impl<T> std::ops::Index<Seat> for PerSeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        debug_assert!(seat.0 < self.len, "{seat} at a table of {}", self.len);
        &self.values[seat.index()]
    }
}

impl<T> std::ops::IndexMut<Seat> for PerSeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        debug_assert!(seat.0 < self.len, "{seat} at a table of {}", self.len);
        &mut self.values[seat.index()]
    }
}

impl<T: fmt::Debug> fmt::Debug for PerSeat<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Serialize> Serialize for PerSeat<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de, T: Deserialize<'de> + Copy + Default> Deserialize<'de> for PerSeat<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let values = Vec::<T>::deserialize(d)?;
        if values.len() > MAX_SEATS {
            return Err(serde::de::Error::custom("at most seven seats"));
        }
        Ok(PerSeat::from_slice(&values))
    }
}

impl<T: JsonSchema> JsonSchema for PerSeat<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("PerSeat_{}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "description": "One value per seat, seat 0 first.",
            "items": generator.subschema_for::<T>(),
            "maxItems": MAX_SEATS
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On the wire and in the schema a seat list is a `Vec<Seat>`: the change of type must not
    /// show to clients or to stored logs.
    #[test]
    fn a_seat_list_reads_and_writes_as_a_vec_of_seats() {
        let seats = vec![Seat(2), Seat(0)];
        let list = SeatList::from_slice(&seats);
        assert_eq!(&*list, &seats[..]);
        assert_eq!(list, seats);
        let text = serde_json::to_string(&list).unwrap();
        assert_eq!(text, serde_json::to_string(&seats).unwrap());
        assert_eq!(serde_json::from_str::<SeatList>(&text).unwrap(), list);
        assert!(serde_json::from_str::<SeatList>("[0,1,2,3,4,5,6,0]").is_err());
        assert_eq!(
            schemars::schema_for!(SeatList),
            schemars::schema_for!(Vec<Seat>)
        );
        assert_ne!(list, SeatList::from_slice(&[Seat(2)]));
    }
}
