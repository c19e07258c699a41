//! Accounts and sessions in PostgreSQL: many accounts are looked up in one statement, their
//! ids bound as an array. The rest is written once for both databases (`accounts::sql`).

use async_trait::async_trait;

use crate::accounts::sql::{ACCOUNT_COLUMNS, AccountDialect, account};
use crate::accounts::store::AccountRow;
use crate::store::StoreError;
use crate::store::postgres::PostgresStore;

#[async_trait]
impl AccountDialect for PostgresStore {
    async fn accounts_of(&self, ids: &[String]) -> Result<Vec<AccountRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ANY($1)"
        ))
        .bind(ids)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(account).collect::<Result<_, _>>()?)
    }
}
