//! Session and device keys: 256 random bits the browser holds in a cookie, stored only as
//! their SHA-256 (a copy of the database holds no key that logs anyone in), and the cookies
//! that carry them.

use axum::http::HeaderMap;
use cookie::{Cookie, SameSite};
use sha2::{Digest, Sha256};

/// The cookie that holds the session key (over plain HTTP; see [`session_cookie_name`]).
pub const SESSION_COOKIE: &str = "zertz_session";

/// The cookie that marks a browser that logged in to an account before (see `guard`).
pub const DEVICE_COOKIE: &str = "zertz_device";

/// The session cookie's name behind HTTPS: the `__Host-` prefix makes the browser accept it
/// only when set over HTTPS by this very host, for the whole site and no other domain, so a
/// sibling subdomain or a plain-HTTP page cannot plant a session of its choosing.
pub const SECURE_SESSION_COOKIE: &str = "__Host-zertz_session";

/// The device cookie's name behind HTTPS.
pub const SECURE_DEVICE_COOKIE: &str = "__Host-zertz_device";

/// The session cookie's name: `__Host-` prefixed when the site is served over HTTPS.
pub fn session_cookie_name(secure: bool) -> &'static str {
    if secure {
        SECURE_SESSION_COOKIE
    } else {
        SESSION_COOKIE
    }
}

/// The device cookie's name: `__Host-` prefixed when the site is served over HTTPS.
pub fn device_cookie_name(secure: bool) -> &'static str {
    if secure {
        SECURE_DEVICE_COOKIE
    } else {
        DEVICE_COOKIE
    }
}

/// A session lasts this long unused (30 days).
pub const SESSION_IDLE_MS: i64 = 30 * 24 * 3600 * 1000;

/// A device cookie lasts a year.
const DEVICE_MAX_AGE_S: i64 = 365 * 24 * 3600;

/// The SHA-256 of a key, in hex: what is stored.
pub fn key_hash(key: &str) -> String {
    let digest = Sha256::digest(key.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `key` has the shape of a key this server makes (64 hex digits), so that junk is
/// never hashed or looked up.
pub fn is_plausible_key(key: &str) -> bool {
    key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The value of cookie `name` in the request's `Cookie` headers, if it has a plausible key.
pub fn cookie_key(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name && is_plausible_key(c.value()))
        .map(|c| c.value().to_string())
}

/// The `Set-Cookie` value that gives the browser a session key: `HttpOnly` (no script reads
/// it), `SameSite=Lax` (not sent by other sites' forms and requests), `Path=/`, 30 days, and
/// `Secure` with the `__Host-` name behind HTTPS.
pub fn session_cookie(key: &str, secure: bool) -> String {
    cookie(
        session_cookie_name(secure),
        key,
        SESSION_IDLE_MS / 1000,
        secure,
    )
}

/// The `Set-Cookie` value that ends the session cookie.
pub fn clear_session_cookie(secure: bool) -> String {
    cookie(session_cookie_name(secure), "", 0, secure)
}

/// The `Set-Cookie` value of a device cookie.
pub fn device_cookie(key: &str, secure: bool) -> String {
    cookie(device_cookie_name(secure), key, DEVICE_MAX_AGE_S, secure)
}

fn cookie(name: &'static str, value: &str, max_age_s: i64, secure: bool) -> String {
    Cookie::build((name, value.to_string()))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(secure)
        .max_age(cookie::time::Duration::seconds(max_age_s))
        .build()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_say_how_they_may_be_used() {
        let key = crate::token::secret_key();
        assert!(is_plausible_key(&key));
        let plain = session_cookie(&key, false);
        for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
            assert!(plain.contains(part), "{plain}");
        }
        assert!(!plain.contains("Secure"));
        assert!(plain.starts_with("zertz_session="), "{plain}");
        // Behind HTTPS: Secure, and the `__Host-` name (which needs Secure, Path=/ and no
        // Domain to be accepted at all).
        let secure = session_cookie(&key, true);
        assert!(secure.starts_with("__Host-zertz_session="), "{secure}");
        assert!(
            secure.contains("Secure") && secure.contains("Path=/"),
            "{secure}"
        );
        assert!(!secure.contains("Domain"), "{secure}");
        assert!(device_cookie(&key, true).starts_with("__Host-zertz_device="));
        assert!(clear_session_cookie(true).starts_with("__Host-zertz_session=;"));
        assert!(clear_session_cookie(false).contains("Max-Age=0"));
        assert_eq!(key_hash("abc").len(), 64);
        assert_ne!(key_hash(&key), key);
    }

    #[test]
    fn the_key_is_read_from_the_cookie_header() {
        let key = crate::token::secret_key();
        let mut headers = HeaderMap::new();
        headers.insert(
            axum::http::header::COOKIE,
            format!("theme=dark; {SESSION_COOKIE}={key}; other=1")
                .parse()
                .unwrap(),
        );
        assert_eq!(cookie_key(&headers, SESSION_COOKIE), Some(key));
        assert_eq!(cookie_key(&headers, DEVICE_COOKIE), None);
        headers.insert(
            axum::http::header::COOKIE,
            format!("{SESSION_COOKIE}=../../etc").parse().unwrap(),
        );
        assert_eq!(cookie_key(&headers, SESSION_COOKIE), None);
    }
}
