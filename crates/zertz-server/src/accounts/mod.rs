//! Accounts: sign-up, login and sessions, the rules for names and passwords, limits on
//! guessing, the cross-site check, and who is online (docs/accounts.md).

pub mod guard;
pub mod keys;
pub mod names;
pub mod online;
pub mod origin;
pub mod password;
pub mod service;

pub use service::{Account, AccountError, AccountSettings, Accounts, LoggedIn};
