//! The operations on accounts: sign up, log in and out, find the account of a session, change
//! the password. Each answers with an [`AccountError`] whose kind picks the HTTP status.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::accounts::guard::{Locked, LoginGuard};
use crate::accounts::keys::{SESSION_IDLE_MS, key_hash};
use crate::accounts::names::{check_name, check_password, look};
use crate::accounts::online::Online;
use crate::accounts::password::{HashError, Hasher};
use crate::accounts::shared_limit::SharedLimit;
use crate::accounts::store::AccountStore;
use crate::accounts::store::{AccountRow, SessionRow};
use crate::store::StoreError;
use crate::token;
use crate::util::{now_ms, whole_seconds};

/// A session's last use is written at most this often (its expiry does not need more).
const TOUCH_EVERY_MS: i64 = 3600 * 1000;

/// The answer to a wrong password and to an unknown name alike.
pub const WRONG_LOGIN: &str = "wrong name or password";

/// Hashes of new passwords (sign-ups) computed at once, apart from those of logins, so that a
/// flood of sign-ups never makes a player wait to log in.
const SIGN_UP_HASH_THREADS: usize = 1;
/// Sign-ups waiting for their hash beyond those before the server answers "busy".
const SIGN_UP_HASH_QUEUE: usize = 8;
/// Login tries per name from every address and node together: this many at once, then one
/// more every 36 s (docs/accounts.md, "Limits on guessing").
const NAME_TRIES: SharedLimit = SharedLimit { per_hour: 100 };
/// Failed logins per address from every node together, not counting browsers that logged in
/// to the account before (issue 39, item 8): the in-memory guard holds each node's failures
/// per address, and this holds them all, so that an address spreading its guesses over the
/// nodes gets no more than at one of them (sixty an hour, then one a minute).
const ADDRESS_FAILURES: SharedLimit = SharedLimit { per_hour: 60 };

/// Settings of the accounts.
#[derive(Clone, Debug)]
pub struct AccountSettings {
    /// The server is reached over HTTPS: cookies are marked `Secure`.
    pub secure_cookies: bool,
    /// Password hashes computed at once.
    pub hash_threads: usize,
    /// Password checks waiting beyond those before the server answers "busy".
    pub hash_queue: usize,
    /// Accounts one address (an IPv6 /64) may create in an hour (0: no limit; the service's
    /// `Config` sets it).
    pub sign_ups_per_hour: u32,
}

impl Default for AccountSettings {
    fn default() -> AccountSettings {
        AccountSettings {
            secure_cookies: false,
            hash_threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            hash_queue: 64,
            sign_ups_per_hour: 0,
        }
    }
}

/// A logged-in player.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Account {
    /// The account's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// When it was made, ms since the Unix epoch (a new account's allowances are smaller).
    pub created_ms: i64,
}

impl From<&AccountRow> for Account {
    fn from(row: &AccountRow) -> Account {
        Account {
            id: row.id.clone(),
            name: row.name.clone(),
            created_ms: row.created_ms,
        }
    }
}

/// Why an account operation failed.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// A field breaks its rule (the message says which and how).
    #[error("{0}")]
    Invalid(String),
    /// The name is taken.
    #[error("{0}")]
    Taken(String),
    /// Wrong name or password (the same answer for both).
    #[error("{WRONG_LOGIN}")]
    WrongLogin,
    /// The request needs a session and has none (or an expired one).
    #[error("{0}")]
    NotLoggedIn(String),
    /// Too many failed logins: try again after the wait.
    #[error("{0}")]
    Locked(String, Duration),
    /// The password checkers are all busy.
    #[error(transparent)]
    Busy(#[from] HashError),
    /// Storage failed; nothing was changed.
    #[error("storage failed, nothing was changed: {0}")]
    Storage(String),
}

impl From<StoreError> for AccountError {
    fn from(e: StoreError) -> AccountError {
        match e {
            StoreError::Taken(message) => AccountError::Taken(message),
            other => AccountError::Storage(other.to_string()),
        }
    }
}

/// A new session: the account, the key for its cookie, and (at a login) the key of a new
/// device cookie.
#[derive(Debug)]
pub struct LoggedIn {
    /// Who.
    pub account: Account,
    /// The session's key (only its hash is stored).
    pub session_key: String,
    /// A device key for a browser that had none for this account.
    pub device_key: Option<String>,
}

/// The accounts of the service.
pub struct Accounts {
    store: Arc<dyn AccountStore>,
    /// Checks the passwords of logins and password changes.
    hasher: Hasher,
    /// Hashes the passwords of new accounts.
    sign_up_hasher: Hasher,
    /// New accounts per address, counted in the database so that every node counts them.
    sign_ups: Option<SharedLimit>,
    guard: LoginGuard,
    settings: AccountSettings,
    /// Who is online.
    pub online: Arc<Online>,
}

impl Accounts {
    /// The accounts in `store`.
    pub fn new(store: Arc<dyn AccountStore>, settings: AccountSettings) -> Accounts {
        Accounts {
            store,
            hasher: Hasher::new(settings.hash_threads, settings.hash_queue),
            sign_up_hasher: Hasher::new(SIGN_UP_HASH_THREADS, SIGN_UP_HASH_QUEUE),
            sign_ups: (settings.sign_ups_per_hour > 0).then_some(SharedLimit {
                per_hour: settings.sign_ups_per_hour,
            }),
            guard: LoginGuard::default(),
            settings,
            online: Arc::default(),
        }
    }

    /// Whether cookies are marked `Secure`.
    pub fn secure_cookies(&self) -> bool {
        self.settings.secure_cookies
    }

    fn new_session(account: &str, now: i64) -> (String, SessionRow) {
        let key = token::secret_key();
        let row = SessionRow {
            key_hash: key_hash(&key),
            account_id: account.to_string(),
            created_ms: now,
            used_ms: now,
        };
        (key, row)
    }

    /// Creates an account from `address` and logs it in.
    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
        address: IpAddr,
    ) -> Result<LoggedIn, AccountError> {
        check_name(name).map_err(AccountError::Invalid)?;
        check_password(password).map_err(AccountError::Invalid)?;
        if self.store.account_named(name).await?.is_some() {
            return Err(AccountError::Taken(format!("the name {name} is taken")));
        }
        if let Some(other) = self.store.account_looking_like(&look(name)).await? {
            return Err(AccountError::Taken(format!(
                "the name {name} looks like {}, which is taken: choose another",
                other.name
            )));
        }
        // Counted once the request is sound (a taken name or a short password costs nothing)
        // and before the hash, so that sign-ups sent together cannot all pass.
        if let Some(sign_ups) = &self.sign_ups
            && let Err(wait) = sign_ups
                .take(self.store.as_ref(), &format!("sign-up:{address}"), now_ms())
                .await?
        {
            return Err(AccountError::Locked(
                format!(
                    "your address has created {} accounts in the last hour: try again in {} s",
                    self.settings.sign_ups_per_hour,
                    whole_seconds(wait)
                ),
                wait,
            ));
        }
        let password_hash = self.sign_up_hasher.hash(password).await?;
        let now = now_ms();
        let row = AccountRow {
            id: token::account_id(),
            name: name.to_string(),
            password_hash,
            created_ms: now,
            seen_ms: now,
        };
        let (session_key, session) = Self::new_session(&row.id, now);
        self.store.create_account(&row, &session).await?;
        let device_key = token::secret_key();
        self.store
            .add_login_device(&key_hash(&device_key), &row.id, now)
            .await?;
        tracing::info!(account = %row.id, "account {} created", row.name);
        Ok(LoggedIn {
            account: Account::from(&row),
            session_key,
            device_key: Some(device_key),
        })
    }

    /// Logs in to `name` from `address`; `device_key` is the browser's device cookie, if any.
    pub async fn log_in(
        &self,
        name: &str,
        password: &str,
        address: IpAddr,
        device_key: Option<&str>,
    ) -> Result<LoggedIn, AccountError> {
        // Malformed names and passwords cannot match anything: the same answer, no hash.
        if name.is_empty() || name.len() > 64 || password.chars().count() > 128 {
            return Err(AccountError::WrongLogin);
        }
        let account = self.store.account_named(name).await?;
        let device = device_key.map(key_hash);
        let trusted = match (&account, &device) {
            (Some(a), Some(hash)) => {
                self.guard.device_trusted(hash, Instant::now())
                    && self.store.is_login_device(hash, &a.id).await?
            }
            _ => false,
        };
        // Counted as a failure from here until it succeeds: logins racing this one see it.
        let begun = self
            .guard
            .begin(address, name, device.as_deref(), trusted, Instant::now());
        begun.map_err(locked_out)?;
        let failures_key = format!("login-failures at:{address}");
        if !trusted {
            self.try_name(name).await?;
            if let Some(wait) = ADDRESS_FAILURES
                .wait(self.store.as_ref(), &failures_key, now_ms())
                .await?
            {
                return Err(locked_out(Locked::Address(wait)));
            }
        }
        let matches = self
            .hasher
            .verify(password, account.as_ref().map(|a| a.password_hash.as_str()))
            .await?;
        let Some(account) = account.filter(|_| matches) else {
            if !trusted {
                // Counted once the hash has said so: what races here is held by each node's
                // guard, which counts a try before its hash.
                ADDRESS_FAILURES
                    .take(self.store.as_ref(), &failures_key, now_ms())
                    .await?
                    .ok();
            }
            return Err(AccountError::WrongLogin);
        };
        self.guard.succeeded(address, name, device.as_deref());
        let now = now_ms();
        let (session_key, session) = Self::new_session(&account.id, now);
        self.store.create_session(&session).await?;
        let device_key = if trusted {
            None
        } else {
            let key = token::secret_key();
            self.store
                .add_login_device(&key_hash(&key), &account.id, now)
                .await?;
            Some(key)
        };
        Ok(LoggedIn {
            account: Account::from(&account),
            session_key,
            device_key,
        })
    }

    /// Ends the session with this key.
    pub async fn log_out(&self, session_key: &str) -> Result<(), AccountError> {
        Ok(self.store.delete_session(&key_hash(session_key)).await?)
    }

    /// The account of the session with this key, if it has not expired. Marks it used (at
    /// most once an hour) and the account online.
    pub async fn session(&self, session_key: &str) -> Result<Option<Account>, AccountError> {
        let now = now_ms();
        let hash = key_hash(session_key);
        let Some((session, account)) = self.store.session(&hash, now - SESSION_IDLE_MS).await?
        else {
            return Ok(None);
        };
        if now - session.used_ms >= TOUCH_EVERY_MS {
            self.store.touch_session(&hash, now).await?;
        }
        self.online.seen(&account.id, &account.name);
        Ok(Some(Account::from(&account)))
    }

    /// Changes the password of the session's account (the old one is required) and ends its
    /// other sessions.
    pub async fn change_password(
        &self,
        session_key: &str,
        old: &str,
        new: &str,
        address: IpAddr,
    ) -> Result<(), AccountError> {
        let now = now_ms();
        let hash = key_hash(session_key);
        let Some((_, account)) = self.store.session(&hash, now - SESSION_IDLE_MS).await? else {
            return Err(AccountError::NotLoggedIn(
                "changing the password needs a session: log in first".into(),
            ));
        };
        // The old password is guessed like a login (a session left open on a shared computer
        // must not give unlimited guesses at it): counted per address and per account name.
        self.guard
            .begin(address, &account.name, None, false, Instant::now())
            .map_err(locked_out)?;
        self.try_name(&account.name).await?;
        if !self
            .hasher
            .verify(old, Some(&account.password_hash))
            .await?
        {
            return Err(AccountError::WrongLogin);
        }
        self.guard.succeeded(address, &account.name, None);
        check_password(new).map_err(AccountError::Invalid)?;
        let password_hash = self.hasher.hash(new).await?;
        self.store
            .set_password(&account.id, &password_hash, &hash)
            .await?;
        Ok(())
    }

    /// Counts a login try to `name` (known or not) from everywhere, in the database so that
    /// every node counts it ([`NAME_TRIES`]), or says how long the name waits. A success gives
    /// nothing back: an account's tries run their course.
    async fn try_name(&self, name: &str) -> Result<(), AccountError> {
        let key = format!("login-name:{}", name.to_ascii_lowercase());
        match NAME_TRIES.take(self.store.as_ref(), &key, now_ms()).await? {
            Ok(()) => Ok(()),
            Err(wait) => Err(locked_out(Locked::Name(wait))),
        }
    }

    /// The account of engine level `level` (1 to 10), which an organiser enters in an event.
    pub async fn engine_account(&self, level: u8) -> Result<Account, AccountError> {
        if !(1..=10).contains(&level) {
            return Err(AccountError::Invalid(format!(
                "level {level}: the engine's levels are 1 to 10"
            )));
        }
        Ok(Account::from(&self.store.engine_account(level).await?))
    }

    /// Fills in how the names of accounts made before look-alike names were refused look
    /// (once, at the start); returns how many.
    pub async fn fill_name_looks(&self) -> Result<u64, AccountError> {
        Ok(self.store.fill_name_looks().await?)
    }

    /// The accounts' storage, where the limits every node keeps together live
    /// (`shared_limit`).
    pub fn store(&self) -> &dyn AccountStore {
        self.store.as_ref()
    }

    /// Deletes the sessions that have expired; returns how many.
    pub async fn sweep_sessions(&self) -> Result<u64, AccountError> {
        Ok(self
            .store
            .delete_sessions_unused_since(now_ms() - SESSION_IDLE_MS)
            .await?)
    }

    /// The accounts with these ids, by id.
    pub async fn names_of(
        &self,
        ids: &[String],
    ) -> Result<std::collections::HashMap<String, String>, AccountError> {
        Ok(self
            .store
            .accounts_by_id(ids)
            .await?
            .into_iter()
            .map(|a| (a.id, a.name))
            .collect())
    }

    /// The account named `name` (without regard to case).
    pub async fn named(&self, name: &str) -> Result<Option<AccountRow>, AccountError> {
        Ok(self.store.account_named(name).await?)
    }
}

/// The refusal of a try the guard holds back, saying whose failures and for how long.
fn locked_out(locked: Locked) -> AccountError {
    let (whose, wait) = match locked {
        Locked::Address(wait) => ("from this address", wait),
        Locked::Name(wait) => ("for this name", wait),
    };
    AccountError::Locked(
        format!(
            "too many failed logins {whose}: try again in {} s",
            whole_seconds(wait)
        ),
        wait,
    )
}
