//! [`Sql`] on PostgreSQL: the text's `?` numbered (`$1, $2, …`), several statements in a
//! transaction of their own.

use async_trait::async_trait;
use sqlx::postgres::PgRow;

use crate::store::StoreError;
use crate::store::postgres::PostgresStore;
use crate::store::sql::{Arg, Dialect, Sql, Statement, bind, numbered};

/// Runs one statement (for the writes that stay PostgreSQL's own); returns the rows it changed.
pub(crate) async fn run(
    conn: &mut sqlx::PgConnection,
    mut statement: Statement,
) -> Result<u64, StoreError> {
    let sql = numbered(&statement.sql);
    let args = std::mem::take(&mut statement.args);
    let done = bind(sqlx::query(&sql), args).execute(conn).await;
    match done {
        Ok(done) => statement.changed(done.rows_affected()),
        Err(e) => {
            let unique = matches!(&e, sqlx::Error::Database(db) if db.is_unique_violation());
            Err(statement.refused(unique, e.into()))
        }
    }
}

#[async_trait]
impl Sql for PostgresStore {
    type Row = PgRow;

    const DIALECT: Dialect = Dialect::Postgres;

    async fn fetch_all(&self, sql: &str, args: Vec<Arg>) -> Result<Vec<PgRow>, StoreError> {
        let sql = numbered(sql);
        Ok(bind(sqlx::query(&sql), args).fetch_all(self.pool()).await?)
    }

    async fn fetch_optional(&self, sql: &str, args: Vec<Arg>) -> Result<Option<PgRow>, StoreError> {
        let sql = numbered(sql);
        Ok(bind(sqlx::query(&sql), args)
            .fetch_optional(self.pool())
            .await?)
    }

    async fn fetch_together(
        &self,
        reads: Vec<(&str, Vec<Arg>)>,
    ) -> Result<Vec<Vec<PgRow>>, StoreError> {
        let mut tx = self
            .pool()
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .await?;
        let mut all = Vec::with_capacity(reads.len());
        for (sql, args) in reads {
            let sql = numbered(sql);
            all.push(bind(sqlx::query(&sql), args).fetch_all(&mut *tx).await?);
        }
        tx.commit().await?;
        Ok(all)
    }

    async fn write(&self, mut statements: Vec<Statement>) -> Result<Vec<u64>, StoreError> {
        let mut conn = self.pool().acquire().await?;
        // One statement is a transaction by itself.
        if statements.len() == 1
            && let Some(statement) = statements.pop()
        {
            return Ok(vec![run(&mut conn, statement).await?]);
        }
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        let mut changed = Vec::with_capacity(statements.len());
        for statement in statements {
            changed.push(run(&mut tx, statement).await?);
        }
        tx.commit().await?;
        Ok(changed)
    }
}
