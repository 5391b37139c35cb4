//! `parlor backup --data DIR OUT` and `parlor restore BACKUP --data DIR`: a consistent copy of
//! the table log taken while the server runs (SQLite's online backup API), and putting one
//! back while it is stopped.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;

use crate::store::StoreLocation;
use crate::store::sqlite::backup;

/// Options of `parlor backup`.
#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The server's data directory (as `parlor serve --data`).
    #[arg(long, env = "PARLOR_DATA", default_value = "./data")]
    pub data: PathBuf,
    /// The server's store, when given as `parlor serve --store`: `sqlite:DIR` is backed up;
    /// a Postgres database is refused (back it up with `pg_dump`).
    #[arg(long, env = "PARLOR_STORE", value_name = "URL", hide_env_values = true)]
    pub store: Option<String>,
    /// The backup file to write (replaced if it exists).
    pub out: PathBuf,
}

/// Options of `parlor restore`.
#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// A file written by `parlor backup`.
    pub backup: PathBuf,
    /// The data directory to restore into; its database is replaced. Stop the server first.
    #[arg(long, env = "PARLOR_DATA", default_value = "./data")]
    pub data: PathBuf,
    /// The server's store, when given as `parlor serve --store`: `sqlite:DIR` is restored
    /// into; a Postgres database is refused (restore it with `pg_restore`).
    #[arg(long, env = "PARLOR_STORE", value_name = "URL", hide_env_values = true)]
    pub store: Option<String>,
}

/// The data directory of `store` (else `data`); a Postgres store is refused with what to
/// use instead.
fn data_dir(store: Option<&str>, data: &Path, tool: &str) -> anyhow::Result<PathBuf> {
    match StoreLocation::resolve(store, data)? {
        StoreLocation::Sqlite(dir) => Ok(dir),
        StoreLocation::Postgres(_) => bail!(
            "parlor {tool} works on the SQLite file of a data directory; a Postgres store is \
             backed up and restored with Postgres's own tools (pg_dump and pg_restore)"
        ),
    }
}

/// Takes the backup.
pub fn run_backup(args: &BackupArgs) -> anyhow::Result<()> {
    let data = data_dir(args.store.as_deref(), &args.data, "backup")?;
    let args = BackupArgs {
        data,
        store: None,
        out: args.out.clone(),
    };
    backup::backup(&args.data, &args.out).with_context(|| {
        format!(
            "backing up {} to {}",
            args.data.display(),
            args.out.display()
        )
    })?;
    eprintln!(
        "backed up {} to {}",
        args.data.display(),
        args.out.display()
    );
    Ok(())
}

/// Restores a backup.
pub fn run_restore(args: &RestoreArgs) -> anyhow::Result<()> {
    let data = data_dir(args.store.as_deref(), &args.data, "restore")?;
    let args = RestoreArgs {
        data,
        store: None,
        backup: args.backup.clone(),
    };
    backup::restore(&args.backup, &args.data).with_context(|| {
        format!(
            "restoring {} into {}",
            args.backup.display(),
            args.data.display()
        )
    })?;
    eprintln!(
        "restored {} into {}",
        args.backup.display(),
        args.data.display()
    );
    Ok(())
}
