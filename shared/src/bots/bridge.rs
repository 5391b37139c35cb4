//! Bridge at the engine's table: a seat's view read as a [`BridgeSeen`], and the moves the
//! built-in strengths make from it: calls, cards (declarer's from dummy too) and the answer to
//! a claim.

use super::bridge_bidding::natural_call;
use super::bridge_play::heuristic_card;
use super::bridge_seen::{BridgeSeen, PlaySeen};
use super::strong_bridge::{Budget, strong_card_until};
use crate::bridge::dds::{Position, solve_position};
use crate::bridge::{Auction, Board, Call as BridgeCall};
use crate::card::{CardSet, Suit};
use crate::rules::{Action, Call, Legal, Phase};
use crate::seat::{PerSeat, Seat};
use crate::view::PlayerView;

/// What the viewing seat knows of the board, in Bridge's terms; `None` for a view that is not
/// a seat's at a Bridge table.
#[must_use]
pub fn seen(view: &PlayerView) -> Option<BridgeSeen> {
    let me = view.seat?;
    let bridge = view.bridge.as_ref()?;
    let calls: Vec<BridgeCall> = view
        .calling
        .as_ref()?
        .calls
        .iter()
        .filter_map(|c| c.call.in_auction())
        .collect();
    let board = Board(bridge.board);
    let auction = Auction::from_calls(board.dealer(), &calls).ok()?;
    let play = match (bridge.contract, view.phase) {
        (Some(contract), Phase::Playing) => {
            let mut history = Vec::new();
            for trick in &view.tricks {
                for (i, &card) in trick.cards.iter().enumerate() {
                    history.push((trick.leader.left(i as u8, 4), card));
                }
            }
            history.extend(view.trick.plays.iter().map(|p| (p.seat, p.card)));
            let to_play = match view.trick.plays.last() {
                Some(last) => last.seat.next(4),
                None => view.trick.leader,
            };
            let legal = match view.legal {
                Legal::Play { cards } => cards,
                _ => CardSet::EMPTY,
            };
            let ns = view.tricks_won[Seat(0)] + view.tricks_won[Seat(2)];
            let ew = view.tricks_won[Seat(1)] + view.tricks_won[Seat(3)];
            Some(PlaySeen {
                contract,
                to_play,
                dummy: bridge.dummy.map(|d| d.cards),
                trick_leader: view.trick.leader,
                trick: view.trick.plays.iter().map(|p| p.card).collect(),
                history,
                tricks: [ns, ew],
                legal,
            })
        }
        _ => None,
    };
    Some(BridgeSeen {
        me,
        board,
        hand: view.hand,
        auction,
        play,
    })
}

/// The heuristic bot's move at a Bridge table, when the view asks for one it makes here.
#[must_use]
pub fn heuristic(view: &PlayerView) -> Option<Action> {
    let seen = seen(view)?;
    match view.legal {
        Legal::Call { .. } => Some(Action::Call(Call::from(natural_call(&seen)))),
        Legal::Play { .. } => sure_claim(view).or(Some(Action::Play {
            card: heuristic_card(&seen),
        })),
        Legal::AnswerClaim { .. } => Some(Action::AnswerClaim {
            accept: claim_holds(view),
        }),
        _ => None,
    }
}

/// The strong bot's move at a Bridge table: the heuristic's calls (the natural system), cards
/// chosen from sampled deals solved double-dummy, and the same answer to a claim.
#[must_use]
pub fn strong(view: &PlayerView, seed: u64, stop: &dyn Fn() -> bool) -> Option<Action> {
    let seen = seen(view)?;
    match view.legal {
        Legal::Play { cards } if cards.len() > 1 => sure_claim(view).or(Some(Action::Play {
            card: strong_card_until(&seen, seed, &Budget::DEFAULT, stop),
        })),
        _ => heuristic(view),
    }
}

/// Declarer's claim of every trick left, made only when it cannot fail: declarer's side is on
/// lead to an empty trick, the defenders hold no trump, and each card declarer and dummy hold
/// beats every card the defenders hold in its suit, so whichever is led wins and keeps the lead
/// on declarer's side. Never after a claim was rejected this board: then the cards are played
/// out (and a defender who always rejects cannot keep the board going for ever).
#[must_use]
pub fn sure_claim(view: &PlayerView) -> Option<Action> {
    let me = view.seat?;
    let bridge = view.bridge.as_ref()?;
    let (contract, dummy) = (bridge.contract?, bridge.dummy?);
    let on_lead = [contract.declarer, dummy.seat].contains(&view.trick.leader);
    if me != contract.declarer
        || bridge.claim.is_some()
        || bridge.claims_rejected > 0
        || !matches!(view.legal, Legal::Play { .. })
        || !view.trick.plays.is_empty()
        || !on_lead
        || view.hand.len() < 2
    {
        return None;
    }
    let ours = view.hand | dummy.cards;
    let theirs = view.deck().cards() - ours - view.played_cards();
    if contract
        .bid
        .strain()
        .trump()
        .is_some_and(|trump| theirs.has_suit(trump))
    {
        return None;
    }
    let all_masters = Suit::ALL.iter().all(|&suit| {
        match (ours.of_suit(suit).lowest(), theirs.of_suit(suit).highest()) {
            (Some(our_lowest), Some(their_highest)) => our_lowest.rank() > their_highest.rank(),
            _ => true,
        }
    });
    all_masters.then(|| Action::Claim {
        tricks: u8::try_from(view.hand.len()).expect("a hand of cards"),
    })
}

/// True when declarer's claim is sound: a defender sees every card once declarer's hand is
/// faced (its own, dummy's, declarer's, and so its partner's), and declarer's side takes at
/// least the tricks claimed of the rest against the defence's best play.
#[must_use]
pub fn claim_holds(view: &PlayerView) -> bool {
    let (Some(me), Some(bridge)) = (view.seat, view.bridge.as_ref()) else {
        return false;
    };
    let (Some(contract), Some(claim), Some(dummy)) =
        (bridge.contract, bridge.claim.as_ref(), bridge.dummy)
    else {
        return false;
    };
    let mut hands = PerSeat::new(4);
    hands[me] = view.hand;
    hands[claim.seat] = claim.cards;
    hands[dummy.seat] = dummy.cards;
    hands[me.partner()] =
        view.deck().cards() - view.hand - claim.cards - dummy.cards - view.played_cards();
    let mut position = Position::new(hands, contract.bid.strain(), view.trick.leader);
    position.trick = view.trick.plays.iter().map(|p| p.card).collect();
    // Tricks declarer's side takes of those left, the current one included.
    let declarers = solve_position(&position).map_or(0, |tricks| {
        if position.to_play().0 % 2 == contract.declarer.0 % 2 {
            tricks
        } else {
            left_in(&position) - tricks
        }
    });
    declarers >= claim.tricks
}

/// Tricks left to play in `position`, the current one included.
fn left_in(position: &Position) -> u8 {
    u8::try_from(position.hands[position.to_play()].len()).expect("a hand of cards")
}
