//! A finished match's result: who sat where (the rated entrants: built-in strategies, and
//! registered bots by their account), their places, stored with the final move and given to
//! the ratings.
//!
//! An `impl TableActor` block; it reads the game and the seats and changes neither.

use parlor_shared::protocol::Occupant;

use crate::ratings::{Entrant, MatchResult, places_of, row_of};
use crate::store::now_millis;

use super::TableActor;

impl TableActor {
    /// Stores the result of the match that just ended and updates the ratings.
    pub(super) fn report_result(&mut self) {
        let Some(game) = self.play.game() else { return };
        let facts = self.spec.variant.facts();
        let entrants = self
            .seating
            .all()
            .map(|seat| {
                let holder = (
                    self.seating.occupant(seat),
                    self.bots.strategy(seat),
                    self.seating.account(seat),
                );
                match holder {
                    (Occupant::Bot, Some(name), _) => Some(Entrant::builtin(name)),
                    (Occupant::RemoteBot, _, Some(account)) => Some(Entrant::bot(account)),
                    _ => None,
                }
            })
            .collect();
        let totals = game.totals();
        let totals: Vec<i32> = self.seating.all().map(|seat| totals[seat]).collect();
        let winners: Vec<u8> = game.winners().iter().map(|s| s.0).collect();
        let result = MatchResult {
            variant: self.spec.variant.to_string(),
            table: self.spec.id.clone(),
            match_no: self.play.matches_played(),
            at: now_millis(),
            places: places_of(
                &totals,
                &winners,
                facts.partnerships,
                facts.low_score_wins,
                entrants,
            ),
            listed: self.spec.table_options.listed,
        };
        self.outbox.record_result(row_of(&result));
        self.ratings.apply(&result);
    }
}
