//! Every route of Study: positions, trees, the engine's analysis, reviews and studies.

use axum::Router;

use crate::app::state::AppState;

/// The routes of Study.
pub fn router() -> Router<AppState> {
    super::positions::routes::router()
        .merge(super::trees::routes::router())
        .merge(super::analysis::routes::router())
        .merge(super::analysis::socket::router())
        .merge(super::reviews::routes::router())
        .merge(super::studies::routes::router())
}
