//! Pausing while the store cannot write: the table stops, never the truth. The store says when
//! its writes stop going through ([`crate::store::Store::saving`]) and keeps retrying them.
//! Meanwhile the table tells everyone there (`storage`, `saving: false`), refuses every request
//! with `storage_unavailable` (at once: a refusal carries nothing unstored), makes no bot moves
//! and lets no clock run out; what it did before waits in the outbox until stored. When the store
//! writes again the clocks move on by the pause, everyone is told (`saving: true`), each seat
//! whose turn it is is asked again and play goes on. An `impl TableActor` block plus the pause's
//! state; it never writes to the store itself.

use std::task::{Poll, ready};
use std::time::Duration;

use parlor_shared::protocol::ServerMsg;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::ReusableBoxFuture;

use super::{Changes, TableActor};
use crate::conn::frame;
use crate::store::SharedLog;
use crate::table::{TableError, TableMsg};

/// Whether the table is paused, and what it watches to know.
pub(super) struct Pause {
    /// The store's "writes go through" flag (never changes without a store).
    saving: SavingFlag,
    /// When the pause began.
    since: Option<Instant>,
}

impl Pause {
    /// Watches `store`, if there is one.
    pub(super) fn new(store: Option<&SharedLog>) -> Pause {
        Pause {
            saving: SavingFlag::new(store.map(|store| store.saving())),
            since: None,
        }
    }

    /// True while the store cannot write.
    pub(super) fn is_paused(&self) -> bool {
        self.since.is_some()
    }

    /// Whether the store wrote when the table opened (`true` without a store).
    pub(super) fn saving_at_start(&self) -> bool {
        self.saving.at_start
    }

    /// Resolves with the store's flag when it changes; never without a store. Cancel-safe.
    pub(super) fn saving_changed(&mut self) -> impl Future<Output = bool> + '_ {
        self.saving.changed()
    }
}

/// The store's flag, watched by one wait kept from one turn of the table's loop to the next.
///
/// Why kept: every table watches the same flag, and a wait made afresh at each turn joined
/// the flag's list of waiters and left it again, each under the list's lock, shared by every
/// table on both of the runtime's threads. Kept, a turn only looks at the wait it has.
struct SavingFlag {
    /// The flag when the table opened (`true` without a store).
    at_start: bool,
    /// The wait for its next change (`None`: no store, or it is gone).
    waiting: Option<ReusableBoxFuture<'static, Changed>>,
}

/// The flag's new value (`None`: the store is gone), and the receiver to wait on next.
type Changed = (Option<bool>, watch::Receiver<bool>);

impl SavingFlag {
    fn new(saving: Option<watch::Receiver<bool>>) -> SavingFlag {
        let Some(mut rx) = saving else {
            return SavingFlag {
                at_start: true,
                waiting: None,
            };
        };
        let at_start = *rx.borrow_and_update();
        SavingFlag {
            at_start,
            waiting: Some(ReusableBoxFuture::new(next_change(rx))),
        }
    }

    /// Resolves with the flag when it changes; never without a store (or once it is gone).
    /// Cancel-safe: the wait goes on at the next call.
    fn changed(&mut self) -> impl Future<Output = bool> + '_ {
        std::future::poll_fn(|cx| {
            let Some(waiting) = &mut self.waiting else {
                return Poll::Pending;
            };
            let (now, rx) = ready!(waiting.poll(cx));
            match now {
                Some(saving) => {
                    waiting.set(next_change(rx));
                    Poll::Ready(saving)
                }
                None => {
                    self.waiting = None;
                    Poll::Pending
                }
            }
        })
    }
}

/// Waits for the flag's next change.
async fn next_change(mut rx: watch::Receiver<bool>) -> Changed {
    let now = match rx.changed().await {
        Ok(()) => Some(*rx.borrow_and_update()),
        Err(_) => None,
    };
    (now, rx)
}

impl TableActor {
    /// Follows the store's flag: pauses or resumes, telling everyone at the table.
    pub(super) fn storage_changed(&mut self, saving: bool) -> Changes {
        let now = Instant::now();
        match (saving, self.pause.since) {
            (false, None) => {
                tracing::warn!(table = %crate::store::log_tag(&self.spec.id), "the store cannot write: the table pauses");
                self.pause.since = Some(now);
                self.tell_everyone(
                    false,
                    "The server cannot save the game right now, so the table is paused. \
                     Play resumes by itself as soon as it can; nothing is lost.",
                )
            }
            (true, Some(since)) => {
                tracing::info!(table = %crate::store::log_tag(&self.spec.id), "the store writes again: the table resumes");
                self.pause.since = None;
                self.move_clocks_on(now - since);
                let mut changes =
                    self.tell_everyone(true, "The server can save again: play resumes.");
                changes.merge(self.prompt_again());
                changes
            }
            _ => Changes::default(),
        }
    }

    /// Refuses `msg`, the table being paused: at once, not behind unstored output. A
    /// connection going away is not refused but handled.
    pub(super) fn refuse(&mut self, msg: TableMsg) -> Changes {
        let refusal = frame(&TableError::StorageUnavailable.to_msg());
        match msg {
            TableMsg::Join { conn, reply, .. } => {
                conn.send(refusal);
                let _ = reply.send(false);
            }
            TableMsg::Request { conn, .. } => {
                if let Some(c) = self.seating.conn_of(conn)
                    && !c.send(refusal)
                {
                    return Changes::dropping(vec![conn]);
                }
            }
            TableMsg::Admin { reply, .. } => {
                let _ = reply.send(Err(TableError::StorageUnavailable));
            }
            TableMsg::Invite { reply, .. } => {
                let _ = reply.send(Err(TableError::StorageUnavailable));
            }
            TableMsg::Disconnected { conn } => return self.handle_disconnect(conn),
        }
        Changes::default()
    }

    /// Sends `storage` to every connection at the table, at once.
    fn tell_everyone(&mut self, saving: bool, message: &str) -> Changes {
        let msg = frame(&ServerMsg::Storage {
            saving,
            message: message.to_string(),
        });
        let mut changes = Changes::default();
        for conn in self.seating.connected() {
            if !conn.send(msg.clone()) {
                changes.dropped.push(conn.id);
            }
        }
        changes
    }

    /// Asks every seat whose turn it is again (the same prompt, same `seq`, the time left on
    /// its clock): an answer sent during a pause was refused, or another seat's move made
    /// the prompt stale.
    pub(super) fn prompt_again(&mut self) -> Changes {
        let mut changes = Changes::default();
        for seat in self.play.asked().iter() {
            let Some(conn) = self.seating.conn(seat).map(|c| c.id) else {
                continue;
            };
            if let Some(prompt) = self.prompt_with_time_left(seat) {
                changes.merge(self.send_to(conn, &prompt));
            }
        }
        changes
    }

    /// Gives back the time a pause took: no clock ran while nobody could play.
    fn move_clocks_on(&mut self, by: Duration) {
        self.bots.give_thought_time(by);
        self.clock.move_on(by);
    }
}
