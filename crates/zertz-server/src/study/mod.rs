//! Study tools (issue 19): the analysis board's trees of variations, and what works on them.

pub mod tree_json;
