//! Whether a move answers the seat's current prompt: each prompt is answered once.
//!
//! An `impl TableActor` block that only reads: it refuses answers to earlier prompts, to
//! prompts never sent, and repeated plays, before the engine sees them (a repeated card must
//! never reach the rules, where `tricks` could count it as a bad card). It may not change the
//! game or the seats.

use parlor_shared::{Action, Card, Game, Phase, Seat};

use crate::table::TableError;

use super::TableActor;

impl TableActor {
    /// Checks that a move from `seat` answers its current prompt. With `seq`, the move names
    /// the prompt it answers; without, it answers the current prompt, unless it is a repeated
    /// answer: a card the seat already played this hand, its last move again while it has
    /// no prompt, or its last card again when it no longer holds it or is asked to pass (the
    /// card that ended a hand, sent twice, may be dealt to it again in the next).
    pub(super) fn check_answer(
        &self,
        seat: Seat,
        answered: Option<u64>,
        action: &Action,
    ) -> Result<(), TableError> {
        let current = self.play.prompt_seq(seat);
        let asked = self.play.is_asked(seat);
        match answered {
            Some(answered) if answered > current => {
                Err(TableError::UnknownPrompt { answered, current })
            }
            Some(answered) if answered < current && asked => {
                Err(TableError::StaleMove { answered, current })
            }
            Some(answered) if !asked => Err(TableError::AlreadyAnswered { answered }),
            Some(_) => Ok(()),
            None => {
                let Some(game) = self.play.game() else {
                    return Ok(());
                };
                let repeated = self.play.last_action(seat) == Some(action);
                let duplicate = (repeated && !asked)
                    || match action {
                        Action::Play { card } => {
                            played_this_hand(game, seat, *card)
                                || (repeated
                                    && (!game.hand(seat).contains(*card)
                                        || game.phase() != Phase::Playing))
                        }
                        Action::Pass { .. } => repeated && !game.to_pass().contains(seat),
                        Action::Bid { .. } | Action::BlindNil => {
                            repeated && game.bids().is_some_and(|bids| bids[seat].is_some())
                        }
                        Action::SeeCards => repeated && !game.face_down().contains(seat),
                        Action::Exchange { .. }
                        | Action::Call(_)
                        | Action::Discard { .. }
                        | Action::Claim { .. }
                        | Action::AnswerClaim { .. } => repeated && !game.to_act().contains(seat),
                    };
                if duplicate {
                    return Err(TableError::DuplicateMove {
                        action: action.clone(),
                    });
                }
                Ok(())
            }
        }
    }
}

/// True when `seat` played `card` in the current hand (in a finished trick or the open one).
fn played_this_hand(game: &Game, seat: Seat, card: Card) -> bool {
    let players = game.players();
    let out = game.sitting_out();
    let in_open = game
        .trick()
        .plays(players, out)
        .any(|play| play == (seat, card));
    in_open
        || game.completed_plays().iter().any(|trick| {
            let mut by = trick.leader();
            trick.cards().iter().any(|&c| {
                let played = (by, c) == (seat, card);
                by = out.next_outside(by, players);
                played
            })
        })
}
