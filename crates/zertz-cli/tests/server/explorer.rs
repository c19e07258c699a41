//! The opening explorer through the real binary, on SQLite and PostgreSQL: `zertz explorer
//! import` of part of the shared BoardSpace archive (two years of it, plus a broken record and
//! a broken archive), counts checked against an independent count made here by brute force
//! (canonical forms as the smallest position string over the board's symmetries, no hashing),
//! a second import that adds nothing, the API in the frame asked (a turned board gives the
//! same figures with turned moves), its refusals, and a game of the server added as it ends.
//!
//! The archive is test data kept outside the repository (`../shared/boardspace` or
//! `$ZERTZ_BOARDSPACE`); without it the archive tests have nothing to check and say so.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use zertz_testkit::on_sqlite_and_postgres;

use crate::common::play::Rng;
use crate::common::server::{Db, Server, string};
use serde_json::{Value, json};
use zertz::boardspace::{Ending, RecordedResult, import};
use zertz::notation::official;
use zertz::symmetry::{Frame, map_move};
use zertz::{Move, Player, Position};

/// Plies of each game counted by the independent count.
const PLIES: usize = 6;

fn archive() -> Option<PathBuf> {
    let dir = match std::env::var_os("ZERTZ_BOARDSPACE") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/boardspace"),
    };
    dir.is_dir().then_some(dir)
}

/// The part of the archive the tests import: two years of zips (about 1,700 games).
fn test_paths(dir: &Path) -> Vec<PathBuf> {
    vec![dir.join("archive-2016"), dir.join("archive-2019")]
}

/// Every record text under `paths` (zip entries and `.sgf` files), read here with the zip
/// crate, not with the binary's reader.
fn records(paths: &[PathBuf]) -> Vec<String> {
    let mut out = Vec::new();
    for path in paths {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .expect("archive folder")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.extension().is_some_and(|e| e == "zip") {
                let mut z = zip::ZipArchive::new(std::fs::File::open(&p).unwrap()).unwrap();
                for i in 0..z.len() {
                    let mut f = z.by_index(i).unwrap();
                    if f.name().to_ascii_lowercase().ends_with(".sgf") {
                        let mut bytes = Vec::new();
                        f.read_to_end(&mut bytes).unwrap();
                        out.push(String::from_utf8_lossy(&bytes).into_owned());
                    }
                }
            }
        }
    }
    out
}

/// A position's canonical form by brute force, and the symmetries that reach it.
fn canonical(p: &Position) -> (String, Vec<usize>) {
    let images: Vec<String> = p
        .layout()
        .symmetries()
        .iter()
        .map(|s| p.transformed(s).to_string())
        .collect();
    let best = images.iter().min().cloned().unwrap_or_default();
    let reach = (0..images.len()).filter(|&k| images[k] == best).collect();
    (best, reach)
}

/// A move's canonical form: the smallest official text of its images in the canonical form
/// `form`, reached from `p` by the symmetries `reach` (as [`canonical`] gives them).
fn canonical_move_in(p: &Position, reach: &[usize], m: &Move) -> String {
    let syms = p.layout().symmetries();
    reach
        .iter()
        .map(|&k| {
            let image = p.transformed(&syms[k]);
            official::move_text(&image, &map_move(p.layout(), &syms[k], m))
        })
        .min()
        .unwrap_or_default()
}

/// A position's canonical form and a move's canonical form in it.
fn canonical_move(p: &Position, m: &Move) -> (String, String) {
    let (form, reach) = canonical(p);
    let text = canonical_move_in(p, &reach, m);
    (form, text)
}

/// Games, first-player wins, second-player wins, draws.
type Counts = [i64; 4];

/// The independent count: (canonical position, canonical move) → counts, over every move of
/// every record that replays, each pair once per game; and the canonical positions of the
/// first [`PLIES`] moves (those the test asks the API about).
fn independent_count(texts: &[String]) -> (HashMap<(String, String), Counts>, HashSet<String>) {
    let mut out: HashMap<(String, String), Counts> = HashMap::new();
    let mut asked = HashSet::new();
    let mut seen_records = HashSet::new();
    for text in texts {
        if !seen_records.insert(text.trim().to_string()) {
            continue;
        }
        let Ok(r) = import(text) else { continue };
        let winner = match r.ending {
            Ending::Rules(o) => o.winner().map(Some).unwrap_or(None),
            Ending::Resigned(bs) => Some(r.player_of(1 - bs)),
            Ending::WinOnTime(bs) => Some(r.player_of(bs)),
            Ending::Unfinished => match r.result {
                RecordedResult::Winner(bs) => Some(r.player_of(bs)),
                _ => None,
            },
        };
        let drawn = match r.ending {
            Ending::Rules(o) => o.winner().is_none(),
            Ending::Unfinished => r.result == RecordedResult::Draw,
            _ => false,
        };
        let result = match (winner, drawn) {
            (Some(Player::One), _) => [1, 1, 0, 0],
            (Some(Player::Two), _) => [1, 0, 1, 0],
            (None, true) => [1, 0, 0, 1],
            (None, false) => [1, 0, 0, 0],
        };
        let mut this_game = HashSet::new();
        let positions = r.game.positions();
        for (i, turn) in r.game.turns().iter().enumerate() {
            let zertz::Turn::Move(m) = turn else { continue };
            let key = canonical_move(&positions[i], m);
            if i < PLIES {
                asked.insert(key.0.clone());
            }
            if this_game.insert(key.clone()) {
                let c = out.entry(key).or_default();
                for k in 0..4 {
                    c[k] += result[k];
                }
            }
        }
    }
    (out, asked)
}

/// `text` written into a query string (file names may hold `+`, `&` or spaces).
fn query_text(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Runs `zertz explorer import --json` and returns its summary.
fn run_import(db: &Db, paths: &[PathBuf]) -> Value {
    let db_arg = match db {
        Db::Sqlite(p) => p.display().to_string(),
        Db::Postgres(url) => url.clone(),
    };
    let output = Command::new(env!("CARGO_BIN_EXE_zertz"))
        .args([
            "explorer", "import", "--json", "--batch", "700", "--db", &db_arg,
        ])
        .args(paths)
        .output()
        .expect("run zertz explorer import");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "import failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("no JSON ({e}): {stdout}"))
}

async fn explore(server: &Server, position: &str, extra: &str) -> (u16, Value) {
    let path = format!(
        "/api/explorer?position={}{extra}",
        position.replace(' ', "%20").replace('/', "%2F")
    );
    server.get(&path, None).await
}

async fn import_and_query_agree_with_an_independent_count(db: Db) {
    let Some(dir) = archive() else {
        eprintln!("no BoardSpace archive at ../shared/boardspace or $ZERTZ_BOARDSPACE");
        return;
    };
    let paths = test_paths(&dir);
    let texts = records(&paths);
    assert!(texts.len() > 1000, "{} records", texts.len());

    // A broken record and a broken archive next to the real ones.
    let junk = tempfile::tempdir().unwrap();
    std::fs::write(
        junk.path().join("broken.sgf"),
        "(;\nGM[22]VV[2]\nSU[Zertz]\nP0[id \"a\"]\nP1[id \"b\"]\n; P0[1 RtoB 2 0 Q 9]\n)\n",
    )
    .unwrap();
    std::fs::write(junk.path().join("broken.zip"), b"not a zip at all").unwrap();
    let mut all_paths = paths.clone();
    all_paths.push(junk.path().to_path_buf());

    let first = run_import(&db, &all_paths);
    let added = first["added"].as_u64().unwrap();
    let broken: Vec<String> = first["broken"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| format!("{} {}", b["file"], b["reason"]))
        .collect();
    assert!(
        broken
            .iter()
            .any(|b| b.contains("broken.sgf") && b.contains("Q")),
        "{broken:?}"
    );
    assert!(
        broken
            .iter()
            .any(|b| b.contains("broken.zip") && b.contains("zip")),
        "{broken:?}"
    );
    let replayable: HashSet<&str> = texts
        .iter()
        .filter(|t| import(t).is_ok())
        .map(|t| t.trim())
        .collect();
    assert_eq!(added as usize, replayable.len(), "{first}");

    // Importing again adds nothing: every record that replays is already there.
    let second = run_import(&db, &all_paths);
    assert_eq!(second["added"], 0, "{second}");
    let replaying = texts.iter().filter(|t| import(t).is_ok()).count();
    assert_eq!(
        second["already_stored"].as_u64().unwrap() as usize,
        replaying,
        "{second}"
    );

    let (expected, asked_forms) = independent_count(&texts);
    let mut by_position: HashMap<&str, HashMap<&str, Counts>> = HashMap::new();
    for ((p, m), c) in &expected {
        if asked_forms.contains(p) {
            by_position.entry(p).or_default().insert(m, *c);
        }
    }

    // Thousands of questions: without the per-address limit of HTTP requests.
    let server = Server::start_args(&db, 100, &["--http-rate", "0"]);
    // Every position of the first plies, asked once: every other one as it is, the rest
    // turned by one of the other symmetries in turn (each query costs the unoptimised test
    // server a few milliseconds, and there are thousands).
    let mut checked = 0;
    let mut turned = 0;
    for (form, moves) in by_position.iter() {
        let p: Position = form.parse().unwrap();
        let syms = p.layout().symmetries();
        let asked = if checked % 2 == 0 {
            p
        } else {
            turned += 1;
            p.transformed(&syms[1 + (checked / 2) % (syms.len() - 1)])
        };
        {
            let (status, body) = explore(&server, &asked.to_string(), "&source=boardspace").await;
            assert_eq!(status, 200, "{body}");
            let answer = body["moves"].as_array().unwrap();
            let mut got: HashMap<String, Counts> = HashMap::new();
            // The position asked reaches the same canonical form (once per position, not per
            // move: the test's own code is not optimised).
            let (form2, reach) = canonical(&asked);
            assert_eq!(&form2, form);
            for m in answer {
                let mv = official::parse(&asked, m["move"].as_str().unwrap())
                    .unwrap_or_else(|e| panic!("{asked}: {m}: {e}"));
                let text = canonical_move_in(&asked, &reach, &mv);
                let c = [
                    &m["games"],
                    &m["first_wins"],
                    &m["second_wins"],
                    &m["draws"],
                ]
                .map(|v| v.as_i64().unwrap());
                assert!(got.insert(text, c).is_none(), "one entry per move: {body}");
            }
            let want: HashMap<String, Counts> =
                moves.iter().map(|(m, c)| (m.to_string(), *c)).collect();
            assert_eq!(got, want, "{asked}");
            let total: i64 = answer.iter().map(|m| m["games"].as_i64().unwrap()).sum();
            assert_eq!(body["games"], total);
            let games: Vec<i64> = answer
                .iter()
                .map(|m| m["games"].as_i64().unwrap())
                .collect();
            assert!(games.windows(2).all(|w| w[0] >= w[1]), "sorted: {games:?}");
        }
        checked += 1;
    }
    assert!(checked > 1000, "{checked} positions");
    assert!(turned > 500, "{turned} positions asked turned");

    // The start: the counts are exact, examples open as records, filters apply.
    let start = Position::standard().to_string();
    let (_, body) = explore(&server, &start, "").await;
    let top = &body["moves"][0];
    let example = &top["examples"][0];
    let id = string(&example["id"]);
    assert!(id.starts_with("bs-"), "{example}");
    assert_eq!(example["source"], "boardspace");
    let (status, game) = server.get(&format!("/api/explorer/games/{id}"), None).await;
    assert_eq!(status, 200, "{game}");
    let record = zertz::record::Record::parse(game["record"].as_str().unwrap()).unwrap();
    let first_move = official::move_text(
        record.game.start(),
        match &record.game.turns()[0] {
            zertz::Turn::Move(m) => m,
            other => panic!("{other:?}"),
        },
    );
    let frame = Frame::of(record.game.start());
    let shown = official::parse(&Position::standard(), top["move"].as_str().unwrap()).unwrap();
    let played = official::parse(record.game.start(), &first_move).unwrap();
    assert_eq!(frame.to_canonical(&shown), frame.to_canonical(&played));
    let (_, none) = explore(&server, &start, "&source=server").await;
    assert_eq!(none["games"], 0, "{none}");
    let (_, rated) = explore(&server, &start, "&min_rating=1500").await;
    assert_eq!(
        rated["games"], 0,
        "BoardSpace records carry no ratings: {rated}"
    );
    let (status, with_eval) = explore(&server, &start, "&eval=true").await;
    assert_eq!(status, 200);
    assert_eq!(with_eval["games"], body["games"]);

    // A puzzle's source names its game by file name: every puzzle of the project's set cut from
    // a game of the imported years finds it, and the game after `move_number - 1` moves is the
    // puzzle's position (what the puzzle page's link opens on the analysis board).
    let set = zertz_engine::puzzles::PuzzleSet::from_json(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/puzzles.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let mut found = 0;
    for puzzle in &set.puzzles {
        let name = &puzzle.source.game;
        if !(name.contains("-2016-") || name.contains("-2019-")) {
            continue;
        }
        let (status, game) = server
            .get(
                &format!("/api/explorer/games?name={}", query_text(name)),
                None,
            )
            .await;
        assert_eq!(status, 200, "{name}: {game}");
        let record = zertz::record::Record::parse(game["record"].as_str().unwrap()).unwrap();
        let at = puzzle.source.move_number as usize - 1;
        assert_eq!(
            record.game.positions()[at].to_string(),
            puzzle.position,
            "{}: {name}, move {}",
            puzzle.id,
            puzzle.source.move_number
        );
        found += 1;
    }
    assert!(found > 100, "{found} puzzles from the imported years");
    let (status, err) = server
        .get(
            "/api/explorer/games?name=Z-nobody-2001-01-01-0000.sgf",
            None,
        )
        .await;
    assert_eq!(status, 404, "{err}");
    assert!(err["error"].as_str().unwrap().contains("Z-nobody"), "{err}");
    let (status, err) = server
        .get("/api/explorer/games?source=x&name=a", None)
        .await;
    assert_eq!(status, 400, "{err}");
    let (status, err) = server.get("/api/explorer/games", None).await;
    assert_eq!(status, 400, "{err}");
    assert!(err["error"].as_str().unwrap().contains("name"), "{err}");

    // Refusals.
    let (status, err) = explore(&server, "37 standard -..x", "").await;
    assert_eq!(status, 400, "{err}");
    assert!(
        err["error"].as_str().unwrap().contains("position string"),
        "{err}"
    );
    let (status, err) = explore(&server, &start, "&source=lichess").await;
    assert_eq!(status, 400);
    assert!(err["error"].as_str().unwrap().contains("lichess"), "{err}");
    let (status, err) = server.get("/api/explorer/games/bs-nothing", None).await;
    assert_eq!(status, 404, "{err}");
}

async fn finished_server_games_are_added(db: Db) {
    let server = Server::start(&db);
    let (id, [one, invite]) = server.invitation(json!({})).await;
    let two = string(&server.join(&id, &invite, "Bob").await["token"]);
    let tokens = [one.clone(), two];
    let played = server.play_random(&id, &tokens, &mut Rng::new(7), 4).await;
    let (status, body) = server.act(&id, &one, json!({"type": "resign"})).await;
    assert!(status < 300, "{body}");
    let start = Position::standard();
    let mut answer = Value::Null;
    for _ in 0..100 {
        answer = explore(&server, &start.to_string(), "&source=server")
            .await
            .1;
        if answer["games"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(answer["games"], 1, "{answer}");
    let first = official::parse(&start, &played[0]).unwrap();
    let shown = official::parse(&start, answer["moves"][0]["move"].as_str().unwrap()).unwrap();
    let frame = Frame::of(&start);
    assert_eq!(frame.to_canonical(&first), frame.to_canonical(&shown));
    // Alice resigned: player two won.
    assert_eq!(answer["moves"][0]["second_wins"], 1, "{answer}");
    let (status, game) = server
        .get(&format!("/api/explorer/games/server-{id}"), None)
        .await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["players"], json!(["Alice", "Bob"]));
    assert_eq!(game["result"], "0-1");
    // After the second move: one game, through the position the game reached.
    let after: Position = played[..2].iter().fold(start, |p, t| {
        p.play(&official::parse(&p, t).unwrap()).unwrap()
    });
    let (_, answer) = explore(&server, &after.to_string(), "&source=all").await;
    assert_eq!(answer["games"], 1, "{answer}");
}

/// The games of an explorer answer (-1 when it is not one).
fn server_games(answer: &Value) -> i64 {
    answer["games"].as_i64().unwrap_or(-1)
}

/// Runs `sql` on the test's database directly (what a stop at the wrong moment leaves), on a
/// thread and runtime of its own (sqlx's connection futures are not `Send` enough for the
/// tests' shared runner).
fn execute(db: &Db, sql: &str) {
    let (db, sql) = (db.clone(), sql.to_string());
    std::thread::spawn(move || {
        use sqlx::Connection;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            match db {
                Db::Sqlite(path) => {
                    let url = format!("sqlite://{}", path.display());
                    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
                    sqlx::raw_sql(&sql).execute(&mut conn).await.unwrap();
                }
                Db::Postgres(url) => {
                    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
                    sqlx::raw_sql(&sql).execute(&mut conn).await.unwrap();
                }
            }
        });
    })
    .join()
    .unwrap();
}

async fn a_game_the_explorer_missed_is_added_at_the_next_start(db: Db) {
    let mut server = Server::start(&db);
    let (id, [one, invite]) = server.invitation(json!({})).await;
    let two = string(&server.join(&id, &invite, "Bob").await["token"]);
    let tokens = [one.clone(), two];
    server.play_random(&id, &tokens, &mut Rng::new(11), 6).await;
    let (status, body) = server.act(&id, &one, json!({"type": "resign"})).await;
    assert!(status < 300, "{body}");
    let start = Position::standard().to_string();
    let mut answer = Value::Null;
    for _ in 0..100 {
        answer = explore(&server, &start, "&source=server").await.1;
        if server_games(&answer) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(server_games(&answer), 1, "{answer}");
    server.kill();
    // As if the process had stopped between the game's end and the explorer's write.
    // (The database holds this one game: every bucket of leaves is its.)
    execute(
        &db,
        "DELETE FROM explorer_moves WHERE source = 'server'; \
         DELETE FROM explorer_leaf_buckets; \
         DELETE FROM explorer_games WHERE source = 'server';",
    );
    let server = Server::start(&db);
    let mut answer = Value::Null;
    for _ in 0..200 {
        answer = explore(&server, &start, "&source=server").await.1;
        if server_games(&answer) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(server_games(&answer), 1, "added again at start: {answer}");
    assert_eq!(
        answer["moves"][0]["examples"][0]["id"],
        format!("server-{id}")
    );
    // The start's check says what it did once it is done (just after the write seen above).
    for _ in 0..100 {
        if server.log().contains("1 finished games added at start") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        server.log().contains("1 finished games added at start"),
        "{}",
        server.log()
    );
}

on_sqlite_and_postgres!(
    import_and_query_agree_with_an_independent_count,
    finished_server_games_are_added,
    a_game_the_explorer_missed_is_added_at_the_next_start,
);
