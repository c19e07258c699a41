//! Headers every answer carries so that a browser limits what a page of the site may do: only
//! the site's own scripts, styles and connections (no inline script, so injected markup cannot
//! run), no framing by other sites (clickjacking), no guessing of content types, and no
//! invitation link leaking to another site through the `Referer`. Behind HTTPS, HSTS as well:
//! a browser that has seen the site once never asks for it over plain HTTP again.

use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

/// The Content-Security-Policy of every answer. `'self'` covers the site's WebSockets too.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers and their values.
const HEADERS: [(HeaderName, &str); 5] = [
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    // Same-site navigation keeps its referrer; other sites see none (a game's address can
    // carry an invitation).
    (header::REFERRER_POLICY, "same-origin"),
    (
        HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    ),
];

/// `Strict-Transport-Security` behind HTTPS: a year, this host only (the operator's other
/// subdomains are theirs to decide).
pub const HSTS: &str = "max-age=31536000";

/// Adds the headers to every answer (pages, files, the API, errors); with `https` (the site
/// is served over HTTPS), HSTS too.
pub async fn secure(State(https): State<bool>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if https {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        );
    }
    response
}
