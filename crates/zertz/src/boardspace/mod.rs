//! BoardSpace records (rules.md section 9): reading them, replaying them under this project's
//! rules, and writing our games in BoardSpace's dialect so they open there.

pub(crate) mod export;
pub(crate) mod import;
pub mod sgf;

pub use export::{ExportError, ExportInfo, export};
pub use import::{
    AnyImported, Ending, ImportError, Imported, RecordedResult, RejectKind, import, import_any,
    import_huge, import_wide, read_result,
};
