//! The signals `parlor serve` takes over: Ctrl-C and SIGTERM stop it cleanly, and SIGXFSZ
//! becomes a write error the store handles.

use std::future::Future;

/// Takes over Ctrl-C and SIGTERM now, and returns the wait for either.
///
/// Taken over when called, not when the wait is first polled: a stop sent as soon as the
/// server says it is serving must already find its handler, or the signal's default action
/// kills the process before the table log is closed (the wait runs in a task of its own,
/// polled some time later).
#[cfg(unix)]
pub fn shutdown() -> impl Future<Output = ()> {
    use tokio::signal::unix::SignalKind;
    let interrupt = take_over(SignalKind::interrupt(), "SIGINT");
    let terminate = take_over(SignalKind::terminate(), "SIGTERM");
    async move {
        tokio::select! {
            () = received(interrupt) => {}
            () = received(terminate) => {}
        }
    }
}

/// Waits for Ctrl-C where there are no Unix signals.
#[cfg(not(unix))]
pub fn shutdown() -> impl Future<Output = ()> {
    async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Takes over SIGXFSZ, so a write past the file size limit fails with an error the store
/// handles (it pauses the tables and retries) instead of killing the process.
#[cfg(unix)]
pub fn ignore_file_size() -> Option<tokio::signal::unix::Signal> {
    take_over(
        tokio::signal::unix::SignalKind::from_raw(libc::SIGXFSZ),
        "SIGXFSZ",
    )
}

/// Nothing to take over where there is no SIGXFSZ.
#[cfg(not(unix))]
pub fn ignore_file_size() {}

/// A handler for `kind`, or a warning naming it when it cannot be had.
#[cfg(unix)]
fn take_over(
    kind: tokio::signal::unix::SignalKind,
    name: &str,
) -> Option<tokio::signal::unix::Signal> {
    tokio::signal::unix::signal(kind)
        .inspect_err(|err| tracing::warn!(%err, signal = name, "could not take over the signal"))
        .ok()
}

/// Returns when `signal` arrives; never, without a handler.
#[cfg(unix)]
async fn received(signal: Option<tokio::signal::unix::Signal>) {
    if let Some(mut signal) = signal
        && signal.recv().await.is_some()
    {
        return;
    }
    std::future::pending::<()>().await;
}

#[cfg(all(test, unix))]
mod tests {
    use std::time::Duration;

    /// A SIGTERM sent after `shutdown` returns, before its wait is first polled, must end the
    /// wait. Were the handler taken only when polled, the signal would kill this test process.
    #[tokio::test]
    async fn a_stop_sent_before_the_wait_is_polled_is_not_lost() {
        let stop = super::shutdown();
        let sent = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("kill -TERM {}", std::process::id()))
            .status()
            .expect("running sh");
        assert!(sent.success());
        tokio::time::timeout(Duration::from_secs(30), stop)
            .await
            .expect("the wait ends once SIGTERM arrives");
    }
}
