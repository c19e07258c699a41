//! The account routes: sign up, log in and out, who is logged in, change the password, the
//! games and matches a player is in, and who is online (docs/accounts.md).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::accounts::keys::{
    clear_session_cookie, cookie_key, device_cookie, device_cookie_name, session_cookie,
};
use crate::accounts::origin::from_this_site;
use crate::accounts::viewer::Viewer;
use crate::accounts::{AccountError, Accounts, LoggedIn};
use crate::http::error::{ApiError, ApiResult};
use axum::extract::FromRef;

/// The account routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
{
    Router::new()
        .route("/api/accounts", post(sign_up))
        .route("/api/session", post(log_in).delete(log_out))
        .route("/api/me", get(me))
        .route("/api/me/password", post(change_password))
        .route("/api/online", get(online))
}

/// The body of a sign-up or a login.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

// Never printed: the password stays out of every log.
impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Credentials {{ name: {:?}, password: … }}", self.name)
    }
}

/// An account error as an answer; a lock says when to try again (`Retry-After`).
fn refusal(e: AccountError) -> Response {
    let wait = match &e {
        AccountError::Locked(_, wait) => Some(*wait),
        _ => None,
    };
    let mut response = ApiError::from(e).into_response();
    if let Some(wait) = wait {
        let seconds = crate::util::whole_seconds(wait);
        if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
    }
    response
}

/// A sign-up or a login from another site is refused (a page elsewhere must not log a visitor
/// in to an account of its choosing). Programs that send no origin at all are let through.
fn check_origin(headers: &HeaderMap, accounts: &Accounts) -> Result<(), ApiError> {
    from_this_site(headers, true, accounts.secure_cookies())
        .map_err(|message| ApiError(StatusCode::FORBIDDEN, message))
}

/// The answer that logs a browser in: the account and the cookies.
fn logged_in(status: StatusCode, done: LoggedIn, accounts: &Accounts) -> Response {
    let secure = accounts.secure_cookies();
    let mut response = (status, Json(json!({ "name": done.account.name }))).into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&session_cookie(&done.session_key, secure)) {
        headers.append(header::SET_COOKIE, value);
    }
    if let Some(device) = &done.device_key
        && let Ok(value) = HeaderValue::from_str(&device_cookie(device, secure))
    {
        headers.append(header::SET_COOKIE, value);
    }
    response
}

async fn sign_up(
    State(accounts): State<Arc<Accounts>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Response {
    if let Err(refused) = check_origin(&headers, &accounts) {
        return refused.into_response();
    }
    let Json(c) = match body {
        Ok(body) => body,
        Err(e) => return ApiError::from(e).into_response(),
    };
    match accounts.sign_up(&c.name, &c.password, peer.ip()).await {
        Ok(done) => logged_in(StatusCode::CREATED, done, &accounts),
        Err(e) => refusal(e),
    }
}

async fn log_in(
    State(accounts): State<Arc<Accounts>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Response {
    if let Err(refused) = check_origin(&headers, &accounts) {
        return refused.into_response();
    }
    let Json(c) = match body {
        Ok(body) => body,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let device = cookie_key(&headers, device_cookie_name(accounts.secure_cookies()));
    match accounts
        .log_in(&c.name, &c.password, peer.ip(), device.as_deref())
        .await
    {
        Ok(done) => logged_in(StatusCode::OK, done, &accounts),
        Err(e) => refusal(e),
    }
}

async fn log_out(State(accounts): State<Arc<Accounts>>, viewer: Viewer) -> ApiResult<Response> {
    if let Some(key) = &viewer.session_key {
        accounts.log_out(key).await?;
    }
    let mut response = Json(json!({ "logged_out": viewer.account.is_some() })).into_response();
    if let Ok(value) = HeaderValue::from_str(&clear_session_cookie(accounts.secure_cookies())) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    Ok(response)
}

/// 401 for a request that needs a session and has none.
pub(crate) fn not_logged_in(what: &str) -> ApiError {
    ApiError(
        StatusCode::UNAUTHORIZED,
        format!("{what} needs a session: log in first"),
    )
}

/// Who is logged in: `{"name": …}`, or `{"name": null}` for a guest (an answer, not an error:
/// every page asks, and a browser reports every 401 in its console).
async fn me(viewer: Viewer) -> Json<Value> {
    Json(json!({ "name": viewer.account.map(|a| a.name) }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    old: String,
    new: String,
}

async fn change_password(
    State(accounts): State<Arc<Accounts>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    viewer: Viewer,
    body: Result<Json<NewPassword>, JsonRejection>,
) -> Response {
    let Some(key) = viewer.session_key else {
        return not_logged_in("changing the password").into_response();
    };
    let Json(b) = match body {
        Ok(body) => body,
        Err(e) => return ApiError::from(e).into_response(),
    };
    match accounts
        .change_password(&key, &b.old, &b.new, peer.ip())
        .await
    {
        Ok(()) => Json(json!({ "changed": true })).into_response(),
        Err(e) => refusal(e),
    }
}

/// The open and live games and matches of the logged-in player, with their seat in each: what
/// follows them from device to device.
/// Who is online: the names of accounts heard from in the last minutes (at most 100).
async fn online(State(accounts): State<Arc<Accounts>>) -> Json<serde_json::Value> {
    let (names, count) = accounts.online.names(100);
    Json(json!({ "names": names, "count": count }))
}
