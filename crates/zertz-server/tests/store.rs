//! The storage backends against one set of checks, each written once over `&dyn Store`.
//!
//! Every check runs twice: `sqlite::NAME` on a fresh database file in a temporary directory,
//! and `postgres::NAME` on a fresh database created for it on the server that
//! `ZERTZ_TEST_POSTGRES` names (a URL whose role may create databases; `.ci/postgres.sh` starts
//! one), dropped afterwards. Without `ZERTZ_TEST_POSTGRES` the PostgreSQL checks say on stderr
//! that they did not run, and pass.
//!
//! `sqlite_survives_kill` runs this test binary again as a child that commits and is then
//! killed with SIGKILL, and checks that what it committed is there.

use std::future::Future;
use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;
use std::time::Duration;

use sqlx::Connection;

use zertz_server::accounts::store::{AccountRow, SessionRow};
use zertz_server::app::store::Store;
use zertz_server::explorer::store::{ExplorerBatch, ExplorerGame, Leaf, MoveRow};
use zertz_server::ratings::policy::POLICY;
use zertz_server::ratings::store::GameFilter;
use zertz_server::store::holds::{CountsWhile, Full, Holder};
use zertz_server::store::{
    Cursor, EventRow, GameAppend, GameEnd, GameQuery, GameRow, GameStore, GameSummary, LeaseHolder,
    MatchRow, MatchStep, PostgresStore, RowUpdate, SqliteStore, StoreError, scratch,
};
use zertz_server::tournaments::model::{
    EntryRow, Joined, PairingRow, Played, TournamentRow, Withdrawn, berserk,
};

// ---------------------------------------------------------------------------------------------
// Harness

/// A store under test, and how to open the same data again.
struct Env {
    store: Arc<dyn Store>,
    /// What `store::open` takes to open the same database again.
    url: String,
}

impl Env {
    fn store(&self) -> &dyn Store {
        &*self.store
    }

    /// A second, independent store on the same data (new connections, as after a restart).
    async fn reopen(&self) -> Box<dyn Store> {
        zertz_server::app::store::open(&self.url)
            .await
            .expect("reopen the store")
    }
}

/// Runs `check` on a fresh SQLite file.
async fn on_sqlite<F, Fut>(check: F)
where
    F: FnOnce(Env) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("zertz.sqlite");
    let path = path.to_str().expect("UTF-8 temporary path");
    let store = SqliteStore::open(path, POLICY).await.expect("open SQLite");
    check(Env {
        store: Arc::new(store),
        url: format!("sqlite:{path}"),
    })
    .await;
}

/// Runs `check` on a fresh PostgreSQL database, or says it did not.
async fn on_postgres<F, Fut>(name: &str, check: F)
where
    F: FnOnce(Env) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(database) = scratch::create(name).await else {
        return;
    };
    database
        .run(|url| async move {
            let store = PostgresStore::open(&url, POLICY)
                .await
                .unwrap_or_else(|e| panic!("open PostgreSQL at {url}: {e}"));
            check(Env {
                store: Arc::new(store),
                url,
            })
            .await;
        })
        .await;
}

/// Each check, once on SQLite and once on PostgreSQL.
macro_rules! store_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::on_sqlite(|env| async move { super::$name(&env).await }).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::on_postgres(stringify!($name), |env| async move {
                        super::$name(&env).await
                    })
                    .await;
                }
            )*
        }
    };
}

store_tests!(
    create_and_load,
    create_conflicts,
    append_consecutive,
    append_conflicts_write_nothing,
    row_updates,
    list_games_filter_order_limit,
    matches_save_load_upsert_list,
    not_found,
    durable_across_reopen,
    concurrent_appends_different_games,
    concurrent_appends_same_game,
    match_step_all_or_nothing,
    accounts_and_sessions,
    two_nodes_take_events_from_one_allowance,
    two_nodes_hold_places_from_one_quota,
    a_game_end_is_written_with_its_result,
    games_are_found_by_player_board_rules_and_result,
    explorer_leaves_and_rows_sum_per_position,
    lessons_done_by_an_account,
    a_round_is_stored_once,
    an_arena_takes_late_entries_with_the_next_number,
);

// ---------------------------------------------------------------------------------------------
// Data

fn game(id: &str, status: &str, created_ms: i64) -> GameRow {
    GameRow {
        id: id.to_owned(),
        match_id: None,
        created_ms,
        settings: format!(r#"{{"variant":"standard","game":"{id}"}}"#),
        tokens: [Some(format!("tok-{id}-1")), None],
        invites: [None, Some(format!("inv-{id}-2"))],
        lobby: status == "open",
        accounts: [None, None],
        names: [Some(format!("Ann of {id}")), None],
        board: "37".into(),
        rules: "standard".into(),
        status: status.to_owned(),
        result: None,
        updated_ms: created_ms,
    }
}

fn event(version: i64, at_ms: i64) -> EventRow {
    EventRow {
        version,
        at_ms,
        payload: format!(r#"{{"type":"move","n":{version}}}"#),
    }
}

fn events(versions: std::ops::RangeInclusive<i64>, at_ms: i64) -> Vec<EventRow> {
    versions.map(|v| event(v, at_ms + v)).collect()
}

fn versions(events: &[EventRow]) -> Vec<i64> {
    events.iter().map(|e| e.version).collect()
}

fn ids(games: &[GameSummary]) -> Vec<&str> {
    games.iter().map(|g| g.id.as_str()).collect()
}

fn match_ids(matches: &[MatchRow]) -> Vec<&str> {
    matches.iter().map(|m| m.id.as_str()).collect()
}

fn assert_conflict(result: Result<(), StoreError>, game: &str, version: i64) {
    match result {
        Err(StoreError::Conflict {
            game: g,
            version: v,
        }) => {
            assert_eq!(
                (g.as_str(), v),
                (game, version),
                "conflict on the wrong version"
            );
        }
        other => panic!("expected a conflict on version {version} of {game}, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Checks

async fn create_and_load(env: &Env) {
    let s = env.store();
    let mut g = game("g1", "open", 1_000);
    g.match_id = Some("m1".into());
    g.settings = r#"{"name":"ZÈRTZ ♟ “quoted”","clock":{"kind":"unlimited"}}"#.into();
    let evs = vec![
        event(1, 1_000),
        EventRow {
            version: 2,
            at_ms: 1_001,
            payload: r#"{"text":"é\n\"\\"}"#.into(),
        },
    ];
    s.create_game(&g, &evs).await.unwrap();
    let (row, loaded) = s.load_game("g1").await.unwrap();
    assert_eq!(row, g);
    assert_eq!(loaded, evs);

    // A second game with every optional field set the other way.
    let mut h = game("g2", "finished", 2_000);
    h.tokens = [None, Some("seat-two".into())];
    h.result = Some("1/2-1/2".into());
    h.updated_ms = 2_500;
    s.create_game(&h, &[event(1, 2_000)]).await.unwrap();
    assert_eq!(s.load_game("g2").await.unwrap(), (h, vec![event(1, 2_000)]));
    assert_eq!(
        s.load_game("g1").await.unwrap().0,
        g,
        "the first game is untouched"
    );
}

async fn create_conflicts(env: &Env) {
    let s = env.store();
    let g = game("g1", "open", 1_000);
    s.create_game(&g, &events(1..=2, 1_000)).await.unwrap();

    // The id is taken: its version 1 exists. Nothing of the second attempt is written.
    let mut other = game("g1", "live", 5_000);
    other.tokens = [Some("intruder".into()), Some("intruder".into())];
    assert_conflict(s.create_game(&other, &events(1..=3, 5_000)).await, "g1", 1);
    assert_eq!(s.load_game("g1").await.unwrap(), (g, events(1..=2, 1_000)));

    // A log must start at version 1 and go on without gaps.
    let h = game("g2", "open", 1_000);
    assert_conflict(s.create_game(&h, &events(2..=3, 1_000)).await, "g2", 2);
    assert_conflict(
        s.create_game(&h, &[event(1, 1), event(3, 3)]).await,
        "g2",
        3,
    );
    assert!(matches!(
        s.load_game("g2").await,
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(ids(&s.list_games(None, None, 10).await.unwrap()), ["g1"]);
}

async fn append_consecutive(env: &Env) {
    let s = env.store();
    let g = game("g1", "live", 1_000);
    s.create_game(&g, &[event(1, 1_000)]).await.unwrap();
    s.append("g1", &[event(2, 2_000)], &RowUpdate::default())
        .await
        .unwrap();
    let batch = vec![event(3, 3_000), event(4, 3_001), event(5, 3_002)];
    s.append("g1", &batch, &RowUpdate::default()).await.unwrap();

    let (row, evs) = s.load_game("g1").await.unwrap();
    assert_eq!(versions(&evs), [1, 2, 3, 4, 5]);
    assert_eq!(evs[1], event(2, 2_000));
    assert_eq!(&evs[2..], &batch[..]);
    // Appends that change no listed column (moves) leave `updated_ms` where it was: a game
    // does not move in the listings, nor in their indexes, at every move.
    assert_eq!(row, g, "updated_ms is the last change of a listed column");
    let turns = RowUpdate {
        turns: Some(4),
        ..RowUpdate::default()
    };
    s.append("g1", &[event(6, 4_000)], &turns).await.unwrap();
    let summary = s.list_games(None, None, 10).await.unwrap();
    assert_eq!(
        (summary[0].turns, summary[0].updated_ms),
        (4, 1_000),
        "a move writes the turns and leaves updated_ms"
    );
    // A change of status is a listed change: updated_ms is its last event's time.
    let end = RowUpdate {
        status: Some("finished".into()),
        result: Some("1-0".into()),
        turns: Some(5),
        ..RowUpdate::default()
    };
    s.append("g1", &[event(7, 5_000), event(8, 5_001)], &end)
        .await
        .unwrap();
    let (row, _) = s.load_game("g1").await.unwrap();
    assert_eq!((row.status.as_str(), row.updated_ms), ("finished", 5_001));
}

async fn append_conflicts_write_nothing(env: &Env) {
    let s = env.store();
    let g = game("g1", "live", 1_000);
    s.create_game(&g, &events(1..=3, 1_000)).await.unwrap();
    let before = s.load_game("g1").await.unwrap();
    let update = RowUpdate {
        status: Some("finished".into()),
        result: Some("0-1".into()),
        seat: Some((1, "late-token".into())),
        seat_account: None,
        seat_name: None,
        turns: None,
        ended: None,
    };

    // Taken versions, a gap before the batch, a gap inside it, a repeat inside it.
    assert_conflict(s.append("g1", &[event(3, 9_000)], &update).await, "g1", 3);
    assert_conflict(s.append("g1", &[event(1, 9_000)], &update).await, "g1", 1);
    assert_conflict(
        s.append("g1", &events(3..=5, 9_000), &update).await,
        "g1",
        3,
    );
    assert_conflict(s.append("g1", &[event(5, 9_000)], &update).await, "g1", 5);
    assert_conflict(
        s.append("g1", &[event(4, 9_000), event(6, 9_001)], &update)
            .await,
        "g1",
        6,
    );
    assert_conflict(
        s.append("g1", &[event(4, 9_000), event(4, 9_001)], &update)
            .await,
        "g1",
        4,
    );
    assert_eq!(
        s.load_game("g1").await.unwrap(),
        before,
        "no failed append left a trace"
    );

    // The next version still goes in, with its update.
    s.append("g1", &[event(4, 9_500)], &update).await.unwrap();
    let (row, evs) = s.load_game("g1").await.unwrap();
    assert_eq!(versions(&evs), [1, 2, 3, 4]);
    assert_eq!(evs[3], event(4, 9_500));
    assert_eq!(row.status, "finished");
    assert_eq!(row.result.as_deref(), Some("0-1"));
    assert_eq!(row.tokens[1].as_deref(), Some("late-token"));
    assert_eq!(row.updated_ms, 9_500);
}

async fn row_updates(env: &Env) {
    let s = env.store();
    let g = game("g1", "open", 1_000);
    s.create_game(&g, &[event(1, 1_000)]).await.unwrap();

    // The second player sits down: the game goes live.
    let sit = RowUpdate {
        status: Some("live".into()),
        result: None,
        seat: Some((1, "t2".into())),
        seat_account: None,
        seat_name: None,
        turns: None,
        ended: None,
    };
    s.append("g1", &[event(2, 2_000)], &sit).await.unwrap();
    let (row, _) = s.load_game("g1").await.unwrap();
    assert_eq!(row.tokens, [Some("tok-g1-1".into()), Some("t2".into())]);
    assert_eq!(
        (row.status.as_str(), row.result.as_deref(), row.updated_ms),
        ("live", None, 2_000)
    );

    // A plain move changes nothing the row lists, not even the time.
    s.append("g1", &[event(3, 3_000)], &RowUpdate::default())
        .await
        .unwrap();
    let (after_move, _) = s.load_game("g1").await.unwrap();
    assert_eq!(after_move, row);

    // Seat 0 gets a new token; seat 1 keeps its own.
    let reseat = RowUpdate {
        seat: Some((0, "t1-new".into())),
        ..RowUpdate::default()
    };
    s.append("g1", &[event(4, 4_000)], &reseat).await.unwrap();
    let (row, _) = s.load_game("g1").await.unwrap();
    assert_eq!(row.tokens, [Some("t1-new".into()), Some("t2".into())]);
    assert_eq!(row.status, "live");

    // A seat that does not exist is refused, and nothing is written.
    let bad = RowUpdate {
        seat: Some((2, "nobody".into())),
        ..RowUpdate::default()
    };
    let err = s.append("g1", &[event(5, 5_000)], &bad).await.unwrap_err();
    assert!(
        !matches!(err, StoreError::Conflict { .. } | StoreError::NotFound(_)),
        "{err:?}"
    );
    assert_eq!(versions(&s.load_game("g1").await.unwrap().1), [1, 2, 3, 4]);

    // The game ends.
    let end = RowUpdate {
        status: Some("finished".into()),
        result: Some("1-0".into()),
        seat: None,
        seat_account: None,
        seat_name: None,
        turns: None,
        ended: None,
    };
    s.append("g1", &[event(5, 5_000), event(6, 5_000)], &end)
        .await
        .unwrap();
    let (row, evs) = s.load_game("g1").await.unwrap();
    assert_eq!(versions(&evs), [1, 2, 3, 4, 5, 6]);
    assert_eq!(
        row,
        GameRow {
            tokens: [Some("t1-new".into()), Some("t2".into())],
            status: "finished".into(),
            result: Some("1-0".into()),
            updated_ms: 5_000,
            ..g
        }
    );
}

async fn list_games_filter_order_limit(env: &Env) {
    let s = env.store();
    assert!(s.list_games(None, None, 10).await.unwrap().is_empty());
    for (id, status, t) in [
        ("a", "open", 100),
        ("b", "live", 300),
        ("c", "finished", 200),
        ("d", "live", 500),
        ("e", "open", 400),
    ] {
        let mut g = game(id, status, t);
        if id == "c" {
            g.result = Some("0-1".into());
            g.match_id = Some("m9".into());
        }
        s.create_game(&g, &[event(1, t)]).await.unwrap();
    }
    // A seat taken moves a game to the front; a move after it does not move it again.
    let sit = RowUpdate {
        seat: Some((1, "t2".into())),
        ..RowUpdate::default()
    };
    s.append("a", &[event(2, 600)], &sit).await.unwrap();
    s.append("b", &[event(2, 700)], &RowUpdate::default())
        .await
        .unwrap();

    let all = s.list_games(None, None, 10).await.unwrap();
    assert_eq!(ids(&all), ["a", "d", "e", "b", "c"]);
    assert_eq!(
        all[4],
        GameSummary {
            id: "c".into(),
            match_id: Some("m9".into()),
            settings: game("c", "", 0).settings,
            status: "finished".into(),
            result: Some("0-1".into()),
            created_ms: 200,
            updated_ms: 200,
            accounts: [None, None],
            names: [Some("Ann of c".into()), None],
            board: Some("37".into()),
            rules: Some("standard".into()),
            turns: 0,
        }
    );
    assert_eq!((all[0].created_ms, all[0].updated_ms), (100, 600));

    assert_eq!(
        ids(&s.list_games(Some("live"), None, 10).await.unwrap()),
        ["d", "b"]
    );
    assert_eq!(
        ids(&s.list_games(Some("open"), None, 10).await.unwrap()),
        ["a", "e"]
    );
    assert_eq!(
        ids(&s.list_games(Some("finished"), None, 10).await.unwrap()),
        ["c"]
    );
    assert_eq!(ids(&s.list_games(None, None, 2).await.unwrap()), ["a", "d"]);
    assert_eq!(
        ids(&s.list_games(Some("open"), None, 1).await.unwrap()),
        ["a"]
    );
    assert!(
        s.list_games(Some("abandoned"), None, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(s.list_games(None, None, 0).await.unwrap().is_empty());
    assert!(
        s.list_games(None, None, -1).await.unwrap().is_empty(),
        "a negative limit is no rows"
    );

    // Pages: each starts after the last game of the one before, and together they list every
    // game once, in order.
    let page = |before: Option<Cursor>, status: Option<&'static str>| {
        let before = before.clone();
        async move { s.list_games(status, before.as_ref(), 2).await.unwrap() }
    };
    let first = page(None, None).await;
    assert_eq!(ids(&first), ["a", "d"]);
    let second = page(Some(Cursor::after(&first[1])), None).await;
    assert_eq!(ids(&second), ["e", "b"]);
    let third = page(Some(Cursor::after(&second[1])), None).await;
    assert_eq!(ids(&third), ["c"]);
    assert!(page(Some(Cursor::after(&third[0])), None).await.is_empty());
    let open = page(Some(Cursor::after(&first[0])), Some("open")).await;
    assert_eq!(
        ids(&open),
        ["e"],
        "the status filter and the cursor together"
    );
    // Games changed in the same millisecond are told apart by their ids.
    for id in ["t1", "t3", "t2"] {
        s.create_game(&game(id, "finished", 50), &[event(1, 50)])
            .await
            .unwrap();
    }
    let tied = s.list_games(Some("finished"), None, 2).await.unwrap();
    assert_eq!(ids(&tied), ["c", "t3"]);
    let rest = s
        .list_games(Some("finished"), Some(&Cursor::after(&tied[1])), 10)
        .await
        .unwrap();
    assert_eq!(ids(&rest), ["t2", "t1"]);

    // A status change moves a game between the filtered lists.
    let finish = RowUpdate {
        status: Some("finished".into()),
        result: Some("1-0".into()),
        seat: None,
        seat_account: None,
        seat_name: None,
        turns: None,
        ended: None,
    };
    s.append("d", &[event(2, 700)], &finish).await.unwrap();
    assert_eq!(
        ids(&s.list_games(Some("live"), None, 10).await.unwrap()),
        ["b"]
    );
    assert_eq!(
        ids(&s.list_games(Some("finished"), None, 10).await.unwrap()),
        ["d", "c", "t3", "t2", "t1"]
    );
}

async fn matches_save_load_upsert_list(env: &Env) {
    let s = env.store();
    assert!(s.list_matches(None, 10).await.unwrap().is_empty());
    let m1 = MatchRow {
        id: "m1".into(),
        created_ms: 100,
        state: r#"{"games":[],"score":[0,0]}"#.into(),
        accounts: [None, None],
        status: "open".into(),
        updated_ms: 100,
    };
    s.save_match(&m1).await.unwrap();
    assert_eq!(s.load_match("m1").await.unwrap(), m1);

    // Saving again replaces it.
    let m1b = MatchRow {
        state: r#"{"games":["g1"],"score":[1,0]}"#.into(),
        status: "live".into(),
        updated_ms: 300,
        ..m1.clone()
    };
    s.save_match(&m1b).await.unwrap();
    assert_eq!(s.load_match("m1").await.unwrap(), m1b);
    assert_eq!(
        s.list_matches(None, 10).await.unwrap(),
        std::slice::from_ref(&m1b)
    );

    let m2 = MatchRow {
        id: "m2".into(),
        created_ms: 150,
        state: "{}".into(),
        accounts: [None, None],
        status: "finished".into(),
        updated_ms: 200,
    };
    let m3 = MatchRow {
        id: "m3".into(),
        updated_ms: 400,
        status: "live".into(),
        ..m2.clone()
    };
    s.save_match(&m2).await.unwrap();
    s.save_match(&m3).await.unwrap();
    assert_eq!(
        match_ids(&s.list_matches(None, 10).await.unwrap()),
        ["m3", "m1", "m2"]
    );
    assert_eq!(
        match_ids(&s.list_matches(Some("live"), 10).await.unwrap()),
        ["m3", "m1"]
    );
    assert_eq!(
        s.list_matches(Some("finished"), 10).await.unwrap(),
        std::slice::from_ref(&m2)
    );
    assert_eq!(match_ids(&s.list_matches(None, 1).await.unwrap()), ["m3"]);
    assert!(s.list_matches(Some("open"), 10).await.unwrap().is_empty());
    assert!(s.list_matches(None, 0).await.unwrap().is_empty());

    // m1 finishes: it leaves the live list and leads the full one.
    let m1c = MatchRow {
        status: "finished".into(),
        updated_ms: 500,
        ..m1b
    };
    s.save_match(&m1c).await.unwrap();
    assert_eq!(
        match_ids(&s.list_matches(Some("live"), 10).await.unwrap()),
        ["m3"]
    );
    assert_eq!(
        match_ids(&s.list_matches(None, 10).await.unwrap()),
        ["m1", "m3", "m2"]
    );
    assert_eq!(
        s.load_match("m2").await.unwrap(),
        m2,
        "other matches untouched"
    );
}

async fn not_found(env: &Env) {
    let s = env.store();
    s.create_game(&game("g1", "open", 1), &[event(1, 1)])
        .await
        .unwrap();
    s.save_match(&MatchRow {
        id: "m1".into(),
        created_ms: 1,
        state: "{}".into(),
        accounts: [None, None],
        status: "open".into(),
        updated_ms: 1,
    })
    .await
    .unwrap();

    match s.load_game("nope").await {
        Err(StoreError::NotFound(what)) => assert_eq!(what, "game nope"),
        other => panic!("expected NotFound, got {other:?}"),
    }
    match s
        .append("nope", &[event(1, 2)], &RowUpdate::default())
        .await
    {
        Err(StoreError::NotFound(what)) => assert_eq!(what, "game nope"),
        other => panic!("expected NotFound, got {other:?}"),
    }
    let err = s.load_match("nope").await.unwrap_err();
    assert!(
        matches!(&err, StoreError::NotFound(what) if what == "match nope"),
        "{err:?}"
    );
    assert_eq!(err.to_string(), "match nope not found");
    // A match id is not a game id and the other way round.
    assert!(matches!(
        s.load_game("m1").await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        s.load_match("g1").await,
        Err(StoreError::NotFound(_))
    ));
    // Nothing was created by the failed append.
    assert_eq!(ids(&s.list_games(None, None, 10).await.unwrap()), ["g1"]);
}

async fn durable_across_reopen(env: &Env) {
    let s = env.store();
    let g = game("g1", "open", 1_000);
    s.create_game(&g, &[event(1, 1_000)]).await.unwrap();
    let sit = RowUpdate {
        status: Some("live".into()),
        result: None,
        seat: Some((1, "t2".into())),
        seat_account: None,
        seat_name: None,
        turns: None,
        ended: None,
    };
    s.append("g1", &events(2..=4, 2_000), &sit).await.unwrap();
    let m = MatchRow {
        id: "m1".into(),
        created_ms: 1_000,
        state: r#"{"score":[0,0]}"#.into(),
        accounts: [None, None],
        status: "live".into(),
        updated_ms: 1_000,
    };
    s.save_match(&m).await.unwrap();
    let written = s.load_game("g1").await.unwrap();

    // Another store on the same data sees all of it and carries on from it.
    let again = env.reopen().await;
    assert_eq!(again.load_game("g1").await.unwrap(), written);
    assert_eq!(again.load_match("m1").await.unwrap(), m);
    assert_conflict(
        again
            .append("g1", &[event(4, 9_000)], &RowUpdate::default())
            .await,
        "g1",
        4,
    );
    again
        .append("g1", &[event(5, 9_000)], &RowUpdate::default())
        .await
        .unwrap();
    drop(again);

    // And a third one, opened after the second is gone, sees its append.
    let third = env.reopen().await;
    assert_eq!(
        versions(&third.load_game("g1").await.unwrap().1),
        [1, 2, 3, 4, 5]
    );
    assert_eq!(
        ids(&third.list_games(Some("live"), None, 10).await.unwrap()),
        ["g1"]
    );
    // The appends were moves: the time of the seat taken is still the last listed change.
    assert_eq!(s.load_game("g1").await.unwrap().0.updated_ms, 2_004);
}

async fn concurrent_appends_different_games(env: &Env) {
    const GAMES: usize = 6;
    const MOVES: i64 = 15;
    let s = env.store();
    for i in 0..GAMES {
        s.create_game(&game(&format!("g{i}"), "live", 0), &[event(1, 0)])
            .await
            .unwrap();
    }
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..GAMES {
        let store = Arc::clone(&env.store);
        tasks.spawn(async move {
            let id = format!("g{i}");
            for v in 2..=MOVES + 1 {
                store
                    .append(&id, &[event(v, v * 10)], &RowUpdate::default())
                    .await
                    .unwrap();
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.expect("an append task failed");
    }
    for i in 0..GAMES {
        let (row, evs) = s.load_game(&format!("g{i}")).await.unwrap();
        assert_eq!(versions(&evs), (1..=MOVES + 1).collect::<Vec<_>>());
        assert_eq!(
            row.updated_ms, 0,
            "moves leave updated_ms as the game began"
        );
    }
}

async fn concurrent_appends_same_game(env: &Env) {
    const WRITERS: usize = 6;
    let s = env.store();
    s.create_game(&game("g1", "live", 0), &[event(1, 0)])
        .await
        .unwrap();
    for version in 2..=6 {
        // Every writer read version `version - 1` and tries to write the next: one wins.
        let mut tasks = tokio::task::JoinSet::new();
        for w in 0..WRITERS {
            let store = Arc::clone(&env.store);
            tasks.spawn(async move {
                let ev = EventRow {
                    version,
                    at_ms: version * 100 + w as i64,
                    payload: format!(r#"{{"writer":{w}}}"#),
                };
                let update = RowUpdate {
                    seat: Some((0, format!("w{w}"))),
                    ..RowUpdate::default()
                };
                (w, store.append("g1", &[ev], &update).await)
            });
        }
        let mut winners = Vec::new();
        while let Some(done) = tasks.join_next().await {
            let (w, result) = done.expect("an append task failed");
            match result {
                Ok(()) => winners.push(w),
                Err(e) => assert_conflict(Err(e), "g1", version),
            }
        }
        assert_eq!(
            winners.len(),
            1,
            "exactly one writer wins version {version}: {winners:?}"
        );
        let w = winners[0];
        let (row, evs) = s.load_game("g1").await.unwrap();
        assert_eq!(versions(&evs), (1..=version).collect::<Vec<_>>());
        let last = evs.last().unwrap();
        assert_eq!(
            last.payload,
            format!(r#"{{"writer":{w}}}"#),
            "the winner's event is kept"
        );
        assert_eq!(
            row.tokens[0],
            Some(format!("w{w}")),
            "the winner's update is kept"
        );
        assert_eq!(row.updated_ms, version * 100 + w as i64);
    }
}

/// A match's step (its state, its next game, the ended game's pointer to it) is stored whole
/// or not at all.
async fn match_step_all_or_nothing(env: &Env) {
    let s = env.store();
    s.create_game(&game("g1", "finished", 1_000), &events(1..=3, 1_000))
        .await
        .unwrap();
    let m1 = MatchRow {
        id: "m1".into(),
        created_ms: 100,
        state: r#"{"games":["g1"]}"#.into(),
        accounts: [None, None],
        status: "live".into(),
        updated_ms: 100,
    };
    s.save_match(&m1).await.unwrap();

    // The step: the match moves on, game g2 is created, g1 points to it.
    let m1b = MatchRow {
        state: r#"{"games":["g1","g2"]}"#.into(),
        updated_ms: 200,
        ..m1.clone()
    };
    let step = MatchStep {
        state: m1b.clone(),
        new_game: Some((game("g2", "live", 2_000), events(1..=2, 2_000))),
        append: Some(GameAppend {
            game: "g1".into(),
            events: vec![event(4, 2_500)],
            update: RowUpdate::default(),
        }),
    };
    s.advance_match(&step).await.unwrap();
    assert_eq!(s.load_match("m1").await.unwrap(), m1b);
    let (g2, g2_events) = s.load_game("g2").await.unwrap();
    assert_eq!(g2.match_id, None);
    assert_eq!(versions(&g2_events), [1, 2]);
    let (g1, g1_events) = s.load_game("g1").await.unwrap();
    assert_eq!(versions(&g1_events), [1, 2, 3, 4]);
    // The pointer to the next game changes nothing listed: g1 stays where its end put it.
    assert_eq!(g1.updated_ms, 1_000);
    assert_eq!(g1.status, "finished");

    // A step whose append conflicts writes nothing: not the new game, not the match.
    let m1c = MatchRow {
        state: r#"{"games":["g1","g2","g3"]}"#.into(),
        updated_ms: 300,
        ..m1.clone()
    };
    let late = MatchStep {
        state: m1c.clone(),
        new_game: Some((game("g3", "live", 3_000), events(1..=1, 3_000))),
        append: Some(GameAppend {
            game: "g1".into(),
            events: vec![event(4, 3_000)],
            update: RowUpdate::default(),
        }),
    };
    assert_conflict(s.advance_match(&late).await, "g1", 4);
    assert!(matches!(
        s.load_game("g3").await,
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(s.load_match("m1").await.unwrap(), m1b);
    assert_eq!(versions(&s.load_game("g1").await.unwrap().1), [1, 2, 3, 4]);

    // A step whose new game's id is taken writes nothing either.
    let taken = MatchStep {
        state: m1c.clone(),
        new_game: Some((game("g2", "live", 3_000), events(1..=1, 3_000))),
        append: Some(GameAppend {
            game: "g2".into(),
            events: vec![event(3, 3_000)],
            update: RowUpdate::default(),
        }),
    };
    assert_conflict(s.advance_match(&taken).await, "g2", 1);
    assert_eq!(s.load_match("m1").await.unwrap(), m1b);
    assert_eq!(versions(&s.load_game("g2").await.unwrap().1), [1, 2]);

    // An append to a game that does not exist: not found, nothing written.
    let missing = MatchStep {
        state: m1c.clone(),
        new_game: None,
        append: Some(GameAppend {
            game: "nope".into(),
            events: vec![event(1, 3_000)],
            update: RowUpdate::default(),
        }),
    };
    assert!(matches!(
        s.advance_match(&missing).await,
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(s.load_match("m1").await.unwrap(), m1b);

    // A step without a game (the first game of a match is made with `new_game` only, the last
    // step saves the state alone).
    let only_state = MatchStep {
        state: m1c.clone(),
        new_game: None,
        append: None,
    };
    s.advance_match(&only_state).await.unwrap();
    assert_eq!(s.load_match("m1").await.unwrap(), m1c);

    // A step that ends a game (a match resigned during it): its row changes with the step.
    let m1d = MatchRow {
        status: "finished".into(),
        updated_ms: 400,
        ..m1c.clone()
    };
    let resigned = MatchStep {
        state: m1d.clone(),
        new_game: None,
        append: Some(GameAppend {
            game: "g2".into(),
            events: vec![event(3, 4_000)],
            update: RowUpdate {
                status: Some("finished".into()),
                result: Some("0-1".into()),
                seat: None,
                seat_account: None,
                seat_name: None,
                turns: None,
                ended: None,
            },
        }),
    };
    s.advance_match(&resigned).await.unwrap();
    assert_eq!(s.load_match("m1").await.unwrap(), m1d);
    let (g2, g2_events) = s.load_game("g2").await.unwrap();
    assert_eq!(versions(&g2_events), [1, 2, 3]);
    assert_eq!(
        (g2.status.as_str(), g2.result.as_deref(), g2.updated_ms),
        ("finished", Some("0-1"), 4_000)
    );
}

// ---------------------------------------------------------------------------------------------
// SQLite: a commit survives `kill -9`

/// What the child prints once its writes are committed.
const COMMITTED: &str = "ZERTZ-STORE-TEST-COMMITTED";

/// The child's half of `sqlite_survives_kill`: with `ZERTZ_STORE_KILL_CHILD` set to a database
/// path it writes, says so, and waits to be killed. Without it (a normal run) it does nothing.
#[tokio::test]
async fn sqlite_kill_child() {
    let Ok(path) = std::env::var("ZERTZ_STORE_KILL_CHILD") else {
        return;
    };
    let s = SqliteStore::open(&path, POLICY).await.unwrap();
    s.create_game(&game("g1", "open", 1_000), &[event(1, 1_000)])
        .await
        .unwrap();
    let sit = RowUpdate {
        status: Some("live".into()),
        result: None,
        seat: Some((1, "t2".into())),
        seat_account: None,
        seat_name: None,
        turns: None,
        ended: None,
    };
    s.append("g1", &events(2..=40, 2_000), &sit).await.unwrap();
    let mut out = std::io::stdout();
    writeln!(out, "\n{COMMITTED}").unwrap();
    out.flush().unwrap();
    // Keep the connections open, mid-flight, until the parent kills this process.
    tokio::time::sleep(Duration::from_secs(60)).await;
    panic!("not killed within 60 s");
}

#[test]
fn sqlite_survives_kill() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("killed.sqlite");
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "sqlite_kill_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("ZERTZ_STORE_KILL_CHILD", &path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run the test binary as a child");
    let stdout = child.stdout.take().unwrap();
    let committed = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .any(|line| line.contains(COMMITTED));
    let _ = child.kill(); // SIGKILL, as kill -9 (a child that already died stays dead)
    let status = child.wait().unwrap();
    assert!(committed, "the child never committed ({status})");

    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let s = SqliteStore::open(path.to_str().unwrap(), POLICY)
            .await
            .unwrap();
        let (row, evs) = s.load_game("g1").await.unwrap();
        assert_eq!(versions(&evs), (1..=40).collect::<Vec<_>>());
        assert_eq!(row.status, "live");
        assert_eq!(row.tokens[1].as_deref(), Some("t2"));
        assert_eq!(row.updated_ms, 2_040);
        s.append("g1", &[event(41, 3_000)], &RowUpdate::default())
            .await
            .unwrap();
        s.close().await;
    });
}

// ---------------------------------------------------------------------------------------------
// Accounts and ratings

fn account(id: &str, name: &str) -> AccountRow {
    AccountRow {
        id: id.to_owned(),
        name: name.to_owned(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        created_ms: 1_000,
        seen_ms: 1_000,
    }
}

fn session(key: &str, account: &str, used_ms: i64) -> SessionRow {
    SessionRow {
        key_hash: key.to_owned(),
        account_id: account.to_owned(),
        created_ms: used_ms,
        used_ms,
    }
}

async fn accounts_and_sessions(env: &Env) {
    let s = env.store();
    s.create_account(&account("a1", "Ann"), &session("k1", "a1", 1_000))
        .await
        .unwrap();
    // Names are unique without regard to case, and a refused account leaves no session.
    let taken = s
        .create_account(&account("a2", "ANN"), &session("k2", "a2", 1_000))
        .await
        .unwrap_err();
    assert!(matches!(taken, StoreError::Taken(_)), "{taken:?}");
    assert_eq!(s.session("k2", 0).await.unwrap(), None);
    assert_eq!(s.account_named("aNn").await.unwrap().unwrap().id, "a1");
    assert_eq!(s.account_named("Bob").await.unwrap(), None);

    let (found, who) = s.session("k1", 500).await.unwrap().unwrap();
    assert_eq!(
        (found.account_id.as_str(), who.name.as_str()),
        ("a1", "Ann")
    );
    // Expired: last used before the limit.
    assert_eq!(s.session("k1", 1_001).await.unwrap(), None);
    s.touch_session("k1", 5_000).await.unwrap();
    assert_eq!(
        s.session("k1", 4_000).await.unwrap().unwrap().1.seen_ms,
        5_000
    );

    // A new password ends every session but the one that changed it.
    s.create_session(&session("k3", "a1", 5_000)).await.unwrap();
    s.create_session(&session("k4", "a1", 5_000)).await.unwrap();
    s.set_password("a1", "$argon2id$new", "k3").await.unwrap();
    assert!(s.session("k3", 0).await.unwrap().is_some());
    assert_eq!(s.session("k1", 0).await.unwrap(), None);
    assert_eq!(s.session("k4", 0).await.unwrap(), None);
    assert_eq!(
        s.account_named("ann").await.unwrap().unwrap().password_hash,
        "$argon2id$new"
    );
    assert!(matches!(
        s.set_password("nobody", "x", "k3").await,
        Err(StoreError::NotFound(_))
    ));
    s.delete_session("k3").await.unwrap();
    assert_eq!(s.session("k3", 0).await.unwrap(), None);

    s.create_session(&session("old", "a1", 100)).await.unwrap();
    s.create_session(&session("new", "a1", 9_000))
        .await
        .unwrap();
    assert_eq!(s.delete_sessions_unused_since(1_000).await.unwrap(), 1);
    assert!(s.session("new", 0).await.unwrap().is_some());

    s.add_login_device("d1", "a1", 1_000).await.unwrap();
    s.add_login_device("d1", "a1", 2_000).await.unwrap();
    assert!(s.is_login_device("d1", "a1").await.unwrap());
    assert!(!s.is_login_device("d1", "a2").await.unwrap());
    assert!(!s.is_login_device("d2", "a1").await.unwrap());

    s.create_account(&account("b1", "Bob"), &session("kb", "b1", 1_000))
        .await
        .unwrap();
    let mut names: Vec<String> = s
        .accounts_by_id(&["b1".into(), "a1".into(), "zz".into()])
        .await
        .unwrap()
        .into_iter()
        .map(|a| a.name)
        .collect();
    names.sort();
    assert_eq!(names, ["Ann", "Bob"]);
    let seen = s.accounts_seen_since(4_000, 10).await.unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].name, "Ann");
}

/// The places held under the quotas (`games::quota`, `store::holds`): two stores on one
/// database, as two nodes, take places under a client's key and its address's, all or none;
/// a place counts while its game is open (a seek), or until its request runs out unless kept
/// or renewed; given back, it is free at once; twenty requests sent together from both nodes
/// at a key with room for three: three fit. And the aborts of the last hour.
async fn two_nodes_hold_places_from_one_quota(env: &Env) {
    let a = env.store.clone();
    let b: Arc<dyn Store> = Arc::from(env.reopen().await);
    let ann = |limit| vec![("seek ann".to_string(), limit), ("seek at".to_string(), 3)];
    let take = |s: &Arc<dyn Store>, places: Vec<(String, i64)>, request: &str, now: i64| {
        let (s, request) = (s.clone(), request.to_string());
        async move {
            s.take_hold(&places, &request, CountsWhile::Open, now, now + 1_000)
                .await
                .unwrap()
        }
    };
    assert_eq!(take(&a, ann(2), "r1", 0).await, Ok(()));
    assert_eq!(take(&b, ann(2), "r2", 0).await, Ok(()));
    let full = Full {
        key: "seek ann".into(),
        held: 2,
    };
    assert_eq!(take(&a, ann(2), "r3", 0).await, Err(full));
    // Another client at the address takes its last place; a third finds the address full and
    // takes nothing under its own key either.
    let bob = vec![("seek bob".to_string(), 2), ("seek at".to_string(), 3)];
    assert_eq!(take(&b, bob, "r4", 0).await, Ok(()));
    let cy = vec![("seek cy".to_string(), 1), ("seek at".to_string(), 3)];
    let full = Full {
        key: "seek at".into(),
        held: 3,
    };
    assert_eq!(take(&a, cy, "r5", 0).await, Err(full));
    assert_eq!(
        take(&a, vec![("seek cy".to_string(), 1)], "r6", 0).await,
        Ok(())
    );
    // r1 is kept by an open game: it counts past its request's time, until the game is taken.
    a.create_game(&game("g1", "open", 0), &events(1..=1, 0))
        .await
        .unwrap();
    let keys = ["seek ann".to_string(), "seek at".to_string()];
    a.keep_hold(&keys, "r1", Holder::Game("g1")).await.unwrap();
    // r2 is given back; r4 (bob's) is renewed; at 2,000 the requests not renewed ran out.
    b.drop_hold(&keys, "r2").await.unwrap();
    let bob_keys = ["seek bob".to_string(), "seek at".to_string()];
    b.renew_hold(&bob_keys, "r4", 5_000).await.unwrap();
    assert_eq!(take(&b, ann(2), "r7", 2_000).await, Ok(()));
    let full = Full {
        key: "seek ann".into(),
        held: 2,
    };
    assert_eq!(take(&a, ann(2), "r8", 2_000).await, Err(full));
    // Someone takes the game: its place is free, and a sweep lets it go for every key (r4
    // still counts until 5,000, r7 until 3,000: those stay).
    let joined = RowUpdate {
        status: Some("live".into()),
        ..RowUpdate::default()
    };
    a.append("g1", &[event(2, 2_500)], &joined).await.unwrap();
    assert_eq!(
        b.sweep_holds(2_500).await.unwrap(),
        3,
        "g1's two places and r6"
    );
    assert_eq!(b.sweep_holds(2_500).await.unwrap(), 0);
    assert_eq!(take(&a, ann(2), "r9", 2_500).await, Ok(()));
    // Twenty requests at once, ten from each node, at a key with room for three.
    let tries: Vec<_> = (0..20)
        .map(|n| {
            let s = if n % 2 == 0 { a.clone() } else { b.clone() };
            let places = vec![("engine burst".to_string(), 3)];
            tokio::spawn(async move {
                s.take_hold(
                    &places,
                    &format!("burst{n}"),
                    CountsWhile::NotFinished,
                    10_000,
                    20_000,
                )
                .await
                .unwrap()
            })
        })
        .collect();
    let mut fitted = 0;
    for t in tries {
        if t.await.unwrap().is_ok() {
            fitted += 1;
        }
    }
    assert_eq!(fitted, 3);
    // Aborts: recorded on one node, read on the other; those older than the window go.
    let abort_keys = ["abort ann".to_string(), "abort everyone at:x".to_string()];
    a.record_abort(&abort_keys, 1_000, 0).await.unwrap();
    b.record_abort(&abort_keys[..1], 2_000, 0).await.unwrap();
    let mut seen = b.aborts_since(&abort_keys, 0).await.unwrap();
    seen.sort();
    assert_eq!(
        seen,
        vec![
            ("abort ann".to_string(), 1_000),
            ("abort ann".to_string(), 2_000),
            ("abort everyone at:x".to_string(), 1_000),
        ]
    );
    assert_eq!(a.aborts_since(&abort_keys, 1_500).await.unwrap().len(), 1);
    a.record_abort(&["abort bob".to_string()], 3_000, 1_500)
        .await
        .unwrap();
    assert_eq!(
        b.aborts_since(&abort_keys, 0).await.unwrap(),
        vec![("abort ann".to_string(), 2_000)],
        "the abort before the window was forgotten"
    );
}

/// The limits kept in the database (sign-ups per address, `accounts::shared_limit`): two
/// stores on one database, as two nodes, take from one allowance of 3 that refills one a
/// second; a refusal takes nothing and says how long; events sent together from both cannot
/// all fit.
async fn two_nodes_take_events_from_one_allowance(env: &Env) {
    let a = env.store.clone();
    let b: Arc<dyn Store> = Arc::from(env.reopen().await);
    let take = |s: &Arc<dyn Store>, key: &'static str, now: i64| {
        let s = s.clone();
        async move { s.take_event(key, now, 1_000, 3).await.unwrap() }
    };
    assert_eq!(take(&a, "sign-up:192.0.2.1", 0).await, None);
    assert_eq!(take(&b, "sign-up:192.0.2.1", 10).await, None);
    assert_eq!(take(&a, "sign-up:192.0.2.1", 20).await, None);
    assert_eq!(take(&b, "sign-up:192.0.2.1", 30).await, Some(970));
    assert_eq!(take(&a, "sign-up:192.0.2.1", 40).await, Some(960));
    // Another key has its own.
    assert_eq!(take(&b, "sign-up:192.0.2.2", 40).await, None);
    // One more a second.
    assert_eq!(take(&b, "sign-up:192.0.2.1", 1_000).await, None);
    assert_eq!(take(&a, "sign-up:192.0.2.1", 1_001).await, Some(999));
    // Long after, the allowance is whole again (and the old rows are gone).
    for now in [60_000, 60_001, 60_002] {
        assert_eq!(take(&a, "sign-up:192.0.2.1", now).await, None);
    }
    assert!(take(&b, "sign-up:192.0.2.1", 60_003).await.is_some());
    // Twenty at once, ten from each node: three fit.
    let tries: Vec<_> = (0..20)
        .map(|n| {
            let s = if n % 2 == 0 { a.clone() } else { b.clone() };
            tokio::spawn(async move { s.take_event("burst", 0, 1_000, 3).await.unwrap() })
        })
        .collect();
    let mut fitted = 0;
    for t in tries {
        if t.await.unwrap().is_none() {
            fitted += 1;
        }
    }
    assert_eq!(fitted, 3);
}

fn end(game: &str, score_one: f64, ended_ms: i64) -> GameEnd {
    GameEnd {
        game: game.to_owned(),
        ended_ms,
        accounts: [Some("a1".into()), Some("b1".into())],
        names: ["Ann".into(), "Bob".into()],
        score_one,
        reason: "resignation".into(),
        board: "37".into(),
        pool: Some("standard-rapid".into()),
        rated: true,
    }
}

/// The ratings, graph points and records of a game's end are written with its result, and not
/// at all when the result is refused.
async fn a_game_end_is_written_with_its_result(env: &Env) {
    let s = env.store();
    s.create_account(&account("a1", "Ann"), &session("k1", "a1", 1_000))
        .await
        .unwrap();
    s.create_account(&account("b1", "Bob"), &session("k2", "b1", 1_000))
        .await
        .unwrap();
    for (g, score, at) in [("g1", 1.0, 10_000), ("g2", 0.5, 20_000)] {
        s.create_game(&game(g, "live", at - 1_000), &events(1..=2, at - 1_000))
            .await
            .unwrap();
        let finish = RowUpdate {
            status: Some("finished".into()),
            result: Some("1-0".into()),
            ended: Some(end(g, score, at)),
            ..RowUpdate::default()
        };
        s.append(g, &[event(3, at)], &finish).await.unwrap();
    }
    let ann = s.ratings_of("a1").await.unwrap();
    let bob = s.ratings_of("b1").await.unwrap();
    assert_eq!((ann.len(), bob.len()), (1, 1));
    assert_eq!((ann[0].games, bob[0].games), (2, 2));
    assert!(ann[0].rating > 1500.0 && bob[0].rating < 1500.0);
    assert!((ann[0].rating - 1500.0 + bob[0].rating - 1500.0).abs() < 1.0);
    assert_eq!(ann[0].updated_ms, 20_000);
    let graph = s.rating_history("a1", "standard-rapid", 10).await.unwrap();
    assert_eq!(
        graph.iter().map(|p| p.game_id.as_str()).collect::<Vec<_>>(),
        ["g1", "g2"]
    );
    assert_eq!(graph[1].rating, ann[0].rating);

    // A result refused (its version is taken) writes no rating and no record.
    let again = RowUpdate {
        status: Some("finished".into()),
        result: Some("0-1".into()),
        ended: Some(end("g2", 0.0, 30_000)),
        ..RowUpdate::default()
    };
    assert_conflict(s.append("g2", &[event(3, 30_000)], &again).await, "g2", 3);
    assert_eq!(s.ratings_of("a1").await.unwrap(), ann);
    assert_eq!(
        s.rating_history("a1", "standard-rapid", 10)
            .await
            .unwrap()
            .len(),
        2
    );

    let records = s
        .played_games("b1", &GameFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].game_id, "g2", "the latest first");
    assert_eq!(records[0].outcome, "draw");
    assert_eq!(records[1].outcome, "loss");
    assert_eq!(records[1].opponent_name, "Ann");
    assert_eq!(records[1].rating_before, Some(1500.0));
    assert!(records[1].rated);
    let losses = GameFilter {
        outcome: Some("loss".into()),
        ..GameFilter::default()
    };
    assert_eq!(
        s.played_games("b1", &losses, None, 10).await.unwrap().len(),
        1
    );
    let page = s
        .played_games(
            "b1",
            &GameFilter::default(),
            Some((20_000, "g2".into())),
            10,
        )
        .await
        .unwrap();
    assert_eq!(page.len(), 1);
    assert_eq!(page[0].game_id, "g1");
    let results = s.results_of("a1").await.unwrap();
    assert_eq!(
        results,
        [
            ("draw".to_string(), "resignation".to_string(), 1),
            ("win".to_string(), "resignation".to_string(), 1)
        ]
    );
    // The leaderboard's candidates: active since and below a deviation.
    let top = s.top_ratings("standard-rapid", 0, 350.0, 10).await.unwrap();
    assert_eq!(
        top.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["Ann", "Bob"]
    );
    assert!(
        s.top_ratings("standard-rapid", 25_000, 350.0, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        s.top_ratings("standard-rapid", 0, 100.0, 10)
            .await
            .unwrap()
            .is_empty()
    );
}

/// Listings search by a player's name (either seat, any case), board, rule set and result; the
/// names and the turns follow the seats taken and the moves made.
async fn games_are_found_by_player_board_rules_and_result(env: &Env) {
    let s = env.store();
    let mut a = game("a", "open", 100);
    a.names = [Some("Ann".into()), None];
    s.create_game(&a, &events(1..=1, 100)).await.unwrap();
    let sit = RowUpdate {
        status: Some("live".into()),
        seat: Some((1, "t2".into())),
        seat_name: Some("Bob".into()),
        turns: Some(0),
        ..RowUpdate::default()
    };
    s.append("a", &[event(2, 200)], &sit).await.unwrap();
    let end = RowUpdate {
        status: Some("finished".into()),
        result: Some("1-0".into()),
        turns: Some(17),
        ..RowUpdate::default()
    };
    s.append("a", &[event(3, 300)], &end).await.unwrap();
    let mut b = game("b", "finished", 150);
    b.names = [Some("Cyd".into()), Some("ann".into())];
    b.board = "48".into();
    b.rules = "blitz".into();
    s.create_game(&b, &events(1..=1, 150)).await.unwrap();
    let c = game("c", "open", 160);
    s.create_game(&c, &events(1..=1, 160)).await.unwrap();
    // An invitation waits too, but is no seek: the lobby leaves it out.
    let d = GameRow {
        lobby: false,
        ..game("d", "open", 170)
    };
    s.create_game(&d, &events(1..=1, 170)).await.unwrap();

    let find = |q: GameQuery<'static>| async move {
        let games = s.find_games(&q, None, 10).await.unwrap();
        games.into_iter().map(|g| g.id).collect::<Vec<String>>()
    };
    let by = |player| GameQuery {
        player: Some(player),
        ..GameQuery::default()
    };
    assert_eq!(find(by("ANN")).await, ["a", "b"]);
    assert_eq!(find(by("bob")).await, ["a"]);
    assert_eq!(find(by("Nobody")).await, Vec::<&str>::new());
    let q = GameQuery {
        board: Some("48"),
        ..GameQuery::default()
    };
    assert_eq!(find(q).await, ["b"]);
    let q = GameQuery {
        rules: Some("standard"),
        status: Some("finished"),
        ..GameQuery::default()
    };
    assert_eq!(find(q).await, ["a"]);
    let q = GameQuery {
        result: Some("1-0"),
        player: Some("bob"),
        ..GameQuery::default()
    };
    assert_eq!(find(q).await, ["a"]);
    let lobby = GameQuery {
        status: Some("open"),
        lobby: true,
        ..GameQuery::default()
    };
    assert_eq!(find(lobby).await, ["c"]);
    // Nor does any public listing show the invitation before it is taken (issue 39, F15).
    let q = GameQuery {
        status: Some("open"),
        ..GameQuery::default()
    };
    assert_eq!(find(q).await, ["c"]);
    assert!(!find(GameQuery::default()).await.contains(&"d".to_string()));
    let all = s.find_games(&GameQuery::default(), None, 10).await.unwrap();
    let a = all.iter().find(|g| g.id == "a").unwrap();
    assert_eq!(a.names, [Some("Ann".into()), Some("Bob".into())]);
    assert_eq!((a.turns, a.board.as_deref()), (17, Some("37")));
}

// ---------------------------------------------------------------------------------------------
// Migrations of data stored before a change

/// Games stored before their listing columns existed (migrations 0001 to 0004 only) get their
/// names, board, rule set and turns from their settings and events when 0005 runs.
const OLD_GAME_SQL: &[&str] = &[
    "INSERT INTO games (id, match_id, created_ms, settings, token_one, token_two, status, result, \
     updated_ms) VALUES ('old1', NULL, 100, \
     '{\"start\":\"48 blitz ........ 5/7/9 0/0/0 0/0/0 1\",\"clock\":{\"kind\":\"unlimited\"}}', \
     't1', 't2', 'finished', '1-0', 500)",
    "INSERT INTO game_events (game_id, version, at_ms, payload) VALUES \
     ('old1', 1, 100, '{\"type\":\"created\"}'), \
     ('old1', 2, 100, '{\"type\":\"joined\",\"seat\":1,\"name\":\"Ann\"}'), \
     ('old1', 3, 200, '{\"type\":\"joined\",\"seat\":2,\"name\":\"Bob\"}'), \
     ('old1', 4, 300, '{\"type\":\"moved\",\"seat\":1,\"notation\":\"Wd4,a1\"}'), \
     ('old1', 5, 400, '{\"type\":\"moved\",\"seat\":2,\"notation\":\"Bd5,g4\"}'), \
     ('old1', 6, 500, '{\"type\":\"resigned\",\"seat\":2}')",
    // An invitation nobody took yet (its link's token held as the seat's), and an open seek.
    "INSERT INTO games (id, match_id, created_ms, settings, token_one, token_two, status, result, \
     updated_ms) VALUES ('old2', NULL, 600, '{\"start\":\"37 standard\",\"open\":false}', \
     't1', 'link2', 'open', NULL, 600), ('old3', NULL, 700, \
     '{\"start\":\"37 standard\",\"open\":true}', 't1', NULL, 'open', NULL, 700)",
    "INSERT INTO game_events (game_id, version, at_ms, payload) VALUES \
     ('old2', 1, 600, '{\"type\":\"created\"}'), \
     ('old2', 2, 600, '{\"type\":\"joined\",\"seat\":1,\"name\":\"Cy\"}'), \
     ('old3', 1, 700, '{\"type\":\"created\"}'), \
     ('old3', 2, 700, '{\"type\":\"joined\",\"seat\":1,\"name\":\"Di\"}')",
];

async fn check_old_game(store: &dyn Store) {
    let q = GameQuery {
        player: Some("bob"),
        ..GameQuery::default()
    };
    let found = store.find_games(&q, None, 10).await.unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    let g = &found[0];
    assert_eq!(g.names, [Some("Ann".into()), Some("Bob".into())]);
    assert_eq!(
        (g.board.as_deref(), g.rules.as_deref()),
        (Some("48"), Some("blitz"))
    );
    assert_eq!(g.turns, 2);
    // 0013: the link of an invitation nobody took becomes the seat's invitation (the seat has
    // no token until someone takes it); a seat taken keeps its token; seeks are the lobby's.
    let (old1, _) = store.load_game("old1").await.unwrap();
    assert_eq!(old1.tokens, [Some("t1".into()), Some("t2".into())]);
    assert_eq!((old1.invites.clone(), old1.lobby), ([None, None], false));
    let (old2, _) = store.load_game("old2").await.unwrap();
    assert_eq!(old2.tokens, [Some("t1".into()), None]);
    assert_eq!(
        (old2.invites, old2.lobby),
        ([None, Some("link2".into())], false)
    );
    let (old3, _) = store.load_game("old3").await.unwrap();
    assert!(old3.lobby);
    let lobby = GameQuery {
        status: Some("open"),
        lobby: true,
        ..GameQuery::default()
    };
    let ids: Vec<String> = store
        .find_games(&lobby, None, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(ids, ["old3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_games_stored_before_the_listing_columns_get_them() {
    let dir = tempfile::tempdir().unwrap();
    let store = old_sqlite(&dir, 4, OLD_GAME_SQL).await;
    check_old_game(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_games_stored_before_the_listing_columns_get_them() {
    let Some(database) = scratch::create("old_games").await else {
        return;
    };
    database
        .run(|url| async move {
            let store = old_postgres(&url, 4, OLD_GAME_SQL).await;
            check_old_game(&store).await;
            store.close().await;
        })
        .await;
}

// ---------------------------------------------------------------------------------------------
// The opening explorer

fn explorer_game(id: &str, result: &str, ratings: [Option<f64>; 2]) -> ExplorerGame {
    ExplorerGame {
        id: id.into(),
        source: "boardspace".into(),
        name: format!("{id}.sgf"),
        players: ["Ann".into(), "Bob".into()],
        ratings,
        date: Some("2020-01-02".into()),
        result: result.into(),
        record: "[Board \"37\"]\n\n*\n".into(),
        plies: 2,
    }
}

fn leaf(position: i64, game: u32, mover: u8, mv: &str) -> Leaf {
    Leaf {
        position,
        game,
        mover,
        mv: mv.into(),
    }
}

/// Rows of `position` summed per move: (move, games, first wins, second wins, draws, rating
/// count), sorted.
async fn explorer_sums(store: &dyn Store, position: i64) -> Vec<(String, i64, i64, i64, i64, i64)> {
    let mut sums: std::collections::BTreeMap<String, (i64, i64, i64, i64, i64)> =
        Default::default();
    for r in store.explorer_rows(position).await.expect("explorer rows") {
        assert_eq!(r.position, position);
        let s = sums.entry(r.mv).or_default();
        s.0 += r.games;
        s.1 += r.first_wins;
        s.2 += r.second_wins;
        s.3 += r.draws;
        s.4 += r.rating_count;
    }
    sums.into_iter()
        .map(|(m, (g, a, b, d, c))| (m, g, a, b, d, c))
        .collect()
}

/// A position reached by one game is a leaf whose figures are the game's; a second game there
/// (in a later batch) becomes a row and the answer sums both; a batch with a game already
/// stored writes nothing; a leaf naming no game of its batch is refused.
async fn explorer_leaves_and_rows_sum_per_position(env: &Env) {
    let store = env.store();
    let row = MoveRow {
        position: 30,
        source: "boardspace".into(),
        band: -1,
        mv: "b3".into(),
        games: 2,
        first_wins: 1,
        second_wins: 1,
        draws: 0,
        rating_sum: 0.0,
        rating_count: 0,
        last_date: Some("2020-01-02".into()),
        examples: vec!["bs-a".into(), "bs-b".into()],
    };
    store
        .add_explorer_batch(ExplorerBatch {
            games: vec![
                explorer_game("bs-a", "1-0", [None, None]),
                explorer_game("bs-b", "0-1", [None, Some(1720.0)]),
            ],
            moves: vec![row],
            leaves: vec![leaf(-10, 0, 0, "w1"), leaf(20, 1, 1, "g2.5")],
        })
        .await
        .expect("first batch");
    assert_eq!(
        explorer_sums(store, -10).await,
        [("w1".into(), 1, 1, 0, 0, 0)]
    );
    let rows = store.explorer_rows(20).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].band, rows[0].rating_sum, rows[0].second_wins),
        (17, 1720.0, 1)
    );
    assert_eq!(rows[0].examples, ["bs-b"]);
    assert_eq!(rows[0].last_date.as_deref(), Some("2020-01-02"));
    assert_eq!(
        explorer_sums(store, 30).await,
        [("b3".into(), 2, 1, 1, 0, 0)]
    );

    // A third game through -10 (same move) and a new position.
    store
        .add_explorer_batch(ExplorerBatch {
            games: vec![explorer_game("bs-c", "1/2-1/2", [Some(1650.0), None])],
            moves: vec![],
            leaves: vec![leaf(-10, 0, 0, "w1"), leaf(40, 0, 1, "x3.01")],
        })
        .await
        .expect("second batch");
    assert_eq!(
        explorer_sums(store, -10).await,
        [("w1".into(), 2, 1, 0, 1, 1)]
    );
    assert_eq!(
        explorer_sums(store, 40).await,
        [("x3.01".into(), 1, 0, 0, 1, 0)]
    );
    let examples: std::collections::BTreeSet<String> = store
        .explorer_rows(-10)
        .await
        .unwrap()
        .into_iter()
        .flat_map(|r| r.examples)
        .collect();
    assert_eq!(examples, ["bs-a".to_string(), "bs-c".to_string()].into());

    // A batch holding a stored game writes nothing at all.
    let refused = store
        .add_explorer_batch(ExplorerBatch {
            games: vec![
                explorer_game("bs-d", "1-0", [None, None]),
                explorer_game("bs-a", "1-0", [None, None]),
            ],
            moves: vec![],
            leaves: vec![leaf(50, 0, 0, "w2"), leaf(40, 1, 0, "w2")],
        })
        .await;
    assert!(matches!(refused, Err(StoreError::Taken(_))), "{refused:?}");
    assert!(store.explorer_rows(50).await.unwrap().is_empty());
    assert_eq!(
        explorer_sums(store, 40).await,
        [("x3.01".into(), 1, 0, 0, 1, 0)]
    );
    assert!(store.explorer_game("bs-d").await.unwrap().is_none());

    // A leaf naming a game its batch does not have is an error, and writes nothing.
    let broken = store
        .add_explorer_batch(ExplorerBatch {
            games: vec![explorer_game("bs-e", "1-0", [None, None])],
            moves: vec![],
            leaves: vec![leaf(60, 3, 0, "w2")],
        })
        .await;
    assert!(broken.is_err(), "{broken:?}");
    assert!(store.explorer_game("bs-e").await.unwrap().is_none());
    assert!(store.explorer_rows(60).await.unwrap().is_empty());

    // The games read back, with their records.
    let c = store.explorer_game("bs-c").await.unwrap().expect("game c");
    assert_eq!(
        (c.result.as_str(), c.ratings),
        ("1/2-1/2", [Some(1650.0), None])
    );
    let brief = store
        .explorer_games_brief(&["bs-a".into(), "bs-x".into()])
        .await
        .unwrap();
    assert_eq!(brief.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Lessons

async fn lessons_done_by_an_account(env: &Env) {
    let s = env.store();
    for (id, name) in [("a1", "Ann"), ("a2", "Ben")] {
        s.create_account(&account(id, name), &session(&format!("k{id}"), id, 1_000))
            .await
            .unwrap();
    }
    assert!(s.lessons_done("a1").await.unwrap().is_empty());
    let two = ["placing".to_string(), "free-rings".to_string()];
    assert_eq!(s.mark_lessons_done("a1", &two, 5_000).await.unwrap(), 2);
    // Done again later: the first time stays, nothing new.
    assert_eq!(
        s.mark_lessons_done("a1", &two[..1], 9_000).await.unwrap(),
        0
    );
    assert_eq!(
        s.mark_lessons_done("a1", &["notation".to_string()], 7_000)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        s.lessons_done("a1").await.unwrap(),
        vec![
            ("free-rings".to_string(), 5_000),
            ("placing".to_string(), 5_000),
            ("notation".to_string(), 7_000),
        ]
    );
    // Each account its own; an empty list changes nothing.
    assert!(s.lessons_done("a2").await.unwrap().is_empty());
    assert_eq!(s.mark_lessons_done("a2", &[], 1).await.unwrap(), 0);
    // A lesson for an account that does not exist is refused by the database.
    assert!(
        s.mark_lessons_done("nobody", &two, 1).await.is_err(),
        "progress needs an account"
    );
    // Kept across a reopen.
    let again = env.reopen().await;
    assert_eq!(again.lessons_done("a1").await.unwrap().len(), 3);
}

// ---------------------------------------------------------------------------------------------
// Tournaments

fn tournament(id: &str, max_players: i64) -> TournamentRow {
    TournamentRow {
        id: id.into(),
        name: "Club Swiss".into(),
        format: "swiss".into(),
        settings: "{}".into(),
        starts_ms: None,
        max_players,
        organiser: "a1".into(),
        organiser_name: "Ann".into(),
        status: "registering".into(),
        round: 0,
        created_ms: 1_000,
        updated_ms: 1_000,
    }
}

fn entry(account: &str, rating: f64) -> EntryRow {
    EntryRow {
        account_id: account.into(),
        name: format!("name of {account}"),
        rating,
        number: None,
        withdrawn: false,
        joined_ms: 2_000,
        gives_first: false,
    }
}

/// Round 1 of event `t` by one node: games `{node}1` and `{node}2`.
fn round_one(node: &str) -> (Vec<PairingRow>, Vec<(GameRow, Vec<EventRow>)>) {
    let pairs = [("a1", "a3"), ("a4", "a2")];
    let mut pairings = Vec::new();
    let mut games = Vec::new();
    for (i, (w, b)) in pairs.into_iter().enumerate() {
        let id = format!("{node}{}", i + 1);
        pairings.push(PairingRow {
            round: 1,
            board: i as i64 + 1,
            white: w.into(),
            black: Some(b.into()),
            game_id: Some(id.clone()),
            result: None,
            berserk: None,
            turns: None,
        });
        games.push((game(&id, "live", 3_000), events(1..=1, 3_000)));
    }
    (pairings, games)
}

/// Accounts a1 to a5, and event t1 of at most 4 players with a1 to a4 entered (ratings 1500
/// to 1503), joined at 2,000.
async fn four_entered(s: &dyn Store) {
    for (id, name) in [
        ("a1", "Ann"),
        ("a2", "Ben"),
        ("a3", "Cy"),
        ("a4", "Dee"),
        ("a5", "Eve"),
    ] {
        s.create_account(&account(id, name), &session(&format!("k{id}"), id, 1_000))
            .await
            .unwrap();
    }
    s.create_tournament(&tournament("t1", 4)).await.unwrap();
    for (i, a) in ["a1", "a2", "a3", "a4"].iter().enumerate() {
        let joined = s.join_tournament("t1", &entry(a, 1500.0 + i as f64)).await;
        assert_eq!(joined.unwrap(), Joined::Joined);
    }
}

/// An arena takes entries while it runs: each with the next pairing number, within its most
/// players; one who left comes back with their number; other formats and an arena not
/// started take none this way. The start time becomes the real start.
async fn an_arena_takes_late_entries_with_the_next_number(env: &Env) {
    let s = env.store();
    for (id, name) in [("a1", "Ann"), ("a2", "Ben"), ("a3", "Cy"), ("a4", "Dee")] {
        s.create_account(&account(id, name), &session(&format!("k{id}"), id, 1_000))
            .await
            .unwrap();
    }
    let arena = TournamentRow {
        format: "arena".into(),
        ..tournament("t1", 3)
    };
    s.create_tournament(&arena).await.unwrap();
    s.create_tournament(&tournament("t2", 3)).await.unwrap();
    for t in ["t1", "t2"] {
        for a in ["a1", "a2"] {
            let joined = s.join_tournament(t, &entry(a, 1500.0)).await.unwrap();
            assert_eq!(joined, Joined::Joined);
        }
    }
    let late = |account: &str| EntryRow {
        joined_ms: 4_000,
        ..entry(account, 1400.0)
    };
    assert_eq!(
        s.join_running("t1", &late("a3")).await.unwrap(),
        Joined::Closed,
        "not started"
    );
    for t in ["t1", "t2"] {
        assert!(s.start_tournament(t, &[], 3_000).await.unwrap());
    }
    assert_eq!(
        s.join_running("t2", &late("a3")).await.unwrap(),
        Joined::Closed,
        "a Swiss takes nobody once it runs"
    );
    assert_eq!(
        s.join_running("t1", &late("a3")).await.unwrap(),
        Joined::Joined
    );
    assert_eq!(
        s.join_running("t1", &late("a3")).await.unwrap(),
        Joined::Already
    );
    assert_eq!(
        s.join_running("t1", &late("a4")).await.unwrap(),
        Joined::Full
    );
    assert_eq!(
        s.join_running("t9", &late("a4")).await.unwrap(),
        Joined::NotFound
    );
    let number = |t: &zertz_server::tournaments::model::Stored, a: &str| {
        t.entries
            .iter()
            .find(|e| e.account_id == a)
            .and_then(|e| e.number)
    };
    let t = s.tournament("t1").await.unwrap().unwrap();
    assert_eq!(t.row.starts_ms, Some(3_000));
    assert_eq!(number(&t, "a3"), Some(3));
    assert!(number(&t, "a4").is_none(), "a refused entry is not written");
    // Away and back: the same number.
    s.withdraw_from_tournament("t1", "a3", 5_000).await.unwrap();
    assert_eq!(
        s.join_running("t1", &late("a3")).await.unwrap(),
        Joined::Joined
    );
    let t = s.tournament("t1").await.unwrap().unwrap();
    assert_eq!(number(&t, "a3"), Some(3));
    assert_eq!(t.entries.iter().filter(|e| !e.withdrawn).count(), 3);
}

/// Entries (full, closed, withdrawn), the start (once, numbered by rating), and a round
/// stored once: two stores on one database race to store round 1 with games of their own;
/// exactly one wins, its pairing and games are there and the loser's games are not; a retry
/// stores nothing. A result is recorded once.
async fn a_round_is_stored_once(env: &Env) {
    let s = env.store();
    four_entered(s).await;
    // A refused join writes nothing: not the entry, not its rating, not the event's time
    // (the Full check comes after the entry is inserted, and takes it back).
    let late = |account: &str| EntryRow {
        joined_ms: 2_200,
        ..entry(account, 1.0)
    };
    assert_eq!(
        s.join_tournament("t1", &late("a1")).await.unwrap(),
        Joined::Already
    );
    assert_eq!(
        s.join_tournament("t1", &late("a5")).await.unwrap(),
        Joined::Full
    );
    assert_eq!(
        s.join_tournament("t9", &late("a5")).await.unwrap(),
        Joined::NotFound
    );
    let t = s.tournament("t1").await.unwrap().unwrap();
    assert_eq!(t.row.updated_ms, 2_000);
    let entered: Vec<(&str, f64)> = t
        .entries
        .iter()
        .map(|e| (e.account_id.as_str(), e.rating))
        .collect();
    assert_eq!(
        entered,
        [
            ("a1", 1500.0),
            ("a2", 1501.0),
            ("a3", 1502.0),
            ("a4", 1503.0)
        ]
    );
    assert_eq!(
        s.withdraw_from_tournament("t9", "a4", 2_500).await.unwrap(),
        Withdrawn::NotFound
    );
    assert_eq!(
        s.withdraw_from_tournament("t1", "a4", 2_500).await.unwrap(),
        Withdrawn::Withdrawn
    );
    assert_eq!(
        s.withdraw_from_tournament("t1", "a4", 2_500).await.unwrap(),
        Withdrawn::NotEntered
    );
    assert_eq!(
        s.join_tournament("t1", &entry("a4", 1.0)).await.unwrap(),
        Joined::Joined
    );
    // Started once; numbered by the ratings given (a4 highest now), then as stored.
    assert!(
        s.start_tournament("t1", &[("a4".into(), 1900.0)], 3_000)
            .await
            .unwrap()
    );
    // A second start changes nothing (not the ratings it brings); an event not there is
    // not started.
    assert!(
        !s.start_tournament("t1", &[("a1".into(), 3000.0)], 3_500)
            .await
            .unwrap()
    );
    assert!(!s.start_tournament("t9", &[], 3_500).await.unwrap());
    assert_eq!(
        s.join_tournament("t1", &entry("a5", 1.0)).await.unwrap(),
        Joined::Closed
    );
    let t = s.tournament("t1").await.unwrap().unwrap();
    assert_eq!(
        (t.row.status.as_str(), t.row.updated_ms),
        ("running", 3_000)
    );
    assert!(t.entries.iter().all(|e| e.rating < 3000.0));
    let mut numbers: Vec<(String, Option<i64>)> = t
        .entries
        .iter()
        .map(|e| (e.account_id.clone(), e.number))
        .collect();
    numbers.sort();
    assert_eq!(
        numbers,
        [
            ("a1".to_string(), Some(4)),
            ("a2".to_string(), Some(3)),
            ("a3".to_string(), Some(2)),
            ("a4".to_string(), Some(1))
        ]
    );
    let listed = s.list_tournaments(Some("running"), 10).await.unwrap();
    assert_eq!((listed.len(), listed[0].1), (1, 4));
    assert_eq!(
        s.tournaments_to_run(10_000).await.unwrap(),
        [("t1".to_string(), "running".to_string())]
    );

    // The race: two stores, each with its own pairing and games.
    let other: Arc<dyn Store> = Arc::from(env.reopen().await);
    let mine = Arc::clone(&env.store);
    let (pa, ga) = round_one("x");
    let (pb, gb) = round_one("y");
    let a = tokio::spawn(async move { mine.store_round("t1", 1, &pa, &ga, &[], 4_000).await });
    let b = {
        let other = Arc::clone(&other);
        tokio::spawn(async move { other.store_round("t1", 1, &pb, &gb, &[], 4_000).await })
    };
    let (a, b) = (a.await.unwrap().unwrap(), b.await.unwrap().unwrap());
    assert!(a != b, "exactly one store wins: {a} {b}");
    let (winner, loser) = if a { ("x", "y") } else { ("y", "x") };
    for s in [env.store(), other.as_ref()] {
        let t = s.tournament("t1").await.unwrap().unwrap();
        assert_eq!(t.row.round, 1);
        let games: Vec<Option<String>> = t.pairings.iter().map(|p| p.game_id.clone()).collect();
        assert_eq!(
            games,
            [Some(format!("{winner}1")), Some(format!("{winner}2"))]
        );
        assert!(s.load_game(&format!("{winner}1")).await.is_ok());
        assert!(matches!(
            s.load_game(&format!("{loser}1")).await,
            Err(StoreError::NotFound(_))
        ));
    }
    // A retry (the same round again) writes nothing.
    let (pc, gc) = round_one("z");
    assert!(!s.store_round("t1", 1, &pc, &gc, &[], 5_000).await.unwrap());
    assert!(matches!(
        s.load_game("z1").await,
        Err(StoreError::NotFound(_))
    ));
    other.close().await;

    // A result is recorded once; a game of no event is nobody's.
    let g = format!("{winner}1");
    assert_eq!(
        s.tournament_of_game(&g).await.unwrap().as_deref(),
        Some("t1")
    );
    assert_eq!(s.tournament_of_game("nope").await.unwrap(), None);
    // With what else the game showed: who went berserk, the turns played.
    let played = Played {
        berserk: Some(berserk::BLACK),
        turns: 23,
    };
    assert_eq!(
        s.record_result(&g, "1-0", &played)
            .await
            .unwrap()
            .as_deref(),
        Some("t1")
    );
    let none = Played::default();
    assert_eq!(s.record_result(&g, "0-1", &none).await.unwrap(), None);
    assert_eq!(s.record_result("nope", "0-1", &none).await.unwrap(), None);
    let t = s.tournament("t1").await.unwrap().unwrap();
    assert_eq!(t.pairings[0].result.as_deref(), Some("1-0"));
    assert_eq!(
        (t.pairings[0].berserk.as_deref(), t.pairings[0].turns),
        (Some("black"), Some(23))
    );
    // Withdrawing from a running event marks the entry (the player is paired no more); from
    // one that is over, nothing changes.
    assert_eq!(
        s.withdraw_from_tournament("t1", "a1", 5_500).await.unwrap(),
        Withdrawn::Withdrawn
    );
    assert_eq!(
        s.withdraw_from_tournament("t1", "a1", 5_500).await.unwrap(),
        Withdrawn::NotEntered
    );
    assert!(s.finish_tournament("t1", 6_000).await.unwrap());
    assert!(!s.finish_tournament("t1", 6_000).await.unwrap());
    assert_eq!(
        s.withdraw_from_tournament("t1", "a2", 6_500).await.unwrap(),
        Withdrawn::Closed
    );
    assert!(s.tournaments_to_run(10_000).await.unwrap().is_empty());
}

/// With several nodes on PostgreSQL, a round's games are leased to the node that stored the
/// round, in its transaction; the games of a node that lost the race have no lease (nor rows).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_s_games_are_leased_to_the_node_that_stored_it() {
    let Some(database) = scratch::create("a_round_s_games_are_leased").await else {
        return;
    };
    database
        .run(|url| async move {
            let node = |id: &str| {
                let url = url.clone();
                let id = id.to_string();
                async move {
                    let store = PostgresStore::open(&url, POLICY)
                        .await
                        .unwrap_or_else(|e| panic!("open PostgreSQL at {url}: {e}"))
                        .with_leases(LeaseHolder {
                            node: id.into(),
                            ttl_ms: 60_000,
                        });
                    Arc::new(store) as Arc<dyn Store>
                }
            };
            let (n1, n2) = (node("n1").await, node("n2").await);
            four_entered(&*n1).await;
            assert!(n1.start_tournament("t1", &[], 3_000).await.unwrap());
            let (pa, ga) = round_one("x");
            assert!(n1.store_round("t1", 1, &pa, &ga, &[], 4_000).await.unwrap());
            let (pb, gb) = round_one("y");
            assert!(!n2.store_round("t1", 1, &pb, &gb, &[], 4_000).await.unwrap());
            let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
            let leases: Vec<(String, String)> =
                sqlx::query_as("SELECT game_id, node FROM game_leases ORDER BY game_id")
                    .fetch_all(&mut conn)
                    .await
                    .unwrap();
            let held = |game: &str| (game.to_string(), "n1".to_string());
            assert_eq!(leases, [held("x1"), held("x2")]);
            conn.close().await.unwrap();
            n1.close().await;
            n2.close().await;
        })
        .await;
}

/// Accounts made before how names look was stored (migration 21): three, two of which look
/// alike (`Ann_1`, `Ann_l`).
const OLD_ACCOUNTS_SQL: &[&str] = &[
    "INSERT INTO accounts (id, name, name_key, password_hash, created_ms, seen_ms) \
     VALUES ('a1', 'Ann_1', 'ann_1', 'x', 1000, 1000)",
    "INSERT INTO accounts (id, name, name_key, password_hash, created_ms, seen_ms) \
     VALUES ('a2', 'Ann_l', 'ann_l', 'x', 1000, 1000)",
    "INSERT INTO accounts (id, name, name_key, password_hash, created_ms, seen_ms) \
     VALUES ('b1', 'Bob', 'bob', 'x', 1000, 1000)",
];

/// How the old accounts' names look is filled in once (the second of two look-alikes keeps it
/// empty); a new account that looks like one of them is refused; new accounts have theirs.
async fn check_old_accounts(store: &dyn Store) {
    use zertz_server::accounts::names::look;
    assert_eq!(store.fill_name_looks().await.unwrap(), 2);
    assert_eq!(store.fill_name_looks().await.unwrap(), 0);
    let found = store.account_looking_like(&look("ANN_I")).await.unwrap();
    assert_eq!(found.map(|a| a.id), Some("a1".to_string()));
    assert_eq!(
        store
            .account_looking_like(&look("B0B"))
            .await
            .unwrap()
            .map(|a| a.name),
        Some("Bob".to_string())
    );
    let refused = store
        .create_account(&account("c1", "ANN_I"), &session("kc", "c1", 1_000))
        .await
        .unwrap_err();
    assert!(matches!(refused, StoreError::Taken(_)), "{refused:?}");
    store
        .create_account(&account("c2", "Cy"), &session("kc2", "c2", 1_000))
        .await
        .unwrap();
    let cy = store.account_looking_like(&look("cY")).await.unwrap();
    assert_eq!(cy.map(|a| a.id), Some("c2".to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_accounts_made_before_name_looks_get_them() {
    let dir = tempfile::tempdir().unwrap();
    let store = old_sqlite(&dir, 21, OLD_ACCOUNTS_SQL).await;
    check_old_accounts(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_accounts_made_before_name_looks_get_them() {
    let Some(database) = scratch::create("old_accounts").await else {
        return;
    };
    database
        .run(|url| async move {
            let store = old_postgres(&url, 21, OLD_ACCOUNTS_SQL).await;
            check_old_accounts(&store).await;
            store.close().await;
        })
        .await;
}

/// A SQLite store in `dir` whose database was migrated to `version`, filled by `sqls`, then
/// opened (and so migrated to the latest) as a server would open it.
async fn old_sqlite(dir: &tempfile::TempDir, version: usize, sqls: &[&str]) -> SqliteStore {
    let path = dir.path().join("old.sqlite");
    let path = path.to_str().unwrap();
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true);
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    let old = zertz_server::store::migrations::sqlite(Some(version))
        .await
        .unwrap();
    old.run(&pool).await.unwrap();
    for sql in sqls {
        sqlx::raw_sql(sql).execute(&pool).await.unwrap();
    }
    pool.close().await;
    SqliteStore::open(path, POLICY).await.unwrap()
}

/// The same on the PostgreSQL database at `url`.
async fn old_postgres(url: &str, version: usize, sqls: &[&str]) -> PostgresStore {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    let old = zertz_server::store::migrations::postgres(Some(version))
        .await
        .unwrap();
    old.run(&pool).await.unwrap();
    for sql in sqls {
        sqlx::raw_sql(sql).execute(&pool).await.unwrap();
    }
    pool.close().await;
    PostgresStore::open(url, POLICY).await.unwrap()
}
