//! A throwaway PostgreSQL database, for tests of this crate and of the command line: made on
//! the server that `ZERTZ_TEST_POSTGRES` names (a URL whose role may create databases;
//! `source .ci/postgres.sh` starts one and sets it, and CI always does), dropped afterwards.
//! Without that variable a test says on stderr that it did not run on PostgreSQL, and passes.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::Connection;

/// The variable that names the PostgreSQL server tests may make databases on.
pub const VARIABLE: &str = "ZERTZ_TEST_POSTGRES";

/// A database made for one test; [`Scratch::remove`] drops it. One left behind by a killed
/// run is named after its test.
pub struct Scratch {
    admin_url: String,
    name: String,
    /// The database's URL.
    pub url: String,
}

/// A new, empty database for `test`, or `None` (and a line on stderr saying that `test` was
/// not run on PostgreSQL) when [`VARIABLE`] is not set.
pub async fn create(test: &str) -> Option<Scratch> {
    let admin_url = match std::env::var(VARIABLE) {
        Ok(url) if !url.trim().is_empty() => url,
        _ => {
            // Straight to the stream, past the test harness's capture, so that it is seen even
            // though the test passes.
            let _ = writeln!(
                std::io::stderr(),
                "NOT RUN on PostgreSQL: {test} checked nothing there, because {VARIABLE} is \
                 not set (`source .ci/postgres.sh` sets it)"
            );
            return None;
        }
    };
    // Unique across tests and runs (two may start in the same millisecond: the count tells
    // them apart); PostgreSQL names stop at 63 bytes.
    static MADE: AtomicU64 = AtomicU64::new(0);
    let short: String = test
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(20)
        .collect();
    let name = format!(
        "zertz_test_{short}_{}_{}_{}",
        std::process::id(),
        crate::util::now_ms(),
        MADE.fetch_add(1, Ordering::Relaxed)
    );
    let mut admin = sqlx::PgConnection::connect(&admin_url)
        .await
        .unwrap_or_else(|e| panic!("connect to {VARIABLE} ({admin_url}): {e}"));
    sqlx::raw_sql(&format!("CREATE DATABASE \"{name}\""))
        .execute(&mut admin)
        .await
        .unwrap_or_else(|e| panic!("create database {name}: {e}"));
    let _ = admin.close().await;
    let url = with_database(&admin_url, &name);
    Some(Scratch {
        admin_url,
        name,
        url,
    })
}

impl Scratch {
    /// Drops the database (whatever used it must have stopped). PostgreSQL's autovacuum may be
    /// working on it (a table written twice a second gets vacuumed during a test), and a role
    /// that is not a superuser may not end that worker: the drop is tried again until it is
    /// gone, for up to 30 s.
    pub async fn remove(self) {
        let mut admin = sqlx::PgConnection::connect(&self.admin_url)
            .await
            .unwrap_or_else(|e| panic!("connect to {VARIABLE}: {e}"));
        let drop = format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name);
        let mut tries = 0;
        loop {
            match sqlx::raw_sql(&drop).execute(&mut admin).await {
                Ok(_) => break,
                Err(e) if tries < 120 && e.to_string().contains("pg_signal_backend") => {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                }
                Err(e) => panic!("drop database {}: {e}", self.name),
            }
        }
        let _ = admin.close().await;
    }

    /// Runs `check` on the database's URL on a task of its own, drops the database even when
    /// the check fails, then passes the check's panic on.
    pub async fn run<F, Fut>(self, check: F)
    where
        F: FnOnce(String) -> Fut,
        Fut: std::future::Future<Output = ()> + Send + 'static,
    {
        let outcome = tokio::spawn(check(self.url.clone())).await;
        self.remove().await;
        if let Err(e) = outcome {
            match e.try_into_panic() {
                Ok(panic) => std::panic::resume_unwind(panic),
                Err(e) => panic!("the check's task: {e}"),
            }
        }
    }
}

/// `url` with its database (the path) replaced by `name`, its query kept.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let root = match base[after_scheme..].find('/') {
        Some(i) => &base[..after_scheme + i],
        None => base,
    };
    match query {
        Some(q) => format!("{root}/{name}?{q}"),
        None => format!("{root}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn the_database_is_replaced_and_the_query_kept() {
        assert_eq!(
            with_database("postgres://u:p@h:5432/zertz?sslmode=disable", "t1"),
            "postgres://u:p@h:5432/t1?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "t2"), "postgres://h/t2");
    }
}
