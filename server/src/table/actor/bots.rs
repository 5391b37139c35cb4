//! The server's own moves: which seat it moves for, handing that seat's bot to the thinking
//! pool, and taking the answer back (or playing the fallback when it is late or wrong).
//!
//! An `impl TableActor` block: a bot's move reaches the game only through `apply`, and only
//! while the seat is still to act at the position the bot thought about.

use std::time::Duration;

use parlor_shared::bots::{HeuristicBot, Strategy};
use parlor_shared::fair;
use parlor_shared::protocol::{Occupant, TableStatus};
use parlor_shared::{Action, Phase, PlayerView, Seat, Variant};
use tokio::time::Instant;

use crate::table::thinking::{Answer, Asked, Bots, Thought};

use super::{Changes, TableActor};

/// Where the table's bots come from and think, the thought under way, and the seats the
/// server plays.
pub(super) struct TableBots {
    /// Makes the table's bots and runs their thinking.
    pool: Bots,
    /// The bot thinking for the table, if one is: at most one at a time.
    thought: Option<Thought>,
    /// How the server plays each seat, if it does.
    seats: Vec<SeatBot>,
}

/// How the server plays one seat.
#[derive(Debug, Default, Clone, Copy)]
struct SeatBot {
    /// A built-in bot's strategy name (a fresh bot of it is made for each decision).
    strategy: Option<&'static str>,
    /// True while the stand-in plays for an absent player, or for a seat given up during
    /// the match (shown to everyone).
    standing_in: bool,
}

impl TableBots {
    /// Bots from `pool` for `players` seats, none thinking yet.
    pub(super) fn new(pool: Bots, players: u8) -> TableBots {
        TableBots {
            pool,
            thought: None,
            seats: vec![SeatBot::default(); usize::from(players)],
        }
    }

    /// A fresh built-in bot of strategy `name` for `variant`, seeded by `seed`; `None` when
    /// there is no such strategy for the variant.
    pub(super) fn make(
        &self,
        name: &str,
        variant: Variant,
        seed: u64,
    ) -> Option<Box<dyn Strategy>> {
        self.pool.make(name, variant, seed)
    }

    /// True while a bot thinks for the table.
    pub(super) fn is_thinking(&self) -> bool {
        self.thought.is_some()
    }

    /// When the thought under way must have answered, if one is.
    pub(super) fn thought_deadline(&self) -> Option<Instant> {
        self.thought.as_ref().map(|t| t.deadline)
    }

    /// True once the thought under way is out of time.
    pub(super) fn thought_due(&self, now: Instant) -> bool {
        self.thought.as_ref().is_some_and(|t| t.deadline <= now)
    }

    /// Gives the thought under way the time a pause took.
    pub(super) fn give_thought_time(&mut self, by: Duration) {
        if let Some(thought) = &mut self.thought {
            thought.deadline += by;
        }
    }

    /// The answer of the thought under way (never ready without one). Cancel-safe.
    pub(super) async fn answer(&mut self) -> Option<Answer> {
        match &mut self.thought {
            Some(thought) => thought.answer().await,
            None => std::future::pending().await,
        }
    }

    /// The built-in strategy kept for `seat`, if any.
    pub(super) fn strategy(&self, seat: Seat) -> Option<&'static str> {
        self.seats[seat.index()].strategy
    }

    /// `seat` is played by the built-in `strategy` (`None`: by no built-in bot).
    pub(super) fn set_strategy(&mut self, seat: Seat, strategy: Option<&'static str>) {
        self.seats[seat.index()].strategy = strategy;
    }

    /// True while the stand-in plays `seat`.
    pub(super) fn standing_in(&self, seat: Seat) -> bool {
        self.seats[seat.index()].standing_in
    }

    /// The stand-in starts (`true`) or stops playing `seat`.
    pub(super) fn set_standing_in(&mut self, seat: Seat, standing_in: bool) {
        self.seats[seat.index()].standing_in = standing_in;
    }

    /// Forgets how `seat` was played: the seat is free.
    pub(super) fn forget_seat(&mut self, seat: Seat) {
        self.seats[seat.index()] = SeatBot::default();
    }

    /// True when the server decides the moves of `seat`, held by `occupant`: a built-in bot,
    /// or the stand-in.
    pub(super) fn server_plays(&self, seat: Seat, occupant: Occupant) -> bool {
        occupant == Occupant::Bot || self.standing_in(seat)
    }
}

impl TableActor {
    /// True when the server moves for `seat` now: a built-in bot, a stand-in for an absent
    /// player, or a remote bot whose time ran out.
    fn server_moves(&self, seat: Seat) -> bool {
        self.server_plays(seat) || self.play.is_overdue(seat)
    }

    /// The first seat the server has to move for now, if any.
    pub(super) fn next_bot_seat(&self) -> Option<Seat> {
        if self.play.status() != TableStatus::Playing {
            return None;
        }
        let game = self.play.game()?;
        game.to_act().iter().find(|&seat| self.server_moves(seat))
    }

    /// The seat whose bot may start thinking: none while another thinks.
    fn bot_to_start(&self) -> Option<Seat> {
        if self.bots.thought.is_some() {
            return None;
        }
        self.next_bot_seat()
    }

    /// True when a bot starts thinking at once: no pacing asked, or a remote bot's time ran out.
    pub(super) fn bot_starts_now(&self) -> bool {
        self.bot_to_start().is_some_and(|seat| {
            self.spec.table_options.bot_delay_ms == 0 || self.play.is_overdue(seat)
        })
    }

    /// True when the next bot waits `bot_delay_ms` before it starts thinking.
    pub(super) fn bot_waits_for_pacing(&self) -> bool {
        self.spec.table_options.bot_delay_ms > 0
            && self
                .bot_to_start()
                .is_some_and(|seat| !self.play.is_overdue(seat))
    }

    /// Starts the next bot thinking, if one is due and none thinks yet.
    pub(super) fn bot_move(&mut self) {
        let Some(seat) = self.bot_to_start() else {
            return;
        };
        let Some(game) = self.play.game() else { return };
        let view = PlayerView::of(game, Some(seat));
        // A fresh bot for every decision, seeded by the match, the seat and the decision
        // (`bot_seed`): a table rebuilt after a crash makes exactly the choices it would have.
        let bot = self.new_bot(seat);
        let asked = Asked {
            seat,
            seq: self.play.seq(),
            occupant: self.seating.occupant(seat),
        };
        self.bots.thought = Some(self.bots.pool.think(bot, view, asked));
    }

    /// A fresh bot for `seat`'s next decision: its built-in strategy, or the stand-in.
    fn new_bot(&self, seat: Seat) -> Box<dyn Strategy> {
        let seed = self.bot_seed(seat);
        let own = self
            .bots
            .strategy(seat)
            .filter(|_| self.seating.occupant(seat) == Occupant::Bot)
            .and_then(|name| self.bots.pool.make(name, self.spec.variant, seed));
        own.unwrap_or_else(|| self.bots.pool.stand_in(self.spec.variant, seed))
    }

    /// True while a thought asked about `asked` still applies: a match is on, nothing was
    /// played since, the seat is to act and the server still moves for it.
    fn still_applies(&self, asked: &Asked) -> bool {
        self.play.status() == TableStatus::Playing
            && self.play.seq() == asked.seq
            && self
                .play
                .game()
                .is_some_and(|g| g.to_act().contains(asked.seat))
            && self.server_moves(asked.seat)
    }

    /// Tells a thought that no longer applies to stop now; its answer is discarded when it
    /// comes (it brings the bot back).
    pub(super) fn cancel_stale_thought(&self) {
        if let Some(thought) = &self.bots.thought
            && !self.still_applies(&thought.asked)
        {
            thought.cancel();
        }
    }

    /// A thought came back: the bot returns to its seat, and its move is played if the seat is
    /// still to act where it was asked (a person back in the seat, a match over, a remote bot
    /// that answered meanwhile: discarded).
    pub(super) fn take_answer(&mut self, answer: Option<Answer>) -> Changes {
        let Some(thought) = self.bots.thought.take() else {
            return Changes::default();
        };
        let asked = thought.asked;
        let action = match answer {
            // The bot itself is not kept: a fresh one is made for each decision.
            Some(Answer { action, .. }) => action,
            None => {
                tracing::warn!(table = %crate::store::log_tag(&self.spec.id), seat = %asked.seat, "a bot's thought was lost");
                None
            }
        };
        if !self.still_applies(&asked) {
            tracing::debug!(table = %crate::store::log_tag(&self.spec.id), seat = %asked.seat, "a bot's answer came too late: discarded");
            return Changes::default();
        }
        self.play_for(asked.seat, action)
    }

    /// The thought's time is up: the fallback is played for its seat, and the thought is
    /// dropped (told to stop; its answer and bot are not waited for).
    pub(super) fn thought_overdue(&mut self) -> Changes {
        let Some(thought) = self.bots.thought.take() else {
            return Changes::default();
        };
        if !self.still_applies(&thought.asked) {
            return Changes::default();
        }
        let seat = thought.asked.seat;
        tracing::warn!(table = %crate::store::log_tag(&self.spec.id), %seat, "a bot ran out of time: the fallback plays");
        self.play_for(seat, None)
    }

    /// Plays `action` for `seat`, or `HeuristicBot::fallback` when there is none or it is
    /// illegal.
    fn play_for(&mut self, seat: Seat, action: Option<Action>) -> Changes {
        let Some(game) = self.play.game() else {
            return Changes::default();
        };
        let action = match action {
            Some(action) if game.allows(seat, &action) => action,
            other => {
                if other.is_some() {
                    tracing::warn!(table = %crate::store::log_tag(&self.spec.id), %seat, "bot chose an illegal move");
                }
                match HeuristicBot::fallback(&PlayerView::of(game, Some(seat))) {
                    Some(fallback) => fallback,
                    None => return Changes::default(),
                }
            }
        };
        self.apply(seat, action).unwrap_or_else(|err| {
            tracing::error!(table = %crate::store::log_tag(&self.spec.id), %seat, %err, "a legal bot move was refused");
            Changes::default()
        })
    }

    /// The seed of `seat`'s bot for its decision now: derived one-way from the match's
    /// master secret and the decision as the game names it (`fair::bot_seed`), so it is the
    /// same after a restart, whatever order other seats moved in, and tells nothing of the
    /// deals. Matches stored before fair deals mix their seed with the same decision.
    pub(super) fn bot_seed(&self, seat: Seat) -> u64 {
        let Some(game) = self.play.game() else {
            return self.spec.seed.unwrap_or(0).wrapping_add(u64::from(seat.0));
        };
        let decision = fair::Decision {
            hand: game.hand_number(),
            passing: game.phase() == Phase::Passing,
            held: game.hand(seat).len() as u8,
        };
        if let Some(master) = game.master() {
            return fair::bot_seed(master, seat, decision);
        }
        let key = (u64::from(decision.hand) << 16)
            | (u64::from(decision.passing) << 8)
            | u64::from(decision.held);
        game.seed()
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(u64::from(seat.0) + 1)
            ^ key.wrapping_mul(0xD1B5_4A32_D192_ED03)
    }
}
