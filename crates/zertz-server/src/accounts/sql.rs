//! Accounts and sessions written once for both databases (see `store::sql`); looking up many
//! accounts at once differs and is in `sqlite.rs` and `postgres.rs`.

use async_trait::async_trait;

use crate::accounts::engine;
use crate::accounts::names::look;
use crate::accounts::store::{AccountRow, AccountStore, SessionRow};
use crate::store::StoreError;
use crate::store::common::{limit as clamp_limit, name_key};
use crate::store::sql::{Row, Sql, Statement, args, map_rows};

/// The columns of an [`AccountRow`].
pub(crate) const ACCOUNT_COLUMNS: &str = "id, name, password_hash, created_ms, seen_ms";

/// What the databases do differently for accounts.
#[async_trait]
pub(crate) trait AccountDialect {
    /// The accounts of `ids` that exist (in no particular order).
    async fn accounts_of(&self, ids: &[String]) -> Result<Vec<AccountRow>, StoreError>;
}

/// The account of a row holding [`ACCOUNT_COLUMNS`].
pub(crate) fn account(row: &impl Row) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: row.get("id")?,
        name: row.get("name")?,
        password_hash: row.get("password_hash")?,
        created_ms: row.get("created_ms")?,
        seen_ms: row.get("seen_ms")?,
    })
}

fn insert_session(s: &SessionRow) -> Statement {
    Statement::new(
        "INSERT INTO sessions (key_hash, account_id, created_ms, used_ms) VALUES (?, ?, ?, ?)",
        args![&s.key_hash, &s.account_id, s.created_ms, s.used_ms],
    )
}

#[async_trait]
impl<S: Sql + AccountDialect> AccountStore for S {
    async fn create_account(
        &self,
        account: &AccountRow,
        session: &SessionRow,
    ) -> Result<(), StoreError> {
        let a = account;
        let insert = Statement::new(
            "INSERT INTO accounts (id, name, name_key, name_look, password_hash, created_ms, \
             seen_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
            args![
                &a.id,
                &a.name,
                name_key(&a.name),
                look(&a.name),
                &a.password_hash,
                a.created_ms,
                a.seen_ms
            ],
        )
        .taken(format!(
            "the name {} is taken, or one that looks like it",
            a.name
        ));
        self.write(vec![insert, insert_session(session)]).await?;
        Ok(())
    }

    async fn account_named(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?");
        let row = self.fetch_optional(&sql, args![name_key(name)]).await?;
        Ok(row.as_ref().map(account).transpose()?)
    }

    async fn accounts_by_id(&self, ids: &[String]) -> Result<Vec<AccountRow>, StoreError> {
        self.accounts_of(ids).await
    }

    async fn account_looking_like(&self, look: &str) -> Result<Option<AccountRow>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_look = ?");
        let row = self.fetch_optional(&sql, args![look]).await?;
        Ok(row.as_ref().map(account).transpose()?)
    }

    async fn fill_name_looks(&self) -> Result<u64, StoreError> {
        let mut filled = 0;
        let mut after = String::new();
        loop {
            // A page at a time, by id, so that the accounts left empty are passed once.
            let sql = format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_look IS NULL AND id > ? \
                 ORDER BY id LIMIT 500"
            );
            let rows = map_rows(&self.fetch_all(&sql, args![&after]).await?, account)?;
            let Some(last) = rows.last() else {
                return Ok(filled);
            };
            after = last.id.clone();
            for a in &rows {
                let seen = look(&a.name);
                filled += self
                    .execute(
                        "UPDATE accounts SET name_look = ? WHERE id = ? AND NOT EXISTS \
                         (SELECT 1 FROM accounts other WHERE other.name_look = ?)",
                        args![&seen, &a.id, &seen],
                    )
                    .await?;
            }
        }
    }

    async fn create_session(&self, session: &SessionRow) -> Result<(), StoreError> {
        self.write(vec![insert_session(session)]).await?;
        Ok(())
    }

    async fn session(
        &self,
        key_hash: &str,
        used_since_ms: i64,
    ) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
        let row = self
            .fetch_optional(
                "SELECT s.key_hash, s.account_id, s.created_ms AS s_created, s.used_ms, \
                 a.id, a.name, a.password_hash, a.created_ms, a.seen_ms \
                 FROM sessions s JOIN accounts a ON a.id = s.account_id \
                 WHERE s.key_hash = ? AND s.used_ms >= ?",
                args![key_hash, used_since_ms],
            )
            .await?;
        let Some(row) = row else { return Ok(None) };
        let session = SessionRow {
            key_hash: row.get("key_hash")?,
            account_id: row.get("account_id")?,
            created_ms: row.get("s_created")?,
            used_ms: row.get("used_ms")?,
        };
        Ok(Some((session, account(&row)?)))
    }

    async fn touch_session(&self, key_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        self.write(vec![
            Statement::new(
                "UPDATE sessions SET used_ms = ? WHERE key_hash = ?",
                args![now_ms, key_hash],
            ),
            Statement::new(
                "UPDATE accounts SET seen_ms = ? \
                 WHERE id = (SELECT account_id FROM sessions WHERE key_hash = ?)",
                args![now_ms, key_hash],
            ),
        ])
        .await?;
        Ok(())
    }

    async fn delete_session(&self, key_hash: &str) -> Result<(), StoreError> {
        self.execute("DELETE FROM sessions WHERE key_hash = ?", args![key_hash])
            .await?;
        Ok(())
    }

    async fn set_password(
        &self,
        account: &str,
        password_hash: &str,
        keep: &str,
    ) -> Result<(), StoreError> {
        self.write(vec![
            Statement::new(
                "UPDATE accounts SET password_hash = ? WHERE id = ?",
                args![password_hash, account],
            )
            .must_change(format!("account {account}")),
            Statement::new(
                "DELETE FROM sessions WHERE account_id = ? AND key_hash <> ?",
                args![account, keep],
            ),
        ])
        .await?;
        Ok(())
    }

    async fn delete_sessions_unused_since(&self, before_ms: i64) -> Result<u64, StoreError> {
        self.execute("DELETE FROM sessions WHERE used_ms < ?", args![before_ms])
            .await
    }

    async fn add_login_device(
        &self,
        key_hash: &str,
        account: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO login_devices (key_hash, account_id, created_ms) VALUES (?, ?, ?) \
             ON CONFLICT (key_hash) DO NOTHING",
            args![key_hash, account, now_ms],
        )
        .await?;
        Ok(())
    }

    async fn is_login_device(&self, key_hash: &str, account: &str) -> Result<bool, StoreError> {
        let found = self
            .fetch_optional(
                "SELECT 1 FROM login_devices WHERE key_hash = ? AND account_id = ?",
                args![key_hash, account],
            )
            .await?;
        Ok(found.is_some())
    }

    async fn engine_account(&self, level: u8) -> Result<AccountRow, StoreError> {
        let (id, name) = (engine::id(level), engine::name(level));
        self.execute(
            "INSERT INTO accounts (id, name, name_key, name_look, password_hash, created_ms, \
             seen_ms) VALUES (?, ?, ?, ?, ?, 0, 0) ON CONFLICT DO NOTHING",
            args![
                &id,
                &name,
                name_key(&name),
                look(&name),
                engine::NO_PASSWORD
            ],
        )
        .await?;
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?");
        let row = self.fetch_optional(&sql, args![&id]).await?;
        let row = row.ok_or_else(|| StoreError::NotFound(format!("account {id}")))?;
        Ok(account(&row)?)
    }

    async fn take_event(
        &self,
        key: &str,
        now_ms: i64,
        interval_ms: i64,
        burst: i64,
    ) -> Result<Option<i64>, StoreError> {
        // The allowance is whole again at `ready_ms` + one interval; an event fits while
        // `ready_ms` is at most `burst - 1` intervals ahead. One conditional upsert, so that
        // events sent together (to several nodes) cannot all fit.
        let tolerance = (burst - 1) * interval_ms;
        let changed = self
            .write(vec![
                Statement::new("DELETE FROM rate_limits WHERE ready_ms < ?", args![now_ms]),
                Statement::new(
                    "INSERT INTO rate_limits (key, ready_ms) VALUES (?, ?) \
                     ON CONFLICT (key) DO UPDATE SET ready_ms = rate_limits.ready_ms + ? \
                     WHERE rate_limits.ready_ms - ? <= ?",
                    args![key, now_ms + interval_ms, interval_ms, now_ms, tolerance],
                ),
            ])
            .await?;
        if changed.get(1).copied().unwrap_or(0) > 0 {
            return Ok(None);
        }
        let row = self
            .fetch_optional("SELECT ready_ms FROM rate_limits WHERE key = ?", args![key])
            .await?;
        let ready: i64 = match row {
            Some(row) => row.get("ready_ms")?,
            None => now_ms,
        };
        Ok(Some((ready - now_ms - tolerance).max(1)))
    }

    async fn event_wait(
        &self,
        key: &str,
        now_ms: i64,
        interval_ms: i64,
        burst: i64,
    ) -> Result<Option<i64>, StoreError> {
        let row = self
            .fetch_optional("SELECT ready_ms FROM rate_limits WHERE key = ?", args![key])
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let ready: i64 = row.get("ready_ms")?;
        // As in `take_event`: it fits while `ready_ms` is at most `burst - 1` intervals ahead.
        let over = ready - now_ms - (burst - 1) * interval_ms;
        Ok((over > 0).then_some(over))
    }

    async fn accounts_seen_since(
        &self,
        since_ms: i64,
        limit: i64,
    ) -> Result<Vec<AccountRow>, StoreError> {
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE seen_ms >= ? \
             ORDER BY seen_ms DESC, name_key LIMIT ?"
        );
        let rows = self
            .fetch_all(&sql, args![since_ms, clamp_limit(limit)])
            .await?;
        map_rows(&rows, account)
    }
}
