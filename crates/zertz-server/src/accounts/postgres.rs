//! Accounts and sessions in PostgreSQL.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::accounts::store::{AccountRow, AccountStore, SessionRow};
use crate::store::StoreError;
use crate::store::common::{limit as clamp_limit, name_key};
use crate::store::postgres::PostgresStore;

fn account(row: &PgRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        created_ms: row.try_get("created_ms")?,
        seen_ms: row.try_get("seen_ms")?,
    })
}

const ACCOUNT_COLUMNS: &str = "id, name, password_hash, created_ms, seen_ms";

async fn insert_session(conn: &mut sqlx::PgConnection, s: &SessionRow) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO sessions (key_hash, account_id, created_ms, used_ms) VALUES ($1, $2, $3, $4)",
    )
    .bind(&s.key_hash)
    .bind(&s.account_id)
    .bind(s.created_ms)
    .bind(s.used_ms)
    .execute(conn)
    .await?;
    Ok(())
}

#[async_trait]
impl AccountStore for PostgresStore {
    async fn create_account(
        &self,
        account: &AccountRow,
        session: &SessionRow,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO accounts (id, name, name_key, password_hash, created_ms, seen_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&account.id)
        .bind(&account.name)
        .bind(name_key(&account.name))
        .bind(&account.password_hash)
        .bind(account.created_ms)
        .bind(account.seen_ms)
        .execute(&mut *tx)
        .await
        .map_err(|e| match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                StoreError::Taken(format!("the name {} is taken", account.name))
            }
            _ => StoreError::Database(e),
        })?;
        insert_session(&mut tx, session).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn account_named(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1"
        ))
        .bind(name_key(name))
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(account).transpose()?)
    }

    async fn accounts_by_id(&self, ids: &[String]) -> Result<Vec<AccountRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ANY($1)"
        ))
        .bind(ids)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(account).collect::<Result<_, _>>()?)
    }

    async fn create_session(&self, session: &SessionRow) -> Result<(), StoreError> {
        let mut conn = self.pool().acquire().await?;
        insert_session(&mut conn, session).await
    }

    async fn session(
        &self,
        key_hash: &str,
        used_since_ms: i64,
    ) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
        let row = sqlx::query(
            "SELECT s.key_hash, s.account_id, s.created_ms AS s_created, s.used_ms, \
             a.id, a.name, a.password_hash, a.created_ms, a.seen_ms \
             FROM sessions s JOIN accounts a ON a.id = s.account_id \
             WHERE s.key_hash = $1 AND s.used_ms >= $2",
        )
        .bind(key_hash)
        .bind(used_since_ms)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let session = SessionRow {
            key_hash: row.try_get("key_hash")?,
            account_id: row.try_get("account_id")?,
            created_ms: row.try_get("s_created")?,
            used_ms: row.try_get("used_ms")?,
        };
        Ok(Some((session, account(&row)?)))
    }

    async fn touch_session(&self, key_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE sessions SET used_ms = $1 WHERE key_hash = $2")
            .bind(now_ms)
            .bind(key_hash)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE accounts SET seen_ms = $1 \
             WHERE id = (SELECT account_id FROM sessions WHERE key_hash = $2)",
        )
        .bind(now_ms)
        .bind(key_hash)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn delete_session(&self, key_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE key_hash = $1")
            .bind(key_hash)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    async fn set_password(
        &self,
        account: &str,
        password_hash: &str,
        keep: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        let changed = sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(account)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if changed == 0 {
            return Err(StoreError::NotFound(format!("account {account}")));
        }
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND key_hash <> $2")
            .bind(account)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn delete_sessions_unused_since(&self, before_ms: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE used_ms < $1")
            .bind(before_ms)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected())
    }

    async fn add_login_device(
        &self,
        key_hash: &str,
        account: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO login_devices (key_hash, account_id, created_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (key_hash) DO NOTHING",
        )
        .bind(key_hash)
        .bind(account)
        .bind(now_ms)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn is_login_device(&self, key_hash: &str, account: &str) -> Result<bool, StoreError> {
        let found: Option<i32> = sqlx::query_scalar(
            "SELECT 1 FROM login_devices WHERE key_hash = $1 AND account_id = $2",
        )
        .bind(key_hash)
        .bind(account)
        .fetch_optional(self.pool())
        .await?;
        Ok(found.is_some())
    }

    async fn accounts_seen_since(
        &self,
        since_ms: i64,
        limit: i64,
    ) -> Result<Vec<AccountRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE seen_ms >= $1 \
             ORDER BY seen_ms DESC, name_key LIMIT $2"
        ))
        .bind(since_ms)
        .bind(clamp_limit(limit))
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(account).collect::<Result<_, _>>()?)
    }
}
