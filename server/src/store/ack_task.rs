//! Gives a commit's acknowledgements ([`Ack`]) on the runtime rather than on the writer's own
//! thread.
//!
//! Why: an acknowledgement may deliver a table's held frames (see `table::outbox`), and every
//! frame that wakes a connection from a thread outside the runtime goes through the runtime's
//! shared queue and may wake a parked worker. Handed over as one batch per commit, the
//! commit wakes one task, whose wakes of the connections are the runtime's cheap local ones;
//! and the writer goes back to committing sooner.
//!
//! Outside a runtime (a store opened by synchronous code), or once the runtime is gone, the
//! writer gives them itself.

use tokio::sync::mpsc;

use super::Ack;

/// One commit's acknowledgements with their outcomes, in the order the writes were queued.
pub type Acks = Vec<(Ack, Result<(), String>)>;

/// Where a writer hands its acknowledgements.
#[derive(Debug)]
pub struct AckTask {
    tx: Option<mpsc::UnboundedSender<Acks>>,
}

impl AckTask {
    /// A task on the current runtime, if there is one.
    #[must_use]
    pub fn start() -> AckTask {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return AckTask { tx: None };
        };
        let (tx, mut rx) = mpsc::unbounded_channel::<Acks>();
        runtime.spawn(async move {
            while let Some(acks) = rx.recv().await {
                acknowledge_all(acks);
            }
        });
        AckTask { tx: Some(tx) }
    }

    /// Gives `acks` in order: on the task, or here when there is none.
    pub fn acknowledge(&self, acks: Acks) {
        if acks.is_empty() {
            return;
        }
        let unsent = match &self.tx {
            Some(tx) => match tx.send(acks) {
                Ok(()) => return,
                Err(unsent) => unsent.0,
            },
            None => acks,
        };
        acknowledge_all(unsent);
    }
}

fn acknowledge_all(acks: Acks) {
    for (ack, result) in acks {
        ack.acknowledge(result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a runtime the acks go out on the task, in order; without one they are
    /// given at once.
    #[tokio::test]
    async fn acks_in_order_on_the_runtime() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let ack_task = AckTask::start();
        let on_ack_task = std::thread::current().id();
        let acks: Acks = (0..3)
            .map(|i| {
                let tx = tx.clone();
                let ack = Ack::new(move |outcome| {
                    let _ = tx.send((i, outcome, std::thread::current().id()));
                });
                (ack, if i == 1 { Err("no".into()) } else { Ok(()) })
            })
            .collect();
        // Handed over from a thread outside the runtime, as the writer does.
        std::thread::spawn(move || ack_task.acknowledge(acks))
            .join()
            .unwrap();
        let mut got = Vec::new();
        for _ in 0..3 {
            got.push(rx.recv().await.unwrap());
        }
        assert_eq!(
            got.iter()
                .map(|(i, outcome, _)| (*i, outcome.clone()))
                .collect::<Vec<_>>(),
            [
                (0, crate::store::WriteOutcome::Stored),
                (1, crate::store::WriteOutcome::Refused("no".into())),
                (2, crate::store::WriteOutcome::Stored),
            ]
        );
        assert!(
            got.iter().all(|(_, _, thread)| *thread == on_ack_task),
            "answered on the runtime's thread, not the writer's"
        );
    }

    #[test]
    fn without_a_runtime_acks_at_once() {
        let ack_task = AckTask::start();
        let (tx, rx) = std::sync::mpsc::channel();
        ack_task.acknowledge(vec![(
            Ack::new(move |outcome| tx.send(outcome).unwrap()),
            Ok(()),
        )]);
        assert_eq!(rx.try_recv(), Ok(crate::store::WriteOutcome::Stored));
    }
}
