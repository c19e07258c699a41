//! How many new studies (saved or copied) one account and one address may store in an hour.
//! A study holds up to 512 KiB, a copy needs no body at all, and accounts are free: counted per
//! account only, a swarm of fresh accounts from one address stored about 24 MB a second
//! (issue 39, F1). The same allowance holds per address. Both are kept in the database
//! (`accounts::shared_limit`): what is stored is shared by every node, so is what may be
//! (issue 39, item 8), and a restart forgets nothing.

use std::net::IpAddr;
use std::time::Duration;

use crate::accounts::shared_limit::SharedLimit;
use crate::accounts::store::AccountStore;
use crate::store::StoreError;

/// The allowances of new studies.
pub struct NewStudies {
    limit: Option<SharedLimit>,
}

impl NewStudies {
    /// Allowances of `per_hour` new studies (all at once, or spread) for every account and
    /// every address; 0: no limit.
    pub fn new(per_hour: u32) -> NewStudies {
        NewStudies {
            limit: (per_hour > 0).then_some(SharedLimit { per_hour }),
        }
    }

    /// Takes one new study at `now_ms` from the allowance of `account` and of `address` (when
    /// known), kept in `store`: `Err` with a sentence and how long to wait when either is used
    /// up (the account's is then left whole).
    pub async fn take(
        &self,
        store: &dyn AccountStore,
        account: &str,
        address: Option<IpAddr>,
        now_ms: i64,
    ) -> Result<Result<(), (String, Duration)>, StoreError> {
        let Some(limit) = self.limit else {
            return Ok(Ok(()));
        };
        let whose = |who: &str, wait: Duration| {
            (
                format!(
                    "{who} has stored {} new studies in the last hour, the most allowed: try \
                     again in {} s",
                    limit.per_hour,
                    wait.as_secs().max(1)
                ),
                wait,
            )
        };
        if let Some(address) = address
            && let Err(wait) = limit
                .take(store, &format!("new-study at:{address}"), now_ms)
                .await?
        {
            return Ok(Err(whose("your address", wait)));
        }
        Ok(limit
            .take(store, &format!("new-study account:{account}"), now_ms)
            .await?
            .map_err(|wait| whose("your account", wait)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_account_and_an_address_each_have_their_allowance() {
        let (_dir, store) = crate::store::temporary_sqlite().await;
        let q = NewStudies::new(30);
        let home = IpAddr::from([10, 0, 0, 1]);
        let away = IpAddr::from([10, 0, 0, 2]);
        let take = |account: &'static str, address, now| {
            let (q, store) = (&q, &store);
            async move { q.take(store, account, Some(address), now).await.unwrap() }
        };
        for n in 0..30 {
            assert!(take("ann", home, n).await.is_ok());
        }
        let (why, wait) = take("ann", away, 30).await.unwrap_err();
        assert!(why.starts_with("your account"), "{why}");
        assert!(wait > Duration::from_secs(60), "{wait:?}");
        // Fresh accounts from the same address get nothing more.
        let (why, _) = take("fresh", home, 31).await.unwrap_err();
        assert!(why.starts_with("your address"), "{why}");
        assert!(take("fresh", away, 32).await.is_ok());
        // Two minutes on, one more for each (one every 120 s).
        assert!(take("ann", away, 120_031).await.is_ok());
        // 0: no limit.
        let q = NewStudies::new(0);
        for n in 0..1000 {
            assert!(q.take(&store, "ann", Some(home), n).await.unwrap().is_ok());
        }
    }
}
