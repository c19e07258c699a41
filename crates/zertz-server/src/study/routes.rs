//! Every route of Study: positions, trees, the engine's analysis, reviews and studies.

use std::sync::Arc;

use axum::Router;

use axum::extract::FromRef;

/// The routes of Study.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<crate::games::hub::Hub>: FromRef<S>,
    Arc<crate::games::quota::Quotas>: FromRef<S>,
    Arc<crate::study::Study>: FromRef<S>,
    Arc<dyn crate::study::studies::store::StudyStore>: FromRef<S>,
{
    super::positions::routes::router()
        .merge(super::trees::routes::router())
        .merge(super::analysis::routes::router())
        .merge(super::analysis::socket::router())
        .merge(super::reviews::routes::router())
        .merge(super::studies::routes::router())
}
