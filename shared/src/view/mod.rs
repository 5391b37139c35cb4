//! What one seat (or a spectator) may know, built field by field from the game.
//!
//! A view is an allow-list: each field is copied from something the viewer is entitled to see.
//! The game itself is never serialized to a client, and bots decide from views alone.
//! [`PlayerView::of`] builds a view from the game (the server's snapshots); `apply` follows one
//! from the events a client receives. Nothing here changes a game.

mod apply;
pub mod json;

use std::sync::Arc;

use arrayvec::ArrayVec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::bridge::{Contract, Vulnerability};
use crate::card::{Card, CardSet, Suit};
use crate::deck::Deck;
use crate::rules::{
    Call, CompletedTrick, Game, HandResult, Legal, Options, PassDirection, Phase, Rules, TrumpMade,
    Variant,
};
use crate::seat::{MAX_SEATS, PerSeat, Seat};

/// A few seats in order, as a view lists them (at most one a seat), inline.
pub type Seats = ArrayVec<Seat, MAX_SEATS>;

/// The table as one player (or a spectator, with `seat: None`) sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerView {
    /// The variant played.
    pub variant: Variant,
    /// Its options, every one spelled out.
    pub options: Options,
    /// The viewer's seat; `None` for a spectator.
    pub seat: Option<Seat>,
    /// Seats at the table.
    pub players: u8,
    /// Passing, bidding, playing or match over.
    pub phase: Phase,
    /// The hand being played, from 0.
    pub hand_number: u32,
    /// This hand's dealer.
    pub dealer: Seat,
    /// The viewer's own cards (empty for a spectator).
    pub hand: CardSet,
    /// How many cards each seat holds.
    pub hand_sizes: PerSeat<u8>,
    /// The trump suit, if any.
    pub trump: Option<Suit>,
    /// Cards shown to everyone: hearts5's undealt pair, the whist dealer's trump card, Oh
    /// Hell's turned-up card.
    pub face_up: CardSet,
    /// The trick on the table.
    pub trick: TrickView,
    /// The tricks completed this hand, in order.
    // Inline, as are the views' other lists: a table makes a view at every prompt, and each
    // list on the heap cost an allocation and its freeing.
    #[schemars(with = "Vec<CompletedTrick>")]
    pub tricks: ArrayVec<CompletedTrick, { Variant::MAX_HAND_SIZE }>,
    /// Tricks taken this hand per seat.
    pub tricks_won: PerSeat<u8>,
    /// Each seat's bid this hand, `null` until made, in the variants that bid (spades,
    /// ohhell); absent in the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bids: Option<PerSeat<Option<u8>>>,
    /// Whether a heart has been played this hand.
    pub hearts_broken: bool,
    /// This hand's passing, if there is any.
    pub pass: Option<PassView>,
    /// Blind nil this hand, at a table that plays it (Spades' `blind_nil`); absent elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blind: Option<BlindView>,
    /// The making of trump this hand, in a game whose players make it (euchre); absent
    /// elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calling: Option<CallingView>,
    /// The board, its contract, dummy's cards once shown and a pending claim (bridge); absent
    /// elsewhere. The auction's calls are in `calling`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bridge: Option<BridgeView>,
    /// Match totals (filippa: positive totals).
    pub totals: PerSeat<i32>,
    /// Filippa's negative totals.
    pub negatives: PerSeat<i32>,
    /// Filippa's prize pool for this hand.
    pub pool: i32,
    /// The score sheet: one line per finished hand.
    // Shared, so that a table can hand every view the same lines (`PlayerView::with_history`).
    pub history: Arc<Vec<HandResult>>,
    /// Who has to act now.
    #[schemars(with = "Vec<Seat>")]
    pub to_act: Seats,
    /// What the viewer may do now.
    pub legal: Legal,
    /// The winners, once the match is over.
    #[schemars(with = "Vec<Seat>")]
    pub winners: Seats,
    /// SHA-256 of the secret the current (or last) hand was dealt from, as its `hand_started`
    /// published it (docs/FAIRNESS.md). Absent when the hand was not dealt by the fair recipe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_commitment: Option<crate::fair::Hash32>,
}

/// The trick being played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TrickView {
    /// Who leads it.
    pub leader: Seat,
    /// The cards so far, in play order.
    #[schemars(with = "Vec<PlayedCard>")]
    pub plays: ArrayVec<PlayedCard, MAX_SEATS>,
}

/// One card on the table and who played it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlayedCard {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// The passing of this hand as the viewer knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PassView {
    /// Where cards go.
    pub direction: PassDirection,
    /// The cards the viewer gave (empty until chosen, and for spectators).
    pub given: CardSet,
    /// The cards the viewer received (empty until everyone has passed).
    pub received: CardSet,
    /// Seats that have not chosen yet.
    #[schemars(with = "Vec<Seat>")]
    pub waiting: Seats,
}

/// Blind nil this hand as the viewer knows it. A face-down hand is not in its holder's
/// `hand` (it is empty, and `hand_sizes` still counts the cards) until they look or bid.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BlindView {
    /// Seats whose cards are face down: they may bid blind nil and have not looked.
    #[schemars(with = "Vec<Seat>")]
    pub face_down: Seats,
    /// Seats that bid blind nil this hand.
    #[schemars(with = "Vec<Seat>")]
    pub bid: Seats,
    /// The cards the viewer gave its partner in the exchange (empty until given, and for
    /// everyone outside the exchange).
    pub given: CardSet,
    /// The cards the viewer received from its partner in the exchange.
    pub received: CardSet,
}

/// The making of trump this hand as the viewer knows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CallingView {
    /// The calls made so far, in order.
    pub calls: Vec<SeatCall>,
    /// How trump was made, once it is.
    pub made: Option<TrumpMade>,
    /// Seats sitting this hand out: they play no card, and a trick has one card fewer each.
    #[schemars(with = "Vec<Seat>")]
    pub out: Seats,
    /// The turned-up card the dealer picked up, once picked up (everyone saw it).
    pub picked_up: Option<Card>,
    /// The card the viewer discarded: the dealer's alone to see.
    pub discarded: Option<Card>,
}

/// A board of Bridge as everyone at the table sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BridgeView {
    /// The board's number: 1 to 16, then again.
    pub board: u32,
    /// Who is vulnerable on it.
    pub vulnerability: Vulnerability,
    /// The contract, once the auction has ended in one.
    pub contract: Option<Contract>,
    /// Dummy's hand, face up for everyone once the opening lead is made; absent before.
    pub dummy: Option<ShownHand>,
    /// Declarer's claim while the defenders answer it, with declarer's hand faced.
    pub claim: Option<ClaimView>,
    /// Claims the defenders rejected this board (absent while none was).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub claims_rejected: u8,
}

/// For `skip_serializing_if`: a count still at zero.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(count: &u8) -> bool {
    *count == 0
}

/// A hand laid face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ShownHand {
    /// Whose hand.
    pub seat: Seat,
    /// Its remaining cards.
    pub cards: CardSet,
}

/// Declarer's claim as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ClaimView {
    /// Declarer.
    pub seat: Seat,
    /// The tricks claimed of those still to play.
    pub tricks: u8,
    /// Declarer's remaining cards, faced with the claim.
    pub cards: CardSet,
    /// The defenders who accepted so far.
    #[schemars(with = "Vec<Seat>")]
    pub accepted: Seats,
}

/// One call and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatCall {
    /// Who called.
    pub seat: Seat,
    /// The call.
    #[serde(flatten)]
    pub call: Call,
}

impl PlayerView {
    /// Builds the view of `viewer` (`None`: a spectator).
    #[must_use]
    pub fn of(game: &Game, viewer: Option<Seat>) -> PlayerView {
        PlayerView::with_history(game, viewer, Arc::new(game.history().to_vec()))
    }

    /// [`PlayerView::of`] holding `history`, which must be the game's score sheet: for a
    /// caller that makes many views of one game and keeps its lines rather than copy them.
    #[must_use]
    pub fn with_history(
        game: &Game,
        viewer: Option<Seat>,
        history: Arc<Vec<HandResult>>,
    ) -> PlayerView {
        debug_assert_eq!(history.as_slice(), game.history());
        let n = game.players();
        let own = |f: &dyn Fn(Seat) -> CardSet| viewer.map_or(CardSet::EMPTY, f);
        let mut hand_sizes = PerSeat::new(n);
        for seat in Seat::all(n) {
            hand_sizes[seat] = game.hand(seat).len() as u8;
        }
        let trick = game.trick();
        PlayerView {
            variant: game.variant(),
            options: game.rules().options().shown(),
            seat: viewer,
            players: n,
            phase: game.phase(),
            hand_number: game.hand_number(),
            dealer: game.dealer(),
            hand: own(&|s| {
                if game.face_down().contains(s) {
                    CardSet::EMPTY
                } else {
                    game.hand(s)
                }
            }),
            hand_sizes,
            trump: game.trump(),
            face_up: game.face_up(),
            trick: TrickView {
                leader: trick.leader(),
                plays: trick
                    .plays(n, game.sitting_out())
                    .map(|(seat, card)| PlayedCard { seat, card })
                    .collect(),
            },
            tricks: game.completed_tricks().collect(),
            tricks_won: game.tricks_won(),
            bids: game.bids(),
            hearts_broken: game.hearts_broken(),
            pass: game.pass_direction().map(|direction| PassView {
                direction,
                given: own(&|s| game.passed_by(s)),
                received: own(&|s| game.received_by(s)),
                waiting: game.to_pass().iter().collect(),
            }),
            blind: game.plays_blind().then(|| BlindView {
                face_down: game.face_down().iter().collect(),
                bid: game.blind_bids().iter().collect(),
                given: own(&|s| game.passed_by(s)),
                received: own(&|s| game.received_by(s)),
            }),
            calling: game.calling().map(|calling| CallingView {
                calls: calling
                    .calls
                    .iter()
                    .map(|&(seat, call)| SeatCall { seat, call })
                    .collect(),
                made: calling.made,
                out: game.sitting_out().iter().collect(),
                picked_up: calling.picked_up,
                discarded: calling.discarded.filter(|_| viewer == Some(game.dealer())),
            }),
            bridge: game.board().map(|(board, vulnerability)| BridgeView {
                board,
                vulnerability,
                contract: game.calling().and_then(|calling| calling.contract),
                dummy: game
                    .dummy_shown()
                    .map(|(seat, cards)| ShownHand { seat, cards }),
                claim: game.pending_claim().map(|claim| ClaimView {
                    seat: claim.seat,
                    tricks: claim.tricks,
                    cards: game.hand(claim.seat),
                    accepted: claim.accepted.iter().collect(),
                }),
                claims_rejected: game.claims_rejected(),
            }),
            totals: game.totals(),
            negatives: game.negatives(),
            pool: game.pool(),
            history,
            to_act: game.to_act().iter().collect(),
            legal: viewer.map_or(Legal::Wait, |s| game.legal_actions(s)),
            winners: game.winners().iter().copied().collect(),
            deal_commitment: game.deal_commitment(),
        }
    }

    /// Every card played this hand, on the table or in finished tricks.
    #[must_use]
    pub fn played_cards(&self) -> CardSet {
        let done = self.tricks.iter().flat_map(|t| t.cards.iter().copied());
        let on_table = self.trick.plays.iter().map(|p| p.card);
        done.chain(on_table).collect()
    }

    /// The cards whose place nobody can know: not in the viewer's hand, not played, not face up.
    #[must_use]
    pub fn unseen_cards(&self) -> CardSet {
        self.deck().cards() - self.hand - self.played_cards() - self.face_up - self.shown_cards()
    }

    /// The cards laid face up for everyone: Bridge's dummy once the opening lead is made, and
    /// declarer's hand with a claim.
    #[must_use]
    pub fn shown_cards(&self) -> CardSet {
        let Some(bridge) = &self.bridge else {
            return CardSet::EMPTY;
        };
        let dummy = bridge.dummy.map_or(CardSet::EMPTY, |d| d.cards);
        let claim = bridge.claim.as_ref().map_or(CardSet::EMPTY, |c| c.cards);
        dummy | claim
    }

    /// The cards the game deals, from its rules (a view's options are always valid ones).
    #[must_use]
    pub fn deck(&self) -> Deck {
        Rules::new(self.variant, &self.options).map_or(Deck::STANDARD, |rules| rules.deck())
    }
}

impl Game {
    /// What `viewer` (a seat, or `None` for a spectator) may see: [`PlayerView::of`].
    #[must_use]
    pub fn view(&self, viewer: Option<Seat>) -> PlayerView {
        PlayerView::of(self, viewer)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::bots::RandomBot;
    use crate::rules::{Options, Variant};

    /// A view given the game's lines holds those very lines and is otherwise the view `of`
    /// makes, through several hands of a match.
    #[test]
    fn a_view_with_the_game_s_lines_is_the_same_view() {
        let mut game = Game::new(Variant::Hearts, &Options::default(), 3).unwrap();
        let mut bot = RandomBot::new(4);
        let mut events = Vec::new();
        while game.history().len() < 3 {
            let seat = game.to_act().first().unwrap();
            bot.act_on(&mut game, seat, &mut events).unwrap();
            let lines = Arc::new(game.history().to_vec());
            let view = PlayerView::with_history(&game, Some(seat), Arc::clone(&lines));
            assert!(Arc::ptr_eq(&view.history, &lines));
            assert_eq!(view, PlayerView::of(&game, Some(seat)));
        }
    }

    /// A view's lists are kept inline: a view read from JSON with more tricks than a hand
    /// holds, or more plays or seats to act than a table has seats, is refused with an error,
    /// never a panic, and one at the limits reads back as it was written.
    #[test]
    fn views_with_overlong_lists_are_refused() {
        let game = Game::new(Variant::Hearts, &Options::default(), 3).unwrap();
        let view = PlayerView::of(&game, Some(Seat(0)));
        let mut json = serde_json::to_value(&view).unwrap();
        let trick =
            serde_json::json!({"leader": 0, "cards": ["2C", "3C", "4C", "5C"], "winner": 1});
        let play = serde_json::json!({"seat": 0, "card": "2C"});
        let cases = [
            ("/tricks", vec![trick; Variant::MAX_HAND_SIZE]),
            ("/trick/plays", vec![play; MAX_SEATS]),
            ("/to_act", vec![serde_json::json!(0); MAX_SEATS]),
            ("/winners", vec![serde_json::json!(1); MAX_SEATS]),
        ];
        for (path, mut items) in cases {
            *json.pointer_mut(path).unwrap() = serde_json::Value::from(items.clone());
            let read: PlayerView = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(
                serde_json::to_value(&read).unwrap(),
                json,
                "{path} at its limit"
            );
            items.push(items[0].clone());
            *json.pointer_mut(path).unwrap() = serde_json::Value::from(items);
            let refused = serde_json::from_value::<PlayerView>(json.clone());
            assert!(refused.is_err(), "{path} past its limit");
            json = serde_json::to_value(&view).unwrap();
        }
    }
}
