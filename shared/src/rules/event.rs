//! What players do ([`Action`]), what they may do ([`Legal`]) and what happens ([`Event`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::bridge::{Bid, Contract, Vulnerability};
use crate::card::{Card, CardSet, Suit};
use crate::fair::Hash32;
use crate::seat::{PerSeat, Seat, SeatList, SeatSet};

/// A player's move.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Give these cards in the passing phase.
    Pass {
        /// The cards given, as many as the variant passes.
        cards: Vec<Card>,
    },
    /// Play this card to the trick.
    Play {
        /// The card played.
        card: Card,
    },
    /// Bid the tricks one expects to take this hand (in Spades 0 is nil).
    Bid {
        /// The tricks bid.
        tricks: u8,
    },
    /// Bid nil without looking at one's cards (Spades' blind nil).
    BlindNil,
    /// Look at one's cards instead of bidding blind; then bid as usual.
    SeeCards,
    /// Give these cards to one's partner in a blind nil exchange.
    Exchange {
        /// The cards given, as many as the exchange asks.
        cards: Vec<Card>,
    },
    /// A call while trump is being made (Euchre: pass, order up, name a suit, defend alone)
    /// or in the auction (Bridge: pass, a bid, double, redouble).
    Call(Call),
    /// Put this card away face down: the dealer's discard after picking up (Euchre).
    Discard {
        /// The card discarded.
        card: Card,
    },
    /// Declarer claims `tricks` of the tricks still to play, conceding the rest, and faces
    /// their hand (Bridge).
    Claim {
        /// How many of the remaining tricks declarer's side will take.
        tricks: u8,
    },
    /// A defender accepts or rejects declarer's claim (Bridge).
    AnswerClaim {
        /// True to accept.
        accept: bool,
    },
}

/// A call in the making of trump (Euchre) or in the auction (Bridge). On the wire it sits
/// beside its action's or event's own fields: `{"type": "call", "call": "trump", "suit": "H",
/// "alone": true}`, `{"type": "call", "call": "bid", "level": 3, "strain": "NT"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Call {
    /// Let the next seat call.
    Pass,
    /// Make the turned-up card's suit trump; the dealer picks the card up.
    OrderUp {
        /// The caller plays the hand alone: their partner sits it out.
        #[serde(default)]
        alone: bool,
    },
    /// Make this suit trump (after everyone passed the turned-up card).
    Trump {
        /// The suit named.
        suit: Suit,
        /// The caller plays the hand alone: their partner sits it out.
        #[serde(default)]
        alone: bool,
    },
    /// Defend alone against the makers: one's partner sits the hand out.
    DefendAlone,
    /// A bid of the auction: a level and a strain, higher than any bid before it (Bridge).
    Bid(Bid),
    /// Double the opponents' last bid (Bridge).
    Double,
    /// Redouble the opponents' double of one's side's bid (Bridge).
    Redouble,
}

impl From<crate::bridge::Call> for Call {
    fn from(call: crate::bridge::Call) -> Call {
        match call {
            crate::bridge::Call::Pass => Call::Pass,
            crate::bridge::Call::Bid(bid) => Call::Bid(bid),
            crate::bridge::Call::Double => Call::Double,
            crate::bridge::Call::Redouble => Call::Redouble,
        }
    }
}

impl Call {
    /// The same call in the auction's own terms; `None` for a call only Euchre makes.
    #[must_use]
    pub fn in_auction(self) -> Option<crate::bridge::Call> {
        match self {
            Call::Pass => Some(crate::bridge::Call::Pass),
            Call::Bid(bid) => Some(crate::bridge::Call::Bid(bid)),
            Call::Double => Some(crate::bridge::Call::Double),
            Call::Redouble => Some(crate::bridge::Call::Redouble),
            Call::OrderUp { .. } | Call::Trump { .. } | Call::DefendAlone => None,
        }
    }
}

/// How trump was made this hand (Euchre).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TrumpMade {
    /// The trump suit.
    pub trump: Suit,
    /// Who made it.
    pub maker: Seat,
    /// The maker plays alone.
    pub alone: bool,
    /// A defender who defends alone, if one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender_alone: Option<Seat>,
}

/// Where passed cards go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PassDirection {
    /// To the next seat clockwise.
    Left,
    /// To the previous seat.
    Right,
    /// To the seat opposite.
    Across,
}

impl PassDirection {
    /// Seats to the left the cards travel, at a table of `n`.
    #[must_use]
    pub fn steps(self, n: u8) -> u8 {
        match self {
            PassDirection::Left => 1,
            PassDirection::Right => n - 1,
            PassDirection::Across => n / 2,
        }
    }
}

/// What a seat may do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Legal {
    /// Choose exactly `count` distinct cards of `from` to pass `direction`.
    Pass {
        /// How many cards to pass.
        count: u32,
        /// Where they go.
        direction: PassDirection,
        /// The cards one may choose from (the whole hand).
        from: CardSet,
    },
    /// Play one of these cards.
    Play {
        /// The playable cards.
        cards: CardSet,
    },
    /// Bid a number of tricks from `min` to `max`, but not `forbidden`.
    Bid {
        /// The lowest bid allowed.
        min: u8,
        /// The highest bid allowed: the tricks in the hand.
        max: u8,
        /// The one bid in the range that is not allowed, if any: the dealer's bid that would
        /// make the bids add up to the tricks in the hand (Oh Hell's hook).
        forbidden: Option<u8>,
    },
    /// The viewer's cards are face down: bid blind nil (`blind_nil`), or look at them
    /// (`see_cards`) and then bid.
    Blind,
    /// Choose exactly `count` distinct cards of `from` to give `to` (a blind nil exchange).
    Exchange {
        /// How many cards to give.
        count: u32,
        /// The partner who receives them.
        to: Seat,
        /// The cards one may choose from (the whole hand).
        from: CardSet,
    },
    /// Make trump or pass (Euchre): which calls the seat may make now.
    Call {
        /// Ordering up the turned-up card is allowed (the first round).
        order_up: bool,
        /// Naming a suit is allowed (the second round), any suit but `except`.
        name: bool,
        /// The suit that may not be named: the turned-up card's.
        except: Option<Suit>,
        /// Passing is allowed (not for a dealer who must name a suit).
        pass: bool,
        /// The call may be made alone.
        alone: bool,
        /// Defending alone is allowed (a defender, once trump is made).
        defend_alone: bool,
        /// The lowest bid allowed, while bids are (Bridge's auction).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bid_from: Option<Bid>,
        /// Doubling the opponents' last bid is allowed (Bridge).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        double: bool,
        /// Redoubling the opponents' double is allowed (Bridge).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        redouble: bool,
    },
    /// Discard one card of `from` face down (the dealer, after picking up).
    Discard {
        /// The cards one may discard (the whole hand).
        from: CardSet,
    },
    /// Accept or reject declarer's claim of `tricks` more tricks (a defender, Bridge).
    AnswerClaim {
        /// The tricks declarer claims of those still to play.
        tricks: u8,
    },
    /// Nothing to do: wait for the others.
    Wait,
}

impl Legal {
    /// True when `action` is one of the moves allowed.
    #[must_use]
    pub fn allows(&self, action: &Action) -> bool {
        match (self, action) {
            (Legal::Play { cards }, Action::Play { card }) => cards.contains(*card),
            (Legal::Pass { count, from, .. }, Action::Pass { cards }) => {
                cards.len() == *count as usize
                    && CardSet::try_from_cards(cards).is_ok_and(|set| (set - *from).is_empty())
            }
            (
                Legal::Bid {
                    min,
                    max,
                    forbidden,
                },
                Action::Bid { tricks },
            ) => (*min..=*max).contains(tricks) && *forbidden != Some(*tricks),
            (Legal::Blind, Action::BlindNil | Action::SeeCards) => true,
            (legal @ Legal::Call { .. }, Action::Call(call)) => legal.allows_call(*call),
            (Legal::Discard { from }, Action::Discard { card }) => from.contains(*card),
            (Legal::AnswerClaim { .. }, Action::AnswerClaim { .. }) => true,
            (Legal::Exchange { count, from, .. }, Action::Exchange { cards }) => {
                cards.len() == *count as usize
                    && CardSet::try_from_cards(cards).is_ok_and(|set| (set - *from).is_empty())
            }
            _ => false,
        }
    }
}

impl Legal {
    /// Every call a [`Legal::Call`] allows, in a fixed order (pass first); none for any other
    /// move.
    #[must_use]
    pub fn calls(&self) -> Vec<Call> {
        let mut calls = vec![Call::Pass];
        for alone in [false, true] {
            calls.push(Call::OrderUp { alone });
            for suit in crate::card::Suit::ALL {
                calls.push(Call::Trump { suit, alone });
            }
        }
        calls.push(Call::DefendAlone);
        calls.extend([Call::Double, Call::Redouble]);
        if let Legal::Call {
            bid_from: Some(low),
            ..
        } = *self
        {
            calls.extend(low.and_above().map(Call::Bid));
        }
        calls.retain(|call| self.allows_call(*call));
        calls
    }

    /// True when `call` is one of the calls a [`Legal::Call`] allows.
    fn allows_call(&self, call: Call) -> bool {
        let Legal::Call {
            order_up,
            name,
            except,
            pass,
            alone,
            defend_alone,
            bid_from,
            double,
            redouble,
        } = *self
        else {
            return false;
        };
        match call {
            Call::Pass => pass,
            Call::OrderUp { alone: a } => order_up && (alone || !a),
            Call::Trump { suit, alone: a } => name && except != Some(suit) && (alone || !a),
            Call::DefendAlone => defend_alone,
            Call::Bid(bid) => bid_from.is_some_and(|low| bid >= low),
            Call::Double => double,
            Call::Redouble => redouble,
        }
    }
}

/// Something that happened at the table. Most events are public; [`Event::visible_to`] says
/// which are not.
// A hand's score line is the one large event, one a hand; the moves' events stay small.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A new hand begins (hands count from 0).
    HandStarted {
        /// The hand's number, from 0.
        hand: u32,
        /// Who dealt.
        dealer: Seat,
        /// Where cards are passed this hand, if they are.
        pass: Option<PassDirection>,
        /// SHA-256 of the secret this hand is dealt from, published before anyone plays; the
        /// secret follows in `hand_scored` (docs/FAIRNESS.md). Absent for hands not dealt by
        /// the fair recipe (scripted decks, offline tools).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        commitment: Option<Hash32>,
        /// The cards each seat is dealt this hand, in a variant whose hands change size (Oh
        /// Hell): how a viewer learns the others' hand sizes. Absent elsewhere, where it is
        /// the variant's `hand_size`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand_size: Option<u32>,
    },
    /// The board being played and who is vulnerable on it (Bridge), after `hand_started`.
    Board {
        /// The board's number: 1 to 16, then again.
        board: u32,
        /// Who is vulnerable.
        vulnerability: Vulnerability,
    },
    /// A player's dealt hand. Private to `seat`.
    Dealt {
        /// Whose hand.
        seat: Seat,
        /// The cards.
        cards: CardSet,
    },
    /// These seats' hands were dealt face down: each may bid blind nil before looking, and
    /// is sent its `dealt` only once it looks or bids (Spades' blind nil).
    DealtFaceDown {
        /// The seats whose cards are face down.
        seats: SeatList,
    },
    /// A seat whose hand was face down looked at it (its `dealt` follows, to it alone).
    CardsSeen {
        /// Who looked.
        seat: Seat,
    },
    /// A seat bid blind nil, a nil bid made before looking (a `bid` of 0 follows).
    BlindNil {
        /// Who bid.
        seat: Seat,
    },
    /// Cards went to a partner in a blind nil exchange; which cards is not public (a
    /// `cards_passed` tells the two partners).
    Exchanged {
        /// The giver.
        from: Seat,
        /// The receiver.
        to: Seat,
        /// How many cards.
        count: u32,
    },
    /// Trump is set by cards shown to everyone: the two undealt cards (hearts5), the dealer's
    /// last card (whist) or the card turned up after the deal (ohhell); or, with no card
    /// shown, by the rules alone (spades are always trump).
    TrumpShown {
        /// The trump suit.
        trump: Suit,
        /// The cards turned face up.
        cards: CardSet,
    },
    /// Cards turned face up after the deal without setting trump: Euchre's turned-up card,
    /// which the players may order up or pass.
    TurnedUp {
        /// The cards turned face up.
        cards: CardSet,
    },
    /// A player has chosen their pass (which cards is not public).
    PassChosen {
        /// Who chose.
        seat: Seat,
    },
    /// Cards changed hands. Private to `from` and `to`.
    CardsPassed {
        /// The giver.
        from: Seat,
        /// The receiver.
        to: Seat,
        /// The cards.
        cards: CardSet,
    },
    /// A seat called while trump was being made (Euchre), or in the auction (Bridge).
    Called {
        /// Who called.
        seat: Seat,
        /// The call.
        #[serde(flatten)]
        call: Call,
    },
    /// Trump is made for this hand (Euchre).
    TrumpMade {
        /// The trump suit.
        trump: Suit,
        /// Who made it.
        maker: Seat,
        /// The maker plays alone.
        alone: bool,
    },
    /// A seat sits this hand out: a lone player's partner puts their cards down.
    SitsOut {
        /// Who sits out.
        seat: Seat,
    },
    /// The dealer picked up the turned-up card (Euchre): everyone saw which.
    PickedUp {
        /// Who picked it up.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A seat put a card away face down (which card is not public: a `discarded_card` tells
    /// the seat).
    Discarded {
        /// Who discarded.
        seat: Seat,
    },
    /// The card a seat discarded. Private to `seat`.
    DiscardedCard {
        /// Who discarded.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// Nobody made trump (Euchre), or everyone passed (Bridge's board passed out): the hand
    /// is thrown in, scores nothing, and the deal moves on.
    ThrownIn,
    /// The auction ended in a contract (Bridge): declarer's left leads, then dummy is shown.
    Contract {
        /// The contract.
        contract: Contract,
    },
    /// Dummy's hand is laid face up for everyone, after the opening lead (Bridge).
    DummyShown {
        /// Dummy's seat.
        seat: Seat,
        /// Dummy's cards.
        cards: CardSet,
    },
    /// Declarer claims `tricks` of the tricks still to play and faces their hand (Bridge).
    Claimed {
        /// Declarer.
        seat: Seat,
        /// The tricks claimed of those still to play.
        tricks: u8,
        /// Declarer's remaining cards, shown to everyone.
        cards: CardSet,
    },
    /// A defender answered the claim; one rejection withdraws it and play goes on, two
    /// acceptances end the hand (Bridge).
    ClaimAnswered {
        /// The defender.
        seat: Seat,
        /// True when accepted.
        accept: bool,
    },
    /// A seat made its bid.
    Bid {
        /// Who bid.
        seat: Seat,
        /// The tricks bid.
        tricks: u8,
    },
    /// A card was played to the trick.
    Played {
        /// Who played.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A trick was completed.
    TrickWon {
        /// Who took it.
        winner: Seat,
        /// The cards of the trick.
        cards: CardSet,
    },
    /// `tricks`: an illegal card cost points and the hand is redealt.
    BadCard {
        /// Who played it.
        seat: Seat,
        /// The card.
        card: Card,
        /// Points lost (negative).
        penalty: i32,
    },
    /// A hand was scored.
    HandScored(HandResult),
    /// The match has ended.
    MatchOver {
        /// Who won (several on a shared win; both partners in whist).
        winners: SeatList,
        /// Final totals.
        totals: PerSeat<i32>,
    },
}

impl Event {
    /// True when `viewer` (a seat, or `None` for a spectator) may see this event.
    #[must_use]
    pub fn visible_to(&self, viewer: Option<Seat>) -> bool {
        match self {
            Event::Dealt { seat, .. } | Event::DiscardedCard { seat, .. } => viewer == Some(*seat),
            Event::CardsPassed { from, to, .. } => viewer == Some(*from) || viewer == Some(*to),
            _ => true,
        }
    }
}

/// The score sheet line of one hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HandResult {
    /// The hand's number, from 0.
    pub hand: u32,
    /// Points each seat scored this hand (filippa: the prize won; whist, spades: the
    /// partnership's).
    pub points: PerSeat<i32>,
    /// Filippa's penalty points this hand (zero or negative); zeros in other variants.
    pub penalties: PerSeat<i32>,
    /// Tricks each seat took this hand.
    pub tricks: PerSeat<u8>,
    /// Totals after this hand (filippa: the positive totals).
    pub totals: PerSeat<i32>,
    /// Filippa: the prize pool carried to the next hand (0 when it was shared).
    pub pool_carried: i32,
    /// Hearts: who shot the moon.
    pub moon: Option<Seat>,
    /// Each seat's bid this hand, in the variants that bid (spades, ohhell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bids: Option<PerSeat<u8>>,
    /// Spades: each partnership's bags (overtricks) after this hand, once any penalty has
    /// taken its count off; per seat, partners alike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bags: Option<PerSeat<i32>>,
    /// Spades: what bags cost each partnership this hand (negative), per seat, partners alike;
    /// absent when bags cost nothing this hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bag_penalty: Option<PerSeat<i32>>,
    /// Spades: each nil bid's outcome, per seat: `true` made, `false` failed, `null` for a seat
    /// that did not bid nil; absent when nobody bid nil.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nil: Option<PerSeat<Option<bool>>>,
    /// Spades: the seats whose nil (in `nil`) was bid blind; absent when nobody bid blind.
    // A set of seats (a byte), written as their list: a score line travels in an event, and
    // every event is as large as the largest.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "seat_set_list"
    )]
    #[schemars(with = "Option<Vec<Seat>>")]
    pub blind_nil: Option<SeatSet>,
    /// Euchre: how trump was made; absent when the hand was thrown in, and in other variants.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trump_made: Option<TrumpMade>,
    /// Bridge: the board, its contract and its score.
    // Held inline, not boxed: an event owns nothing on the heap, so a list of them is
    // cleared without visiting each one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardResult>,
    /// The secret this hand was dealt from, revealed now that it is over: its SHA-256 is the
    /// `commitment` of its `hand_started` (docs/FAIRNESS.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<Hash32>,
}

/// How a board of Bridge went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BoardResult {
    /// The board's number (1 to 16, then again).
    pub board: u32,
    /// Who was vulnerable.
    pub vulnerability: Vulnerability,
    /// The contract; absent when the board was passed out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<Contract>,
    /// Tricks declarer's side took (0 for a board passed out).
    pub declarer_tricks: u8,
    /// The board's score for North-South (East-West score the opposite).
    pub score: i32,
}

/// A set of seats written as the list of its seats, lowest first.
mod seat_set_list {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::seat::{Seat, SeatSet};

    #[allow(clippy::ref_option)] // serde's `with` hands the field by reference
    pub fn serialize<S: Serializer>(set: &Option<SeatSet>, out: S) -> Result<S::Ok, S::Error> {
        set.map(|set| set.iter().collect::<Vec<Seat>>())
            .serialize(out)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<Option<SeatSet>, D::Error> {
        let seats = Option::<Vec<Seat>>::deserialize(input)?;
        seats
            .map(|seats| {
                let mut set = SeatSet::EMPTY;
                for seat in seats {
                    if usize::from(seat.0) >= crate::seat::MAX_SEATS {
                        return Err(serde::de::Error::custom("no such seat"));
                    }
                    set.insert(seat);
                }
                Ok(set)
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::Event;

    /// A hand's events are cleared once a hand by every loop that plays many (bots' searches,
    /// the arena): that is free only while no event owns memory on the heap.
    #[test]
    fn events_own_nothing_on_the_heap() {
        assert!(!std::mem::needs_drop::<Event>());
    }
}
