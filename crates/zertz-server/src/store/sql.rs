//! SQL written once for both databases.
//!
//! Most of what a feature stores is the same SQL in SQLite and PostgreSQL: the same text but
//! for the placeholders, the same values bound, the same columns read back. That part is
//! written once, in the feature's `sql.rs`, over [`Sql`], which both stores implement:
//!
//! - **Placeholders**: shared SQL is written with `?`; [`numbered`] turns it into `$1, $2, …`
//!   for PostgreSQL (a `?` inside a quoted string stays). A value used twice is bound twice.
//! - **Values**: [`Arg`], owned (a SQLite write crosses to the writer thread), typed even when
//!   null (PostgreSQL checks a parameter's type against its column).
//! - **Booleans**: `BOOLEAN` in PostgreSQL, an `INTEGER` 0 or 1 in SQLite. Both drivers (sqlx
//!   and rusqlite) write a `bool` as 0 or 1 into SQLite and decode one from an integer, so
//!   shared code binds and reads `bool` in both.
//! - **Rows**: [`Row::get`] reads a column of either database's row, so a row's mapper is one
//!   function.
//! - **Writes**: [`Statement`]s run in one transaction: on SQLite on the writer thread (in its
//!   batch's transaction), on PostgreSQL in a transaction of their own.
//!
//! What truly differs (a number taken inside SQLite's writer where PostgreSQL uses
//! `RETURNING` and tries again, arrays bound whole, JSON operators, the rusqlite readers) stays
//! in the feature's `sqlite.rs` and `postgres.rs`, behind a small trait of the feature's.

use async_trait::async_trait;
use sqlx::{Database, Decode, Encode, Postgres, Sqlite, Type};

use crate::store::StoreError;
use crate::store::common::conflict;

/// Which database a [`Sql`] store is, for the few texts that differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// SQLite: one file, one writer thread.
    Sqlite,
    /// PostgreSQL, by URL.
    Postgres,
}

/// A value bound to a statement: owned (a SQLite write runs on the writer thread) and typed
/// even when null (PostgreSQL checks it against its column).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Arg {
    /// `INTEGER` / `BIGINT`.
    Int(Option<i64>),
    /// `REAL` / `DOUBLE PRECISION`.
    Real(Option<f64>),
    /// `TEXT`.
    Text(Option<String>),
    /// `BOOLEAN` in PostgreSQL, `INTEGER` 0 or 1 in SQLite (both drivers write it so).
    Bool(bool),
    /// `BLOB` / `BYTEA`.
    Bytes(Option<Vec<u8>>),
}

impl From<i64> for Arg {
    fn from(v: i64) -> Arg {
        Arg::Int(Some(v))
    }
}

impl From<Option<i64>> for Arg {
    fn from(v: Option<i64>) -> Arg {
        Arg::Int(v)
    }
}

impl From<f64> for Arg {
    fn from(v: f64) -> Arg {
        Arg::Real(Some(v))
    }
}

impl From<Option<f64>> for Arg {
    fn from(v: Option<f64>) -> Arg {
        Arg::Real(v)
    }
}

impl From<bool> for Arg {
    fn from(v: bool) -> Arg {
        Arg::Bool(v)
    }
}

impl From<String> for Arg {
    fn from(v: String) -> Arg {
        Arg::Text(Some(v))
    }
}

impl From<&String> for Arg {
    fn from(v: &String) -> Arg {
        Arg::Text(Some(v.clone()))
    }
}

impl From<&str> for Arg {
    fn from(v: &str) -> Arg {
        Arg::Text(Some(v.to_string()))
    }
}

impl From<Option<String>> for Arg {
    fn from(v: Option<String>) -> Arg {
        Arg::Text(v)
    }
}

impl From<&Option<String>> for Arg {
    fn from(v: &Option<String>) -> Arg {
        Arg::Text(v.clone())
    }
}

impl From<Option<&str>> for Arg {
    fn from(v: Option<&str>) -> Arg {
        Arg::Text(v.map(str::to_string))
    }
}

impl From<Vec<u8>> for Arg {
    fn from(v: Vec<u8>) -> Arg {
        Arg::Bytes(Some(v))
    }
}

impl From<&[u8]> for Arg {
    fn from(v: &[u8]) -> Arg {
        Arg::Bytes(Some(v.to_vec()))
    }
}

/// The values of a statement, each turned into an [`Arg`]: `args![id, name, at_ms]`.
macro_rules! args {
    ($($value:expr),* $(,)?) => {
        vec![$($crate::store::sql::Arg::from($value)),*]
    };
}
pub(crate) use args;

/// `?, ?, …`: the placeholders of a list of `n` values (`IN (…)`).
pub(crate) fn placeholders(n: usize) -> String {
    vec!["?"; n].join(", ")
}

/// Binds `args` to a sqlx query of either database.
pub(crate) fn bind<'q, DB: Database>(
    mut query: sqlx::query::Query<'q, DB, DB::Arguments<'q>>,
    args: Vec<Arg>,
) -> sqlx::query::Query<'q, DB, DB::Arguments<'q>>
where
    Option<i64>: Encode<'q, DB> + Type<DB>,
    Option<f64>: Encode<'q, DB> + Type<DB>,
    Option<String>: Encode<'q, DB> + Type<DB>,
    Option<Vec<u8>>: Encode<'q, DB> + Type<DB>,
    bool: Encode<'q, DB> + Type<DB>,
{
    for arg in args {
        query = match arg {
            Arg::Int(v) => query.bind(v),
            Arg::Real(v) => query.bind(v),
            Arg::Text(v) => query.bind(v),
            Arg::Bool(v) => query.bind(v),
            Arg::Bytes(v) => query.bind(v),
        };
    }
    query
}

/// `sql` written with `?` placeholders as PostgreSQL takes it: the n-th `?` becomes `$n`. A
/// `?` inside a quoted string or name (`'…'`, `"…"`) is left alone.
pub(crate) fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    let mut quote = None;
    for c in sql.chars() {
        match (quote, c) {
            (None, '?') => {
                n += 1;
                out.push('$');
                out.push_str(&n.to_string());
                continue;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
        out.push(c);
    }
    out
}

/// A type both databases decode (the bounds written once).
pub(crate) trait Value:
    for<'r> Decode<'r, Sqlite> + Type<Sqlite> + for<'r> Decode<'r, Postgres> + Type<Postgres>
{
}

impl<T> Value for T where
    T: for<'r> Decode<'r, Sqlite> + Type<Sqlite> + for<'r> Decode<'r, Postgres> + Type<Postgres>
{
}

/// A row of either database.
pub(crate) trait Row: Send + Sync {
    /// The value of `column`.
    fn get<T: Value>(&self, column: &str) -> Result<T, sqlx::Error>;
}

impl Row for sqlx::sqlite::SqliteRow {
    fn get<T: Value>(&self, column: &str) -> Result<T, sqlx::Error> {
        sqlx::Row::try_get(self, column)
    }
}

impl Row for sqlx::postgres::PgRow {
    fn get<T: Value>(&self, column: &str) -> Result<T, sqlx::Error> {
        sqlx::Row::try_get(self, column)
    }
}

/// Maps every row with `f`.
pub(crate) fn map_rows<R: Row, T>(
    rows: &[R],
    f: impl Fn(&R) -> Result<T, sqlx::Error>,
) -> Result<Vec<T>, StoreError> {
    Ok(rows.iter().map(f).collect::<Result<_, _>>()?)
}

/// One statement of a write, with what its failures mean.
#[derive(Clone, Debug)]
pub(crate) struct Statement {
    /// The SQL, with `?` placeholders.
    pub(crate) sql: String,
    /// Its values, in order.
    pub(crate) args: Vec<Arg>,
    /// What a unique violation means, if not a database error.
    unique: Option<Unique>,
    /// No row changed: the write stops (and is rolled back) with `StoreError::NotFound` of
    /// this.
    must_change: Option<String>,
}

/// What a statement's unique violation means.
#[derive(Clone, Debug)]
enum Unique {
    /// `StoreError::Taken` with this message.
    Taken(String),
    /// A conflict on this version of this game.
    Conflict(String, i64),
}

impl Statement {
    /// `sql` with `args`.
    pub(crate) fn new(sql: impl Into<String>, args: Vec<Arg>) -> Statement {
        Statement {
            sql: sql.into(),
            args,
            unique: None,
            must_change: None,
        }
    }

    /// A unique violation is `StoreError::Taken(message)`.
    pub(crate) fn taken(mut self, message: String) -> Statement {
        self.unique = Some(Unique::Taken(message));
        self
    }

    /// A unique violation is a conflict on `version` of `game` (another writer got there
    /// first).
    pub(crate) fn conflict(mut self, game: &str, version: i64) -> Statement {
        self.unique = Some(Unique::Conflict(game.to_string(), version));
        self
    }

    /// When no row changes, the write fails with `StoreError::NotFound(what)`.
    pub(crate) fn must_change(mut self, what: String) -> Statement {
        self.must_change = Some(what);
        self
    }

    /// The error of a failure: `unique` when it was a unique violation, `err` otherwise.
    pub(crate) fn refused(&self, unique: bool, err: StoreError) -> StoreError {
        match &self.unique {
            Some(Unique::Taken(message)) if unique => StoreError::Taken(message.clone()),
            Some(Unique::Conflict(game, version)) if unique => conflict(game, *version),
            _ => err,
        }
    }

    /// `changed` rows, or the error when none changed and one must.
    pub(crate) fn changed(&self, changed: u64) -> Result<u64, StoreError> {
        match &self.must_change {
            Some(what) if changed == 0 => Err(StoreError::NotFound(what.clone())),
            _ => Ok(changed),
        }
    }
}

/// A store that runs SQL written once: [`crate::store::SqliteStore`] and
/// [`crate::store::PostgresStore`]. Every SQL text it takes is written with `?` placeholders.
#[async_trait]
pub(crate) trait Sql: Send + Sync {
    /// Its rows.
    type Row: Row;

    /// Which database it is.
    const DIALECT: Dialect;

    /// Every row `sql` selects (on SQLite: the read pool).
    async fn fetch_all(&self, sql: &str, args: Vec<Arg>) -> Result<Vec<Self::Row>, StoreError>;

    /// The first row `sql` selects, if any.
    async fn fetch_optional(
        &self,
        sql: &str,
        args: Vec<Arg>,
    ) -> Result<Option<Self::Row>, StoreError>;

    /// Every row of each read, all from one snapshot (one read transaction; on PostgreSQL
    /// `REPEATABLE READ`), so that they agree.
    async fn fetch_together(
        &self,
        reads: Vec<(&str, Vec<Arg>)>,
    ) -> Result<Vec<Vec<Self::Row>>, StoreError>;

    /// Runs `statements` in order in one transaction (nothing is written if one fails) and
    /// returns the rows each changed.
    async fn write(&self, statements: Vec<Statement>) -> Result<Vec<u64>, StoreError>;

    /// Runs one statement; returns the rows it changed.
    async fn execute(&self, sql: &str, args: Vec<Arg>) -> Result<u64, StoreError> {
        let changed = self.write(vec![Statement::new(sql, args)]).await?;
        Ok(changed.into_iter().sum())
    }

    /// `sql` is the first text on SQLite, the second on PostgreSQL.
    fn pick(sqlite: &'static str, postgres: &'static str) -> &'static str {
        match Self::DIALECT {
            Dialect::Sqlite => sqlite,
            Dialect::Postgres => postgres,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_in_order() {
        assert_eq!(
            numbered("SELECT a FROM t WHERE b = ? AND (c, d) < (?, ?) LIMIT ?"),
            "SELECT a FROM t WHERE b = $1 AND (c, d) < ($2, $3) LIMIT $4"
        );
        assert_eq!(numbered("SELECT 1"), "SELECT 1");
        let many = ["?"; 12].join(", ");
        assert!(numbered(&many).ends_with("$10, $11, $12"));
    }

    #[test]
    fn a_question_mark_in_quotes_stays() {
        assert_eq!(
            numbered("SELECT '?', \"a?\" FROM t WHERE x = ? AND y = 'it''s ?' AND z = ?"),
            "SELECT '?', \"a?\" FROM t WHERE x = $1 AND y = 'it''s ?' AND z = $2"
        );
    }

    #[test]
    fn a_statement_maps_its_failures() {
        let s = Statement::new("UPDATE t SET a = ?", args![1_i64])
            .taken("taken".into())
            .must_change("row".into());
        assert!(matches!(
            s.refused(true, StoreError::Write("x".into())),
            StoreError::Taken(m) if m == "taken"
        ));
        assert!(matches!(
            s.refused(false, StoreError::Write("x".into())),
            StoreError::Write(_)
        ));
        assert!(matches!(s.changed(0), Err(StoreError::NotFound(w)) if w == "row"));
        assert_eq!(s.changed(2).ok(), Some(2));
        let event = Statement::new("INSERT INTO t VALUES (?)", args![3_i64]).conflict("g", 3);
        assert!(matches!(
            event.refused(true, StoreError::Write("x".into())),
            StoreError::Conflict { game, version: 3 } if game == "g"
        ));
        let plain = Statement::new("DELETE FROM t", Vec::new());
        assert_eq!(plain.changed(0).ok(), Some(0));
    }
}
