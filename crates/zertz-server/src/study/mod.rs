//! Study: the analysis board's positions, engine analysis sessions on their own bounded slots,
//! game reviews in a fair background queue, and saved studies (issue 19, docs/study.md).

pub mod positions;
