//! `parlor backup --data DIR OUT` and `parlor restore BACKUP --data DIR`: a consistent copy of
//! the table log taken while the server runs (SQLite's online backup API), and putting one
//! back while it is stopped.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::store::sqlite::backup;

/// Options of `parlor backup`.
#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The server's data directory (as `parlor serve --data`).
    #[arg(long, env = "PARLOR_DATA", default_value = "./data")]
    pub data: PathBuf,
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
}

/// Takes the backup.
pub fn run_backup(args: &BackupArgs) -> anyhow::Result<()> {
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
