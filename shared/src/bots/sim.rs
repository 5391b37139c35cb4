//! Rebuilds a real [`Game`] at the viewer's position from a sampled deal, through the public
//! engine API only: a stacked deck deals each seat the cards it holds now plus the ones it has
//! played, passes are replayed (filippa) or switched off (hearts), the bids are made again
//! (spades, ohhell; while bidding, those made so far), then every card of the hand is
//! replayed. The game starts at the view's hand number, which sets Oh Hell's hand size. Seats
//! are rotated so the sampled hand's dealer sits where a fresh game puts it;
//! [`Position::sim_seat`] maps real seats to the game's.

use thiserror::Error;

use super::BotRng;
use crate::card::{Card, CardSet};
use crate::rules::{Action, Game, RuleError, Rules, Variant};
use crate::seat::{PerSeat, Seat};
use crate::view::PlayerView;

/// Why a sampled deal could not be replayed.
#[derive(Debug, Error)]
pub enum SimError {
    /// The view's options do not resolve (never for a view of a real game).
    #[error("bad options: {0}")]
    Options(#[from] crate::rules::OptionsError),
    /// A past card is illegal in the sampled deal (it broke a rule only hidden cards explain).
    #[error("the sampled deal contradicts the play: {0}")]
    Replay(#[from] RuleError),
    /// The sampled deal does not fit the view.
    #[error("the sampled deal does not fit: {0}")]
    Shape(&'static str),
}

/// A game rebuilt at the viewer's position.
#[derive(Clone, Debug)]
pub struct Position {
    /// The rebuilt game, at the same point of the hand as the view.
    pub game: Game,
    /// The real dealer (the rotation's anchor).
    dealer: Seat,
    players: u8,
}

impl Position {
    /// The game's seat for a real seat.
    #[must_use]
    pub fn sim_seat(&self, real: Seat) -> Seat {
        rotate(real, self.dealer, self.players)
    }

    /// The real seat for a seat of the game.
    #[must_use]
    pub fn real_seat(&self, sim: Seat) -> Seat {
        sim.left((self.dealer.0 + 1) % self.players, self.players)
    }

    /// Rebuilds the position of `view` where every seat holds `hands` (real seats; the
    /// viewer's own entry must be its hand). `rng` picks what the view leaves open (other
    /// seats' passes).
    pub fn build(
        view: &PlayerView,
        hands: &PerSeat<CardSet>,
        rng: &mut BotRng,
    ) -> Result<Position, SimError> {
        let n = view.players;
        let variant = view.variant;
        let mut rules = Rules::new(variant, &view.options)?;
        rules.passing = false;
        rules.target = 100_000;
        // A blind nil is replayed as a plain nil: the cards are already where the exchange
        // left them, and a bid of 0 must be allowed even where nil is not. The simulated hand
        // offers no blind choice of its own: every seat in it has seen its cards.
        if view.blind.as_ref().is_some_and(|b| !b.bid.is_empty()) {
            rules.nil = true;
        }
        rules.blind_nil = false;
        // What each real seat held when play began.
        let mut start = *hands;
        for t in &view.tricks {
            for (i, c) in t.cards.iter().enumerate() {
                start[t.leader.left(i as u8, n)].insert(*c);
            }
        }
        for p in &view.trick.plays {
            start[p.seat].insert(p.card);
        }
        let passes = if variant == Variant::Filippa {
            Some(filippa_passes(view, &mut start, rng)?)
        } else {
            None
        };
        let rot = |real: Seat| rotate(real, view.dealer, n);
        let deck = stack(view, &rot, &start)?;
        let mut pos = Position {
            game: Game::from_hand(rules, view.hand_number, Seat(n - 1), deck),
            dealer: view.dealer,
            players: n,
        };
        if let Some(passes) = passes {
            for seat in Seat::all(n) {
                let cards = passes[seat].to_vec();
                pos.game
                    .apply(pos.sim_seat(seat), &Action::Pass { cards })?;
            }
        }
        let mut events = Vec::new();
        if let Some(bids) = view.bids {
            // In turn from the dealer's left, as they were made; while bidding, those made so
            // far.
            for k in 1..=n {
                let real = view.dealer.left(k, n);
                let Some(tricks) = bids[real] else {
                    if view.tricks.is_empty() && view.trick.plays.is_empty() {
                        break;
                    }
                    return Err(SimError::Shape("a bid not made yet"));
                };
                pos.game
                    .apply_into(pos.sim_seat(real), &Action::Bid { tricks }, &mut events)?;
            }
        }
        for t in &view.tricks {
            for (i, &card) in t.cards.iter().enumerate() {
                let seat = pos.sim_seat(t.leader.left(i as u8, n));
                pos.game
                    .apply_into(seat, &Action::Play { card }, &mut events)?;
            }
        }
        for p in &view.trick.plays {
            let seat = pos.sim_seat(p.seat);
            pos.game
                .apply_into(seat, &Action::Play { card: p.card }, &mut events)?;
        }
        Ok(pos)
    }
}

/// The seat of a fresh game (dealer `n - 1`) for `real` when the real dealer is `dealer`.
fn rotate(real: Seat, dealer: Seat, n: u8) -> Seat {
    Seat((real.0 + n - (dealer.0 + 1) % n) % n)
}

/// Filippa passes left every hand: turns the post-pass hands in `start` into the dealt hands
/// and returns what each seat passed. The viewer's own pass and what it received are known;
/// the others pass random cards of their receiver's hand (any choice explains the deal).
fn filippa_passes(
    view: &PlayerView,
    start: &mut PerSeat<CardSet>,
    rng: &mut BotRng,
) -> Result<PerSeat<CardSet>, SimError> {
    let n = view.players;
    let me = view.seat.ok_or(SimError::Shape("a spectator"))?;
    let pass = view.pass.as_ref().ok_or(SimError::Shape("no pass"))?;
    let mut passed = PerSeat::<CardSet>::new(n);
    let right = Seat((me.0 + n - 1) % n);
    passed[me] = pass.given;
    passed[right] = pass.received;
    for seat in Seat::all(n) {
        if seat == me || seat == right {
            continue;
        }
        let mut from = start[seat.next(n)];
        for _ in 0..3 {
            let c = from
                .nth(rng.below(from.len()))
                .ok_or(SimError::Shape("a hand too small to pass"))?;
            from.remove(c);
            passed[seat].insert(c);
        }
    }
    let post = *start;
    for seat in Seat::all(n) {
        let giver = Seat((seat.0 + n - 1) % n);
        start[seat] = (post[seat] - passed[giver]) | passed[seat];
    }
    Ok(passed)
}

/// The deck that deals `start` (real seats) to the rotated seats of a fresh game, with the
/// variant's face-up cards where the deal puts them.
fn stack(
    view: &PlayerView,
    rot: &dyn Fn(Seat) -> Seat,
    start: &PerSeat<CardSet>,
) -> Result<[Card; 52], SimError> {
    let n = view.players as usize;
    let rules = Rules::new(view.variant, &view.options)?;
    let size = rules.hand_size(view.hand_number) as usize;
    let mut deck = [Card::TWO_OF_CLUBS; 52];
    let mut used = CardSet::EMPTY;
    for real in Seat::all(view.players) {
        let sim = rot(real).index();
        let mut cards = start[real];
        if cards.len() as usize != size {
            return Err(SimError::Shape("a hand of the wrong size"));
        }
        if view.variant == Variant::Whist && real == view.dealer {
            // The dealer's last card (deck[51]) is the one turned up: any trump of theirs.
            let trump = view.trump.ok_or(SimError::Shape("whist without trump"))?;
            let up = (view.face_up & cards)
                .lowest()
                .or_else(|| cards.of_suit(trump).highest())
                .ok_or(SimError::Shape("a dealer without trump"))?;
            cards.remove(up);
            deck[51] = up;
        }
        for (k, c) in cards.iter().enumerate() {
            deck[sim + n * k] = c;
        }
        used |= start[real];
    }
    // The cards nobody was dealt, those turned face up first (hearts5's pair, Oh Hell's
    // trump card).
    let rest = rules.deck().cards() - used;
    match view.variant {
        Variant::Hearts5 if rest != view.face_up => {
            return Err(SimError::Shape("hearts5 leftovers differ"));
        }
        Variant::OhHell if !(view.face_up - rest).is_empty() => {
            return Err(SimError::Shape("the turned-up card is in a hand"));
        }
        Variant::Hearts5 | Variant::OhHell => {}
        _ if !rest.is_empty() => return Err(SimError::Shape("cards left undealt")),
        _ => {}
    }
    let left_over = view.face_up.iter().filter(|c| rest.contains(*c));
    for (slot, c) in deck[n * size..]
        .iter_mut()
        .zip(left_over.chain((rest - view.face_up).iter()))
    {
        *slot = c;
    }
    Ok(deck)
}
