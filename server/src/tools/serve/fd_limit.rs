//! The open-file limit: raised from its soft value to the hard one at start (each connection
//! is a file descriptor, and the usual soft limit of 1024 is reached by ~1,000 idle clients),
//! and the connection cap kept under it, so the listener, the database and `/healthz` always
//! have descriptors to spare.

/// Descriptors kept back from connections: the database and its log, the listener, logs,
/// and the answers given to connections over the cap.
const RESERVE: u64 = 256;

/// Raises the soft limit to the hard limit; returns the soft limit in effect (`None` where
/// there is no such limit, or it cannot be read).
pub fn raise() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => Some(limit),
        Err(err) => {
            tracing::warn!(%err, "could not raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE)
                .ok()
                .map(|(soft, _)| soft)
        }
    }
}

/// The connection cap: `wanted`, but no more than the open-file limit less the reserve.
#[must_use]
pub fn cap_connections(wanted: usize, limit: Option<u64>) -> usize {
    let Some(limit) = limit else { return wanted };
    let room = usize::try_from(limit.saturating_sub(RESERVE)).unwrap_or(usize::MAX);
    wanted.min(room.max(16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_stay_under_the_open_file_limit() {
        assert_eq!(cap_connections(4096, Some(1024)), 768);
        assert_eq!(cap_connections(100, Some(1_048_576)), 100);
        assert_eq!(cap_connections(4096, None), 4096);
    }
}
