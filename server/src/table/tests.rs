//! The actor on its own, driven through its mailbox with hand-made connections.

use std::time::Duration;

use parlor_shared::protocol::{Occupant, ServerMsg, TableOptions};
use parlor_shared::{Event, Options, Seat, Variant};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::{JoinRequest, TableHandle, TableMsg, TableRequest, TableSetup, spawn};
use crate::conn::{Conn, ConnId, Frame, Receiver, bounded};

/// A client whose frames the test reads.
struct Probe {
    conn: Conn,
    rx: Receiver<Frame>,
    kicked: CancellationToken,
}

fn probe(queue: usize) -> Probe {
    let (tx, rx) = bounded(queue);
    let kicked = CancellationToken::new();
    Probe {
        conn: Conn::new(ConnId::next(), tx, kicked.clone()),
        rx,
        kicked,
    }
}

async fn join(table: &TableHandle, conn: &Conn) {
    let (reply, joined) = oneshot::channel();
    let request = JoinRequest {
        seat: None,
        name: None,
        token: None,
        bot: false,
        watch: false,
    };
    table
        .send(TableMsg::Join {
            conn: conn.clone(),
            request: Box::new(request),
            reply,
        })
        .await
        .unwrap();
    assert!(joined.await.unwrap());
}

async fn say(table: &TableHandle, conn: &Conn, request: TableRequest) {
    let msg = TableMsg::Request {
        conn: conn.id,
        request: Box::new(request),
    };
    table.send(msg).await.unwrap();
}

/// A client that stops reading is dropped when its queue is full, a bot takes its seat, and
/// the table plays on: nobody else waits for it.
#[tokio::test]
async fn a_stuck_client_is_dropped_and_never_stalls_the_table() {
    let setup = TableSetup {
        id: "stuck".into(),
        variant: Variant::Whist,
        options: Options {
            target: Some(1),
            ..Options::default()
        },
        table_options: TableOptions {
            grace_ms: 0,
            ..TableOptions::default()
        },
        seed: Some(5),
        idle_ttl: Duration::from_secs(600),
        store: None,
        restored: None,
    };
    let table = spawn(setup, CancellationToken::new(), || {}).unwrap();
    let mut host = probe(100_000);
    let stuck = probe(4);
    join(&table, &host.conn).await;
    join(&table, &stuck.conn).await;
    for seat in [2, 3] {
        let strategy = "random".to_string();
        say(
            &table,
            &host.conn,
            TableRequest::AddBot {
                seat: Seat(seat),
                strategy,
            },
        )
        .await;
    }
    say(&table, &host.conn, TableRequest::Start).await;
    let mut stuck_dropped = false;
    loop {
        let frame = host.rx.recv().await.expect("the table keeps talking");
        match serde_json::from_str::<ServerMsg>(frame.as_str()).unwrap() {
            ServerMsg::YourTurn { legal, .. } => {
                let msg = match legal {
                    parlor_shared::Legal::Play { cards } => TableRequest::Move {
                        action: parlor_shared::Action::Play {
                            card: cards.lowest().unwrap(),
                        },
                        seat: None,
                        seq: None,
                    },
                    other => panic!("whist has no {other:?}"),
                };
                say(&table, &host.conn, msg).await;
            }
            ServerMsg::Table { table, .. }
                if table.seats[1].occupant == Occupant::Human && !table.seats[1].connected =>
            {
                stuck_dropped = true;
                assert!(
                    stuck.kicked.is_cancelled(),
                    "its connection is told to close"
                );
            }
            ServerMsg::Event {
                event: Event::MatchOver { .. },
                ..
            } => break,
            _ => {}
        }
    }
    assert!(stuck_dropped, "the stuck conn was dropped");
    assert!(stuck.rx.len() <= 4, "and never held more than its queue");
}
