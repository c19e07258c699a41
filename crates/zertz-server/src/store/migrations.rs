//! The schema's migrations, compiled into the binary: the files of `migrations/sqlite` and
//! `migrations/postgres`, listed by `build.rs`. They run through sqlx's migrator, which records
//! each one applied with a checksum of its text, as `sqlx::migrate!` did before (a database
//! migrated by an older build is recognised: same versions, same checksums).

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};

/// One migration file, as compiled in.
#[derive(Debug)]
pub(crate) struct Embedded {
    /// Its number (the file name's prefix).
    pub version: i64,
    /// The rest of its file name, underscores read as spaces.
    pub description: &'static str,
    /// Its text.
    pub sql: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// A list of compiled-in migrations, as a source for sqlx's migrator.
#[derive(Debug)]
struct Source(&'static [Embedded]);

impl MigrationSource<'static> for Source {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move { Ok(migrations(self.0)) })
    }
}

fn migrations(files: &'static [Embedded]) -> Vec<Migration> {
    files
        .iter()
        .map(|file| {
            Migration::new(
                file.version,
                Cow::Borrowed(file.description),
                MigrationType::Simple,
                Cow::Borrowed(file.sql),
                // sqlx's own rule for a migration that must run outside a transaction.
                file.sql.starts_with("-- no-transaction"),
            )
        })
        .collect()
}

/// The migrator of the SQLite schema, with its first `count` migrations (all: `None`).
pub async fn sqlite(count: Option<usize>) -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Source(&SQLITE[..count.unwrap_or(SQLITE.len())])).await
}

/// The migrator of the PostgreSQL schema, with its first `count` migrations (all: `None`).
pub async fn postgres(count: Option<usize>) -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Source(&POSTGRES[..count.unwrap_or(POSTGRES.len())])).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of both folders is compiled in, in the order of their numbers, each number
    /// once (sqlx runs them in the order given and records each by its number).
    #[test]
    fn every_migration_is_compiled_in_in_order() {
        for (folder, list) in [("sqlite", SQLITE), ("postgres", POSTGRES)] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(folder);
            let files = std::fs::read_dir(&path).unwrap().count();
            assert_eq!(list.len(), files, "{folder}: every file compiled in");
            assert_eq!(list[0].version, 1, "{folder}");
            for pair in list.windows(2) {
                assert!(pair[0].version < pair[1].version, "{folder}: {pair:?}");
            }
            assert!(list.iter().all(|f| !f.sql.trim().is_empty()), "{folder}");
        }
    }

    /// The checksum recorded for a migration is the one `sqlx::migrate!` recorded: SHA-384 of
    /// the file's text, so databases migrated by earlier builds open unchanged.
    #[test]
    fn checksums_are_sha384_of_the_files() {
        use sha2::{Digest, Sha384};
        let all = migrations(SQLITE);
        let first = &all[0];
        assert_eq!(first.version, 1);
        assert_eq!(first.description, "init");
        assert_eq!(
            first.checksum.as_ref(),
            Sha384::digest(SQLITE[0].sql.as_bytes()).as_slice()
        );
    }
}
