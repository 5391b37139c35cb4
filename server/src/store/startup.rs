//! Bringing every stored table back when the server starts.

use super::Startup;
use super::restore::rebuild;
use crate::lobby::Lobby;

/// Rebuilds every table of `startup` and opens it in the lobby. A table that cannot be read
/// or replayed is logged as an error naming it and skipped; the others still come back.
/// Returns how many tables came back.
pub fn restore_all(lobby: &Lobby, startup: Startup) -> usize {
    if let Some(aside) = &startup.moved_aside {
        tracing::error!(
            moved_to = %aside.display(),
            "the old database file was unreadable and has been moved aside; tables it held \
             that could not be read are gone from this server"
        );
    }
    for (id, err) in &startup.unreadable {
        tracing::error!(table = %id, error = %err, "a stored table is skipped: its rows cannot be read");
    }
    let mut restored = 0;
    for log in startup.tables {
        let id = log.table.id.clone();
        let table = match rebuild(&log) {
            Ok(table) => table,
            Err(err) => {
                tracing::error!(table = %id, error = %err, "a stored table is skipped: its log does not replay");
                continue;
            }
        };
        match lobby.restore(table) {
            Ok(info) => {
                restored += 1;
                tracing::info!(
                    table = %id,
                    variant = %info.variant,
                    status = ?info.status,
                    "table restored from the log"
                );
            }
            Err(err) => {
                tracing::error!(table = %id, error = %err, "a stored table is skipped: it cannot be opened");
            }
        }
    }
    restored
}
