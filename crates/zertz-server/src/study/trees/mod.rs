//! Trees of variations: their JSON form (`json`), the check a study's chapter passes before it
//! is kept (`check`), and the stateless routes that read and write them (`routes`).

pub mod check;
pub mod json;
pub mod routes;
