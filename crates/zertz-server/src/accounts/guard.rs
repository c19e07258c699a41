//! Limits on guessing passwords. Failed logins are counted per address and per name (known or
//! not, so that a lock says nothing about whether a name exists). After a few free tries each
//! failure locks further tries for a while that doubles with every failure: up to an hour for
//! an address, but at most a minute for a name, so that nobody can keep a player out from
//! elsewhere for long. A browser that has logged in to the account before (its device cookie,
//! see `keys`) is not held back by the name's lock, unless that cookie itself has failed a few
//! times (a stolen device cookie does not open unlimited guessing). A try counts as a failure
//! from the moment it is let through, before its password is hashed, so tries sent together
//! cannot all pass the check; a success clears the counts; a count is forgotten an hour after
//! its last failure.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Free failures per address before locks start (an office behind one address has room).
const FREE_PER_ADDRESS: u32 = 20;
/// Failures with a device cookie after which it is no longer trusted.
const FREE_PER_DEVICE: u32 = 5;
/// Free failures per name before locks start.
const FREE_PER_NAME: u32 = 5;
/// The longest lock of an address.
const MAX_ADDRESS_LOCK: Duration = Duration::from_secs(3600);
/// The longest lock of a name.
const MAX_NAME_LOCK: Duration = Duration::from_secs(60);
/// A count with no failure for this long starts again from zero.
const FORGET_AFTER: Duration = Duration::from_secs(3600);
/// Counts kept before the forgotten ones are swept out.
const SWEEP_AT: usize = 10_000;

#[derive(Clone, Copy, Debug)]
struct Failures {
    count: u32,
    last: Instant,
}

impl Failures {
    /// How long tries stay locked after these failures, from `now` (`None`: not locked).
    fn locked_for(&self, free: u32, longest: Duration, now: Instant) -> Option<Duration> {
        if self.count < free || now.saturating_duration_since(self.last) >= FORGET_AFTER {
            return None;
        }
        let doublings = (self.count - free).min(20);
        let lock = Duration::from_secs(1 << doublings).min(longest);
        let until = self.last + lock;
        (until > now).then(|| until - now)
    }
}

/// Why a login is not tried now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Locked {
    /// Too many failures from this address.
    Address(Duration),
    /// Too many failures for this name.
    Name(Duration),
}

/// The failure counts.
#[derive(Default)]
pub struct LoginGuard {
    addresses: Mutex<HashMap<IpAddr, Failures>>,
    names: Mutex<HashMap<String, Failures>>,
    /// By the hash of the device key.
    devices: Mutex<HashMap<String, Failures>>,
}

fn lock<K>(map: &Mutex<HashMap<K, Failures>>) -> std::sync::MutexGuard<'_, HashMap<K, Failures>> {
    map.lock().unwrap_or_else(|e| e.into_inner())
}

impl LoginGuard {
    /// Begins a login to `name` from `address` at `now`, refused when either is locked
    /// (`trusted`: the browser logged in to that account before, so the name's lock does not
    /// apply). A try let through is counted at once as a failure, with the hash of the
    /// browser's device key if it sent one, before the password is hashed: tries that race it
    /// see it, so sixty logins sent at once get the free tries and no more. A success clears
    /// the counts ([`LoginGuard::succeeded`]).
    pub fn begin(
        &self,
        address: IpAddr,
        name: &str,
        device: Option<&str>,
        trusted: bool,
        now: Instant,
    ) -> Result<(), Locked> {
        let name = name.to_ascii_lowercase();
        // Both counts are checked and raised under both locks (always taken in this order).
        let mut addresses = lock(&self.addresses);
        let mut names = lock(&self.names);
        if let Some(wait) = addresses
            .get(&address)
            .and_then(|f| f.locked_for(FREE_PER_ADDRESS, MAX_ADDRESS_LOCK, now))
        {
            return Err(Locked::Address(wait));
        }
        if !trusted
            && let Some(wait) = names
                .get(&name)
                .and_then(|f| f.locked_for(FREE_PER_NAME, MAX_NAME_LOCK, now))
        {
            return Err(Locked::Name(wait));
        }
        count(&mut addresses, address, now);
        count(&mut names, name, now);
        drop((addresses, names));
        if let Some(device) = device {
            count(&mut lock(&self.devices), device.to_string(), now);
        }
        Ok(())
    }

    /// Whether the device key hashing to `device` may still be trusted: it has not failed
    /// too often lately.
    pub fn device_trusted(&self, device: &str, now: Instant) -> bool {
        lock(&self.devices).get(device).is_none_or(|f| {
            f.count < FREE_PER_DEVICE || now.saturating_duration_since(f.last) >= FORGET_AFTER
        })
    }

    /// A login succeeded: the counts start again.
    pub fn succeeded(&self, address: IpAddr, name: &str, device: Option<&str>) {
        lock(&self.addresses).remove(&address);
        lock(&self.names).remove(&name.to_ascii_lowercase());
        if let Some(device) = device {
            lock(&self.devices).remove(device);
        }
    }
}

fn count<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Failures>, key: K, now: Instant) {
    if map.len() >= SWEEP_AT {
        map.retain(|_, f| now.saturating_duration_since(f.last) < FORGET_AFTER);
    }
    let f = map.entry(key).or_insert(Failures {
        count: 0,
        last: now,
    });
    if now.saturating_duration_since(f.last) >= FORGET_AFTER {
        f.count = 0;
    }
    f.count += 1;
    f.last = now;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn a_name_locks_after_its_free_tries_and_the_lock_grows_to_a_minute() {
        let g = LoginGuard::default();
        let t0 = Instant::now();
        // Five tries from five addresses: the name is locked for 1 s, then 2 s, 4 s…
        for i in 0..FREE_PER_NAME {
            assert_eq!(g.begin(ip(i as u8), "Ann", None, false, t0), Ok(()));
        }
        assert_eq!(
            g.begin(ip(99), "ANN", None, false, t0),
            Err(Locked::Name(Duration::from_secs(1)))
        );
        // Locked for the name only: other names go on.
        assert_eq!(g.begin(ip(99), "Ben", None, false, t0), Ok(()));
        // The browser that logged in to Ann before is not held back (its try counts: 6).
        assert_eq!(g.begin(ip(99), "Ann", None, true, t0), Ok(()));
        let t1 = t0 + Duration::from_secs(2);
        assert_eq!(g.begin(ip(99), "Ann", None, false, t1), Ok(()));
        assert_eq!(
            g.begin(ip(98), "Ann", None, false, t1),
            Err(Locked::Name(Duration::from_secs(4)))
        );
        // Many more failures: never more than a minute.
        let mut t = t1;
        for i in 0..30 {
            t += Duration::from_secs(120);
            assert_eq!(g.begin(ip(100 + i), "Ann", None, false, t), Ok(()));
        }
        assert_eq!(
            g.begin(ip(96), "Ann", None, false, t),
            Err(Locked::Name(MAX_NAME_LOCK))
        );
        assert_eq!(
            g.begin(ip(96), "Ann", None, false, t + MAX_NAME_LOCK),
            Ok(())
        );
    }

    #[test]
    fn tries_sent_together_get_the_free_tries_and_no_more() {
        // Sixty logins to one name from one address, all begun before any hash is done
        // (issue 39, F2: all sixty used to be checked): five are let through.
        let g = LoginGuard::default();
        let t0 = Instant::now();
        let through = (0..60)
            .filter(|_| g.begin(ip(1), "Ann", None, false, t0).is_ok())
            .count();
        assert_eq!(through, FREE_PER_NAME as usize);
        // From sixty threads at once, the same.
        let g = std::sync::Arc::new(LoginGuard::default());
        let threads: Vec<_> = (0..60)
            .map(|_| {
                let g = g.clone();
                std::thread::spawn(move || g.begin(ip(2), "Ben", None, false, t0).is_ok())
            })
            .collect();
        let through = threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .filter(|ok| *ok)
            .count();
        assert_eq!(through, FREE_PER_NAME as usize);
    }

    #[test]
    fn an_address_locks_after_its_free_tries_and_success_clears_it() {
        let g = LoginGuard::default();
        let t0 = Instant::now();
        for i in 0..FREE_PER_ADDRESS {
            assert_eq!(g.begin(ip(1), &format!("name{i}"), None, false, t0), Ok(()));
        }
        assert_eq!(
            g.begin(ip(1), "someone", None, true, t0),
            Err(Locked::Address(Duration::from_secs(1)))
        );
        assert_eq!(g.begin(ip(2), "someone", None, false, t0), Ok(()));
        g.succeeded(ip(1), "someone", None);
        assert_eq!(g.begin(ip(1), "someone", None, false, t0), Ok(()));
        // An hour after the last failure the count starts again.
        for i in 0..FREE_PER_ADDRESS {
            assert_eq!(g.begin(ip(3), &format!("x{i}"), None, false, t0), Ok(()));
        }
        assert!(g.begin(ip(3), "y", None, false, t0).is_err());
        assert_eq!(g.begin(ip(3), "y", None, false, t0 + FORGET_AFTER), Ok(()));
    }

    #[test]
    fn a_device_that_keeps_failing_is_no_longer_trusted() {
        let g = LoginGuard::default();
        let t0 = Instant::now();
        assert!(g.device_trusted("d1", t0));
        for i in 0..FREE_PER_DEVICE {
            assert_eq!(g.begin(ip(i as u8), "Ann", Some("d1"), true, t0), Ok(()));
        }
        assert!(!g.device_trusted("d1", t0));
        assert!(g.device_trusted("d2", t0));
        assert!(g.device_trusted("d1", t0 + FORGET_AFTER));
        g.succeeded(ip(1), "Ann", Some("d1"));
        assert!(g.device_trusted("d1", t0));
    }
}
