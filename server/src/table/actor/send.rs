//! Everything the table sends: events to those allowed to see them, snapshots, `table`.

use parlor_shared::protocol::ServerMsg;
use parlor_shared::{Event, PlayerView, Seat};

use crate::table::client::frame;
use crate::table::{ConnId, Frame};

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
            if let Some(client) = &state.conn
                && event.visible_to(Some(Seat(i as u8)))
                && !self.wal.send(client, encode())
            {
                self.dropped.push(client.id);
            }
        }
        if event.visible_to(None) {
            for client in &self.spectators {
                if !self.wal.send(client, encode()) {
                    self.dropped.push(client.id);
                }
            }
        }
    }

    /// Sends every connection its own snapshot.
    pub(super) fn send_states(&mut self) {
        let Some(game) = &self.game else { return };
        for (i, state) in self.seats.iter().enumerate() {
            if let Some(client) = &state.conn {
                let msg = ServerMsg::State {
                    seq: self.seq,
                    view: Box::new(PlayerView::of(game, Some(Seat(i as u8)))),
                };
                if !self.wal.send_msg(client, &msg) {
                    self.dropped.push(client.id);
                }
            }
        }
        if !self.spectators.is_empty() {
            let public = frame(&ServerMsg::State {
                seq: self.seq,
                view: Box::new(PlayerView::of(game, None)),
            });
            for client in &self.spectators {
                if !self.wal.send(client, public.clone()) {
                    self.dropped.push(client.id);
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
        if self.wal.is_enabled() {
            self.wal.state(self.status, self.host, self.seat_rows());
        }
        let info = self.table_info();
        let msg = frame(&ServerMsg::Table {
            seq: self.seq,
            table: info.clone(),
        });
        self.info.send_replace(info);
        let clients = self.seats.iter().filter_map(|s| s.conn.as_ref());
        for client in clients.chain(&self.spectators) {
            if !self.wal.send(client, msg.clone()) {
                self.dropped.push(client.id);
            }
        }
    }

    /// Sends one message to one connection of this table.
    pub(super) fn send_to(&mut self, conn: ConnId, msg: &ServerMsg) {
        if let Some(client) = self.client_of(conn).cloned()
            && !self.wal.send_msg(&client, msg)
        {
            self.dropped.push(conn);
        }
    }
}
