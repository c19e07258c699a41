//! How many new studies (saved or copied) one account and one address may store in an hour.
//! A study holds up to 512 KiB, a copy needs no body at all, and accounts are free: counted per
//! account only, a swarm of fresh accounts from one address stored about 24 MB a second
//! (issue 39, F1). The same allowance holds per address.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::http::limit::{PerKey, Rate};

/// The allowances of new studies.
pub struct NewStudies {
    per_hour: u32,
    per_account: Arc<PerKey<String>>,
    per_address: Arc<PerKey<IpAddr>>,
}

impl NewStudies {
    /// Allowances of `per_hour` new studies (all at once, or spread) for every account and
    /// every address; 0: no limit.
    pub fn new(per_hour: u32) -> NewStudies {
        let rate = if per_hour == 0 {
            Rate::unlimited()
        } else {
            Rate::new(f64::from(per_hour) / 3600.0, f64::from(per_hour))
        };
        NewStudies {
            per_hour,
            per_account: PerKey::new(rate),
            per_address: PerKey::new(rate),
        }
    }

    /// Takes one new study from the allowance of `account` and of `address` (when known):
    /// `Err` with a sentence and how long to wait when either is used up.
    pub fn take(&self, account: &str, address: Option<IpAddr>) -> Result<(), (String, Duration)> {
        let whose = |who: &str, wait: Duration| {
            (
                format!(
                    "{who} has stored {} new studies in the last hour, the most allowed: try \
                     again in {} s",
                    self.per_hour,
                    wait.as_secs().max(1)
                ),
                wait,
            )
        };
        if let Some(address) = address {
            self.per_address
                .take(&address)
                .map_err(|w| whose("your address", w))?;
        }
        self.per_account
            .take(&account.to_string())
            .map_err(|w| whose("your account", w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_and_an_address_each_have_their_allowance() {
        let q = NewStudies::new(30);
        let home = IpAddr::from([10, 0, 0, 1]);
        let away = IpAddr::from([10, 0, 0, 2]);
        for _ in 0..30 {
            assert!(q.take("ann", Some(home)).is_ok());
        }
        let (why, wait) = q.take("ann", Some(away)).unwrap_err();
        assert!(why.starts_with("your account"), "{why}");
        assert!(wait > Duration::from_secs(60), "{wait:?}");
        // Fresh accounts from the same address get nothing more.
        let (why, _) = q.take("fresh", Some(home)).unwrap_err();
        assert!(why.starts_with("your address"), "{why}");
        assert!(q.take("fresh", Some(away)).is_ok());
        // 0: no limit.
        let q = NewStudies::new(0);
        assert!((0..1000).all(|_| q.take("ann", Some(home)).is_ok()));
    }
}
