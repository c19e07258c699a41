//! The site's public room (`/room`): where everyone online talks, as the host's games were
//! played "in the public game room". Its lines are a chat room like a game's (stored, checked,
//! reported the same way; guests who do not play send the preset phrases), under the name
//! [`ROOM`]. Nobody plays in it, so nobody mutes for everyone: a reader ignores an account for
//! themselves (the page), and the operator reads the reports. Because anyone may open many
//! connections, its lines are limited per account and per address as well as per connection.
//! A tournament's room is kept the same way; these limits are shared by every room (a game's
//! and a match's too, and their mutes): accounts are free, so a limit per connection alone is
//! no limit (issue 39, F14).

use std::net::IpAddr;

use crate::rate::{Keyed, Rate};

/// The public room's name among the chat's rooms.
pub const ROOM: &str = "public";

/// Lines an account may say in the public room: one every 2 s, 5 at once.
pub const PER_ACCOUNT: Rate = Rate {
    per_second: 0.5,
    burst: 5.0,
};
/// Lines one address may say there (several people may share one): 2 a second, 20 at once.
pub const PER_ADDRESS: Rate = Rate {
    per_second: 2.0,
    burst: 20.0,
};

/// The limits of lines (and mutes) per account and per address, across every room and
/// connection, beyond each connection's own.
pub struct PublicLimits {
    by_account: Keyed<String>,
    by_address: Keyed<IpAddr>,
}

impl Default for PublicLimits {
    fn default() -> Self {
        PublicLimits {
            by_account: Keyed::new(PER_ACCOUNT),
            by_address: Keyed::new(PER_ADDRESS),
        }
    }
}

impl PublicLimits {
    /// Takes one line from the account's allowance and the address's: the refusal's sentence
    /// when either is spent.
    pub fn take(&self, account: Option<&str>, address: Option<IpAddr>) -> Result<(), String> {
        if let Some(a) = account
            && let Err(wait) = self.by_account.take(a.to_string())
        {
            return Err(format!(
                "too many lines from your account: at most {}; try again in {} ms",
                PER_ACCOUNT.describe(),
                wait.as_millis().max(1)
            ));
        }
        if let Some(ip) = address
            && let Err(wait) = self.by_address.take(ip)
        {
            return Err(format!(
                "too many lines from your address: at most {}; try again in {} ms",
                PER_ADDRESS.describe(),
                wait.as_millis().max(1)
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_connections_of_one_account_or_address_share_one_allowance() {
        let limits = PublicLimits::default();
        let ip: IpAddr = "192.0.2.7".parse().unwrap();
        // Five lines at once from one account, whatever connection they come from; the sixth
        // waits.
        for _ in 0..5 {
            limits.take(Some("acc"), Some(ip)).unwrap();
        }
        let e = limits.take(Some("acc"), Some(ip)).unwrap_err();
        assert!(e.contains("your account"), "{e}");
        // Other accounts (new, free to make) from the same address run into the address's.
        for k in 0..15 {
            limits.take(Some(&format!("new{k}")), Some(ip)).unwrap();
        }
        let e = limits.take(Some("another"), Some(ip)).unwrap_err();
        assert!(e.contains("your address"), "{e}");
        // Another address is not held up.
        limits
            .take(Some("elsewhere"), Some("198.51.100.1".parse().unwrap()))
            .unwrap();
    }
}
