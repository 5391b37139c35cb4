//! A game's score sheet: a plain list, or one shared with the views made of the game.
//!
//! A table makes a view at every prompt, and each view copied the lines, or compared a kept
//! copy with them. Shared, a view takes a reference instead, and a hand's end adds its line to a
//! copy only while a view still holds the old lines (`Arc::make_mut`), so lines a view holds
//! never change under it. Only a game whose views are made again and again asks for that
//! ([`Game::keep_history_shared`](super::Game::keep_history_shared)): the games a bot simulates
//! are cloned for every card it tries, and a shared list made every clone, drop and hand's end
//! count atomically (a `strong` move in whist took 7% longer, four alternated runs).

use std::sync::Arc;

use crate::rules::event::HandResult;

/// One line per finished hand, owned or shared.
#[derive(Clone, Debug)]
pub(super) enum Lines {
    /// Held by this game alone.
    Owned(Vec<HandResult>),
    /// Shared with views; copied when a line is added while they hold it.
    Shared(Arc<Vec<HandResult>>),
}

impl Default for Lines {
    fn default() -> Self {
        Lines::Owned(Vec::new())
    }
}

/// Two score sheets are equal when their lines are, however each is kept.
impl PartialEq for Lines {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Lines {}

impl Lines {
    /// The lines.
    pub(super) fn as_slice(&self) -> &[HandResult] {
        match self {
            Lines::Owned(lines) => lines,
            Lines::Shared(lines) => lines,
        }
    }

    /// Adds a finished hand's line.
    pub(super) fn push(&mut self, line: HandResult) {
        match self {
            Lines::Owned(lines) => lines.push(line),
            Lines::Shared(lines) => Arc::make_mut(lines).push(line),
        }
    }

    /// Keeps the lines shared from now on (moved, not copied).
    pub(super) fn share(&mut self) {
        if let Lines::Owned(lines) = self {
            *self = Lines::Shared(Arc::new(std::mem::take(lines)));
        }
    }

    /// The lines as a view holds them: the shared ones, or a copy of owned ones.
    pub(super) fn shared(&self) -> Arc<Vec<HandResult>> {
        match self {
            Lines::Owned(lines) => Arc::new(lines.clone()),
            Lines::Shared(lines) => Arc::clone(lines),
        }
    }
}
