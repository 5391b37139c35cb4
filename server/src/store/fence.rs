//! Fencing: the check a Postgres writer runs inside each transaction so that only the node holding
//! a table's lease (at the epoch it holds) can write that table. The store knows nothing of
//! leases: it hands the [`Fence`] the tables a transaction is about to write, leaves out those the
//! fence refuses and acknowledges their writes with [`FENCED`]; such a table stops at once and its
//! clients are told to reconnect, which lands them on its new owner. The check locks the lease row
//! in the same transaction as the writes, so a node paused past its lease and adopted meanwhile
//! can never write that table again.

use std::collections::HashSet;

use futures_util::future::BoxFuture;

/// The acknowledgement's error text for a write refused because this node no longer owns
/// the table.
pub const FENCED: &str = "fenced: another node owns this table now";

/// True when an acknowledgement's error says the table was fenced.
#[must_use]
pub fn is_fenced(err: &str) -> bool {
    err == FENCED
}

/// A per-table ownership check run inside the writer's transaction.
pub trait Fence: Send + Sync + std::fmt::Debug {
    /// Called at the start of a transaction (`BEGIN` already run on `tx`) that creates the
    /// tables `created` and writes the tables `written` (a table created in the
    /// transaction is in both). Takes the lease of each created table and checks the lease
    /// of every other one, in the transaction; returns the tables whose writes must be
    /// refused. An `Err` is the database's, to be handled as any failed statement.
    fn check<'a>(
        &'a self,
        tx: &'a tokio_postgres::Client,
        created: &'a [String],
        written: &'a [String],
    ) -> BoxFuture<'a, Result<HashSet<String>, tokio_postgres::Error>>;
}
