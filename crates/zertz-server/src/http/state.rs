//! What every route may reach: the games and the accounts. A handler takes the part it needs
//! (`State<Arc<Hub>>`, `State<Arc<Accounts>>`).

use std::sync::Arc;

use axum::extract::FromRef;

use crate::accounts::Accounts;
use crate::chat::Chat;
use crate::games::hub::Hub;

/// The state of the routes.
#[derive(Clone)]
pub struct AppState {
    /// Games and matches.
    pub hub: Arc<Hub>,
    /// Accounts and sessions.
    pub accounts: Arc<Accounts>,
    /// The game rooms' chat.
    pub chat: Arc<Chat>,
}

impl FromRef<AppState> for Arc<Hub> {
    fn from_ref(state: &AppState) -> Arc<Hub> {
        Arc::clone(&state.hub)
    }
}

impl FromRef<AppState> for Arc<Accounts> {
    fn from_ref(state: &AppState) -> Arc<Accounts> {
        Arc::clone(&state.accounts)
    }
}

impl FromRef<AppState> for Arc<Chat> {
    fn from_ref(state: &AppState) -> Arc<Chat> {
        Arc::clone(&state.chat)
    }
}
