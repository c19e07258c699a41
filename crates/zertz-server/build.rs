//! Lists the schema's migrations for `store::migrations`, which compiles them into the binary.
//! Reading the folders here instead of through `sqlx::migrate!` keeps sqlx's macros out of the
//! build: they would compile a second copy of sqlx and SQLite for the compiler's own use.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let mut out = String::new();
    for (name, folder) in [("SQLITE", "sqlite"), ("POSTGRES", "postgres")] {
        let folder = Path::new(&dir).join("migrations").join(folder);
        println!("cargo:rerun-if-changed={}", folder.display());
        let mut files: Vec<(i64, String, String)> = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", folder.display()))
            .map(|entry| entry.expect("a readable migrations folder").path())
            .filter(|path| path.extension().is_some_and(|e| e == "sql"))
            .map(|path| {
                let file = path.file_name().unwrap().to_string_lossy().into_owned();
                // `0019_tournaments.sql`: version 19, description "tournaments" (as sqlx
                // names them in its table of applied migrations).
                let (version, rest) = file
                    .split_once('_')
                    .unwrap_or_else(|| panic!("{file}: a migration is named NNNN_what.sql"));
                let version = version.parse().unwrap_or_else(|_| {
                    panic!("{file}: a migration's name starts with its number")
                });
                let description = rest.trim_end_matches(".sql").replace('_', " ");
                (version, description, path.display().to_string())
            })
            .collect();
        files.sort();
        writeln!(
            out,
            "/// The migrations of `migrations/{}`, in order.",
            folder.file_name().unwrap().to_string_lossy()
        )
        .unwrap();
        writeln!(out, "pub(crate) const {name}: &[Embedded] = &[").unwrap();
        for (version, description, path) in files {
            writeln!(
                out,
                "    Embedded {{ version: {version}, description: {description:?}, sql: include_str!({path:?}) }},"
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("migrations.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
