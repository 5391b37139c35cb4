//! The writer task: the only writer to the database for this server. It takes every request
//! queued and writes them in one transaction, pipelined (two round trips however many writes),
//! then acknowledges them (group commit); reads and barriers are answered in queue order.
//! A batch the database cannot take is retried with a growing wait, reconnecting as needed,
//! acknowledging nothing meanwhile (`saving = false`: tables pause). A `COMMIT` whose answer was
//! lost may have happened: each batch writes its number into `parlor_writers`, read back after
//! reconnecting, so nothing is written twice. A write refused for what it is (a constraint) is
//! answered with its error and the batch written again without it, as SQLite's writer does.

use std::collections::{BTreeSet, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, Statement};

use super::tls::Target;

use super::{accounts, load};
use crate::store::fence::{FENCED, Fence};
use crate::store::health::Health;
use crate::store::queue::{
    AccountOp, RETRY_FIRST, Request, Retry, commit_failed, commit_worked, committed, count_commit,
    head_writes, longer, stopping_unwritten, take_waiting,
};
use crate::store::records::{CLOSED, Write, occupant_name};
use crate::store::{PgStats, StoreError, now_millis};

/// How long one batch (or read) may take before the connection is given up as hung.
const STATEMENT_LIMIT: Duration = Duration::from_secs(30);

/// One open connection and its prepared statements.
pub struct Conn {
    /// The client.
    pub client: Client,
    /// The writer's statements, prepared on this connection.
    stmts: Statements,
}

/// Opens a connection; its driver runs as its own task.
pub async fn open_client(target: &Target) -> Result<Client, StoreError> {
    let (client, connection) = target.connect().await?;
    tokio::spawn(async move {
        if let Err(err) = connection.await {
            tracing::warn!(err = %StoreError::Postgres(err), "the database connection ended");
        }
    });
    Ok(client)
}

impl Conn {
    /// Prepares the writer's statements on a connection to a migrated database.
    pub async fn new(client: Client) -> Result<Conn, StoreError> {
        let stmts = Statements::prepare(&client).await?;
        Ok(Conn { client, stmts })
    }
}

/// Opens a connection and prepares the writer's statements on it.
pub async fn connect(target: &Target) -> Result<Conn, StoreError> {
    Conn::new(open_client(target).await?).await
}

/// The writer's prepared statements.
struct Statements {
    insert_table: Statement,
    upsert_match: Statement,
    update_state: Statement,
    upsert_seat: Statement,
    insert_action: Statement,
    upsert_chat: Statement,
    trim_chat: Statement,
    insert_result: Statement,
    close_table: Statement,
    cut_actions: Statement,
    cut_matches: Statement,
    delete: [Statement; 5],
    mark: Statement,
}

impl Statements {
    /// Prepares them all at once (pipelined).
    async fn prepare(client: &Client) -> Result<Statements, tokio_postgres::Error> {
        let (
            insert_table,
            upsert_match,
            update_state,
            upsert_seat,
            insert_action,
            upsert_chat,
            trim_chat,
            insert_result,
        ) = futures_util::try_join!(
            client.prepare(
                "INSERT INTO tables (id, variant, options, table_options, seed, created, status,
                                     host, host_key)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
            ),
            client.prepare(
                "INSERT INTO matches (table_id, match_no, seed, seq, secret)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (table_id, match_no) DO UPDATE
                 SET seed = EXCLUDED.seed, seq = EXCLUDED.seq, secret = EXCLUDED.secret"
            ),
            client.prepare("UPDATE tables SET status = $2, host = $3 WHERE id = $1"),
            client.prepare(
                "INSERT INTO seats
                 (table_id, seat, occupant, name, token, strategy, bot_playing, account)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                 ON CONFLICT (table_id, seat) DO UPDATE
                 SET occupant = EXCLUDED.occupant, name = EXCLUDED.name, token = EXCLUDED.token,
                     strategy = EXCLUDED.strategy, bot_playing = EXCLUDED.bot_playing,
                     account = EXCLUDED.account"
            ),
            client.prepare(
                "INSERT INTO actions (table_id, match_no, idx, seat, action, seq)
                 VALUES ($1, $2, $3, $4, $5, $6)"
            ),
            client.prepare(
                "INSERT INTO chat (table_id, n, seat, name, text, at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (table_id, n) DO UPDATE
                 SET seat = EXCLUDED.seat, name = EXCLUDED.name, text = EXCLUDED.text,
                     at = EXCLUDED.at"
            ),
            client.prepare("DELETE FROM chat WHERE table_id = $1 AND n <= $2"),
            client.prepare(
                "INSERT INTO results (table_id, match_no, variant, at, places, listed)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING"
            ),
        )?;
        let (close_table, cut_actions, cut_matches, mark, d0, d1, d2, d3, d4) = futures_util::try_join!(
            client.prepare("UPDATE tables SET status = $2 WHERE id = $1"),
            client.prepare(
                "DELETE FROM actions WHERE table_id = $1
                 AND (match_no > $2 OR (match_no = $2 AND idx >= $3))"
            ),
            client.prepare("DELETE FROM matches WHERE table_id = $1 AND match_no > $2"),
            client.prepare(
                "INSERT INTO parlor_writers (writer, batch, at) VALUES ($1, $2, $3)
                 ON CONFLICT (writer) DO UPDATE SET batch = EXCLUDED.batch, at = EXCLUDED.at"
            ),
            client.prepare("DELETE FROM actions WHERE table_id = ANY($1)"),
            client.prepare("DELETE FROM chat WHERE table_id = ANY($1)"),
            client.prepare("DELETE FROM seats WHERE table_id = ANY($1)"),
            client.prepare("DELETE FROM matches WHERE table_id = ANY($1)"),
            client.prepare("DELETE FROM tables WHERE id = ANY($1)"),
        )?;
        Ok(Statements {
            insert_table,
            upsert_match,
            update_state,
            upsert_seat,
            insert_action,
            upsert_chat,
            trim_chat,
            insert_result,
            close_table,
            cut_actions,
            cut_matches,
            delete: [d0, d1, d2, d3, d4],
            mark,
        })
    }
}

/// What the writer has done, read by [`crate::store::Store::stats`].
#[derive(Debug, Default)]
pub struct Counters {
    commits: AtomicU64,
    writes: AtomicU64,
    failed: AtomicU64,
    reconnects: AtomicU64,
}

impl Counters {
    /// The figures now.
    pub fn figures(&self) -> PgStats {
        PgStats {
            commits: self.commits.load(Ordering::Relaxed),
            writes: self.writes.load(Ordering::Relaxed),
            failed_commits: self.failed.load(Ordering::Relaxed),
            reconnects: self.reconnects.load(Ordering::Relaxed),
        }
    }
}

/// One statement sent or about to be.
type Pending<'a> = Pin<Box<dyn Future<Output = Result<u64, tokio_postgres::Error>> + Send + 'a>>;

/// The writer's state across batches.
pub struct Writer {
    /// How to connect.
    config: Target,
    /// The connection, while there is one.
    conn: Option<Conn>,
    /// What the health check and the tables see.
    health: Arc<Health>,
    /// What `/api/stats` shows.
    counters: Arc<Counters>,
    /// This writer's row in `parlor_writers`.
    id: String,
    /// The number of the next batch.
    batch: i64,
    /// The outcomes of a batch whose `COMMIT` was sent but not answered: whether it happened
    /// is read from the database before trying again.
    unsure: Option<Vec<Result<(), String>>>,
    /// The cluster's lease check, run first in every batch (`None`: a server on its own).
    fence: Option<Arc<dyn Fence>>,
}

/// Why one try of a batch failed.
enum BatchError {
    /// Write `i` was refused for what it is; the batch goes again without it.
    Refused(usize, String),
    /// The database failed (the batch is tried again); `true` when `COMMIT` had been sent.
    Failed(StoreError, bool),
}

impl Writer {
    /// A writer on an open connection.
    pub fn new(config: Target, conn: Conn, health: Arc<Health>, counters: Arc<Counters>) -> Writer {
        Writer {
            config,
            conn: Some(conn),
            health,
            counters,
            id: uuid::Uuid::new_v4().to_string(),
            batch: 1,
            unsure: None,
            fence: None,
        }
    }

    /// This writer checking `fence` in every batch's transaction.
    #[must_use]
    pub fn with_fence(mut self, fence: Option<Arc<dyn Fence>>) -> Writer {
        self.fence = fence;
        self
    }

    /// The connection, opened again if it was lost.
    async fn conn(&mut self) -> Result<&Conn, StoreError> {
        if self.conn.as_ref().is_some_and(|c| c.client.is_closed()) {
            self.conn = None;
        }
        if self.conn.is_none() {
            let conn = tokio::time::timeout(STATEMENT_LIMIT, connect(&self.config))
                .await
                .map_err(|_| {
                    StoreError::Failing("connecting to the database timed out".into())
                })??;
            tracing::info!("connected to the database again");
            self.counters.reconnects.fetch_add(1, Ordering::Relaxed);
            self.conn = Some(conn);
        }
        Ok(self.conn.as_ref().expect("just set"))
    }

    /// Forgets the connection after a failure that may have broken it.
    fn drop_conn_if(&mut self, err: &StoreError) {
        let broken = match err {
            StoreError::Postgres(err) => err.as_db_error().is_none() || is_connection_lost(err),
            _ => true,
        };
        if broken {
            self.conn = None;
        }
    }

    /// Writes `writes` in one transaction; returns each one's outcome.
    async fn commit(&mut self, writes: &[&Write]) -> Result<Vec<Result<(), String>>, StoreError> {
        let id = self.id.clone();
        let batch = self.batch;
        let had_unsure = self.unsure.is_some();
        let conn = self.conn().await?;
        if had_unsure {
            let row = conn
                .client
                .query_opt("SELECT batch FROM parlor_writers WHERE writer = $1", &[&id])
                .await?;
            if row.is_some_and(|row| row.try_get::<_, i64>(0).ok() == Some(batch)) {
                tracing::info!("the batch whose answer was lost had been committed");
                self.batch += 1;
                return Ok(self.unsure.take().expect("checked"));
            }
            self.unsure = None;
        }
        let mut refused: Vec<Option<String>> = vec![None; writes.len()];
        loop {
            let conn = self.conn.as_ref().expect("connected above");
            let attempt = tokio::time::timeout(
                STATEMENT_LIMIT,
                try_batch(
                    conn,
                    writes,
                    &mut refused,
                    &id,
                    batch,
                    self.fence.as_deref(),
                ),
            )
            .await
            .unwrap_or_else(|_| {
                Err(BatchError::Failed(
                    StoreError::Failing("the database did not answer in time".into()),
                    true,
                ))
            });
            let outcomes = || {
                refused
                    .iter()
                    .map(|r| r.clone().map_or(Ok(()), Err))
                    .collect::<Vec<_>>()
            };
            match attempt {
                Ok(()) => {
                    self.batch += 1;
                    return Ok(outcomes());
                }
                Err(BatchError::Refused(i, err)) => {
                    tracing::error!(%err, change = writes[i].what(), "could not store a change");
                    refused[i] = Some(err);
                }
                Err(BatchError::Failed(err, commit_sent)) => {
                    if commit_sent {
                        self.unsure = Some(outcomes());
                        self.conn = None;
                    } else {
                        self.drop_conn_if(&err);
                    }
                    return Err(err);
                }
            }
        }
    }

    /// A real commit that changes nothing others read: this writer's row touched.
    async fn probe(&mut self) -> Result<(), StoreError> {
        let id = self.id.clone();
        let result = async {
            let conn = self.conn().await?;
            tokio::time::timeout(
                STATEMENT_LIMIT,
                conn.client.execute(
                    "INSERT INTO parlor_writers (writer, batch, at) VALUES ($1, 0, $2)
                     ON CONFLICT (writer) DO UPDATE SET at = EXCLUDED.at",
                    &[&id, &now_millis()],
                ),
            )
            .await
            .map_err(|_| StoreError::Failing("the database did not answer in time".into()))??;
            Ok(())
        }
        .await;
        if let Err(err) = &result {
            self.drop_conn_if(err);
        }
        result
    }

    /// Runs a read on the connection (connecting if needed); a failure is answered, not
    /// retried.
    async fn read<T, F>(&mut self, read: F) -> Result<T, StoreError>
    where
        F: for<'c> FnOnce(
            &'c Client,
        )
            -> Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'c>>,
    {
        let result = async {
            let conn = self.conn().await?;
            tokio::time::timeout(STATEMENT_LIMIT, read(&conn.client))
                .await
                .map_err(|_| StoreError::Failing("the database did not answer in time".into()))?
        }
        .await;
        if let Err(err) = &result {
            self.drop_conn_if(err);
        }
        result
    }
}

/// One try of a batch: `BEGIN`, every write's statements and the batch mark, all sent before
/// any answer is read, then `COMMIT` if all went through (else `ROLLBACK`).
async fn try_batch(
    conn: &Conn,
    writes: &[&Write],
    refused: &mut [Option<String>],
    writer: &str,
    batch: i64,
    fence: Option<&dyn Fence>,
) -> Result<(), BatchError> {
    let client = &conn.client;
    let at = now_millis();
    let mut pending: Vec<(Option<usize>, Pending<'_>)> = Vec::new();
    match fence {
        Some(fence) => check_fence(client, fence, writes, refused).await?,
        None => pending.push((
            None,
            Box::pin(async move { client.batch_execute("BEGIN").await.map(|()| 0) }),
        )),
    }
    let refused: &[Option<String>] = refused;
    for (i, write) in writes.iter().enumerate() {
        if refused[i].is_none() {
            pending.extend(
                statements(client, &conn.stmts, write)
                    .into_iter()
                    .map(|p| (Some(i), p)),
            );
        }
    }
    pending.push((
        None,
        Box::pin(async move {
            client
                .execute(&conn.stmts.mark, &[&writer, &batch, &at])
                .await
        }),
    ));
    // Each future sends its statement on its first poll: poll them once in order, so the
    // statements go out in append order, then read the answers.
    let mut answers: Vec<Option<Result<u64, tokio_postgres::Error>>> =
        Vec::with_capacity(pending.len());
    for (_, fut) in &mut pending {
        answers.push(match futures_util::poll!(fut.as_mut()) {
            Poll::Ready(result) => Some(result),
            Poll::Pending => None,
        });
    }
    let mut first_error: Option<(Option<usize>, tokio_postgres::Error)> = None;
    for ((write, fut), answer) in pending.iter_mut().zip(answers) {
        let result = match answer {
            Some(result) => result,
            None => fut.as_mut().await,
        };
        if let Err(err) = result
            && first_error.is_none()
        {
            first_error = Some((*write, err));
        }
    }
    drop(pending);
    match first_error {
        None => client
            .batch_execute("COMMIT")
            .await
            .map_err(|err| BatchError::Failed(err.into(), true)),
        Some((write, err)) => {
            if !client.is_closed() {
                let _ = client.batch_execute("ROLLBACK").await;
            }
            match write {
                Some(i) if refused_for_itself(&err) => Err(BatchError::Refused(
                    i,
                    StoreError::Postgres(err).to_string(),
                )),
                _ => Err(BatchError::Failed(err.into(), false)),
            }
        }
    }
}

/// Begins the batch's transaction and runs the cluster's lease check in it: the writes of
/// every table this node no longer owns are refused with [`FENCED`] and left out (they are
/// never written; their tables stop), the rest go on in the same transaction, which holds
/// the checked lease rows until it ends.
async fn check_fence(
    client: &Client,
    fence: &dyn Fence,
    writes: &[&Write],
    refused: &mut [Option<String>],
) -> Result<(), BatchError> {
    let failed = |err: tokio_postgres::Error| BatchError::Failed(err.into(), false);
    let kept = || {
        writes
            .iter()
            .zip(refused.iter())
            .filter(|(_, r)| r.is_none())
    };
    let created: Vec<String> = kept()
        .filter_map(|(w, _)| match w {
            Write::Table(row) => Some(row.id.clone()),
            _ => None,
        })
        .collect();
    let written: Vec<String> = kept()
        .map(|(w, _)| w.table().to_string())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // `BEGIN` is pipelined with the check's statements (sent first, answered first).
    let (begun, checked) = futures_util::join!(
        client.batch_execute("BEGIN"),
        fence.check(client, &created, &written)
    );
    let fenced = match begun.and(checked) {
        Ok(fenced) => fenced,
        Err(err) => {
            if !client.is_closed() {
                let _ = client.batch_execute("ROLLBACK").await;
            }
            return Err(failed(err));
        }
    };
    for (write, outcome) in writes.iter().zip(refused.iter_mut()) {
        if outcome.is_none() && fenced.contains(write.table()) {
            *outcome = Some(FENCED.to_string());
        }
    }
    Ok(())
}

/// True when the database refused a change for what it is (class 22, data exception, or 23,
/// integrity constraint violation), so trying it again cannot help.
fn refused_for_itself(err: &tokio_postgres::Error) -> bool {
    err.code().is_some_and(|code| {
        let code = code.code();
        code.starts_with("22") || code.starts_with("23")
    }) || (err.as_db_error().is_none() && !err.is_closed() && is_conversion(err))
}

/// A value that could not be converted to its column's type (never sent).
fn is_conversion(err: &tokio_postgres::Error) -> bool {
    err.to_string().contains("error serializing parameter")
}

/// The statements of one change, each sending on its first poll.
fn statements<'a>(client: &'a Client, s: &'a Statements, write: &'a Write) -> Vec<Pending<'a>> {
    let mut out: Vec<Pending<'a>> = Vec::new();
    match write {
        Write::Table(row) => out.push(Box::pin(async move {
            client
                .execute(
                    &s.insert_table,
                    &[
                        &row.id,
                        &row.variant,
                        &row.options,
                        &row.table_options,
                        &row.seed.map(|s| s as i64),
                        &row.created,
                        &row.status,
                        &row.host.map(i16::from),
                        &row.host_key,
                    ],
                )
                .await
        })),
        Write::Match { table, row } => out.push(Box::pin(async move {
            client
                .execute(
                    &s.upsert_match,
                    &[
                        table,
                        &i64::from(row.match_no),
                        &(row.seed as i64),
                        &(row.seq as i64),
                        &row.secret.map(|s| s.to_hex()),
                    ],
                )
                .await
        })),
        Write::State {
            table,
            status,
            host,
            seats,
        } => {
            out.push(Box::pin(async move {
                client
                    .execute(&s.update_state, &[table, status, &host.map(i16::from)])
                    .await
            }));
            for seat in seats {
                out.push(Box::pin(async move {
                    client
                        .execute(
                            &s.upsert_seat,
                            &[
                                table,
                                &i16::from(seat.seat),
                                &occupant_name(seat.occupant),
                                &seat.name,
                                &seat.token,
                                &seat.strategy,
                                &seat.bot_playing,
                                &seat.account,
                            ],
                        )
                        .await
                }));
            }
        }
        Write::Action { table, row } => out.push(Box::pin(async move {
            client
                .execute(
                    &s.insert_action,
                    &[
                        &&**table,
                        &i64::from(row.match_no),
                        &i64::from(row.idx),
                        &i16::from(row.seat),
                        &row.action,
                        &(row.seq as i64),
                    ],
                )
                .await
        })),
        Write::Chat { table, row, keep } => {
            out.push(Box::pin(async move {
                client
                    .execute(
                        &s.upsert_chat,
                        &[
                            table,
                            &(row.n as i64),
                            &row.seat.map(i16::from),
                            &row.name,
                            &row.text,
                            &row.at,
                        ],
                    )
                    .await
            }));
            out.push(Box::pin(async move {
                client
                    .execute(
                        &s.trim_chat,
                        &[table, &(row.n.saturating_sub(*keep) as i64)],
                    )
                    .await
            }));
        }
        Write::Result(row) => out.push(Box::pin(async move {
            client
                .execute(
                    &s.insert_result,
                    &[
                        &row.table,
                        &i64::from(row.match_no),
                        &row.variant,
                        &row.at,
                        &row.places,
                        &row.listed,
                    ],
                )
                .await
        })),
        Write::Closed { table } => out.push(Box::pin(async move {
            client.execute(&s.close_table, &[table, &CLOSED]).await
        })),
        Write::Cut {
            table,
            match_no,
            from,
        } => {
            out.push(Box::pin(async move {
                client
                    .execute(
                        &s.cut_actions,
                        &[table, &i64::from(*match_no), &i64::from(*from)],
                    )
                    .await
            }));
            out.push(Box::pin(async move {
                client
                    .execute(&s.cut_matches, &[table, &i64::from(*match_no)])
                    .await
            }));
        }
        Write::Deleted { table } => {
            for stmt in &s.delete {
                out.push(Box::pin(async move {
                    client.execute(stmt, &[&vec![table.as_str()]]).await
                }));
            }
        }
    }
    out
}

/// The task's loop; returns when asked to stop or when every [`super::PgStore`] is gone.
pub async fn run(mut writer: Writer, mut rx: mpsc::UnboundedReceiver<Request>) {
    let mut queue: VecDeque<Request> = VecDeque::new();
    let mut idle_wait = RETRY_FIRST;
    loop {
        if queue.is_empty() {
            let first = if writer.health.failing().is_some() {
                // Nothing to write, but the database was down: try it now and then, so
                // tables resume (and `/healthz` recovers) once it is back.
                tokio::select! {
                    request = rx.recv() => request,
                    () = tokio::time::sleep(idle_wait) => {
                        match writer.probe().await {
                            Ok(()) => {
                                tracing::info!("the database takes writes again: tables resume");
                                writer.health.set(None);
                                idle_wait = RETRY_FIRST;
                            }
                            Err(err) => {
                                writer.health.set(Some(err.to_string()));
                                idle_wait = longer(idle_wait);
                            }
                        }
                        continue;
                    }
                }
            } else {
                rx.recv().await
            };
            let Some(first) = first else { break };
            queue.push_back(first);
        }
        take_waiting(&mut rx, &mut queue);
        if let Some(reply) = serve(&mut writer, &mut queue, &mut rx).await {
            if let Some(reply) = reply {
                let _ = reply.send(());
            }
            return;
        }
    }
}

/// Answers the queued requests in order. Returns `Some` when the writer is to stop (with
/// the stop request's answer, `None` when every sender is gone).
async fn serve(
    writer: &mut Writer,
    queue: &mut VecDeque<Request>,
    rx: &mut mpsc::UnboundedReceiver<Request>,
) -> Option<Option<oneshot::Sender<()>>> {
    let mut wait = RETRY_FIRST;
    while let Some(front) = queue.front() {
        if !matches!(front, Request::Write { .. }) {
            match queue.pop_front() {
                None | Some(Request::Write { .. }) => {}
                Some(Request::Barrier { reply }) => {
                    let _ = reply.send(());
                }
                Some(Request::Load { id, reply }) => {
                    let result = writer
                        .read(move |c| {
                            Box::pin(async move { load::table_log(c, &id, load::Scope::All).await })
                        })
                        .await;
                    let _ = reply.send(result);
                }
                Some(Request::Results { after, reply }) => {
                    let result = writer
                        .read(move |c| Box::pin(load::results(c, after)))
                        .await;
                    let _ = reply.send(result);
                }
                Some(Request::Prune {
                    before,
                    limit,
                    reply,
                }) => {
                    let result = writer
                        .read(move |c| Box::pin(prune(c, before, limit)))
                        .await;
                    let _ = reply.send(result);
                }
                Some(Request::Probe { reply }) => {
                    let result = writer.probe().await;
                    writer
                        .health
                        .set(result.as_ref().err().map(ToString::to_string));
                    let _ = reply.send(result);
                }
                Some(Request::Account(op)) => account(writer, op).await,
                Some(Request::Shutdown { reply }) => return Some(Some(reply)),
            }
            continue;
        }
        let writes = head_writes(queue);
        let count = writes.len();
        let started = Instant::now();
        let mut result = writer.commit(&writes).await;
        if result.is_err() && writer.health.failing().is_none() {
            // The first failure after a healthy stretch is tried again at once, on a fresh
            // connection: a session the database ended (this node frozen past its lease)
            // learns it was fenced, and its tables say they moved rather than "can't save".
            result = writer.commit(&writes).await;
        }
        count_commit(started, result.as_ref().ok().map(|_| count));
        let outcomes = match result {
            Ok(outcomes) => outcomes,
            Err(err) => {
                writer.counters.failed.fetch_add(1, Ordering::Relaxed);
                commit_failed(&writer.health, &err, count);
                match wait_to_retry(rx, queue, wait).await {
                    Retry::Again => {
                        wait = longer(wait);
                        continue;
                    }
                    Retry::Stop(reply) => {
                        stopping_unwritten(count);
                        queue.clear();
                        return Some(reply);
                    }
                }
            }
        };
        commit_worked(&writer.health);
        wait = RETRY_FIRST;
        writer.counters.commits.fetch_add(1, Ordering::Relaxed);
        writer
            .counters
            .writes
            .fetch_add(count as u64, Ordering::Relaxed);
        for (ack, outcome) in committed(queue, count, outcomes) {
            ack.acknowledge(outcome);
        }
        // Acknowledged first, then healthy: a table's held output goes out as it resumes.
        writer.health.set(None);
    }
    None
}

/// Answers one bot account request.
async fn account(writer: &mut Writer, op: AccountOp) {
    match op {
        AccountOp::Add(bot, reply) => {
            let result = writer
                .read(move |c| Box::pin(async move { accounts::insert(c, &bot).await }))
                .await;
            let _ = reply.send(result);
        }
        AccountOp::List(reply) => {
            let _ = reply.send(writer.read(|c| Box::pin(accounts::list(c))).await);
        }
        AccountOp::Revoke(name, reply) => {
            let result = writer
                .read(move |c| Box::pin(async move { accounts::revoke(c, &name).await }))
                .await;
            let _ = reply.send(result);
        }
        AccountOp::ByToken(hash, reply) => {
            let result = writer
                .read(move |c| Box::pin(async move { accounts::by_token(c, &hash).await }))
                .await;
            let _ = reply.send(result);
        }
    }
}

/// Waits `wait` before a failed batch is tried again, queueing what arrives meanwhile; a stop
/// request (or every sender gone) ends the wait and the tries.
async fn wait_to_retry(
    rx: &mut mpsc::UnboundedReceiver<Request>,
    queue: &mut VecDeque<Request>,
    wait: Duration,
) -> Retry {
    let until = tokio::time::Instant::now() + wait;
    loop {
        tokio::select! {
            request = rx.recv() => match request {
                Some(Request::Shutdown { reply }) => return Retry::Stop(Some(reply)),
                Some(request) => queue.push_back(request),
                None => return Retry::Stop(None),
            },
            () = tokio::time::sleep_until(until) => return Retry::Again,
        }
    }
}

/// Deletes up to `limit` closed tables created before `before`, and everything of theirs,
/// in one transaction.
async fn prune(client: &Client, before: i64, limit: usize) -> Result<usize, StoreError> {
    client.batch_execute("BEGIN").await?;
    let result = async {
        let ids: Vec<String> = client
            .query(
                "SELECT id FROM tables WHERE status = $1 AND created < $2
                 ORDER BY created LIMIT $3 FOR UPDATE",
                &[&CLOSED, &before, &(limit as i64)],
            )
            .await?
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()?;
        for sql in [
            "DELETE FROM actions WHERE table_id = ANY($1)",
            "DELETE FROM chat WHERE table_id = ANY($1)",
            "DELETE FROM seats WHERE table_id = ANY($1)",
            "DELETE FROM matches WHERE table_id = ANY($1)",
            "DELETE FROM tables WHERE id = ANY($1)",
        ] {
            client.execute(sql, &[&ids]).await?;
        }
        Ok::<_, tokio_postgres::Error>(ids.len())
    }
    .await;
    match result {
        Ok(n) => {
            client.batch_execute("COMMIT").await?;
            metrics::counter!("parlor_store_pruned_tables_total").increment(n as u64);
            Ok(n)
        }
        Err(err) => {
            let _ = client.batch_execute("ROLLBACK").await;
            Err(err.into())
        }
    }
}

/// Whether an error code is a lost connection's (the server shutting down or gone).
#[must_use]
pub fn is_connection_lost(err: &tokio_postgres::Error) -> bool {
    err.is_closed()
        || err.code().is_some_and(|c| {
            *c == SqlState::ADMIN_SHUTDOWN
                || *c == SqlState::CRASH_SHUTDOWN
                || *c == SqlState::CANNOT_CONNECT_NOW
        })
}
