//! How many logins one core sustains with the server's Argon2id parameters: checks a password
//! against its hash again and again on one thread and prints the rate (docs/accounts.md).
//!
//! ```sh
//! cargo run --release -p zertz-server --example password_speed [-- SECONDS]
//! ```

use std::time::{Duration, Instant};

use zertz_server::accounts::password::{LANES, MEMORY_KIB, PASSES, hash_now, verify_now};

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let phc = hash_now("correct horse battery staple").expect("a hash");
    let started = Instant::now();
    let mut checks = 0u64;
    while started.elapsed() < Duration::from_secs(seconds) {
        assert!(verify_now("correct horse battery staple", &phc));
        checks += 1;
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "Argon2id m={MEMORY_KIB} KiB, t={PASSES}, p={LANES}: {checks} checks in {elapsed:.1} s \
         on one thread = {:.1} logins/s, {:.1} ms each",
        checks as f64 / elapsed,
        elapsed * 1e3 / checks as f64
    );
}
