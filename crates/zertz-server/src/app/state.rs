//! What every route may reach. A feature's router names none of this: it asks for the parts it
//! needs (`State<Arc<Hub>>`, `State<Arc<dyn LessonStore>>`), and `FromRef` below takes each
//! from the application state; a feature's storage is the one store, seen through that
//! feature's trait.

use std::sync::Arc;

use axum::extract::FromRef;

use super::store::Store;
use crate::accounts::Accounts;
use crate::chat::Chat;
use crate::explorer::Explorer;
use crate::games::hub::Hub;
use crate::games::quota::Quotas;
use crate::lessons::store::LessonStore;
use crate::pairing::Pairing;
use crate::puzzles::Puzzles;
use crate::ratings::store::{PlayerStore, RatingStore};
use crate::study::Study;
use crate::study::studies::store::StudyStore;
use crate::tournaments::Tournaments;

/// The state of the routes.
#[derive(Clone)]
pub struct AppState {
    /// The one store every feature's storage is part of.
    pub store: Arc<dyn Store>,
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
    /// The opening explorer.
    pub explorer: Arc<Explorer>,
    /// Tournaments.
    pub tournaments: Arc<Tournaments>,
}

/// A part of the state handed out as it is.
macro_rules! part {
    ($field:ident: $part:ty) => {
        impl FromRef<AppState> for Arc<$part> {
            fn from_ref(state: &AppState) -> Arc<$part> {
                Arc::clone(&state.$field)
            }
        }
    };
}

part!(hub: Hub);
part!(accounts: Accounts);
part!(chat: Chat);
part!(quotas: Quotas);
part!(pairing: Pairing);
part!(study: Study);
part!(puzzles: Puzzles);
part!(explorer: Explorer);
part!(tournaments: Tournaments);

/// A feature's storage: the one store seen through that feature's trait.
macro_rules! storage {
    ($feature:ty) => {
        impl FromRef<AppState> for Arc<$feature> {
            fn from_ref(state: &AppState) -> Arc<$feature> {
                Arc::clone(&state.store) as Arc<$feature>
            }
        }
    };
}

storage!(dyn LessonStore);
storage!(dyn RatingStore);
storage!(dyn PlayerStore);
storage!(dyn StudyStore);
