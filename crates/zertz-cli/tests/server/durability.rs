//! What `zertz serve` keeps through trouble: acknowledged moves, clocks, a thinking engine and a
//! match in the middle of its second game survive a SIGKILL and a restart on the same
//! database; idle games leave memory and come back from storage as they were. Both kill tests
//! run on PostgreSQL too (`mod postgres`) when `ZERTZ_TEST_POSTGRES` is set.

use std::time::{Duration, Instant};

use crate::common::matches::{MatchSeats, game_count};
use crate::common::play::{Rng, answer_bribe, bribe, mv, pick_move, to_move};
use crate::common::server::{Db, Server, string, temp_db};
use serde_json::{Value, json};

#[tokio::test]
async fn acknowledged_moves_survive_a_kill() {
    let (_dir, db) = temp_db();
    kill_and_restart(Db::from(&db)).await;
}

/// Asked to stop (SIGTERM), `zertz serve` closes its store before it exits: it exits at once
/// with success, and the SQLite file holds every event in `game_events`, none left waiting in
/// the recent tables for the next start to fold (`store/sqlite/recent.rs`).
#[tokio::test]
async fn a_stopped_server_closes_its_store() {
    use sqlx::Connection;
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (id, alice, bob) = server.invite_game(json!({})).await;
    let tokens = [alice, bob];
    let mut rng = Rng::new(5);
    let mut state = server.game(&id, None).await;
    for _ in 0..6 {
        let text = pick_move(&state, &mut rng);
        let seat = to_move(&state);
        let (status, answer) = server.act(&id, &tokens[seat - 1], mv(&text)).await;
        assert_eq!(status, 200, "{answer}");
        state = answer["state"].clone();
    }
    let version = state["version"].as_i64().unwrap();
    let exit = server.stop(Duration::from_secs(10));
    assert!(
        exit.is_some_and(|e| e.success()),
        "exit {exit:?}; the log:\n{}",
        server.log()
    );
    assert!(
        server.log().contains("SIGTERM: stopping"),
        "{}",
        server.log()
    );
    let url = format!("sqlite://{}", db.display());
    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
    let waiting: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM recent_events_0) + (SELECT COUNT(*) FROM recent_events_1)",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(waiting, 0, "events left waiting in the recent tables");
    let stored: i64 = sqlx::query_scalar("SELECT MAX(version) FROM game_events WHERE game_id = ?")
        .bind(&id)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(stored, version);
    let turns: i64 = sqlx::query_scalar("SELECT turns FROM games WHERE id = ?")
        .bind(&id)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(turns, 6, "the game's row has its turns");
}

/// The body of `acknowledged_moves_survive_a_kill`, on `db` (SQLite here, PostgreSQL in `postgres`).
async fn kill_and_restart(db: Db) {
    // The engine thinks long enough to be thinking still when the server is killed.
    let mut server = Server::start_with(&db, 10_000);
    // A clocked game between two people, and an unclocked one against the engine.
    let (id, alice, bob) = server
        .invite_game(json!({"clock": {"kind": "sudden_death", "total_ms": 60_000}}))
        .await;
    let tokens = [alice.clone(), bob.clone()];
    let mut rng = Rng::new(17);
    let mut acknowledged = Vec::new();
    let mut version = 4;
    let mut state = server.game(&id, None).await;
    let mut states = Vec::new();
    for _ in 0..9 {
        states.push(state.clone());
        let seat = to_move(&state);
        let text = pick_move(&state, &mut rng);
        // Each turn takes a few milliseconds, so that each clock has been charged something.
        tokio::time::sleep(Duration::from_millis(5)).await;
        let (status, answer) = server.act(&id, &tokens[seat - 1], mv(&text)).await;
        assert_eq!(status, 200, "{answer}");
        version += 1;
        assert_eq!(answer["version"], version);
        acknowledged.push(text);
        state = answer["state"].clone();
    }
    assert_eq!(state["status"], "live");
    let mover = to_move(&state);
    // The clock of the player to move at the start of this turn: as their last move left it.
    let stopped = &states[8]["clocks"][mover - 1];
    assert_eq!(stopped["running"], false);
    let before = stopped["remaining_ms"].as_i64().unwrap();
    assert!(before < 60_000);
    let engine = server
        .create(json!({"opponent": {"kind": "engine", "level": 10}, "name": "Eva"}))
        .await;
    let eid = string(&engine["id"]);
    let etoken = string(&engine["token"]);
    let estate = server.game(&eid, None).await;
    let first = pick_move(&estate, &mut rng);
    let ev = server.act_ok(&eid, &etoken, mv(&first)).await;
    assert_eq!(ev, 4);
    // The player to move thinks a while, then the server is killed and stays down a while.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        server.game(&eid, None).await["version"],
        4,
        "the engine is still thinking"
    );
    server.kill();
    tokio::time::sleep(Duration::from_millis(1200)).await;

    // Taken before the start: the server loads the game, and its clock starts again, while it
    // starts (on a busy machine, a few hundred ms before `start` returns).
    let restarted = Instant::now();
    let mut server = Server::start(&db);
    let got = server.game(&id, Some(&tokens[mover - 1])).await;
    assert_eq!(got["version"], version);
    let moves: Vec<String> = serde_json::from_value(got["moves"].clone()).unwrap();
    assert_eq!(moves, acknowledged);
    assert_eq!(got["status"], "live");
    assert_eq!(got["you"], mover);
    assert_eq!(got["position"], state["position"]);
    assert_eq!(got["seats"][0]["name"], "Alice");
    // The turn restarted with the server: neither the thinking before the kill nor the time
    // down is charged.
    let clock = &got["clocks"][mover - 1];
    assert_eq!(clock["running"], true);
    let shown = clock["remaining_ms"].as_i64().unwrap();
    let since_restart = restarted.elapsed().as_millis() as i64;
    assert!(
        shown <= before && shown >= before - since_restart - 200,
        "the clock showed {before} ms before the kill and {shown} ms after"
    );
    assert_eq!(
        got["clocks"][2 - mover]["remaining_ms"],
        state["clocks"][2 - mover]["remaining_ms"]
    );
    // The same tokens still act; the game goes on, the move charged from the restart.
    let mut ws = server.ws(&id, Some(&tokens[mover - 1]), None).await;
    let text = pick_move(&got, &mut rng);
    let v = ws.act_ok(mv(&text)).await;
    assert_eq!(v, version + 1);
    let moved = &ws.events.last().unwrap().1;
    let charged = before - moved["clock"]["remaining_ms"].as_i64().unwrap();
    assert!(
        (0..restarted.elapsed().as_millis() as i64 + 200).contains(&charged),
        "charged {charged} ms: {moved}"
    );
    // A move by the wrong seat is still refused (the tokens came back in the right seats).
    let (status, body) = server.act(&id, &tokens[mover - 1], mv(&text)).await;
    assert_eq!(status, 409, "{body}");

    // The engine game came back too: the engine, which was thinking when the server died,
    // moves by itself, and answers the next move.
    let mut ews = server.ws(&eid, Some(&etoken), None).await;
    if ews.version == 4 {
        ews.wait_event("moved").await;
    }
    assert_eq!(ews.version, 5);
    assert_eq!(ews.state["moves"].as_array().unwrap().len(), 2);
    assert_eq!(ews.state["moves"][0], first.as_str());
    let state = ews.state.clone();
    ews.act_ok(mv(&pick_move(&state, &mut rng))).await;
    let reply = ews.wait_event("moved").await;
    assert_eq!(reply["seat"], 2);
    assert_eq!(ews.version, 7);

    // Killed once more right after an acknowledged resignation: the result is kept.
    server
        .act_ok(&id, &tokens[0], json!({"type": "resign"}))
        .await;
    server.kill();
    let mut server = Server::start(&db);
    let end = server.game(&id, None).await;
    assert_eq!(end["status"], "finished");
    assert_eq!(end["result"]["winner"], 2);
    assert_eq!(end["version"], version + 2);
    let finished = server.listed_ids("/api/games?status=finished").await;
    assert!(finished.contains(&id), "{finished:?}");
    server.assert_healthy().await;
}

#[tokio::test]
async fn a_match_survives_a_kill() {
    let (_dir, db) = temp_db();
    match_kill(Db::from(&db)).await;
}

/// The body of `a_match_survives_a_kill`: a best-of-3 match killed with SIGKILL in the middle
/// of its second game is found where it was (score, current game, bribes left), and goes on.
async fn match_kill(db: Db) {
    let mut server = Server::start(&db);
    let MatchSeats {
        id: mid,
        ann,
        ben,
        first_game: g1,
    } = server.invited_match(json!({"bribes": true})).await;
    let empty = bribe("0/0/0");
    // Game 1: a bribe of Ann's, rejected; Ann resigns.
    server.act_ok(&g1, &ann, empty.clone()).await;
    server.act_ok(&g1, &ben, answer_bribe(false)).await;
    server.act_ok(&g1, &ann, json!({"type": "resign"})).await;
    let m = server.wait_match(&mid, |m| game_count(m) == 2).await;
    let g2 = string(&m["current_game"]);
    // Game 2, Ben first: a move each, and a second bribe of Ann's, rejected.
    let mut rng = Rng::new(12);
    let state = server.game(&g2, None).await;
    server
        .act_ok(&g2, &ben, mv(&pick_move(&state, &mut rng)))
        .await;
    server.act_ok(&g2, &ann, empty.clone()).await;
    server.act_ok(&g2, &ben, answer_bribe(false)).await;
    let state = server.game(&g2, None).await;
    server
        .act_ok(&g2, &ann, mv(&pick_move(&state, &mut rng)))
        .await;
    let before = server.get_match(&mid, None).await;
    assert_eq!(before["score"], json!([0, 1]));
    assert_eq!(before["bribes_left"], json!([1, 3]));
    assert_eq!(before["current_game"], g2.as_str());
    let game_before = server.game(&g2, Some(&ann)).await;

    server.kill();
    let mut server = Server::start(&db);
    let after = server.get_match(&mid, None).await;
    for field in [
        "status",
        "score",
        "games",
        "current_game",
        "bribes_left",
        "winner",
        "players",
    ] {
        assert_eq!(after[field], before[field], "{field}");
    }
    let game_after = server.game(&g2, Some(&ann)).await;
    for field in [
        "version",
        "moves",
        "position",
        "status",
        "bribes_left",
        "match_game",
        "you",
    ] {
        assert_eq!(game_after[field], game_before[field], "{field}");
    }
    // The match goes on with the same tokens: Ben resigns games 2 and 3, Ann wins it 2-1.
    server.act_ok(&g2, &ben, json!({"type": "resign"})).await;
    let m = server.wait_match(&mid, |m| game_count(m) == 3).await;
    assert_eq!(m["score"], json!([1, 1]));
    let g3 = string(&m["current_game"]);
    assert_eq!(
        server.game(&g3, Some(&ann)).await["you"],
        1,
        "Ann first again"
    );
    server.act_ok(&g3, &ben, json!({"type": "resign"})).await;
    let m = server.wait_match(&mid, |m| m["winner"] == 0).await;
    assert_eq!(m["score"], json!([2, 1]));
    assert_eq!(m["status"], "finished");
    server.assert_healthy().await;
}

/// Polls `/api/stats` until `pred` holds for the number of games in memory (20 s at most).
async fn wait_in_memory(server: &Server, mut pred: impl FnMut(u64) -> bool) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, stats) = server.get("/api/stats", None).await;
        assert_eq!(status, 200, "{stats}");
        let n = stats["games_in_memory"].as_u64().expect("games_in_memory");
        if pred(n) {
            return n;
        }
        assert!(Instant::now() < deadline, "still {n} games in memory");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn idle_games_leave_memory_and_come_back_from_storage() {
    let (_dir, db) = temp_db();
    let mut server = Server::start_args(&db, 50, &["--evict-after", "1"]);
    // A finished game, a live one and an open one, nobody connected.
    let (done, alice, bob) = server.invite_game(json!({})).await;
    let mut rng = Rng::new(41);
    server
        .play_random(&done, &[alice.clone(), bob.clone()], &mut rng, 4)
        .await;
    server.act_ok(&done, &bob, json!({"type": "resign"})).await;
    let finished = server.game(&done, Some(&alice)).await;
    let asked = Instant::now();
    assert_eq!(finished["status"], "finished");
    let (live, _, _) = server.invite_game(json!({})).await;
    let created = server
        .create(json!({"opponent": {"kind": "open"}, "name": "Olga"}))
        .await;
    let open = string(&created["id"]);
    let n = wait_in_memory(&server, |_| true).await;
    if asked.elapsed() < Duration::from_millis(800) {
        assert_eq!(n, 3, "all three in memory before the delay");
    }

    // After the delay only the live game is left in memory.
    wait_in_memory(&server, |n| n == 1).await;
    assert_eq!(server.game(&live, None).await["status"], "live");

    // The finished game is served as it was, loaded again from storage.
    let again = server.game(&done, Some(&alice)).await;
    for field in [
        "version", "moves", "position", "result", "seats", "captures", "status",
    ] {
        assert_eq!(again[field], finished[field], "{field}");
    }
    assert_eq!(again["you"], 1, "its tokens came back with it");
    let (status, text) = server.get_text(&format!("/api/games/{done}/record")).await;
    assert_eq!(status, 200, "{text}");
    let record = zertz::record::Record::parse(&text).expect("the record reads back");
    assert_eq!(record.game.turns().len(), 4);
    let ws = server.ws(&done, None, Some(0)).await;
    assert_eq!(
        ws.events.len() as i64,
        ws.version,
        "every event, from storage"
    );
    ws.close().await;
    // It left again, and still takes a rematch: both ask, the new game starts.
    wait_in_memory(&server, |n| n == 1).await;
    server
        .act_ok(&done, &alice, json!({"type": "rematch"}))
        .await;
    server.act_ok(&done, &bob, json!({"type": "rematch"})).await;
    let mut next = Value::Null;
    for _ in 0..400 {
        next = server.game(&done, None).await["next_game"].clone();
        if next.is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let rematch = next.as_str().expect("the rematch exists").to_string();
    assert_eq!(server.game(&rematch, Some(&bob)).await["you"], 1);

    // The open game, gone from memory, is still joined from the lobby.
    let (status, joined) = server.try_join(&open, None, "Pete").await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(server.game(&open, None).await["status"], "live");
    server.assert_healthy().await;
}

/// The tests above that run on PostgreSQL too: the same bodies on `zertz serve --db
/// postgres://…`, a fresh database each (see `common::postgres`).
mod postgres {
    use super::*;

    #[tokio::test]
    async fn acknowledged_moves_survive_a_kill() {
        crate::common::postgres::run("kill_and_restart", kill_and_restart).await;
    }

    #[tokio::test]
    async fn a_match_survives_a_kill() {
        crate::common::postgres::run("match_kill", match_kill).await;
    }
}
