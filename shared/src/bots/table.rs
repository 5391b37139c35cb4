//! What a bot knows at its turn, in a compact form that can be built from a [`PlayerView`]
//! (real play) or straight from a [`Game`] (fast rollouts inside a sampled deal, where the
//! seat's own hand is what that world gives it).

use crate::card::{Card, CardSet, Suit};
use crate::rules::{Game, Legal, Variant};
use crate::seat::{MAX_SEATS, PerSeat, Seat};
use crate::view::PlayerView;

/// One seat's knowledge at its turn to play a card.
#[derive(Clone, Debug)]
pub struct Table {
    /// The variant.
    pub variant: Variant,
    /// Seats at the table.
    pub players: u8,
    /// The seat deciding.
    pub me: Seat,
    /// Its cards.
    pub hand: CardSet,
    /// The cards it may play now.
    pub legal: CardSet,
    /// Who led the trick on the table.
    pub leader: Seat,
    /// The trick's cards in play order.
    trick: [Card; MAX_SEATS],
    /// How many cards are on the table.
    trick_len: usize,
    /// The trump suit, if any.
    pub trump: Option<Suit>,
    /// The cards the game deals (the standard 52, or Spades' with jokers).
    pub deck: CardSet,
    /// Cards out of play this hand: played (finished tricks and the table), hearts5's undealt
    /// pair and Oh Hell's turned-up card.
    pub out: CardSet,
    /// The cards each seat has taken in finished tricks this hand.
    pub taken: PerSeat<CardSet>,
    /// True during the hand's first trick.
    pub first_trick: bool,
    /// Tricks each seat has taken this hand.
    pub tricks_won: PerSeat<u8>,
    /// Each seat's bid this hand, in the variants that bid.
    pub bids: Option<PerSeat<Option<u8>>>,
}

/// True when the cards a variant shows face up are in nobody's hand (hearts5's undealt pair,
/// Oh Hell's turned-up card), rather than in the dealer's (whist's trump card).
fn face_up_is_out(variant: Variant) -> bool {
    matches!(variant, Variant::Hearts5 | Variant::OhHell)
}

impl Table {
    /// The knowledge of the viewer of `view`; `None` when it has no card to play.
    #[must_use]
    pub fn from_view(view: &PlayerView) -> Option<Table> {
        let me = view.seat?;
        let Legal::Play { cards } = view.legal else {
            return None;
        };
        let mut taken = PerSeat::new(view.players);
        for t in &view.tricks {
            taken[t.winner] |= t.cards.iter().copied().collect::<CardSet>();
        }
        let mut trick = [Card::TWO_OF_CLUBS; MAX_SEATS];
        for (slot, play) in trick.iter_mut().zip(&view.trick.plays) {
            *slot = play.card;
        }
        let undealt = if face_up_is_out(view.variant) {
            view.face_up
        } else {
            CardSet::EMPTY
        };
        Some(Table {
            variant: view.variant,
            players: view.players,
            me,
            hand: view.hand,
            legal: cards,
            leader: view.trick.leader,
            trick,
            trick_len: view.trick.plays.len(),
            trump: view.trump,
            deck: view.deck().cards(),
            out: view.played_cards() | undealt,
            taken,
            first_trick: view.tricks.is_empty(),
            tricks_won: view.tricks_won,
            bids: view.bids,
        })
    }

    /// The knowledge of `seat` in `game` (the seat whose turn it is).
    #[must_use]
    pub fn from_game(game: &Game, seat: Seat) -> Table {
        let t = game.trick();
        let mut trick = [Card::TWO_OF_CLUBS; MAX_SEATS];
        trick[..t.len()].copy_from_slice(&t.cards());
        let taken = game.taken();
        let mut out = t.card_set();
        for (_, cards) in taken.iter() {
            out |= *cards;
        }
        if face_up_is_out(game.variant()) {
            out |= game.face_up();
        }
        Table {
            variant: game.variant(),
            players: game.players(),
            me: seat,
            hand: game.hand(seat),
            legal: game.legal_plays(seat),
            leader: t.leader(),
            trick,
            trick_len: t.len(),
            trump: game.trump(),
            deck: game.rules().deck().cards(),
            out,
            taken,
            first_trick: game.completed_count() == 0,
            tricks_won: game.tricks_won(),
            bids: game.bids(),
        }
    }

    /// An empty Hearts-like table for `me` that a caller fills in move by move (fast rollouts
    /// that keep their own position instead of a [`Game`]); see [`Table::set_trick`].
    #[must_use]
    pub fn blank(variant: Variant, players: u8, me: Seat) -> Table {
        Table {
            variant,
            players,
            me,
            hand: CardSet::EMPTY,
            legal: CardSet::EMPTY,
            leader: me,
            trick: [Card::TWO_OF_CLUBS; MAX_SEATS],
            trick_len: 0,
            trump: None,
            deck: CardSet::FULL,
            out: CardSet::EMPTY,
            taken: PerSeat::new(players),
            first_trick: true,
            tricks_won: PerSeat::new(players),
            bids: None,
        }
    }

    /// Puts `cards` (play order, led by `leader`) on the table.
    pub fn set_trick(&mut self, leader: Seat, cards: &[Card]) {
        self.leader = leader;
        self.trick[..cards.len()].copy_from_slice(cards);
        self.trick_len = cards.len();
    }

    /// The cards on the table in play order.
    #[must_use]
    pub fn trick(&self) -> &[Card] {
        &self.trick[..self.trick_len]
    }

    /// The suit led, if a card is down.
    #[must_use]
    pub fn led(&self) -> Option<Suit> {
        self.trick().first().map(|c| c.suit())
    }

    /// True when the seat's card completes the trick.
    #[must_use]
    pub fn is_last(&self) -> bool {
        self.trick_len + 1 == self.players as usize
    }

    /// How many cards are already on the table (0 when leading).
    #[must_use]
    pub fn position(&self) -> usize {
        self.trick_len
    }

    /// Whether `card` beats `best` (the card winning so far) under this hand's trump.
    #[must_use]
    pub fn beats(&self, card: Card, best: Card) -> bool {
        if card.suit() == best.suit() {
            card.rank() > best.rank()
        } else {
            Some(card.suit()) == self.trump
        }
    }

    /// The seat and card winning the trick so far.
    #[must_use]
    pub fn winning(&self) -> Option<(Seat, Card)> {
        let mut best: Option<(usize, Card)> = None;
        for (i, &c) in self.trick().iter().enumerate() {
            best = match best {
                Some((_, b)) if !self.beats(c, b) => best,
                _ => Some((i, c)),
            };
        }
        best.map(|(i, c)| (self.leader.left(i as u8, self.players), c))
    }

    /// Cards whose holder the seat cannot see: not its own and not out of play.
    #[must_use]
    pub fn unseen(&self) -> CardSet {
        self.deck - self.hand - self.out
    }

    /// True when no unseen card of `card`'s suit is higher (it wins any trick of its suit that
    /// is not trumped).
    #[must_use]
    pub fn is_master(&self, card: Card) -> bool {
        self.unseen()
            .of_suit(card.suit())
            .iter()
            .all(|c| c.rank() < card.rank())
    }

    /// True when `seat` has played to the trick on the table.
    #[must_use]
    pub fn has_played(&self, seat: Seat) -> bool {
        (0..self.trick_len).any(|i| self.leader.left(i as u8, self.players) == seat)
    }

    /// The cards now on the table as a set.
    #[must_use]
    pub fn trick_set(&self) -> CardSet {
        self.trick().iter().copied().collect()
    }
}
