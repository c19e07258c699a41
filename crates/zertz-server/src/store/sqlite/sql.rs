//! [`Sql`] on SQLite: reads on the pool (sqlx), writes on the writer thread (rusqlite), in its
//! batch's transaction.

use async_trait::async_trait;
use rusqlite::ToSql;
use rusqlite::types::ToSqlOutput;
use sqlx::sqlite::SqliteRow;

use crate::store::StoreError;
use crate::store::sql::{Arg, Dialect, Sql, Statement, bind};
use crate::store::sqlite::{SqliteStore, is_unique_violation, write_error};

impl ToSql for Arg {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Arg::Int(v) => v.to_sql(),
            Arg::Real(v) => v.to_sql(),
            Arg::Text(v) => v.to_sql(),
            // An INTEGER 0 or 1, as sqlx writes a `bool` too.
            Arg::Bool(v) => v.to_sql(),
            Arg::Bytes(v) => v.to_sql(),
        }
    }
}

/// Runs one statement on the writer's connection (for the writes that stay SQLite's own); returns the rows it changed.
pub(crate) fn run(conn: &rusqlite::Connection, statement: &Statement) -> Result<u64, StoreError> {
    let changed = conn
        .prepare_cached(&statement.sql)
        .and_then(|mut prepared| prepared.execute(rusqlite::params_from_iter(&statement.args)))
        .map_err(|e| statement.refused(is_unique_violation(&e), write_error(e)))?;
    statement.changed(changed as u64)
}

#[async_trait]
impl Sql for SqliteStore {
    type Row = SqliteRow;

    const DIALECT: Dialect = Dialect::Sqlite;

    async fn fetch_all(&self, sql: &str, args: Vec<Arg>) -> Result<Vec<SqliteRow>, StoreError> {
        Ok(bind(sqlx::query(sql), args).fetch_all(self.pool()).await?)
    }

    async fn fetch_optional(
        &self,
        sql: &str,
        args: Vec<Arg>,
    ) -> Result<Option<SqliteRow>, StoreError> {
        Ok(bind(sqlx::query(sql), args)
            .fetch_optional(self.pool())
            .await?)
    }

    async fn fetch_together(
        &self,
        reads: Vec<(&str, Vec<Arg>)>,
    ) -> Result<Vec<Vec<SqliteRow>>, StoreError> {
        // A read transaction sees one snapshot in WAL mode.
        let mut tx = self.pool().begin().await?;
        let mut all = Vec::with_capacity(reads.len());
        for (sql, args) in reads {
            all.push(bind(sqlx::query(sql), args).fetch_all(&mut *tx).await?);
        }
        tx.commit().await?;
        Ok(all)
    }

    async fn write(&self, statements: Vec<Statement>) -> Result<Vec<u64>, StoreError> {
        // In the batch's transaction: a failed statement rolls back the ones before it.
        self.write_with(move |conn| statements.iter().map(|s| run(conn, s)).collect())
            .await
    }
}
