//! The action log of a match: every `(seat, action)` in order. With the variant, options and
//! seed it is the whole match (replay, persistence, bug reports).
//!
//! Stored compactly, two bytes a play, because a table keeps it for a whole match and the
//! server holds thousands of tables: a `Vec<(Seat, Action)>` costs 32 bytes an entry.

use parlor_shared::{Action, Card, Seat};

/// Marks a pass record (the seat byte's top bit).
const PASS: u8 = 0x80;

/// Every action of one match, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActionLog {
    /// Records: a play is `[seat, card]`; a pass is `[seat | PASS, count, cards...]`.
    bytes: Vec<u8>,
    /// Actions recorded.
    len: usize,
}

impl ActionLog {
    /// Appends one action.
    pub fn push(&mut self, seat: Seat, action: &Action) {
        match action {
            Action::Play { card } => self.bytes.extend([seat.0, card.index()]),
            Action::Pass { cards } => {
                self.bytes.extend([seat.0 | PASS, cards.len() as u8]);
                self.bytes.extend(cards.iter().map(|c| c.index()));
            }
        }
        self.len += 1;
    }

    /// Forgets everything (a new match), keeping the memory for it.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.len = 0;
    }

    /// Actions recorded.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing has been played.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The actions in order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, Action)> + '_ {
        let mut rest = self.bytes.as_slice();
        std::iter::from_fn(move || {
            let (&head, tail) = rest.split_first()?;
            if head & PASS == 0 {
                let (&card, tail) = tail.split_first()?;
                rest = tail;
                Some((
                    Seat(head),
                    Action::Play {
                        card: Card::from_index(card),
                    },
                ))
            } else {
                let (&count, tail) = tail.split_first()?;
                let (cards, tail) = tail.split_at(count as usize);
                rest = tail;
                let cards = cards.iter().map(|&c| Card::from_index(c)).collect();
                Some((Seat(head & !PASS), Action::Pass { cards }))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::{Game, Options, Variant};

    #[test]
    fn a_match_replays_from_its_log() {
        let mut game = Game::new(Variant::Hearts, &Options::default(), 5).unwrap();
        let mut log = ActionLog::default();
        let mut actions = Vec::new();
        while !game.is_over() && actions.len() < 300 {
            let seat = game.to_act().iter().next().unwrap();
            let action = match game.legal_actions(seat) {
                parlor_shared::Legal::Play { cards } => Action::Play {
                    card: cards.highest().unwrap(),
                },
                parlor_shared::Legal::Pass { from, .. } => Action::Pass {
                    cards: from.iter().take(3).collect(),
                },
                parlor_shared::Legal::Wait => unreachable!(),
            };
            game.apply(seat, &action).unwrap();
            log.push(seat, &action);
            actions.push((seat, action));
        }
        assert_eq!(log.len(), actions.len());
        assert_eq!(log.iter().collect::<Vec<_>>(), actions);
        let mut replay = Game::new(Variant::Hearts, &Options::default(), 5).unwrap();
        for (seat, action) in log.iter() {
            replay.apply(seat, &action).unwrap();
        }
        assert_eq!(
            parlor_shared::PlayerView::of(&replay, None),
            parlor_shared::PlayerView::of(&game, None)
        );
    }
}
