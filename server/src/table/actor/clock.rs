//! The table's clock: its one timer, the table's own deadlines (closing once nobody is there,
//! pacing the next bot) and each seat's (an absent player's grace period, a turn's time). A
//! thought keeps its own deadline; the timer is set to the earliest of them all.

use std::pin::Pin;
use std::time::Duration;

use parlor_shared::Seat;
use tokio::time::{Instant, Sleep, sleep_until};

/// One seat's deadlines.
#[derive(Debug, Default, Clone, Copy)]
struct SeatClock {
    /// When an absent player's grace period ends.
    grace: Option<Instant>,
    /// When the seat's time for its current turn runs out.
    turn: Option<Instant>,
}

/// The timer and the table's own deadlines.
pub(super) struct Clock {
    /// The one timer, set to the earliest deadline.
    timer: Pin<Box<Sleep>>,
    /// The deadline the timer is set to, if armed: never later than the earliest deadline
    /// (it may be earlier; it then goes off with nothing due and is set again).
    timer_at: Option<Instant>,
    /// When the table closes if still nobody is connected.
    idle_deadline: Option<Instant>,
    /// When the next built-in bot move is due (only with a bot delay).
    bot_due: Option<Instant>,
    /// How long the table lives with nobody connected.
    idle_ttl: Duration,
    /// How long it lives with nobody connected while nobody has ever sat at it.
    unsat_ttl: Duration,
    /// Each seat's deadlines.
    seats: Vec<SeatClock>,
}

impl Clock {
    /// A clock for `players` seats with nothing due.
    pub(super) fn new(players: u8, idle_ttl: Duration, unsat_ttl: Duration) -> Clock {
        Clock {
            timer: Box::pin(sleep_until(Instant::now())),
            timer_at: None,
            idle_deadline: None,
            bot_due: None,
            idle_ttl,
            unsat_ttl,
            seats: vec![SeatClock::default(); usize::from(players)],
        }
    }

    /// True while the timer is set.
    pub(super) fn is_armed(&self) -> bool {
        self.timer_at.is_some()
    }

    /// Goes off when the timer does; it is then unset until [`Clock::set`]. Cancel-safe.
    pub(super) async fn rings(&mut self) {
        self.timer.as_mut().await;
        self.timer_at = None;
    }

    /// True once the table has been empty for its whole time to live.
    pub(super) fn idle_over(&self, now: Instant) -> bool {
        self.idle_deadline.is_some_and(|at| at <= now)
    }

    /// True once the paced bot's delay is over (the deadline is then used up).
    pub(super) fn take_bot_due(&mut self, now: Instant) -> bool {
        take_due(&mut self.bot_due, now)
    }

    /// Starts the bot's delay when a bot waits for pacing (`delay`), unless it runs already;
    /// forgets it when none waits.
    pub(super) fn pace_bot(&mut self, delay: Option<Duration>, now: Instant) {
        match delay {
            Some(delay) => {
                self.bot_due.get_or_insert(now + delay);
            }
            None => self.bot_due = None,
        }
    }

    /// Starts the idle countdown when the table is `empty` (unless it runs already), shorter
    /// for a table nobody ever sat at; stops it when someone is there.
    pub(super) fn count_idle(&mut self, empty: bool, ever_seated: bool, now: Instant) {
        if empty {
            let ttl = if ever_seated {
                self.idle_ttl
            } else {
                self.unsat_ttl.min(self.idle_ttl)
            };
            self.idle_deadline.get_or_insert(now + ttl);
        } else {
            self.idle_deadline = None;
        }
    }

    /// `seat`'s grace period runs until `at` (`None`: it has none).
    pub(super) fn set_grace(&mut self, seat: Seat, at: Option<Instant>) {
        self.seats[seat.index()].grace = at;
    }

    /// `seat`'s time for its turn runs until `at` (`None`: its clock stops).
    pub(super) fn set_turn(&mut self, seat: Seat, at: Option<Instant>) {
        self.seats[seat.index()].turn = at;
    }

    /// Stops every clock of `seat`.
    pub(super) fn stop_seat(&mut self, seat: Seat) {
        self.seats[seat.index()] = SeatClock::default();
    }

    /// Stops every seat's turn clock (the match is over).
    pub(super) fn stop_turns(&mut self) {
        for seat in &mut self.seats {
            seat.turn = None;
        }
    }

    /// True once `seat`'s grace period is over (it is then used up).
    pub(super) fn take_grace_over(&mut self, seat: Seat, now: Instant) -> bool {
        take_due(&mut self.seats[seat.index()].grace, now)
    }

    /// True once `seat`'s time for its turn is over (it is then used up).
    pub(super) fn take_turn_over(&mut self, seat: Seat, now: Instant) -> bool {
        take_due(&mut self.seats[seat.index()].turn, now)
    }

    /// The milliseconds left on `seat`'s turn clock, if it runs.
    pub(super) fn turn_left(&self, seat: Seat, now: Instant) -> Option<u64> {
        let at = self.seats[seat.index()].turn?;
        Some(at.saturating_duration_since(now).as_millis() as u64)
    }

    /// Sets the timer for the earliest deadline: the seats', the table's own, and
    /// `thought`'s (the bot thinking now, if one is).
    pub(super) fn set_for_next(&mut self, thought: Option<Instant>) {
        let seats = self.seats.iter().flat_map(|s| [s.grace, s.turn]);
        let next = seats
            .chain([self.bot_due, self.idle_deadline, thought])
            .flatten()
            .min();
        self.set(next);
    }

    /// Sets the timer for `next`, the earliest deadline of all.
    ///
    /// The timer is set again only for an earlier deadline. Each prompt to a remote bot
    /// starts a clock later than the one before it, so a table in play would otherwise move
    /// its timer at every move; one that goes off early finds nothing due, and the next call
    /// sets it for what is next.
    fn set(&mut self, next: Option<Instant>) {
        match (next, self.timer_at) {
            (None, _) => self.timer_at = None,
            (Some(at), Some(armed)) if armed <= at => {}
            (Some(at), _) => {
                self.timer.as_mut().reset(at);
                self.timer_at = Some(at);
            }
        }
    }

    /// Gives back the time a pause took; the timer is set again from the moved deadlines.
    pub(super) fn move_on(&mut self, by: Duration) {
        let seats = self
            .seats
            .iter_mut()
            .flat_map(|s| [&mut s.turn, &mut s.grace]);
        for at in seats
            .chain([&mut self.bot_due, &mut self.idle_deadline])
            .flatten()
        {
            *at += by;
        }
        self.timer_at = None;
    }
}

/// True once `deadline` has passed; it is then cleared.
fn take_due(deadline: &mut Option<Instant>, now: Instant) -> bool {
    let due = deadline.is_some_and(|at| at <= now);
    if due {
        *deadline = None;
    }
    due
}
