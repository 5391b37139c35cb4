//! Everything the table sends: events to those allowed to see them, snapshots, `table`.
//!
//! An `impl TableActor` block: every frame goes through the outbox, never straight to a
//! connection.

use parlor_shared::protocol::ServerMsg;
use parlor_shared::{Event, Seat};

use crate::conn::frame;
use crate::conn::{ConnId, Frame};

use super::{Changes, TableActor};

/// An event's frames by the `prev` they carry, kept on the stack: nearly every recipient has
/// the same `prev` (a spectator or a seat that missed a private event may differ), and a list
/// on the heap cost an allocation per event. Past [`EncodedByPrev::SLOTS`] distinct values a
/// frame is encoded without being kept.
#[derive(Default)]
struct EncodedByPrev {
    slots: [Option<(u64, Frame)>; EncodedByPrev::SLOTS],
}

impl EncodedByPrev {
    const SLOTS: usize = 3;

    /// The frame for `prev`, encoded by `encode` the first time.
    fn get_or_encode(&mut self, prev: u64, encode: impl FnOnce() -> Frame) -> Frame {
        if let Some((_, frame)) = self.slots.iter().flatten().find(|(p, _)| *p == prev) {
            return frame.clone();
        }
        let frame = encode();
        if let Some(slot) = self.slots.iter_mut().find(|slot| slot.is_none()) {
            *slot = Some((prev, frame.clone()));
        }
        frame
    }
}

impl TableActor {
    /// Numbers an event and sends it to everyone allowed to see it, each with the `seq` of
    /// the previous event that recipient was sent (`prev`), so a missed one shows exactly.
    ///
    /// The seat whose move made it (`answering`) gets it at once: it answers that seat's
    /// move. Everyone else's copy may wait a little for the frames after it
    /// ([`crate::conn::Conn::send_lazy`]): a seat waiting for its turn then gets the moves
    /// before it in one or two writes instead of one each.
    pub(super) fn broadcast_event(&mut self, event: Event, answering: Option<Seat>) -> Changes {
        let mut changes = Changes::default();
        let seq = self.play.next_seq();
        // Frames differ only by `prev`: one encoding per distinct value.
        let mut encoded = EncodedByPrev::default();
        let mut encode = |prev: u64, event: &Event| -> Frame {
            encoded.get_or_encode(prev, || {
                frame(&ServerMsg::Event {
                    seq,
                    prev,
                    event: event.clone(),
                })
            })
        };
        for seat in self.seating.all() {
            if !event.visible_to(Some(seat)) {
                continue;
            }
            let prev = self.play.next_prev(seat, seq);
            let Some(conn) = self.seating.conn(seat) else {
                continue;
            };
            let frame = encode(prev, &event);
            let queued = if answering == Some(seat) {
                self.outbox.queue(conn, frame)
            } else {
                self.outbox.queue_lazy(conn, frame)
            };
            if !queued {
                changes.dropped.push(conn.id);
            }
        }
        if event.visible_to(None) {
            let prev = self.play.next_public_prev(seq);
            for conn in self.seating.spectators() {
                if !self.outbox.queue_lazy(conn, encode(prev, &event)) {
                    changes.dropped.push(conn.id);
                }
            }
        }
        changes
    }

    /// Sends every connection its own snapshot.
    pub(super) fn send_states(&mut self) -> Changes {
        let mut changes = Changes::default();
        for seat in self.seating.all() {
            if let Some(conn) = self.seating.conn(seat)
                && let Some(frame) = self.play.state_frame(Some(seat))
                && !self.outbox.queue(conn, frame)
            {
                changes.dropped.push(conn.id);
            }
        }
        if !self.seating.spectators().is_empty()
            && let Some(public) = self.play.state_frame(None)
        {
            for conn in self.seating.spectators() {
                if !self.outbox.queue(conn, public.clone()) {
                    changes.dropped.push(conn.id);
                }
            }
        }
        changes
    }

    /// The seats, the host or the status changed: the table is recorded, published to the
    /// lobby and sent (`table`) to everyone at it.
    pub(super) fn publish_table(&mut self) -> Changes {
        let mut changes = Changes::default();
        if self.outbox.is_durable() {
            self.outbox.record_state(
                self.play.status(),
                self.hosting.stored(),
                self.seating.seat_rows(&self.bots),
            );
        }
        let info = self.table_info();
        let msg = frame(&ServerMsg::Table {
            seq: self.play.seq(),
            table: info.clone(),
        });
        self.info.send_replace(info);
        for conn in self.seating.connected() {
            if !self.outbox.queue(conn, msg.clone()) {
                changes.dropped.push(conn.id);
            }
        }
        changes
    }

    /// Sends one message to one connection of this table.
    pub(super) fn send_to(&mut self, id: ConnId, msg: &ServerMsg) -> Changes {
        if let Some(conn) = self.seating.conn_of(id).cloned()
            && !self.outbox.queue_msg(&conn, msg)
        {
            return Changes::dropping(vec![id]);
        }
        Changes::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One encoding per `prev`, and every `prev` its own frame, past the slots kept as well.
    #[test]
    fn each_prev_is_encoded_once_while_slots_last() {
        let mut encoded = EncodedByPrev::default();
        let mut encodings = 0;
        let mut get = |encoded: &mut EncodedByPrev, prev: u64| {
            encoded.get_or_encode(prev, || {
                encodings += 1;
                Frame::from(format!("prev {prev}"))
            })
        };
        for prev in [7, 7, 3, 7, 3] {
            assert_eq!(get(&mut encoded, prev).as_str(), format!("prev {prev}"));
        }
        let distinct = EncodedByPrev::SLOTS as u64 + 2;
        for prev in 10..10 + distinct {
            assert_eq!(get(&mut encoded, prev).as_str(), format!("prev {prev}"));
        }
        assert_eq!(get(&mut encoded, 7).as_str(), "prev 7");
        // 7 and 3 once each, then every new value.
        assert_eq!(encodings, 2 + distinct as usize);
    }
}
