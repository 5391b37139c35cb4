//! Everything the table sends: events to those allowed to see them, snapshots, `table`.
//!
//! An `impl TableActor` block: every frame goes through the outbox, never straight to a
//! connection.

use parlor_shared::protocol::ServerMsg;
use parlor_shared::{Event, PlayerView, Seat};

use crate::conn::frame;
use crate::conn::{ConnId, Frame};

use super::TableActor;

impl TableActor {
    /// Numbers an event and sends it to everyone allowed to see it.
    pub(super) fn broadcast_event(&mut self, event: Event) {
        self.seq += 1;
        let msg = ServerMsg::Event {
            seq: self.seq,
            event,
        };
        let ServerMsg::Event { event, .. } = &msg else {
            unreachable!()
        };
        let mut encoded: Option<Frame> = None;
        let mut encode = || encoded.get_or_insert_with(|| frame(&msg)).clone();
        for (i, state) in self.seats.iter().enumerate() {
            if let Some(conn) = &state.conn
                && event.visible_to(Some(Seat(i as u8)))
                && !self.outbox.queue(conn, encode())
            {
                self.dropped.push(conn.id);
            }
        }
        if event.visible_to(None) {
            for conn in &self.spectators {
                if !self.outbox.queue(conn, encode()) {
                    self.dropped.push(conn.id);
                }
            }
        }
    }

    /// Sends every connection its own snapshot.
    pub(super) fn send_states(&mut self) {
        let Some(game) = &self.game else { return };
        for (i, state) in self.seats.iter().enumerate() {
            if let Some(conn) = &state.conn {
                let msg = ServerMsg::State {
                    seq: self.seq,
                    view: Box::new(PlayerView::of(game, Some(Seat(i as u8)))),
                };
                if !self.outbox.queue_msg(conn, &msg) {
                    self.dropped.push(conn.id);
                }
            }
        }
        if !self.spectators.is_empty() {
            let public = frame(&ServerMsg::State {
                seq: self.seq,
                view: Box::new(PlayerView::of(game, None)),
            });
            for conn in &self.spectators {
                if !self.outbox.queue(conn, public.clone()) {
                    self.dropped.push(conn.id);
                }
            }
        }
    }

    /// When seats or status changed: publish to the lobby and send `table` to everyone.
    pub(super) fn flush_table(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        if self.outbox.is_durable() {
            self.outbox
                .record_state(self.status, self.host, self.seat_rows());
        }
        let info = self.table_info();
        let msg = frame(&ServerMsg::Table {
            seq: self.seq,
            table: info.clone(),
        });
        self.info.send_replace(info);
        let conns = self.seats.iter().filter_map(|s| s.conn.as_ref());
        for conn in conns.chain(&self.spectators) {
            if !self.outbox.queue(conn, msg.clone()) {
                self.dropped.push(conn.id);
            }
        }
    }

    /// Sends one message to one connection of this table.
    pub(super) fn send_to(&mut self, id: ConnId, msg: &ServerMsg) {
        if let Some(conn) = self.conn_of(id).cloned()
            && !self.outbox.queue_msg(&conn, msg)
        {
            self.dropped.push(id);
        }
    }
}
