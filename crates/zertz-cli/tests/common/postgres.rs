//! A fresh PostgreSQL database for one test of `zertz serve`, on the server that
//! `ZERTZ_TEST_POSTGRES` names (a URL whose role may create databases; `source
//! .ci/postgres.sh` starts one and sets it, and CI always does). Without it, the test says on
//! stderr that it did not run on PostgreSQL, and passes.

#![allow(dead_code)]

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::Connection;

use super::server::Db;

/// A database made for one test; [`TestDatabase::remove`] drops it. (One left behind by a
/// failed test is named after it.)
pub struct TestDatabase {
    admin_url: String,
    name: String,
    /// The database as the server takes it.
    pub db: Db,
}

/// A new, empty database for `test`, or `None` (and a line on stderr saying that `test` was
/// not run on PostgreSQL) when `ZERTZ_TEST_POSTGRES` is not set.
pub async fn fresh(test: &str) -> Option<TestDatabase> {
    let admin_url = match std::env::var("ZERTZ_TEST_POSTGRES") {
        Ok(url) if !url.trim().is_empty() => url,
        _ => {
            // Straight to the stream, past the test harness's capture, so that it is seen even
            // though the test passes.
            let _ = writeln!(
                std::io::stderr(),
                "NOT RUN on PostgreSQL: {test} checked nothing there, because \
                 ZERTZ_TEST_POSTGRES is not set (`source .ci/postgres.sh` sets it)"
            );
            return None;
        }
    };
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let now_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis();
    // Unique across tests and runs; PostgreSQL names stop at 63 bytes.
    let name = format!(
        "zertz_serve_{}_{}_{}_{}",
        &test[..test.len().min(20)],
        std::process::id(),
        now_ms,
        SEQ.fetch_add(1, Ordering::Relaxed)
    );
    let mut admin = sqlx::PgConnection::connect(&admin_url)
        .await
        .unwrap_or_else(|e| panic!("connect to ZERTZ_TEST_POSTGRES ({admin_url}): {e}"));
    sqlx::raw_sql(&format!("CREATE DATABASE \"{name}\""))
        .execute(&mut admin)
        .await
        .unwrap_or_else(|e| panic!("create database {name}: {e}"));
    let _ = admin.close().await;
    let url = with_database(&admin_url, &name);
    Some(TestDatabase {
        admin_url,
        name,
        db: Db::Postgres(url),
    })
}

impl TestDatabase {
    /// Drops the database (every server on it must have been stopped). PostgreSQL's own
    /// autovacuum may be working on it (a table written twice a second, as the shared pairing
    /// queue is, gets vacuumed during a test), and a role that is not a superuser may not end
    /// that worker: the drop is tried again until it is gone, for up to 30 s.
    pub async fn remove(self) {
        let mut admin = sqlx::PgConnection::connect(&self.admin_url)
            .await
            .expect("connect to ZERTZ_TEST_POSTGRES");
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
}

/// `url` with its database (the path) replaced by `name`, its query kept.
fn with_database(url: &str, name: &str) -> String {
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

/// Runs `check` on a fresh database named after `test`, and drops the database afterwards even
/// when the check fails (its panic is then passed on). Without `ZERTZ_TEST_POSTGRES`, says so
/// (see [`fresh`]) and passes.
pub async fn run<F, Fut>(test: &str, check: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let Some(database) = fresh(test).await else {
        return;
    };
    // On a task of its own, so that a failing check is caught here and the database dropped.
    let outcome = tokio::spawn(check(database.db.clone())).await;
    database.remove().await;
    if let Err(e) = outcome {
        match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(e) => panic!("{test}: {e}"),
        }
    }
}

/// Runs each test body (an `async fn NAME(db: Db)`) twice, as `NAME::sqlite` on a fresh SQLite
/// file and as `NAME::postgres` on a fresh PostgreSQL database (see [`run`]).
#[macro_export]
macro_rules! on_sqlite_and_postgres {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test]
                async fn sqlite() {
                    let (_dir, db) = $crate::common::server::temp_db();
                    super::$name($crate::common::server::Db::from(&db)).await;
                }

                #[tokio::test]
                async fn postgres() {
                    $crate::common::postgres::run(stringify!($name), super::$name).await;
                }
            }
        )*
    };
}
