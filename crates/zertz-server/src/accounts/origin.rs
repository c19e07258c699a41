//! Protection against cross-site requests: a request that changes something and carries the
//! session cookie (or logs in, or opens a WebSocket) must come from the site's own pages. The
//! browser says where a request comes from: `Sec-Fetch-Site` (`same-origin`, or `none` for
//! what the user typed), else `Origin`, which must name this host with the site's scheme
//! (`https` behind HTTPS: a plain-HTTP page of the same host is another origin). A form or a
//! script on another site gets 403 and changes nothing.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::accounts::keys::{SECURE_SESSION_COOKIE, SESSION_COOKIE, cookie_key};

/// Whether the request comes from this site's own pages, by its headers: the site is served
/// over HTTPS when `https`, else over HTTP. Requests without either header (programs, not
/// browsers) pass only if `lenient`.
pub fn from_this_site(headers: &HeaderMap, lenient: bool, https: bool) -> Result<(), String> {
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
    let scheme = if https { "https://" } else { "http://" };
    let authority = origin.strip_prefix(scheme).unwrap_or("");
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

/// The middleware (its state: whether the site is served over HTTPS): a request that changes
/// something while carrying a session cookie is refused unless it comes from this site.
/// (Logins and sign-ups check their origin themselves, cookie or not; WebSocket upgrades that
/// use the cookie do too.)
pub async fn refuse_cross_site(
    State(https): State<bool>,
    request: Request,
    next: Next,
) -> Response {
    let carries_session = [SESSION_COOKIE, SECURE_SESSION_COOKIE]
        .iter()
        .any(|name| cookie_key(request.headers(), name).is_some());
    if changes_something(request.method())
        && carries_session
        && let Err(message) = from_this_site(request.headers(), false, https)
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
            from_this_site(
                &headers(&[host, ("sec-fetch-site", "same-origin")]),
                false,
                false
            )
            .is_ok()
        );
        assert!(
            from_this_site(&headers(&[host, ("sec-fetch-site", "none")]), false, false).is_ok()
        );
        let e = from_this_site(
            &headers(&[host, ("sec-fetch-site", "cross-site")]),
            false,
            false,
        )
        .unwrap_err();
        assert!(e.contains("another site"), "{e}");
        assert!(
            from_this_site(
                &headers(&[host, ("sec-fetch-site", "same-site")]),
                false,
                false
            )
            .is_err()
        );
        assert!(
            from_this_site(
                &headers(&[host, ("origin", "http://127.0.0.1:8080")]),
                false,
                false
            )
            .is_ok()
        );
        let e = from_this_site(
            &headers(&[host, ("origin", "http://evil.example")]),
            false,
            false,
        )
        .unwrap_err();
        assert!(e.contains("evil.example"), "{e}");
        // A look-alike host with this one as a prefix.
        assert!(
            from_this_site(
                &headers(&[host, ("origin", "http://127.0.0.1:8080.evil")]),
                false,
                false
            )
            .is_err()
        );
        assert!(from_this_site(&headers(&[host, ("origin", "null")]), false, false).is_err());
        assert!(from_this_site(&headers(&[host]), false, false).is_err());
        assert!(from_this_site(&headers(&[host]), true, false).is_ok());
        // Behind HTTPS only the https origin of this host is this site.
        let https = ("origin", "https://127.0.0.1:8080");
        assert!(from_this_site(&headers(&[host, https]), false, true).is_ok());
        let e = from_this_site(
            &headers(&[host, ("origin", "http://127.0.0.1:8080")]),
            false,
            true,
        )
        .unwrap_err();
        assert!(e.contains("not from this site"), "{e}");
        assert!(from_this_site(&headers(&[host, https]), false, false).is_err());
    }
}
