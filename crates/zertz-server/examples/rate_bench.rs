//! How long the per-address HTTP limit takes per request: `cargo run --release -p zertz-server
//! --example rate_bench`. Two threads take tokens for 1,000 addresses in turn, a rate high
//! enough that nothing is refused (the cost of a check, not of a refusal), then one address
//! over its rate (the cost of a refusal).

use std::net::{IpAddr, Ipv4Addr};
use std::time::Instant;

use zertz_server::http::limit::PerAddress;
use zertz_server::rate::Rate;

const TAKES: u32 = 2_000_000;

fn main() {
    let limits = PerAddress::new(Rate::new(1e9, 1e9));
    let addresses: Vec<IpAddr> = (0..1000u32)
        .map(|i| IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + i)))
        .collect();
    let started = Instant::now();
    std::thread::scope(|s| {
        for t in 0..2 {
            let (limits, addresses) = (&limits, &addresses);
            s.spawn(move || {
                for i in 0..TAKES {
                    let a = addresses[(i as usize * 7 + t) % addresses.len()];
                    assert!(limits.take(&a).is_ok());
                }
            });
        }
    });
    let ns = started.elapsed().as_nanos() as f64 / f64::from(2 * TAKES);
    println!("allowed: {ns:.0} ns a request (2 threads, 1,000 addresses)");

    let limits = PerAddress::new(Rate::new(1.0, 1.0));
    let one = addresses[0];
    let _ = limits.take(&one);
    let started = Instant::now();
    for _ in 0..TAKES {
        assert!(limits.take(&one).is_err());
    }
    let ns = started.elapsed().as_nanos() as f64 / f64::from(TAKES);
    println!("refused: {ns:.0} ns a request (1 thread, 1 address)");
}
