//! Study: the analysis board's positions, engine analysis sessions on their own bounded slots,
//! game reviews in a fair background queue, and saved studies (issue 19, docs/study.md).

pub mod analysis;
pub mod positions;
pub mod reviews;
pub mod routes;
pub mod studies;
pub mod trees;

use std::sync::Arc;
use std::time::Duration;

use crate::config::Config;
use crate::fair_slots::FairSlots;
use crate::study::reviews::store::ReviewStore;
use reviews::Reviews;

/// What the study features share: the slots analysis searches run on and their budget.
pub struct Study {
    /// Analysis searches running at once, apart from the games' engine slots, given out round
    /// robin between clients (an account, or an address for guests), however many boards
    /// (browser tabs) each has open.
    pub slots: Arc<FairSlots>,
    /// The longest one analysis may search.
    pub analysis_time: Duration,
    /// Game reviews and their queue.
    pub reviews: Arc<Reviews>,
    /// The line of finished games' analyses (`GET /api/games/{id}/analysis`).
    pub game_analysis: Arc<analysis::game::AnalysisQueue>,
    /// New studies (saved or copied) stored per account and per address.
    pub new_studies: studies::quota::NewStudies,
}

impl Study {
    /// The study features on `store` with the service's settings (the review worker is
    /// started by `reviews.start()`).
    pub fn new(store: Arc<dyn ReviewStore>, config: &Config) -> Arc<Study> {
        Arc::new(Study {
            slots: FairSlots::new(config.study_slots),
            analysis_time: config.analysis_time,
            reviews: Reviews::new(store, config.review_limits),
            game_analysis: analysis::game::AnalysisQueue::new(
                config.analysis_limits,
                1,
                crate::study::analysis::routes::BUDGET,
            ),
            new_studies: studies::quota::NewStudies::new(config.new_studies_per_hour),
        })
    }
}
