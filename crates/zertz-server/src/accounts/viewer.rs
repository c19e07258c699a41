//! Who is asking: the account of the request's session cookie (if any) and the address it
//! comes from. (What a viewer may do in a game is `games::seats`.)

use std::sync::Arc;

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;

use crate::accounts::keys::{cookie_key, session_cookie_name};
use crate::accounts::origin::from_this_site;
use crate::accounts::{Account, AccountError, Accounts};
use crate::http::error::{ApiError, bearer};
use axum::extract::FromRef;

/// The logged-in account of a request, if any, its session key, and where it comes from.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    /// The account whose session the request carries.
    pub account: Option<Account>,
    /// The session's key (from the cookie).
    pub session_key: Option<String>,
    /// The address the request came from.
    pub address: Option<IpAddr>,
}

impl Viewer {
    /// Who this is for the per-client limits: the account, or the address for a guest.
    pub fn client(&self) -> String {
        match (&self.account, self.address) {
            (Some(a), _) => format!("account:{}", a.id),
            (None, Some(ip)) => format!("address:{ip}"),
            (None, None) => "address:unknown".into(),
        }
    }

    /// Who pays for what this request uses under a per-client limit: the client and its
    /// address.
    pub fn payer(&self) -> Payer {
        Payer {
            client: self.client(),
            address: self.address,
        }
    }

    /// Who this is in the lines of the services everyone shares (the analysis boards' and
    /// finished games' searches, the reviews): the address, logged in or not, so that the
    /// accounts made at one address share one line and one allowance (issue 39, F6 and F8:
    /// accounts are free, addresses are not).
    pub fn line(&self) -> String {
        match self.address {
            Some(ip) => format!("address:{ip}"),
            None => self.client(),
        }
    }

    /// For a page kept open on a WebSocket: the account counts as online until the returned
    /// guard is dropped.
    pub fn online(&self, accounts: &Accounts) -> Option<crate::accounts::online::Connected> {
        self.account
            .as_ref()
            .map(|a| accounts.online.connected(&a.id, &a.name))
    }
}

/// What one address may hold under a per-client limit, in accounts' worth: a family or a
/// club behind one address can play, and fresh accounts multiply a limit by this much at most
/// (issue 39: accounts are free, addresses are not).
pub const ADDRESS_SHARE: usize = 4;

/// Who is charged for something limited per client (an account, or the address for a guest)
/// and, since accounts are free, per address too, at [`ADDRESS_SHARE`] times the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Payer {
    /// The client ([`Viewer::client`]).
    pub client: String,
    /// Its address, when known.
    pub address: Option<IpAddr>,
}

impl Payer {
    /// A payer with no address (the server's own work, and tests).
    pub fn named(client: &str) -> Payer {
        Payer {
            client: client.to_string(),
            address: None,
        }
    }

    /// The keys a limit of `limit` per client holds under, each with its limit: the client's,
    /// then its address's (its accounts and guests together).
    pub fn keys(&self, limit: usize) -> Vec<(String, usize)> {
        let mut keys = vec![(self.client.clone(), limit)];
        if let Some(ip) = self.address {
            keys.push((format!("everyone at:{ip}"), limit * ADDRESS_SHARE));
        }
        keys
    }
}

impl<S> FromRequestParts<S> for Viewer
where
    S: Send + Sync,
    Arc<Accounts>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Viewer, ApiError> {
        let address = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        let accounts = Arc::<Accounts>::from_ref(state);
        viewer(&parts.headers, &accounts, false, address).await
    }
}

/// The viewer of a request with these headers, from `address` (the peer's: every caller
/// names it, so that no limit per address is left without one). With `only_from_this_site`,
/// the session cookie counts only when the request comes from this site's pages (WebSocket
/// upgrades: a page on another site must not open a socket that acts as the player).
pub async fn viewer(
    headers: &HeaderMap,
    accounts: &Accounts,
    only_from_this_site: bool,
    address: Option<std::net::IpAddr>,
) -> Result<Viewer, ApiError> {
    let secure = accounts.secure_cookies();
    let Some(key) = cookie_key(headers, session_cookie_name(secure)) else {
        return Ok(Viewer {
            address,
            ..Viewer::default()
        });
    };
    if only_from_this_site && from_this_site(headers, false, secure).is_err() {
        return Ok(Viewer {
            address,
            ..Viewer::default()
        });
    }
    let account = accounts.session(&key).await.map_err(ApiError::from)?;
    Ok(Viewer {
        session_key: account.as_ref().map(|_| key),
        account,
        address,
    })
}

/// The seat token of a request, from `Authorization: Bearer …`.
pub fn token(headers: &HeaderMap) -> Option<String> {
    bearer(headers)
}

impl From<AccountError> for ApiError {
    fn from(e: AccountError) -> ApiError {
        use axum::http::StatusCode;
        let status = match &e {
            AccountError::Invalid(_) => StatusCode::BAD_REQUEST,
            AccountError::Taken(_) => StatusCode::CONFLICT,
            AccountError::WrongLogin | AccountError::NotLoggedIn(_) => StatusCode::UNAUTHORIZED,
            AccountError::Locked(..) => StatusCode::TOO_MANY_REQUESTS,
            AccountError::Busy(_) | AccountError::Storage(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError(status, e.to_string())
    }
}
