//! Read connections of rusqlite's own, for reads that return many rows.
//!
//! sqlx's SQLite driver runs each connection on a thread of its own and hands every row over
//! to the async side through a channel; for a query of a few rows that costs nothing, but the
//! explorer reads hundreds of rows per answer and that hand-over was most of its latency. A
//! read here runs whole on a blocking thread, on a connection taken from a small pool, and
//! returns its result at once. At most [`MAX_READERS`] such reads run at a time.

use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

use crate::store::StoreError;
use crate::store::sqlite::{BUSY_TIMEOUT, write_error};

/// Reads that may run at once (and connections kept open between them).
pub const MAX_READERS: usize = 4;

/// A pool of read-only connections to one database file.
#[derive(Debug)]
pub(crate) struct Readers {
    path: String,
    idle: Mutex<Vec<rusqlite::Connection>>,
    permits: Semaphore,
}

impl Readers {
    /// Readers of the file at `path` (connections are opened when first needed).
    pub(crate) fn new(path: &str) -> Readers {
        Readers {
            path: path.to_string(),
            idle: Mutex::new(Vec::new()),
            permits: Semaphore::new(MAX_READERS),
        }
    }

    fn open(&self) -> Result<rusqlite::Connection, rusqlite::Error> {
        let conn = rusqlite::Connection::open_with_flags(
            &self.path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
                | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX
                | rusqlite::OpenFlags::SQLITE_OPEN_URI,
        )?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        Ok(conn)
    }

    /// Runs `f` on a read connection, on a blocking thread.
    pub(crate) async fn read<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&rusqlite::Connection) -> Result<T, rusqlite::Error> + Send + 'static,
    ) -> Result<T, StoreError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|e| StoreError::Write(format!("reading: {e}")))?;
        let me = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let taken = me.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let conn = match taken {
                Some(conn) => conn,
                None => me.open().map_err(write_error)?,
            };
            let out = f(&conn).map_err(write_error);
            me.idle.lock().unwrap_or_else(|e| e.into_inner()).push(conn);
            out
        })
        .await
        .map_err(|e| StoreError::Write(format!("reading: {e}")))?
    }
}
