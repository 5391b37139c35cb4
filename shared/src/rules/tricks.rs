//! Plain tricks: a point a trick; an illegal card costs 100 and the hand is redealt.

/// What a bad card costs.
pub(super) const BAD_CARD_PENALTY: i32 = -100;
