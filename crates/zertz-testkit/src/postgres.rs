//! A fresh PostgreSQL database for one test of `zertz serve`, on the server that
//! `ZERTZ_TEST_POSTGRES` names (a URL whose role may create databases; `source
//! .ci/postgres.sh` starts one and sets it, and CI always does). Without it, the test says on
//! stderr that it did not run on PostgreSQL, and passes.

use zertz_server::store::scratch::Scratch;

use crate::site::Db;

/// A database made for one test; [`TestDatabase::remove`] drops it. (One left behind by a
/// failed test is named after it.)
pub struct TestDatabase {
    scratch: Scratch,
    /// The database as the server takes it.
    pub db: Db,
}

/// A new, empty database for `test`, or `None` (and a line on stderr saying that `test` was
/// not run on PostgreSQL) when `ZERTZ_TEST_POSTGRES` is not set.
pub async fn fresh(test: &str) -> Option<TestDatabase> {
    let scratch = zertz_server::store::scratch::create(test).await?;
    let db = Db::Postgres(scratch.url.clone());
    Some(TestDatabase { scratch, db })
}

impl TestDatabase {
    /// Drops the database (every server on it must have been stopped).
    pub async fn remove(self) {
        self.scratch.remove().await;
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
                    let (_dir, db) = $crate::site::temp_db();
                    super::$name($crate::site::Db::from(&db)).await;
                }

                #[tokio::test]
                async fn postgres() {
                    $crate::postgres::run(stringify!($name), super::$name).await;
                }
            }
        )*
    };
}
