//! What every route may reach: the games and the accounts. A handler takes the part it needs
//! (`State<Arc<Hub>>`, `State<Arc<Accounts>>`).

use std::sync::Arc;

use axum::extract::FromRef;

use crate::accounts::Accounts;
use crate::chat::Chat;
use crate::games::hub::Hub;
use crate::games::quota::Quotas;
use crate::pairing::Pairing;
use crate::puzzles::Puzzles;
use crate::study::Study;

/// The state of the routes.
#[derive(Clone)]
pub struct AppState {
    /// Games and matches.
    pub hub: Arc<Hub>,
    /// Accounts and sessions.
    pub accounts: Arc<Accounts>,
    /// The game rooms' chat.
    pub chat: Arc<Chat>,
    /// What each client may hold at once.
    pub quotas: Arc<Quotas>,
    /// The quick-pairing queues.
    pub pairing: Arc<Pairing>,
    /// Analysis, reviews and studies.
    pub study: Arc<Study>,
    /// The puzzle trainer.
    pub puzzles: Arc<Puzzles>,
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

impl FromRef<AppState> for Arc<Quotas> {
    fn from_ref(state: &AppState) -> Arc<Quotas> {
        Arc::clone(&state.quotas)
    }
}

impl FromRef<AppState> for Arc<Pairing> {
    fn from_ref(state: &AppState) -> Arc<Pairing> {
        Arc::clone(&state.pairing)
    }
}

impl FromRef<AppState> for Arc<Study> {
    fn from_ref(state: &AppState) -> Arc<Study> {
        Arc::clone(&state.study)
    }
}

impl FromRef<AppState> for Arc<Puzzles> {
    fn from_ref(state: &AppState) -> Arc<Puzzles> {
        Arc::clone(&state.puzzles)
    }
}
