//! Study tools (docs/study.md): saved studies and the check of their trees.

pub mod studies;
pub mod tree_check;
