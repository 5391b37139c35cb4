//! Helpers the store's and the table outbox's unit tests share: a temporary directory, a first
//! legal move and a table's seats as stored.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use parlor_shared::protocol::Occupant;
use parlor_shared::{Action, Game, Legal, Options, Seat, Variant};

use super::SeatRow;

/// A fresh directory, removed on drop.
pub(crate) struct Dir(pub(crate) PathBuf);

impl Dir {
    pub(crate) fn new(name: &str) -> Dir {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "parlor-test-{name}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        Dir(dir)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The first legal action of the first seat to act.
pub(crate) fn first_legal(game: &Game) -> (Seat, Action) {
    let seat = game.to_act().iter().next().expect("someone acts");
    let action = match game.legal_actions(seat) {
        Legal::Play { cards } => Action::Play {
            card: cards.lowest().expect("a card"),
        },
        Legal::Pass { count, from, .. } => Action::Pass {
            cards: from.iter().take(count as usize).collect(),
        },
        Legal::Bid { min, forbidden, .. } => Action::Bid {
            tricks: if forbidden == Some(min) { min + 1 } else { min },
        },
        Legal::Blind => Action::SeeCards,
        Legal::Exchange { count, from, .. } => Action::Exchange {
            cards: from.iter().take(count as usize).collect(),
        },
        legal @ Legal::Call { .. } => Action::Call(legal.calls()[0]),
        Legal::Discard { from } => Action::Discard {
            card: from.lowest().expect("a card"),
        },
        Legal::AnswerClaim { .. } => Action::AnswerClaim { accept: true },
        Legal::Wait => unreachable!("a seat to act has a move"),
    };
    (seat, action)
}

pub(crate) fn seat_rows() -> Vec<SeatRow> {
    (0..4u8)
        .map(|seat| SeatRow {
            seat,
            occupant: if seat == 3 {
                Occupant::Bot
            } else {
                Occupant::Human
            },
            name: Some(format!("p{seat}")),
            token: (seat != 3).then(|| format!("token{seat}")),
            strategy: (seat == 3).then(|| "heuristic".to_string()),
            bot_playing: false,
            account: None,
        })
        .collect()
}

/// Every hearts option, spelled out.
pub(crate) fn hearts_options() -> Options {
    parlor_shared::Rules::new(Variant::Hearts, &Options::default())
        .expect("defaults")
        .options()
}
