//! Whole games through the server's API (docs/server.md), played through
//! real HTTP and WebSocket clients: a game between two people to a win (its
//! record and SGF read back), games against the engine, open games, rematches and a match
//! against the engine, moves in host notation, a seat drawn by lot, engines that never stall
//! other games, and seat tokens never shown to spectators (nor logged: crates/zertz-cli/tests/server/games.rs). The whole game runs on
//! PostgreSQL too (`mod postgres`) when `ZERTZ_TEST_POSTGRES` is set.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zertz_testkit::in_process::Server;
use zertz_testkit::matches::game_count;
use zertz_testkit::play::{Rng, brief, mv, pick_move, play_until, refused, to_move};
use zertz_testkit::site::{Db, string, temp_db};

#[tokio::test]
async fn a_whole_game_between_two_people() {
    let (_dir, db) = temp_db();
    whole_game(Db::from(&db)).await;
}

/// A game's page is there for a game that exists; for one that does not, the same page (it
/// says "no such game") comes with status 404, so links and crawlers see the address is dead.
#[tokio::test]
async fn the_page_of_an_unknown_game_answers_404() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db);
    let created = server
        .create(json!({"opponent": {"kind": "invite"}, "name": "Alice"}))
        .await;
    let id = string(&created["id"]);
    let (status, page) = server.get_text(&format!("/game/{id}")).await;
    assert_eq!(status, 200, "{page}");
    let (status, missing) = server.get_text("/game/nosuchgame1").await;
    assert_eq!(status, 404);
    assert_eq!(missing, page, "the same page, which says what is missing");
    let (status, _) = server.get_text("/game/not%20an%20id").await;
    assert_eq!(status, 404);
}

/// The body of `a_whole_game_between_two_people`, on `db` (SQLite here, PostgreSQL in `postgres`).
async fn whole_game(db: Db) {
    let mut server = Server::start(&db);
    let created = server
        .create(json!({"opponent": {"kind": "invite"}, "name": "Alice", "seat": "first"}))
        .await;
    let id = string(&created["id"]);
    assert_eq!(created["seat"], 1);
    let invite = string(&created["invite_token"]);
    assert_eq!(
        created["invite_url"],
        format!("/game/{id}#join={invite}").as_str()
    );
    let alice = string(&created["token"]);
    assert_ne!(alice, invite);
    assert_eq!(alice.len(), 48);

    // Before the friend joins, the game is open, waiting: moves are refused.
    let open = server.game(&id, Some(&alice)).await;
    assert_eq!(open["status"], "open");
    assert_eq!(open["you"], 1);
    assert_eq!(open["version"], 2, "created, joined: {open}");
    let (status, body) = server.act(&id, &alice, mv("Wd4,a1")).await;
    assert_eq!(status, 409, "{body}");

    // The invitation is no seat's token: it acts for nobody before it is used.
    let (status, _) = server.get(&format!("/api/games/{id}"), Some(&invite)).await;
    assert_eq!(status, 403);
    // The friend joins with the invitation and gets the other seat, with a token of its own.
    let joined = server.join(&id, &invite, "Bob").await;
    assert_eq!(joined["seat"], 2);
    let bob = string(&joined["token"]);
    assert_ne!(bob, invite);
    assert_eq!(bob.len(), 48);
    // Joining again with the seat's token is harmless.
    let (status, again) = server.try_join(&id, Some(&bob), "Bob").await;
    assert_eq!((status, &again["seat"]), (200, &json!(2)), "{again}");
    let tokens = [alice.clone(), bob.clone()];

    let mut sockets = [
        server.ws(&id, Some(&alice), None).await,
        server.ws(&id, Some(&bob), None).await,
    ];
    assert_eq!(sockets[0].first["type"], "sync");
    assert_eq!(sockets[0].version, 4, "created, joined, joined, started");
    assert_eq!(sockets[0].state["status"], "live");
    assert_eq!(sockets[0].state["you"], 1);
    assert_eq!(sockets[1].state["you"], 2);
    assert_eq!(sockets[0].state["seats"][0]["name"], "Alice");
    assert_eq!(sockets[0].state["seats"][1]["name"], "Bob");
    let legal = sockets[0].state["legal_moves"].as_array().unwrap();
    assert!(legal.contains(&json!("Wd4,a1")), "{legal:?}");
    assert!(
        legal
            .iter()
            .all(|m| m.as_str().unwrap().starts_with(['W', 'G', 'B']))
    );

    let mut rng = Rng::new(2024);
    let played = play_until(&server, &id, &tokens, &mut sockets, &mut rng, 300, |_| {
        false
    })
    .await;
    let last = sockets[0].state.clone();
    assert_eq!(
        last["status"],
        "finished",
        "the game did not end: {}",
        brief(&last)
    );
    let result = &last["result"];
    let winner = result["winner"].as_u64().expect("a winner") as usize;
    assert!(winner == 1 || winner == 2);
    assert_eq!(
        result["token"],
        if winner == 1 { "1-0" } else { "0-1" },
        "{result}"
    );
    assert!(
        result["text"].as_str().unwrap().contains("wins"),
        "{result}"
    );
    assert_eq!(last["legal_moves"], json!([]));
    let moves: Vec<String> = serde_json::from_value(last["moves"].clone()).unwrap();
    assert_eq!(moves, played);
    assert_eq!(last["version"], 4 + played.len() as i64);
    // Every event of the game, once each, in order, on both sockets.
    for ws in &sockets {
        let versions: Vec<i64> = ws.events.iter().map(|(v, _)| *v).collect();
        assert_eq!(versions, (5..=4 + played.len() as i64).collect::<Vec<_>>());
    }
    // The game over HTTP is the same.
    let got = server.game(&id, None).await;
    assert_eq!(got["moves"], last["moves"]);
    assert_eq!(got["version"], last["version"]);
    assert_eq!(got["result"], last["result"]);
    assert_eq!(got["you"], Value::Null);
    // A move on a finished game is refused.
    let (status, body) = server.act(&id, &alice, mv(&played[0])).await;
    assert_eq!(status, 409, "{body}");

    // The record reads back to the same game.
    let (status, text) = server.get_text(&format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200, "{text}");
    let record = zertz::record::Record::parse(&text).expect("the record reads back");
    assert_eq!(record.game.turns().len(), played.len());
    assert_eq!(record.header("Player1"), Some("Alice"));
    assert_eq!(record.header("Player2"), Some("Bob"));
    let outcome = record.game.outcome().expect("the record's game is over");
    assert_eq!(
        outcome.winner().map(|p| p.number() as usize),
        Some(winner),
        "{text}"
    );
    assert_eq!(
        record.game.position().to_string(),
        last["position"].as_str().unwrap()
    );

    // The SGF imports back to the same moves.
    let (status, sgf) = server.get_text(&format!("/api/games/{id}/sgf")).await;
    assert_eq!(status, 200, "{sgf}");
    assert!(sgf.starts_with("(;"), "{sgf}");
    let (status, imported) = server
        .post("/api/import", &json!({"text": sgf}), None)
        .await;
    assert_eq!(status, 200, "{imported}");
    assert_eq!(imported["moves"], last["moves"]);
    assert_eq!(imported["position"], last["position"]);

    // The finished game is listed as such.
    let finished = server.listing("/api/games?status=finished").await;
    assert!(
        finished
            .iter()
            .any(|g| g["id"] == id.as_str() && g["result"] == result["token"]),
        "{finished:?}"
    );
    server.assert_healthy().await;
}

/// Plays against the engine at `level` (the person in `seat`) until the game ends or the
/// engine has moved `engine_moves` times; returns the engine's moves seen and the last state.
async fn play_engine(
    server: &Server,
    level: u8,
    seat: &str,
    engine_moves: usize,
    seed: u64,
) -> (usize, Value) {
    let created = server
        .create(
            json!({"opponent": {"kind": "engine", "level": level}, "seat": seat, "name": "Carol"}),
        )
        .await;
    let id = string(&created["id"]);
    let token = string(&created["token"]);
    let me = created["seat"].as_u64().unwrap() as usize;
    assert_eq!(created["invite_token"], Value::Null);
    let mut ws = server.ws(&id, Some(&token), None).await;
    let engine_seat = 3 - me;
    assert_eq!(ws.state["status"], "live", "an engine game starts at once");
    assert_eq!(ws.state["seats"][engine_seat - 1]["kind"], "engine");
    assert_eq!(ws.state["seats"][engine_seat - 1]["level"], level);
    assert_eq!(ws.state["seats"][engine_seat - 1]["connected"], true);
    // An engine that moves first may have moved before the socket connected.
    let at_connect = ws.state["moves"].as_array().unwrap().len();
    let mut rng = Rng::new(seed);
    let mut seen = 0;
    let mut my_moves = 0;
    while ws.state["status"] == "live" && seen < engine_moves {
        if to_move(&ws.state) == me {
            let text = pick_move(&ws.state, &mut rng);
            let before = ws.version;
            let v = ws.act_ok(mv(&text)).await;
            assert_eq!(v, before + 1);
            my_moves += 1;
        } else {
            // The engine moves by itself: nothing is sent.
            let before = ws.version;
            let event = ws.wait_event("moved").await;
            assert_eq!(ws.version, before + 1);
            assert_eq!(event["seat"], engine_seat, "{event}");
            seen += 1;
        }
    }
    let state = ws.state.clone();
    let moves = state["moves"].as_array().unwrap().len();
    assert_eq!(moves, at_connect + seen + my_moves);
    (seen, state)
}

#[tokio::test]
async fn games_against_the_engine() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // Level 1, the person first: to the end or 10 engine moves.
    let (seen, state) = play_engine(&server, 1, "first", 10, 7).await;
    assert!(
        seen >= 10 || state["status"] == "finished",
        "{seen} engine moves: {}",
        brief(&state)
    );
    // Level 10, the engine first: it opens by itself.
    let (seen, state) = play_engine(&server, 10, "second", 4, 8).await;
    assert!(
        seen >= 4 || state["status"] == "finished",
        "{}",
        brief(&state)
    );
    assert_eq!(
        state["moves"].as_array().unwrap().len() % 2 == 0,
        to_move(&state) == 1
    );

    // A draw offer made on one's own turn waits for the engine, and is withdrawn by the move;
    // then a resignation, and a rematch the engine accepts at once.
    let created = server
        .create(json!({"opponent": {"kind": "engine", "level": 3}, "name": "Dan"}))
        .await;
    let id = string(&created["id"]);
    let token = string(&created["token"]);
    let mut ws = server.ws(&id, Some(&token), None).await;
    ws.act_ok(json!({"type": "offer_draw"})).await;
    assert_eq!(ws.state["draw_offer"], 1);
    let state = ws.state.clone();
    ws.act_ok(mv(&pick_move(&state, &mut Rng::new(1)))).await;
    assert_eq!(ws.state["draw_offer"], Value::Null);
    ws.wait_event("moved").await;
    assert_eq!(ws.state["status"], "live");
    ws.act_ok(json!({"type": "resign"})).await;
    assert_eq!(ws.state["status"], "finished");
    assert_eq!(ws.state["result"]["winner"], 2);
    // The engine accepts a rematch at once; the seats are swapped.
    ws.act_ok(json!({"type": "rematch"})).await;
    let next = ws.wait_event("next_game").await;
    let next_id = next["game_id"].as_str().unwrap();
    let rematch = server.game(next_id, Some(&token)).await;
    assert_eq!(rematch["you"], 2);
    assert_eq!(rematch["seats"][0]["kind"], "engine");
    server.assert_healthy().await;
}

#[tokio::test]
async fn open_games_rematches_and_matches_against_the_engine() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // An open game is listed in the lobby; the first to join takes the free seat.
    let created = server
        .create(json!({"opponent": {"kind": "open"}, "name": "Olga", "seat": "second"}))
        .await;
    let id = string(&created["id"]);
    let olga = string(&created["token"]);
    assert_eq!(created["seat"], 2);
    assert_eq!(created["invite_token"], Value::Null);
    let open = server.listed_ids("/api/games?status=open").await;
    assert!(open.contains(&id), "{open:?}");
    let (status, joined) = server.try_join(&id, None, "Pete").await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 1);
    let pete = string(&joined["token"]);
    assert_eq!(pete.len(), 48);
    assert_ne!(pete, olga);
    let (status, body) = server.try_join(&id, None, "Quinn").await;
    refused(status, &body, 409, "taken");
    let open = server.listed_ids("/api/games?status=open").await;
    assert!(!open.contains(&id), "{open:?}");
    let live = server.listed_ids("/api/games?status=live").await;
    assert!(live.contains(&id), "{live:?}");

    // A rematch once both ask: the seats swap, the tokens stay.
    let mut ws = server.ws(&id, Some(&olga), None).await;
    let state = server.game(&id, None).await;
    server
        .act_ok(&id, &pete, mv(&pick_move(&state, &mut Rng::new(2))))
        .await;
    server.act_ok(&id, &pete, json!({"type": "resign"})).await;
    let (status, body) = server.act(&id, &pete, json!({"type": "rematch"})).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.act(&id, &pete, json!({"type": "rematch"})).await;
    refused(status, &body, 409, "already");
    ws.act_ok(json!({"type": "rematch"})).await;
    let next = ws.wait_event("next_game").await;
    let rematch = string(&next["game_id"]);
    assert_eq!(ws.state["next_game"], rematch.as_str());
    let r = server.game(&rematch, Some(&olga)).await;
    assert_eq!(r["you"], 1);
    assert_eq!(r["status"], "live");
    assert_eq!(r["seats"][0]["name"], "Olga");
    assert_eq!(server.game(&rematch, Some(&pete)).await["you"], 2);

    // A best-of-3 match against the engine: the engine opens game 2 by itself.
    let created = server
        .create_match(
            json!({"opponent": {"kind": "engine", "level": 1}, "name": "Rita", "best_of": 3,
                   "clock": {"kind": "fischer", "base_ms": 60_000, "increment_ms": 0}}),
        )
        .await;
    assert_eq!(created["invite_token"], Value::Null);
    let mid = string(&created["id"]);
    let rita = string(&created["token"]);
    let m = server
        .wait_match(&mid, |m| m["current_game"].is_string())
        .await;
    assert_eq!(m["status"], "live");
    assert_eq!(m["players"][1]["kind"], "engine");
    let g1 = string(&m["current_game"]);
    let s1 = server.game(&g1, Some(&rita)).await;
    assert_eq!(s1["you"], 1);
    server
        .act_ok(&g1, &rita, mv(&pick_move(&s1, &mut Rng::new(4))))
        .await;
    let mut ws1 = server.ws(&g1, Some(&rita), None).await;
    if ws1.state["moves"].as_array().unwrap().len() < 2 {
        ws1.wait_event("moved").await;
    }
    assert_eq!(ws1.state["moves"].as_array().unwrap().len(), 2);
    ws1.act_ok(json!({"type": "resign"})).await;
    let next = ws1.wait_event("next_game").await;
    let g2 = string(&next["game_id"]);
    let mut ws2 = server.ws(&g2, Some(&rita), None).await;
    assert_eq!(ws2.state["you"], 2);
    assert_eq!(ws2.state["seats"][0]["kind"], "engine");
    // Fresh clocks in the new game.
    for seat in 0..2 {
        let left = ws2.state["clocks"][seat]["remaining_ms"].as_i64().unwrap();
        assert!((50_000..=60_000).contains(&left), "{}", brief(&ws2.state));
    }
    if ws2.state["moves"].as_array().unwrap().is_empty() {
        ws2.wait_event("moved").await;
    }
    assert_eq!(to_move(&ws2.state), 2);
    ws2.act_ok(json!({"type": "resign"})).await;
    let m = server.wait_match(&mid, |m| m["winner"] == 1).await;
    assert_eq!(m["score"], json!([0, 2]));
    assert_eq!(m["status"], "finished");
    assert_eq!(game_count(&m), 2);
    server.assert_healthy().await;
}

#[tokio::test]
async fn moves_in_host_notation_are_played() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // The seed's own example: on a full board A1 is g4 and G4 is a1.
    let start = zertz::Position::standard();
    let opening = zertz::notation::official::parse(&start, "Wd4,a1").unwrap();
    assert_eq!(
        zertz::notation::host::move_text(&start, &opening),
        "W D4 G4"
    );
    let (id, alice, bob) = server.invite_game(json!({})).await;
    let mut ws = server.ws(&id, Some(&alice), None).await;
    ws.act_ok(mv("W D4 G4")).await;
    assert_eq!(ws.events.last().unwrap().1["notation"], "Wd4,a1");
    // More moves, each sent in host notation (whose numbers shift as rings leave), captures
    // included when they come; each is recorded in official notation.
    let mut rng = Rng::new(23);
    let mut captures = 0;
    for _ in 0..16 {
        let state = ws.state.clone();
        if state["status"] != "live" {
            break;
        }
        let official = pick_move(&state, &mut rng);
        let position: zertz::Position = state["position"].as_str().unwrap().parse().unwrap();
        let m = zertz::notation::official::parse(&position, &official).unwrap();
        let host = zertz::notation::host::move_text(&position, &m);
        assert_ne!(host, official);
        captures += usize::from(official.starts_with('x'));
        let v = if to_move(&state) == 1 {
            ws.act_ok(mv(&host)).await
        } else {
            server.act_ok(&id, &bob, mv(&host)).await
        };
        ws.wait_version(v).await;
        assert_eq!(
            ws.events.last().unwrap().1["notation"],
            official.as_str(),
            "{host}"
        );
    }
    assert!(captures > 0, "no capture was played in host notation");
    // A host coordinate that does not exist is refused with the reason.
    let state = ws.state.clone();
    if state["status"] == "live" {
        let token = if to_move(&state) == 1 { &alice } else { &bob };
        let (status, body) = server.act(&id, token, mv("W A9 A1")).await;
        refused(status, &body, 422, "A9");
    }
    server.assert_healthy().await;
}

#[tokio::test]
async fn a_random_seat_is_either_seat() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let mut seats = Vec::new();
    for _ in 0..20 {
        let created = server
            .create(json!({"opponent": {"kind": "invite"}, "name": "Rae", "seat": "random"}))
            .await;
        let seat = created["seat"].as_u64().unwrap();
        let id = created["id"].as_str().unwrap();
        let state = server
            .game(id, Some(created["token"].as_str().unwrap()))
            .await;
        assert_eq!(state["you"], seat);
        assert_eq!(state["seats"][seat as usize - 1]["name"], "Rae");
        assert_eq!(state["seats"][2 - seat as usize]["name"], Value::Null);
        let friend = server
            .join(id, created["invite_token"].as_str().unwrap(), "Sam")
            .await;
        assert_eq!(friend["seat"], 3 - seat);
        seats.push(seat);
    }
    // Twenty draws all alike would happen once in half a million runs.
    assert!(seats.contains(&1) && seats.contains(&2), "{seats:?}");
    server.assert_healthy().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engines_thinking_never_stall_other_games() {
    let (_dir, db) = temp_db();
    // One engine slot, and engines that think 3 s a move.
    let mut server = Server::start_config(&db, 3_000, |c| c.engine_slots = 1);
    // Two engine games in which the engine moves first: one thinks, the other waits for the
    // slot.
    let mut engine_games = Vec::new();
    for _ in 0..2 {
        let created = server
            .create(json!({"opponent": {"kind": "engine", "level": 10}, "seat": "second"}))
            .await;
        let id = string(&created["id"]);
        let version = server.game(&id, None).await["version"].as_i64().unwrap();
        engine_games.push((id, version));
    }
    let started = Instant::now();
    // Meanwhile two people play: every move is acknowledged at once.
    let (id, alice, bob) = server.invite_game(json!({})).await;
    let mut rng = Rng::new(77);
    let mut slowest = Duration::ZERO;
    for _ in 0..12 {
        let state = server.game(&id, None).await;
        let token = if to_move(&state) == 1 { &alice } else { &bob };
        let text = pick_move(&state, &mut rng);
        let sent = Instant::now();
        server.act_ok(&id, token, mv(&text)).await;
        slowest = slowest.max(sent.elapsed());
    }
    // A liveness check with a generous bound, not a benchmark.
    assert!(slowest < Duration::from_secs(1), "a move took {slowest:?}");
    // The engines were still thinking (or waiting for the slot) all that time.
    if started.elapsed() < Duration::from_millis(2_500) {
        for (game, version) in &engine_games {
            let state = server.game(game, None).await;
            assert_eq!(state["version"], *version, "the engine has not moved yet");
            assert_eq!(state["moves"], json!([]));
        }
    }
    server.assert_healthy().await;
}

/// The tests above that run on PostgreSQL too: the same bodies on `zertz serve --db
/// postgres://…`, a fresh database each (see `zertz_testkit::postgres`).
mod postgres {
    use super::*;

    #[tokio::test]
    async fn a_whole_game_between_two_people() {
        zertz_testkit::postgres::run("whole_game", whole_game).await;
    }
}

/// A move typed in lower case, or with a dash before the removed ring, is the move: the server
/// reads moves with the rules library's one rule, as the terminal does.
#[tokio::test]
async fn moves_typed_in_lower_case_are_played() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db);
    let (id, ann, bob) = server.invite_game(json!({})).await;
    server
        .act_ok(&id, &ann, json!({"type": "move", "move": "wd4,a1"}))
        .await;
    server
        .act_ok(&id, &bob, json!({"type": "move", "move": "Bd5-g4"}))
        .await;
    let moves = server.game(&id, None).await["moves"].clone();
    assert_eq!(moves, json!(["Wd4,a1", "Bd5,g4"]));
}
