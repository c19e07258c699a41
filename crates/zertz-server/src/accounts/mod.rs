//! Accounts: sign-up, login and sessions, the rules for names and passwords, limits on
//! guessing, the cross-site check, and who is online (docs/accounts.md).

pub mod engine;
pub mod guard;
pub mod keys;
pub mod names;
pub mod online;
pub mod origin;
pub mod password;
pub mod postgres;
pub mod routes;
pub mod service;
pub mod shared_limit;
pub(crate) mod sql;
pub mod sqlite;
pub mod store;
pub mod viewer;

pub use service::{Account, AccountError, AccountSettings, Accounts, LoggedIn};
