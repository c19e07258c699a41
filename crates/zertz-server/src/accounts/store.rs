//! What accounts store: the account (its name and password hash), its sessions and the
//! browsers it logged in from. Keys are stored hashed (see `accounts::keys`).

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::store::StoreError;

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountRow {
    /// Public id (random, URL-safe); seats and ratings refer to it.
    pub id: String,
    /// The name as its owner wrote it.
    pub name: String,
    /// Argon2id PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`).
    pub password_hash: String,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: i64,
    /// When one of its sessions was last used (to the minute).
    pub seen_ms: i64,
}

/// A session as stored: the hash of its key, never the key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRow {
    /// SHA-256 of the key the browser holds, in hex.
    pub key_hash: String,
    /// Whose session it is.
    pub account_id: String,
    /// When it began.
    pub created_ms: i64,
    /// When it was last used (to the hour).
    pub used_ms: i64,
}

/// Accounts and sessions. Every method is one transaction.
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Creates `account` with its first `session`. A name already taken (without regard to
    /// case) is [`StoreError::Taken`], and nothing is written.
    async fn create_account(
        &self,
        account: &AccountRow,
        session: &SessionRow,
    ) -> Result<(), StoreError>;

    /// The account named `name`, without regard to case.
    async fn account_named(&self, name: &str) -> Result<Option<AccountRow>, StoreError>;

    /// The accounts with these ids (those that exist, in no particular order).
    async fn accounts_by_id(&self, ids: &[String]) -> Result<Vec<AccountRow>, StoreError>;

    /// Adds a session.
    async fn create_session(&self, session: &SessionRow) -> Result<(), StoreError>;

    /// The session whose key hashes to `key_hash` and its account, if the session was used at
    /// or after `used_since_ms` (older ones have expired).
    async fn session(
        &self,
        key_hash: &str,
        used_since_ms: i64,
    ) -> Result<Option<(SessionRow, AccountRow)>, StoreError>;

    /// Marks a session used at `now_ms`, and its account seen.
    async fn touch_session(&self, key_hash: &str, now_ms: i64) -> Result<(), StoreError>;

    /// Ends a session (nothing happens if there is none).
    async fn delete_session(&self, key_hash: &str) -> Result<(), StoreError>;

    /// Replaces the password hash of `account` and ends every one of its sessions but
    /// `keep` (the session that changed it).
    async fn set_password(
        &self,
        account: &str,
        password_hash: &str,
        keep: &str,
    ) -> Result<(), StoreError>;

    /// Deletes the sessions last used before `before_ms`; returns how many.
    async fn delete_sessions_unused_since(&self, before_ms: i64) -> Result<u64, StoreError>;

    /// Remembers that the browser holding the device key hashing to `key_hash` logged in to
    /// `account`.
    async fn add_login_device(
        &self,
        key_hash: &str,
        account: &str,
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// Whether the device key hashing to `key_hash` logged in to `account` before.
    async fn is_login_device(&self, key_hash: &str, account: &str) -> Result<bool, StoreError>;

    /// The account whose name looks like one that looks `look` (`accounts::names::look`).
    async fn account_looking_like(&self, look: &str) -> Result<Option<AccountRow>, StoreError>;

    /// Fills in how the names look for the accounts made before that was stored (each once;
    /// an account that looks like one already filled keeps it empty); returns how many were
    /// filled.
    async fn fill_name_looks(&self) -> Result<u64, StoreError>;

    /// The account of engine level `level` (`accounts::engine`), made if it is not there yet.
    async fn engine_account(&self, level: u8) -> Result<AccountRow, StoreError>;

    /// Takes one event of `key` at `now_ms` from an allowance of `burst` events that
    /// refills one every `interval_ms`, as every node on this database sees it: `None` when
    /// taken, else how many ms until one fits (nothing is taken then).
    async fn take_event(
        &self,
        key: &str,
        now_ms: i64,
        interval_ms: i64,
        burst: i64,
    ) -> Result<Option<i64>, StoreError>;

    /// How many ms until an event of `key` would fit at `now_ms` in the allowance that
    /// [`AccountStore::take_event`] keeps (`None`: it fits now); nothing is taken.
    async fn event_wait(
        &self,
        key: &str,
        now_ms: i64,
        interval_ms: i64,
        burst: i64,
    ) -> Result<Option<i64>, StoreError>;

    /// The accounts seen at or after `since_ms`, most recent first, at most `limit`.
    async fn accounts_seen_since(
        &self,
        since_ms: i64,
        limit: i64,
    ) -> Result<Vec<AccountRow>, StoreError>;
}
