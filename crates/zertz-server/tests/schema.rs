//! The SQLite and PostgreSQL schemas, each migrated from empty, have the same tables, the same
//! columns (by name and by a coarse class of type: integer, real, text, blob, boolean), the
//! same primary keys and the same indexes (by name, table, columns and uniqueness), but for
//! the differences listed below with their reasons.
//!
//! Indexes are those made by `CREATE INDEX` on both sides: SQLite's `sqlite_autoindex_*` (a
//! primary key's or a `UNIQUE` constraint's) and PostgreSQL's indexes of a constraint are left
//! out alike; primary keys are compared on their own.
//!
//! The PostgreSQL side runs on a fresh database on the server `ZERTZ_TEST_POSTGRES` names
//! (`.ci/postgres.sh` starts one); without it the comparison says on stderr that it did not
//! run, and passes. `a_planted_difference_is_caught` checks the comparison itself, on both
//! dialects' shapes, without a database.

use std::collections::{BTreeMap, BTreeSet};

use sqlx::{Connection, Row};
use zertz_server::ratings::policy::POLICY;
use zertz_server::store::{PostgresStore, SqliteStore, scratch};

/// A column's type, coarsely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Integer,
    Real,
    Text,
    Blob,
    Boolean,
    Other,
}

/// A table: its columns and its primary key.
#[derive(Clone, Debug, Default, PartialEq)]
struct Table {
    columns: BTreeMap<String, Class>,
    primary_key: Vec<String>,
}

/// An index made by `CREATE INDEX`: its table, its columns in order (`<expr>` for an
/// expression) and whether it is unique.
#[derive(Clone, Debug, PartialEq)]
struct Index {
    table: String,
    columns: Vec<String>,
    unique: bool,
}

/// What the comparison sees of a schema.
#[derive(Clone, Debug, Default)]
struct Schema {
    tables: BTreeMap<String, Table>,
    indexes: BTreeMap<String, Index>,
}

/// The migrations' own table, which each dialect's migrator keeps.
const MIGRATIONS_TABLE: &str = "_sqlx_migrations";

/// The differences by design, each with why. A difference found and not listed fails the
/// test, and so does one listed and no longer found (the list stays true).
const KNOWN: &[(&str, &str)] = &[
    (
        "table recent_events_0 only in SQLite",
        "SQLite's writer keeps appended events here until it folds them into game_events \
         (store/sqlite/recent.rs); PostgreSQL writes them there at once",
    ),
    (
        "table recent_events_1 only in SQLite",
        "the second of SQLite's two recent-event tables, used in turn",
    ),
    (
        "table recent_owner only in SQLite",
        "which SQLite store holds the recent events in its memory",
    ),
    (
        "column game_events.turns only in PostgreSQL",
        "PostgreSQL's moves write a game's turns on their events, not on its row (migration \
         0027, docs/server.md \"The turns on the events\"); SQLite keeps them on the row",
    ),
    (
        "table nodes only in PostgreSQL",
        "several nodes share one database only on PostgreSQL (docs/server.md, \"Several \
         nodes\"); SQLite's migration 0014 is a placeholder that keeps the numbers alike",
    ),
    (
        "table game_leases only in PostgreSQL",
        "which node holds a game: several nodes only on PostgreSQL (migrations 0014, 0017)",
    ),
    (
        "index game_leases_by_node only in PostgreSQL",
        "an index of game_leases, which only PostgreSQL has",
    ),
    (
        "table pairing_queue only in PostgreSQL",
        "the quick-pairing queue shared by several nodes; on SQLite the one process keeps it \
         in memory (SQLite's migration 0015 is a placeholder)",
    ),
    (
        "index pairing_queue_account only in PostgreSQL",
        "an index of pairing_queue, which only PostgreSQL has",
    ),
    (
        "index pairing_queue_node only in PostgreSQL",
        "an index of pairing_queue, which only PostgreSQL has",
    ),
    (
        "primary key of explorer_games is [\"num\"] in SQLite, [\"id\"] in PostgreSQL",
        "both columns are unique in both (migration 0009): SQLite rebuilt the table with \
         `num INTEGER PRIMARY KEY` (its rowid, which `last_insert_rowid` gives a batch), \
         PostgreSQL kept `id` as the key and added `num` as a unique identity column",
    ),
];

/// The columns that are `BOOLEAN` in PostgreSQL and `INTEGER` 0 or 1 in SQLite, which has no
/// boolean type (both drivers read and write them as `bool`: see `store::sql`).
const BOOLEANS: &[(&str, &str)] = &[
    ("chat_lines", "guest"),
    ("games", "lobby"),
    ("player_games", "rated"),
    ("puzzle_attempts", "rated"),
    ("puzzle_attempts", "solved"),
    ("tournament_entries", "withdrawn"),
    ("tournament_entries", "gives_first"),
];

fn sqlite_class(declared: &str) -> Class {
    let t = declared.to_ascii_uppercase();
    if t.contains("INT") {
        Class::Integer
    } else if t.contains("CHAR") || t.contains("TEXT") || t.contains("CLOB") {
        Class::Text
    } else if t.contains("BLOB") {
        Class::Blob
    } else if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") {
        Class::Real
    } else if t.contains("BOOL") {
        Class::Boolean
    } else {
        Class::Other
    }
}

fn postgres_class(data_type: &str) -> Class {
    match data_type {
        "smallint" | "integer" | "bigint" => Class::Integer,
        "real" | "double precision" => Class::Real,
        "text" | "character varying" | "character" => Class::Text,
        "bytea" => Class::Blob,
        "boolean" => Class::Boolean,
        _ => Class::Other,
    }
}

/// The schema of the SQLite database at `path`.
async fn sqlite_schema(path: &str) -> Schema {
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite:{path}"))
        .await
        .expect("connect to the SQLite file");
    let mut schema = Schema::default();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         ORDER BY name",
    )
    .fetch_all(&mut conn)
    .await
    .expect("SQLite tables");
    for table in tables.into_iter().filter(|t| t != MIGRATIONS_TABLE) {
        let mut t = Table::default();
        let mut key = Vec::new();
        for row in sqlx::query("SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid")
            .bind(&table)
            .fetch_all(&mut conn)
            .await
            .expect("SQLite columns")
        {
            let name: String = row.get("name");
            let declared: String = row.get("type");
            let pk: i64 = row.get("pk");
            if pk > 0 {
                key.push((pk, name.clone()));
            }
            t.columns.insert(name, sqlite_class(&declared));
        }
        key.sort();
        t.primary_key = key.into_iter().map(|(_, name)| name).collect();
        // Only the indexes of CREATE INDEX (origin 'c'): not a key's or a UNIQUE constraint's.
        for index in sqlx::query(
            "SELECT name, \"unique\" AS is_unique FROM pragma_index_list(?) WHERE origin = 'c'",
        )
        .bind(&table)
        .fetch_all(&mut conn)
        .await
        .expect("SQLite indexes")
        {
            let name: String = index.get("name");
            let unique: i64 = index.get("is_unique");
            let columns =
                sqlx::query("SELECT name FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno")
                    .bind(&name)
                    .fetch_all(&mut conn)
                    .await
                    .expect("SQLite index columns")
                    .iter()
                    .map(|c| {
                        c.get::<Option<String>, _>("name")
                            .unwrap_or_else(|| "<expr>".into())
                    })
                    .collect();
            schema.indexes.insert(
                name,
                Index {
                    table: table.clone(),
                    columns,
                    unique: unique != 0,
                },
            );
        }
        schema.tables.insert(table, t);
    }
    schema
}

/// The schema of the PostgreSQL database at `url` (its `public` schema).
async fn postgres_schema(url: &str) -> Schema {
    let mut conn = sqlx::PgConnection::connect(url)
        .await
        .expect("connect to PostgreSQL");
    let mut schema = Schema::default();
    for row in sqlx::query(
        "SELECT c.table_name::text AS table_name, c.column_name::text AS column_name, \
         c.data_type::text AS data_type FROM information_schema.columns c \
         JOIN information_schema.tables t \
         ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'",
    )
    .fetch_all(&mut conn)
    .await
    .expect("PostgreSQL columns")
    {
        let table: String = row.get("table_name");
        if table == MIGRATIONS_TABLE {
            continue;
        }
        let data_type: String = row.get("data_type");
        schema
            .tables
            .entry(table)
            .or_default()
            .columns
            .insert(row.get("column_name"), postgres_class(&data_type));
    }
    for row in sqlx::query(
        "SELECT t.relname::text AS table_name, a.attname::text AS column_name \
         FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid \
         JOIN pg_namespace n ON n.oid = t.relnamespace \
         CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS u(attnum, n) \
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = u.attnum \
         WHERE k.contype = 'p' AND n.nspname = 'public' ORDER BY t.relname, u.n",
    )
    .fetch_all(&mut conn)
    .await
    .expect("PostgreSQL primary keys")
    {
        let table: String = row.get("table_name");
        if let Some(t) = schema.tables.get_mut(&table) {
            t.primary_key.push(row.get("column_name"));
        }
    }
    // Indexes that back no constraint (a primary key's, a UNIQUE constraint's): CREATE INDEX.
    for row in sqlx::query(
        "SELECT i.relname::text AS index_name, t.relname::text AS table_name, \
         x.indisunique AS is_unique, \
         ARRAY(SELECT COALESCE(a.attname::text, '<expr>') \
               FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n) \
               LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum \
               WHERE k.n <= x.indnkeyatts ORDER BY k.n) AS columns \
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid \
         JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace \
         WHERE n.nspname = 'public' \
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)",
    )
    .fetch_all(&mut conn)
    .await
    .expect("PostgreSQL indexes")
    {
        let table: String = row.get("table_name");
        if table == MIGRATIONS_TABLE {
            continue;
        }
        schema.indexes.insert(
            row.get("index_name"),
            Index {
                table,
                columns: row.get("columns"),
                unique: row.get("is_unique"),
            },
        );
    }
    schema
}

/// Every difference between the two schemas, one line each.
fn differences(sqlite: &Schema, postgres: &Schema) -> BTreeSet<String> {
    let booleans: BTreeSet<(&str, &str)> = BOOLEANS.iter().copied().collect();
    let mut found = BTreeSet::new();
    for (name, s) in &sqlite.tables {
        let Some(p) = postgres.tables.get(name) else {
            found.insert(format!("table {name} only in SQLite"));
            continue;
        };
        for (column, class) in &s.columns {
            match p.columns.get(column) {
                None => {
                    found.insert(format!("column {name}.{column} only in SQLite"));
                }
                Some(Class::Boolean)
                    if *class == Class::Integer
                        && booleans.contains(&(name.as_str(), column.as_str())) => {}
                Some(other) if other != class => {
                    found.insert(format!(
                        "column {name}.{column} is {class:?} in SQLite, {other:?} in PostgreSQL"
                    ));
                }
                Some(_) => {}
            }
        }
        for column in p.columns.keys().filter(|c| !s.columns.contains_key(*c)) {
            found.insert(format!("column {name}.{column} only in PostgreSQL"));
        }
        if s.primary_key != p.primary_key {
            found.insert(format!(
                "primary key of {name} is {:?} in SQLite, {:?} in PostgreSQL",
                s.primary_key, p.primary_key
            ));
        }
    }
    for name in postgres.tables.keys() {
        if !sqlite.tables.contains_key(name) {
            found.insert(format!("table {name} only in PostgreSQL"));
        }
    }
    for (name, s) in &sqlite.indexes {
        match postgres.indexes.get(name) {
            None => {
                found.insert(format!("index {name} only in SQLite"));
            }
            Some(p) if p != s => {
                found.insert(format!(
                    "index {name} is {s:?} in SQLite, {p:?} in PostgreSQL"
                ));
            }
            Some(_) => {}
        }
    }
    for name in postgres.indexes.keys() {
        if !sqlite.indexes.contains_key(name) {
            found.insert(format!("index {name} only in PostgreSQL"));
        }
    }
    found
}

/// Fails with every difference not known, and every known one no longer found.
fn check(found: &BTreeSet<String>) {
    let known: BTreeSet<String> = KNOWN.iter().map(|(d, _)| d.to_string()).collect();
    let unknown: Vec<&String> = found.difference(&known).collect();
    let gone: Vec<&String> = known.difference(found).collect();
    assert!(
        unknown.is_empty() && gone.is_empty(),
        "the SQLite and PostgreSQL schemas differ:\n{}\nknown differences no longer found \
         (take them off the list):\n{}",
        unknown
            .iter()
            .map(|d| format!("  {d}"))
            .collect::<Vec<_>>()
            .join("\n"),
        gone.iter()
            .map(|d| format!("  {d}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
}

/// Both schemas, migrated from empty.
async fn both() -> Option<(Schema, Schema)> {
    let database = scratch::create("schemas_agree").await?;
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("zertz.sqlite");
    let path = path.to_str().expect("UTF-8 temporary path").to_string();
    let store = SqliteStore::open(&path, POLICY).await.expect("open SQLite");
    store.close().await;
    let sqlite = sqlite_schema(&path).await;
    let (send, receive) = tokio::sync::oneshot::channel();
    database
        .run(|url| async move {
            let store = PostgresStore::open(&url, POLICY)
                .await
                .unwrap_or_else(|e| panic!("open PostgreSQL at {url}: {e}"));
            store.close().await;
            let _ = send.send(postgres_schema(&url).await);
        })
        .await;
    Some((sqlite, receive.await.expect("the PostgreSQL schema")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_and_postgres_schemas_agree() {
    let Some((sqlite, postgres)) = both().await else {
        return;
    };
    assert!(
        sqlite.tables.contains_key("games") && postgres.tables.contains_key("games"),
        "both schemas were read"
    );
    // The last migration's tables are there on both sides, so compared (0019, tournaments).
    for table in [
        "tournaments",
        "tournament_entries",
        "tournament_rounds",
        "tournament_pairings",
    ] {
        assert!(
            sqlite.tables.contains_key(table) && postgres.tables.contains_key(table),
            "table {table} in both schemas"
        );
    }
    check(&differences(&sqlite, &postgres));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planted_difference_is_caught() {
    // Without PostgreSQL, the SQLite schema against itself: the same comparison, minus the
    // differences by design.
    let (sqlite, postgres) = match both().await {
        Some(both) => both,
        None => {
            let dir = tempfile::tempdir().expect("temporary directory");
            let path = dir.path().join("zertz.sqlite");
            let path = path.to_str().expect("UTF-8 temporary path").to_string();
            let store = SqliteStore::open(&path, POLICY).await.expect("open SQLite");
            store.close().await;
            let s = sqlite_schema(&path).await;
            (s.clone(), s)
        }
    };
    let base = differences(&sqlite, &postgres);
    let planted = |what: &str, plant: &dyn Fn(&mut Schema)| {
        let mut changed = postgres.clone();
        plant(&mut changed);
        let found = differences(&sqlite, &changed);
        let new: Vec<&String> = found.difference(&base).collect();
        assert_eq!(new.len(), 1, "{what}: {new:?}");
        new[0].clone()
    };
    assert_eq!(
        planted("a column dropped", &|s| {
            s.tables
                .get_mut("games")
                .expect("games")
                .columns
                .remove("turns");
        }),
        "column games.turns only in SQLite"
    );
    assert_eq!(
        planted("a column's type", &|s| {
            s.tables
                .get_mut("games")
                .expect("games")
                .columns
                .insert("turns".into(), Class::Text);
        }),
        "column games.turns is Integer in SQLite, Text in PostgreSQL"
    );
    let index = sqlite.indexes.keys().next().expect("an index").clone();
    assert_eq!(
        planted("an index dropped", &|s| {
            s.indexes.remove(&index);
        }),
        format!("index {index} only in SQLite")
    );
    assert!(
        planted("an index's columns", &|s| {
            s.indexes
                .get_mut(&index)
                .expect("the index")
                .columns
                .reverse();
            s.indexes
                .get_mut(&index)
                .expect("the index")
                .columns
                .push("x".into());
        })
        .starts_with(&format!("index {index} is Index"))
    );
    assert_eq!(
        planted("a primary key", &|s| {
            s.tables
                .get_mut("games")
                .expect("games")
                .primary_key
                .push("match_id".into());
        }),
        "primary key of games is [\"id\"] in SQLite, [\"id\", \"match_id\"] in PostgreSQL"
    );
    // A table only in one: caught too, and `check` refuses it.
    let mut extra = postgres.clone();
    extra.tables.insert("planted".into(), Table::default());
    let found = differences(&sqlite, &extra);
    assert!(found.contains("table planted only in PostgreSQL"));
    assert!(std::panic::catch_unwind(|| check(&found)).is_err());
}
