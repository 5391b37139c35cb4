//! Backups of the database with SQLite's online backup API: a consistent copy taken while the
//! server runs (it reads one snapshot; the server's writer goes on beside it), and its
//! restoring into a data directory.
//!
//! Copying `parlor.db` with `cp` is not safe in WAL mode (the newest pages may still be in
//! `parlor.db-wal`); this is. It owns these two copies only.

use std::path::Path;
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::{DB_FILE, schema};
use crate::store::StoreError;

/// Copies the database of data directory `data` into the file `out` (replaced if it exists).
/// Safe while a server uses `data`: the copy is one consistent snapshot.
pub fn backup(data: &Path, out: &Path) -> Result<(), StoreError> {
    let db = data.join(DB_FILE);
    if !db.exists() {
        return Err(StoreError::Io {
            what: format!("reading {}", db.display()),
            err: std::io::ErrorKind::NotFound.into(),
        });
    }
    let src = Connection::open_with_flags(&db, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    src.busy_timeout(Duration::from_secs(5))?;
    remove_file(out)?;
    let mut dst = Connection::open(out)?;
    copy(&src, &mut dst)?;
    // A backup is one self-contained file.
    dst.query_row("PRAGMA journal_mode = DELETE", [], |_| Ok(()))?;
    Ok(())
}

/// Replaces the database of data directory `data` with the backup `file`, after checking it
/// is a sound Parlor database this build can read. The server must be stopped (its lock on
/// the directory is checked).
pub fn restore(file: &Path, data: &Path) -> Result<(), StoreError> {
    let src = Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let check: String = src.query_row("PRAGMA quick_check", [], |row| row.get(0))?;
    if check != "ok" {
        return Err(StoreError::Io {
            what: format!("checking {}: {check}", file.display()),
            err: std::io::ErrorKind::InvalidData.into(),
        });
    }
    super::identity::check(&src, file)?;
    schema::check_version(&src)?;
    std::fs::create_dir_all(data).map_err(|err| StoreError::Io {
        what: format!("creating {}", data.display()),
        err,
    })?;
    // Refused while a server runs on the directory.
    let _lock = super::identity::lock(data)?;
    let db = data.join(DB_FILE);
    for suffix in ["", "-wal", "-shm"] {
        remove_file(Path::new(&format!("{}{suffix}", db.display())))?;
    }
    let mut dst = Connection::open(&db)?;
    copy(&src, &mut dst)?;
    Ok(())
}

/// Copies every page of `src` into `dst` in one step, so the copy is one snapshot; a source
/// busy for a moment is tried again (for up to ten seconds).
fn copy(src: &Connection, dst: &mut Connection) -> Result<(), StoreError> {
    let backup = Backup::new(src, dst)?;
    for _ in 0..1000 {
        match backup.step(-1)? {
            StepResult::Done => return Ok(()),
            StepResult::More | StepResult::Busy | StepResult::Locked => {
                std::thread::sleep(Duration::from_millis(10));
            }
            _ => {}
        }
    }
    Err(StoreError::Io {
        what: "copying the database: it stayed busy".into(),
        err: std::io::ErrorKind::TimedOut.into(),
    })
}

/// Removes a file if it is there.
fn remove_file(path: &Path) -> Result<(), StoreError> {
    match std::fs::remove_file(path) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(StoreError::Io {
            what: format!("removing {}", path.display()),
            err,
        }),
        _ => Ok(()),
    }
}
