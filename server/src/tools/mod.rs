//! The command-line tools, one module per `parlor` subcommand (`serve` wires the server
//! together; the others are arena, backup and restore, bots, loadtest, replay, verify, uva181,
//! heartless-move and the remote bot), with the bot adapters they share. The development
//! instruments are not here: they are the `parlor-bench` crate (`tests/bench`).
//!
//! Tools sit on top of the server's modules and may use any of them; no server module imports
//! a tool.

pub mod adapters;

pub mod arena;
pub mod available_bot;
pub mod backup;
pub mod bot;
pub mod bots;
pub mod heartless_move;
pub mod loadtest;
pub mod machine;
pub mod remote_bot;
pub mod replay;
pub mod serve;
pub mod uva181;
pub mod verify;

/// A multi-threaded tokio runtime with `threads` workers (0: one per CPU core).
pub fn runtime(threads: usize) -> anyhow::Result<tokio::runtime::Runtime> {
    runtime_on_start(threads, || {})
}

/// [`runtime`], running `on_start` on each of its threads as it starts.
pub fn runtime_on_start(
    threads: usize,
    on_start: impl Fn() + Send + Sync + 'static,
) -> anyhow::Result<tokio::runtime::Runtime> {
    use anyhow::Context;
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if threads > 0 {
        builder.worker_threads(threads);
    }
    builder
        .enable_all()
        .on_thread_start(on_start)
        .build()
        .context("starting the async runtime")
}
