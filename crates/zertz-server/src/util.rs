//! Helpers every part of the server uses. It imports nothing of the server, so that any module
//! may use it without making a circle.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A name as given by a person: trimmed, 1 to 40 printable characters (`Anonymous` when
/// empty). The error says the rule.
pub fn clean_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Ok("Anonymous".into());
    }
    if name.chars().count() > 40 || name.chars().any(|c| c.is_control()) {
        return Err("a name is at most 40 characters, without control characters".into());
    }
    Ok(name.to_string())
}

/// With `ZERTZ_SLOW_MS=N` in the environment, the SQLite writer and the WebSocket actions log
/// (at `warn`) every step that takes N ms or more: a tool to find where latency comes from.
pub fn slow_ms() -> Option<Duration> {
    static SLOW: std::sync::OnceLock<Option<Duration>> = std::sync::OnceLock::new();
    *SLOW.get_or_init(|| {
        std::env::var("ZERTZ_SLOW_MS")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .map(Duration::from_millis)
    })
}
