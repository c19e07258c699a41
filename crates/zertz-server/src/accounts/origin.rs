//! Protection against cross-site requests: a request that changes something and carries the
//! session cookie (or logs in, or opens a WebSocket) must come from the site's own pages. The
//! browser says where a request comes from: `Sec-Fetch-Site` (`same-origin`, or `none` for
//! what the user typed), else `Origin`, which must name this host. A form or a script on
//! another site gets 403 and changes nothing.

use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::accounts::keys::{SESSION_COOKIE, cookie_key};

/// Whether the request comes from this site's own pages, by its headers. Requests without
/// either header (programs, not browsers) pass only if `lenient`.
pub fn from_this_site(headers: &HeaderMap, lenient: bool) -> Result<(), String> {
    if let Some(site) = headers.get("sec-fetch-site") {
        return match site.to_str().unwrap_or("") {
            "same-origin" | "none" => Ok(()),
            other => Err(format!(
                "cross-site request refused: it comes from another site (Sec-Fetch-Site: {other})"
            )),
        };
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return if lenient {
            Ok(())
        } else {
            Err(
                "cross-site request refused: a request that carries the session cookie must \
                 say where it comes from (an Origin header naming this site)"
                    .into(),
            )
        };
    };
    let origin = origin.to_str().unwrap_or("");
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let authority = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .unwrap_or("");
    if !host.is_empty() && authority.eq_ignore_ascii_case(host) {
        Ok(())
    } else {
        Err(format!(
            "cross-site request refused: it comes from {origin}, not from this site"
        ))
    }
}

/// Whether a request with this method changes something.
fn changes_something(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The middleware: a request that changes something while carrying the session cookie is
/// refused unless it comes from this site. (Logins and sign-ups check their origin themselves,
/// cookie or not; WebSocket upgrades that use the cookie do too.)
pub async fn refuse_cross_site(request: Request, next: Next) -> Response {
    if changes_something(request.method())
        && cookie_key(request.headers(), SESSION_COOKIE).is_some()
        && let Err(message) = from_this_site(request.headers(), false)
    {
        return (
            StatusCode::FORBIDDEN,
            axum::Json(serde_json::json!({ "error": message })),
        )
            .into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn only_this_site_passes() {
        let host = ("host", "127.0.0.1:8080");
        assert!(
            from_this_site(&headers(&[host, ("sec-fetch-site", "same-origin")]), false).is_ok()
        );
        assert!(from_this_site(&headers(&[host, ("sec-fetch-site", "none")]), false).is_ok());
        let e =
            from_this_site(&headers(&[host, ("sec-fetch-site", "cross-site")]), false).unwrap_err();
        assert!(e.contains("another site"), "{e}");
        assert!(from_this_site(&headers(&[host, ("sec-fetch-site", "same-site")]), false).is_err());
        assert!(
            from_this_site(
                &headers(&[host, ("origin", "http://127.0.0.1:8080")]),
                false
            )
            .is_ok()
        );
        let e = from_this_site(&headers(&[host, ("origin", "http://evil.example")]), false)
            .unwrap_err();
        assert!(e.contains("evil.example"), "{e}");
        // A look-alike host with this one as a prefix.
        assert!(
            from_this_site(
                &headers(&[host, ("origin", "http://127.0.0.1:8080.evil")]),
                false
            )
            .is_err()
        );
        assert!(from_this_site(&headers(&[host, ("origin", "null")]), false).is_err());
        assert!(from_this_site(&headers(&[host]), false).is_err());
        assert!(from_this_site(&headers(&[host]), true).is_ok());
    }
}
