//! Answers a commit's acknowledgements on the runtime rather than on the writer's own thread.
//!
//! Why: an acknowledgement may deliver a table's held frames (see `table::outbox`), and every
//! frame that wakes a connection from a thread outside the runtime goes through the runtime's
//! shared queue and may wake a parked worker. Handed over as one batch per commit, the
//! commit wakes one task, whose wakes of the connections are the runtime's cheap local ones;
//! and the writer goes back to committing sooner.
//!
//! Outside a runtime (a store opened by synchronous code), or once the runtime is gone, the
//! writer answers them itself.

use tokio::sync::mpsc;

use super::Acker;

/// One commit's acknowledgements with their outcomes, in the order the writes were queued.
pub type Answers = Vec<(Acker, Result<(), String>)>;

/// Where a writer hands its acknowledgements.
#[derive(Debug)]
pub struct Courier {
    tx: Option<mpsc::UnboundedSender<Answers>>,
}

impl Courier {
    /// A courier task on the current runtime, if there is one.
    #[must_use]
    pub fn start() -> Courier {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return Courier { tx: None };
        };
        let (tx, mut rx) = mpsc::unbounded_channel::<Answers>();
        runtime.spawn(async move {
            while let Some(answers) = rx.recv().await {
                answer_all(answers);
            }
        });
        Courier { tx: Some(tx) }
    }

    /// Answers `answers` in order: on the courier's task, or here when there is none.
    pub fn answer(&self, answers: Answers) {
        if answers.is_empty() {
            return;
        }
        let unsent = match &self.tx {
            Some(tx) => match tx.send(answers) {
                Ok(()) => return,
                Err(unsent) => unsent.0,
            },
            None => answers,
        };
        answer_all(unsent);
    }
}

fn answer_all(answers: Answers) {
    for (ack, result) in answers {
        ack.answer(result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a runtime the answers go out on the courier's task, in order; without one they are
    /// given at once.
    #[tokio::test]
    async fn answers_in_order_on_the_runtime() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let courier = Courier::start();
        let on_courier = std::thread::current().id();
        let answers: Answers = (0..3)
            .map(|i| {
                let tx = tx.clone();
                let ack = Acker::new(move |outcome| {
                    let _ = tx.send((i, outcome, std::thread::current().id()));
                });
                (ack, if i == 1 { Err("no".into()) } else { Ok(()) })
            })
            .collect();
        // Handed over from a thread outside the runtime, as the writer does.
        std::thread::spawn(move || courier.answer(answers))
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
            got.iter().all(|(_, _, thread)| *thread == on_courier),
            "answered on the runtime's thread, not the writer's"
        );
    }

    #[test]
    fn without_a_runtime_answers_at_once() {
        let courier = Courier::start();
        let (tx, rx) = std::sync::mpsc::channel();
        courier.answer(vec![(
            Acker::new(move |outcome| tx.send(outcome).unwrap()),
            Ok(()),
        )]);
        assert_eq!(rx.try_recv(), Ok(crate::store::WriteOutcome::Stored));
    }
}
