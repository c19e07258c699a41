//! Accounts and sessions in SQLite: many accounts are looked up one by one. The rest is written
//! once for both databases (`accounts::sql`).

use async_trait::async_trait;

use crate::accounts::sql::{ACCOUNT_COLUMNS, AccountDialect, account};
use crate::accounts::store::AccountRow;
use crate::store::StoreError;
use crate::store::sql::{Sql, args};
use crate::store::sqlite::SqliteStore;

#[async_trait]
impl AccountDialect for SqliteStore {
    async fn accounts_of(&self, ids: &[String]) -> Result<Vec<AccountRow>, StoreError> {
        // One lookup per id (SQLite binds no arrays): no limit on the number of ids.
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?");
        let mut found = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(row) = self.fetch_optional(&sql, args![id]).await? {
                found.push(account(&row)?);
            }
        }
        Ok(found)
    }
}
