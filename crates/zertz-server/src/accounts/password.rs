//! Password hashing with Argon2id (PHC strings with their own salt), off the async runtime and
//! a few at a time, so that a flood of logins cannot take every core (docs/accounts.md gives
//! the parameters, why, and what one core sustains).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

/// Memory cost in KiB (19 MiB), passes and lanes: OWASP's first recommended set for Argon2id.
pub const MEMORY_KIB: u32 = 19 * 1024;
/// Passes over the memory.
pub const PASSES: u32 = 2;
/// Lanes.
pub const LANES: u32 = 1;

/// Why a hash could not be made or checked.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// Too many logins are waiting for a hashing thread.
    #[error("the server is busy checking passwords: try again in a moment")]
    Busy,
    /// Argon2 failed (never with these parameters) or the thread was lost.
    #[error("password hashing failed: {0}")]
    Failed(String),
}

/// The Argon2id hasher of the service.
pub struct Hasher {
    /// Hashes computed at once (each takes one core for tens of milliseconds).
    slots: Arc<Semaphore>,
    /// How many that is.
    threads: usize,
    /// Hashes asked for and not finished (running or waiting).
    in_flight: AtomicUsize,
    /// More waiting than this are refused as busy.
    max_waiting: usize,
    /// A hash of a password nobody has, checked when the name is unknown, so that an unknown
    /// name costs the same time as a wrong password.
    decoy: String,
}

fn argon2() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes `password` now, on this thread: a PHC string with a fresh random salt.
pub fn hash_now(password: &str) -> Result<String, HashError> {
    argon2()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| HashError::Failed(e.to_string()))
}

/// Whether `password` matches the PHC string `phc`, checked now on this thread (with the
/// parameters the string names).
pub fn verify_now(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => argon2()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

impl Hasher {
    /// A hasher running at most `threads` hashes at once (at least one) with at most
    /// `max_waiting` more waiting.
    pub fn new(threads: usize, max_waiting: usize) -> Hasher {
        Hasher {
            slots: Arc::new(Semaphore::new(threads.max(1))),
            threads: threads.max(1),
            in_flight: AtomicUsize::new(0),
            max_waiting,
            decoy: hash_now("not a password anybody has").unwrap_or_default(),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let before = self.in_flight.fetch_add(1, Ordering::AcqRel);
        struct Done<'a>(&'a AtomicUsize);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::AcqRel);
            }
        }
        let _done = Done(&self.in_flight);
        if before >= self.threads + self.max_waiting {
            return Err(HashError::Busy);
        }
        let permit = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| HashError::Failed(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| HashError::Failed(e.to_string()))
    }

    /// Hashes a new password.
    pub async fn hash(&self, password: &str) -> Result<String, HashError> {
        let password = password.to_string();
        self.run(move || hash_now(&password)).await?
    }

    /// Whether `password` matches `phc`; with no hash (an unknown name), checks the decoy so
    /// that the answer takes as long, and says no.
    pub async fn verify(&self, password: &str, phc: Option<&str>) -> Result<bool, HashError> {
        let known = phc.is_some();
        let (password, phc) = (password.to_string(), phc.unwrap_or(&self.decoy).to_string());
        let matches = self.run(move || verify_now(&password, &phc)).await?;
        Ok(known && matches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_argon2id_with_its_own_salt() {
        let a = hash_now("correct horse").unwrap();
        let b = hash_now("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(!a.contains("correct horse"));
        assert!(verify_now("correct horse", &a));
        assert!(verify_now("correct horse", &b));
        assert!(!verify_now("correct horsf", &a));
        assert!(!verify_now("correct horse", "not a PHC string"));
    }

    #[tokio::test]
    async fn unknown_names_are_checked_against_the_decoy() {
        let hasher = Hasher::new(1, 8);
        let phc = hasher.hash("s3cret-pass").await.unwrap();
        assert!(hasher.verify("s3cret-pass", Some(&phc)).await.unwrap());
        assert!(!hasher.verify("s3cret-pasS", Some(&phc)).await.unwrap());
        // The decoy's own password does not open an unknown name.
        assert!(
            !hasher
                .verify("not a password anybody has", None)
                .await
                .unwrap()
        );
    }
}
