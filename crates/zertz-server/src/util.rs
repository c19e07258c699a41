//! Helpers every part of the server uses. It imports nothing of the server, so that any module
//! may use it without making a circle.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A wait in whole seconds, rounded up, at least one: what `Retry-After` and the sentences
/// that say "try again in N s" give.
pub fn whole_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A time in ms since the Unix epoch as an ISO 8601 date and time in UTC, to the millisecond:
/// `2026-11-25T12:05:00.000Z` (such texts sort as the times do).
pub fn iso_time(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let in_day = secs.rem_euclid(86_400);
    let (h, m, s) = (in_day / 3600, in_day % 3600 / 60, in_day % 60);
    // Days since 1970-01-01 to a civil date (the proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{:03}Z",
        ms.rem_euclid(1000)
    )
}

/// A name as given by a person: trimmed, 1 to 40 printable characters (`Anonymous` when
/// empty). The error says the rule.
pub fn clean_name(name: &str) -> Result<String, String> {
    let name = without_invisible(name);
    let name = name.trim();
    if name.is_empty() {
        return Ok("Anonymous".into());
    }
    if name.chars().count() > 40 || name.chars().any(|c| c.is_control()) {
        return Err("a name is at most 40 characters, without control characters".into());
    }
    Ok(name.to_string())
}

/// Whether `c` changes how the text around it is shown without being seen itself: the
/// bidirectional controls (which can make a name or a line read backwards, `U+202E`) and the
/// zero-width characters (which make two names that look the same differ).
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{061C}'                  // Arabic letter mark
        | '\u{200B}'..='\u{200F}'   // zero-width space, non-joiner, joiner; LRM, RLM
        | '\u{202A}'..='\u{202E}'   // LRE, RLE, PDF, LRO, RLO
        | '\u{2060}'..='\u{2064}'   // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}'   // LRI, RLI, FSI, PDI
        | '\u{FEFF}'                 // zero-width no-break space
    )
}

/// `text` without its invisible characters ([`is_invisible`]).
pub fn without_invisible(text: &str) -> String {
    text.chars().filter(|c| !is_invisible(*c)).collect()
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

#[cfg(test)]
mod tests {
    #[test]
    fn names_lose_their_invisible_characters() {
        assert_eq!(
            super::clean_name("A\u{200B}li\u{202E}ce\u{FEFF}").unwrap(),
            "Alice"
        );
        assert_eq!(super::clean_name("\u{2066}\u{2069}").unwrap(), "Anonymous");
        assert_eq!(super::clean_name("Zoë").unwrap(), "Zoë");
    }

    #[test]
    fn iso_times_are_civil_dates() {
        assert_eq!(super::iso_time(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            super::iso_time(1_764_072_300_042),
            "2025-11-25T12:05:00.042Z"
        );
        assert_eq!(super::iso_time(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }
}
