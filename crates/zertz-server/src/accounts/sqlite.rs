//! Accounts and sessions in SQLite: writes on the writer thread, reads on the pool.

use async_trait::async_trait;
use rusqlite::params;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use crate::accounts::store::{AccountRow, AccountStore, SessionRow};
use crate::store::StoreError;
use crate::store::common::{limit as clamp_limit, name_key};
use crate::store::sqlite::{SqliteStore, is_unique_violation, write_error};

fn account(row: &SqliteRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        created_ms: row.try_get("created_ms")?,
        seen_ms: row.try_get("seen_ms")?,
    })
}

const ACCOUNT_COLUMNS: &str = "id, name, password_hash, created_ms, seen_ms";

fn insert_session(conn: &rusqlite::Connection, s: &SessionRow) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO sessions (key_hash, account_id, created_ms, used_ms) VALUES (?, ?, ?, ?)",
    )
    .and_then(|mut insert| {
        insert.execute(params![s.key_hash, s.account_id, s.created_ms, s.used_ms])
    })
    .map_err(write_error)?;
    Ok(())
}

#[async_trait]
impl AccountStore for SqliteStore {
    async fn create_account(
        &self,
        account: &AccountRow,
        session: &SessionRow,
    ) -> Result<(), StoreError> {
        let (a, s) = (account.clone(), session.clone());
        self.write_with(move |conn| {
            conn.prepare_cached(
                "INSERT INTO accounts (id, name, name_key, password_hash, created_ms, seen_ms) \
                 VALUES (?, ?, ?, ?, ?, ?)",
            )
            .and_then(|mut insert| {
                insert.execute(params![
                    a.id,
                    a.name,
                    name_key(&a.name),
                    a.password_hash,
                    a.created_ms,
                    a.seen_ms
                ])
            })
            .map_err(|e| {
                if is_unique_violation(&e) {
                    StoreError::Taken(format!("the name {} is taken", a.name))
                } else {
                    write_error(e)
                }
            })?;
            insert_session(conn, &s)
        })
        .await
    }

    async fn account_named(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?"
        ))
        .bind(name_key(name))
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(account).transpose()?)
    }

    async fn accounts_by_id(&self, ids: &[String]) -> Result<Vec<AccountRow>, StoreError> {
        let mut found = Vec::with_capacity(ids.len());
        for id in ids {
            let row = sqlx::query(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?"
            ))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
            if let Some(row) = row {
                found.push(account(&row)?);
            }
        }
        Ok(found)
    }

    async fn create_session(&self, session: &SessionRow) -> Result<(), StoreError> {
        let s = session.clone();
        self.write_with(move |conn| insert_session(conn, &s)).await
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
             WHERE s.key_hash = ? AND s.used_ms >= ?",
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
        let key = key_hash.to_string();
        self.write_with(move |conn| {
            conn.prepare_cached("UPDATE sessions SET used_ms = ? WHERE key_hash = ?")
                .and_then(|mut set| set.execute(params![now_ms, key]))
                .map_err(write_error)?;
            conn.prepare_cached(
                "UPDATE accounts SET seen_ms = ? \
                 WHERE id = (SELECT account_id FROM sessions WHERE key_hash = ?)",
            )
            .and_then(|mut set| set.execute(params![now_ms, key]))
            .map_err(write_error)?;
            Ok(())
        })
        .await
    }

    async fn delete_session(&self, key_hash: &str) -> Result<(), StoreError> {
        let key = key_hash.to_string();
        self.write_with(move |conn| {
            conn.prepare_cached("DELETE FROM sessions WHERE key_hash = ?")
                .and_then(|mut delete| delete.execute([&key]))
                .map_err(write_error)?;
            Ok(())
        })
        .await
    }

    async fn set_password(
        &self,
        account: &str,
        password_hash: &str,
        keep: &str,
    ) -> Result<(), StoreError> {
        let (account, hash, keep) = (
            account.to_string(),
            password_hash.to_string(),
            keep.to_string(),
        );
        self.write_with(move |conn| {
            let changed = conn
                .prepare_cached("UPDATE accounts SET password_hash = ? WHERE id = ?")
                .and_then(|mut set| set.execute(params![hash, account]))
                .map_err(write_error)?;
            if changed == 0 {
                return Err(StoreError::NotFound(format!("account {account}")));
            }
            conn.prepare_cached("DELETE FROM sessions WHERE account_id = ? AND key_hash <> ?")
                .and_then(|mut delete| delete.execute(params![account, keep]))
                .map_err(write_error)?;
            Ok(())
        })
        .await
    }

    async fn delete_sessions_unused_since(&self, before_ms: i64) -> Result<u64, StoreError> {
        self.write_with(move |conn| {
            let n = conn
                .prepare_cached("DELETE FROM sessions WHERE used_ms < ?")
                .and_then(|mut delete| delete.execute([before_ms]))
                .map_err(write_error)?;
            Ok(n as u64)
        })
        .await
    }

    async fn add_login_device(
        &self,
        key_hash: &str,
        account: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let (key, account) = (key_hash.to_string(), account.to_string());
        self.write_with(move |conn| {
            conn.prepare_cached(
                "INSERT INTO login_devices (key_hash, account_id, created_ms) VALUES (?, ?, ?) \
                 ON CONFLICT (key_hash) DO NOTHING",
            )
            .and_then(|mut insert| insert.execute(params![key, account, now_ms]))
            .map_err(write_error)?;
            Ok(())
        })
        .await
    }

    async fn is_login_device(&self, key_hash: &str, account: &str) -> Result<bool, StoreError> {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM login_devices WHERE key_hash = ? AND account_id = ?")
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
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE seen_ms >= ? \
             ORDER BY seen_ms DESC, name_key LIMIT ?"
        ))
        .bind(since_ms)
        .bind(clamp_limit(limit))
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(account).collect::<Result<_, _>>()?)
    }
}
