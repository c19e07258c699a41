//! `zertz serve` (docs/server.md) from outside: the real binary on a loopback port with a
//! SQLite file, played through real HTTP and WebSocket clients.
//!
//! - a whole game between two people to a win, with the record and the SGF;
//! - games against the engine (levels 1 and 10);
//! - a best-of-3 match with bribes (accepted and rejected), a replayed draw, alternating first
//!   players and the score;
//! - every kind of clock running out, flagged by the server's own timer, and turns charged;
//! - spectators, tokens, reconnection with `since`, presence and claiming a game;
//! - illegal and out-of-turn moves, bad input of every kind;
//! - a server killed with SIGKILL and started again on the same database, in a game and in a
//!   match;
//! - claiming a vanished opponent, pings, late moves, idle games leaving memory, pages of
//!   listings, records continued with their history, matches watched, resigned and exported;
//! - the whole game, the match and the kill tests again on PostgreSQL (`mod postgres`) when
//!   `ZERTZ_TEST_POSTGRES` is set.

mod common;

use std::time::{Duration, Instant};

use common::server::{Db, MatchWs, Rng, Server, Ws, brief, mv, pick_move, temp_db, to_move};
use serde_json::{Value, json};

/// The events of a socket from version `from` on, as their types.
fn event_types(ws: &Ws, from: i64) -> Vec<String> {
    ws.events
        .iter()
        .filter(|(v, _)| *v >= from)
        .map(|(_, e)| e["type"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// Checks an error answer: its status, and that its message contains `needle`.
#[track_caller]
fn refused(status: u16, body: &Value, expected: u16, needle: &str) {
    assert_eq!(status, expected, "{}", brief(body));
    let error = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {}", brief(body)));
    assert!(error.contains(needle), "`{needle}` not in {body}");
}

/// The token of a seat (1 or 2) among `[token of seat 1, token of seat 2]`.
fn token_of(tokens: &[String; 2], seat: usize) -> &str {
    &tokens[seat - 1]
}

/// Both players play moves picked from `legal_moves` (captures first), seat 1 over its
/// WebSocket and seat 2 over HTTP, until `stop` says so or the game ends. Both sockets must
/// see every event, one version at a time. Returns the moves played.
async fn play_until(
    server: &Server,
    id: &str,
    tokens: &[String; 2],
    sockets: &mut [Ws; 2],
    rng: &mut Rng,
    max_moves: usize,
    mut stop: impl FnMut(&Value) -> bool,
) -> Vec<String> {
    let mut played = Vec::new();
    while played.len() < max_moves {
        let state = sockets[0].state.clone();
        if state["status"] != "live" || stop(&state) {
            break;
        }
        let seat = to_move(&state);
        let text = pick_move(&state, rng);
        let before = sockets[0].version;
        let version = if seat == 1 {
            sockets[0].act_ok(mv(&text)).await
        } else {
            server.act_ok(id, token_of(tokens, 2), mv(&text)).await
        };
        assert_eq!(version, before + 1, "a move is one event");
        for ws in sockets.iter_mut() {
            ws.wait_version(version).await;
            let (v, event) = ws.events.last().expect("the move's event");
            assert_eq!(*v, version);
            assert_eq!(event["type"], "moved", "{event}");
            assert_eq!(event["seat"], seat);
            assert_eq!(event["notation"], text.as_str());
        }
        assert_eq!(sockets[0].state, {
            let mut s = sockets[1].state.clone();
            s["you"] = json!(1);
            s
        });
        played.push(text);
    }
    played
}

#[tokio::test]
async fn a_whole_game_between_two_people() {
    let (_dir, db) = temp_db();
    whole_game(Db::from(&db)).await;
}

/// The body of `a_whole_game_between_two_people`, on `db` (SQLite here, PostgreSQL in `postgres`).
async fn whole_game(db: Db) {
    let mut server = Server::start(&db);
    let created = server
        .create(json!({"opponent": {"kind": "invite"}, "name": "Alice", "seat": "first"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["seat"], 1);
    let invite = created["invite_token"].as_str().unwrap().to_string();
    assert_eq!(
        created["invite_url"],
        format!("/game/{id}#join={invite}").as_str()
    );
    let alice = created["token"].as_str().unwrap().to_string();
    assert_ne!(alice, invite);
    assert_eq!(alice.len(), 48);

    // Before the friend joins, the game is open, waiting: moves are refused.
    let open = server.game(&id, Some(&alice)).await;
    assert_eq!(open["status"], "open");
    assert_eq!(open["you"], 1);
    assert_eq!(open["version"], 2, "created, joined: {open}");
    let (status, body) = server.act(&id, &alice, mv("Wd4,a1")).await;
    assert_eq!(status, 409, "{body}");

    // The friend joins with the invitation's token and gets the other seat.
    let joined = server.join(&id, &invite, "Bob").await;
    assert_eq!(joined["seat"], 2);
    assert_eq!(joined["token"], invite.as_str());
    // Joining again is harmless.
    let again = server.join(&id, &invite, "Bob").await;
    assert_eq!(again["seat"], 2);
    let tokens = [alice.clone(), invite.clone()];

    let mut sockets = [
        server.ws(&id, Some(&alice), None).await,
        server.ws(&id, Some(&invite), None).await,
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
    let (status, list) = server.get("/api/games?status=finished", None).await;
    assert_eq!(status, 200);
    assert!(
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str() && g["result"] == result["token"]),
        "{list}"
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
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let me = created["seat"].as_u64().unwrap() as usize;
    assert_eq!(created["invite_token"], Value::Null);
    let mut ws = server.ws(&id, Some(&token), None).await;
    let engine_seat = 3 - me;
    assert_eq!(ws.state["status"], "live", "an engine game starts at once");
    assert_eq!(ws.state["seats"][engine_seat - 1]["kind"], "engine");
    assert_eq!(ws.state["seats"][engine_seat - 1]["level"], level);
    assert_eq!(ws.state["seats"][engine_seat - 1]["connected"], true);
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
    assert_eq!(moves, seen + my_moves);
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
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
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

/// Polls `GET /api/matches/{id}` until `pred` holds (10 s at most).
async fn wait_match(server: &Server, id: &str, mut pred: impl FnMut(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, m) = server.get(&format!("/api/matches/{id}"), None).await;
        assert_eq!(status, 200, "{m}");
        if pred(&m) {
            return m;
        }
        assert!(
            Instant::now() < deadline,
            "the match did not get there: {m}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The seat tokens of a match game, `[seat 1, seat 2]`, from the participants' tokens; checks
/// that participant `first` sits in seat 1.
async fn match_seats(
    server: &Server,
    game: &str,
    players: &[String; 2],
    first: usize,
) -> [String; 2] {
    for (i, token) in players.iter().enumerate() {
        let view = server.game(game, Some(token)).await;
        let expected = if i == first { 1 } else { 2 };
        assert_eq!(view["you"], expected, "participant {i} in game {game}");
    }
    [players[first].clone(), players[1 - first].clone()]
}

/// The colour (0 white, 1 grey, 2 black) both players hold among their captures, if any.
fn common_colour(state: &Value) -> Option<usize> {
    let c = &state["captures"];
    (0..3).find(|&k| c[0][k].as_u64().unwrap_or(0) > 0 && c[1][k].as_u64().unwrap_or(0) > 0)
}

fn one_of(colour: usize) -> String {
    let mut m = [0; 3];
    m[colour] = 1;
    format!("{}/{}/{}", m[0], m[1], m[2])
}

#[tokio::test]
async fn a_best_of_three_match_with_bribes() {
    let (_dir, db) = temp_db();
    match_with_bribes(Db::from(&db)).await;
}

/// The body of `a_best_of_three_match_with_bribes`, on `db` (SQLite here, PostgreSQL in `postgres`).
async fn match_with_bribes(db: Db) {
    let mut server = Server::start(&db);
    let (status, created) = server
        .post(
            "/api/matches",
            &json!({"opponent": {"kind": "invite"}, "name": "Ann", "best_of": 3, "bribes": true,
                    "seat": "first"}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let mid = created["id"].as_str().unwrap().to_string();
    let ann = created["token"].as_str().unwrap().to_string();
    let invite = created["invite_token"].as_str().unwrap().to_string();
    let m = wait_match(&server, &mid, |_| true).await;
    assert_eq!(m["status"], "open");
    assert_eq!(m["current_game"], Value::Null);
    assert_eq!(m["bribes_left"], json!([3, 3]));
    // The friend takes the invited place.
    let (status, joined) = server
        .post(
            &format!("/api/matches/{mid}/join"),
            &json!({"name": "Ben", "token": invite}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["player"], 1);
    assert_eq!(joined["token"], invite.as_str());
    let ben = invite.clone();
    let players = [ann.clone(), ben.clone()];
    let m = wait_match(&server, &mid, |m| m["current_game"].is_string()).await;
    assert_eq!(m["status"], "live");
    assert_eq!(m["players"][0]["name"], "Ann");
    assert_eq!(m["players"][1]["name"], "Ben");
    let (_, as_ben) = server.get(&format!("/api/matches/{mid}"), Some(&ben)).await;
    assert_eq!(as_ben["you"], 1);

    // Game 1: Ann moves first.
    let g1 = m["current_game"].as_str().unwrap().to_string();
    let seats = match_seats(&server, &g1, &players, 0).await;
    let mut sockets = [
        server.ws(&g1, Some(&seats[0]), None).await,
        server.ws(&g1, Some(&seats[1]), None).await,
    ];
    assert_eq!(sockets[0].state["match_game"], json!([mid, 1]));
    assert_eq!(sockets[0].state["bribes_left"], json!([3, 3]));
    let mut rng = Rng::new(99);
    play_until(&server, &g1, &seats, &mut sockets, &mut rng, 200, |s| {
        common_colour(s).is_some()
    })
    .await;
    let state = sockets[0].state.clone();
    assert_eq!(
        state["status"],
        "live",
        "the game ended before any bribe: {}",
        brief(&state)
    );
    let colour = common_colour(&state).unwrap();
    let bribe = one_of(colour);
    let p = to_move(&state);
    let q = 3 - p;
    let (tp, tq) = (seats[p - 1].clone(), seats[q - 1].clone());
    let propose = json!({"type": "propose_bribe", "marbles": bribe});

    // The opponent may not propose out of turn; a bribe of marbles not held is refused.
    let (status, body) = server.act(&g1, &tq, propose.clone()).await;
    assert_eq!(status, 409, "{body}");
    let (status, body) = server
        .act(
            &g1,
            &tp,
            json!({"type": "propose_bribe", "marbles": "9/9/9"}),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = server
        .act(
            &g1,
            &tp,
            json!({"type": "propose_bribe", "marbles": "lots"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("lots"), "{body}");

    // A bribe proposed and rejected: the proposer must then move.
    let captures = state["captures"].clone();
    let moves_before = state["moves"].as_array().unwrap().len();
    let v = server.act_ok(&g1, &tp, propose.clone()).await;
    for ws in sockets.iter_mut() {
        ws.wait_version(v).await;
        assert_eq!(
            ws.events.last().unwrap().1,
            json!({"type": "bribe_proposed", "seat": p, "marbles": bribe})
        );
        assert_eq!(
            ws.state["pending_bribe"],
            json!({"by": p, "marbles": bribe})
        );
    }
    let mut left = [3, 3];
    left[p - 1] = 2;
    assert_eq!(sockets[0].state["bribes_left"], json!(left));
    let pending = sockets[0].state.clone();
    assert_eq!(
        pending["legal_moves"],
        json!([]),
        "no move while a bribe waits"
    );
    // While it waits, neither a move nor a second bribe nor the proposer's own answer.
    let some_move = state["legal_moves"][0].as_str().unwrap().to_string();
    for (token, action) in [
        (&tp, mv(&some_move)),
        (&tp, propose.clone()),
        (&tp, json!({"type": "answer_bribe", "accept": true})),
    ] {
        let (status, body) = server.act(&g1, token, action.clone()).await;
        assert_eq!(status, 409, "{action}: {body}");
    }
    let v = server
        .act_ok(&g1, &tq, json!({"type": "answer_bribe", "accept": false}))
        .await;
    for ws in sockets.iter_mut() {
        ws.wait_version(v).await;
        assert_eq!(
            ws.events.last().unwrap().1,
            json!({"type": "bribe_answered", "seat": q, "accepted": false})
        );
    }
    let rejected = sockets[0].state.clone();
    assert_eq!(
        to_move(&rejected),
        p,
        "after a rejected bribe the proposer moves"
    );
    assert_eq!(rejected["pending_bribe"], Value::Null);
    assert_eq!(rejected["captures"], captures);
    assert_eq!(rejected["moves"].as_array().unwrap().len(), moves_before);
    assert_eq!(rejected["legal_moves"], state["legal_moves"]);
    // The proposer moves (and the opponent answers), then proposes once more: rejected again.
    play_until(&server, &g1, &seats, &mut sockets, &mut rng, 2, |_| false).await;
    assert_eq!(to_move(&sockets[0].state), p);
    let v = server.act_ok(&g1, &tp, propose.clone()).await;
    server
        .act_ok(&g1, &tq, json!({"type": "answer_bribe", "accept": false}))
        .await;
    for ws in sockets.iter_mut() {
        ws.wait_version(v + 1).await;
    }
    left[p - 1] = 1;
    assert_eq!(sockets[0].state["bribes_left"], json!(left));
    play_until(&server, &g1, &seats, &mut sockets, &mut rng, 1, |_| false).await;

    // A bribe proposed by the other player and accepted: the turn passes, `-` in the moves,
    // the marble handed over.
    let state = sockets[0].state.clone();
    assert_eq!(state["status"], "live", "{}", brief(&state));
    assert_eq!(to_move(&state), q);
    let colour = common_colour(&state).expect("captures only grow");
    let bribe = one_of(colour);
    let v = server
        .act_ok(&g1, &tq, json!({"type": "propose_bribe", "marbles": bribe}))
        .await;
    left[q - 1] = 2;
    let v2 = sockets[p - 1]
        .act_ok(json!({"type": "answer_bribe", "accept": true}))
        .await;
    assert_eq!(v2, v + 1);
    for ws in sockets.iter_mut() {
        ws.wait_version(v2).await;
        let (_, event) = ws.events.last().unwrap();
        assert_eq!(event["type"], "bribe_answered");
        assert_eq!(event["accepted"], true);
        assert_eq!(event["seat"], p);
    }
    let passed = sockets[0].state.clone();
    assert_eq!(to_move(&passed), p, "the bribe bought the turn");
    assert_eq!(passed["moves"].as_array().unwrap().last().unwrap(), "-");
    assert_eq!(
        passed["moves"].as_array().unwrap().len(),
        state["moves"].as_array().unwrap().len() + 1
    );
    let held = |s: &Value, seat: usize| s["captures"][seat - 1][colour].as_u64().unwrap();
    assert_eq!(held(&passed, q), held(&state, q) - 1);
    assert_eq!(held(&passed, p), held(&state, p) + 1);
    assert_eq!(passed["bribes_left"], json!(left));

    // The record keeps the bribes and the pass.
    let (status, text) = server.get_text(&format!("/api/games/{g1}/record")).await;
    assert_eq!(status, 200, "{text}");
    let record = zertz::record::Record::parse(&text).expect("the record reads back");
    assert_eq!(
        record.game.turns().len(),
        passed["moves"].as_array().unwrap().len()
    );
    assert_eq!(
        record.game.position().to_string(),
        passed["position"].as_str().unwrap()
    );
    assert!(
        text.contains("rejected") && text.contains("accepted"),
        "{text}"
    );
    // BoardSpace's SGF has no pass: refused with the reason.
    let (status, sgf) = server.get(&format!("/api/games/{g1}/sgf"), None).await;
    refused(status, &sgf, 422, "bribe");

    // Game 1 ends: the opponent of the proposer-of-two resigns.
    server.act_ok(&g1, &tq, json!({"type": "resign"})).await;
    let next = sockets[0].wait_event("next_game").await;
    let g2 = next["game_id"].as_str().unwrap().to_string();
    sockets[1].wait_event("next_game").await;
    assert_eq!(sockets[1].state["next_game"], g2.as_str());
    assert_eq!(sockets[1].state["result"]["winner"], p);
    // Participant of seat p in game 1 (Ann sits in seat 1).
    let w = p - 1;
    let m = wait_match(&server, &mid, |m| m["games"].as_array().unwrap().len() == 2).await;
    assert_eq!(m["current_game"], g2.as_str());
    let mut score = [0, 0];
    score[w] = 1;
    assert_eq!(m["score"], json!(score));
    assert_eq!(m["games"][0]["winner"], w);
    assert_eq!(m["games"][0]["result"], if p == 1 { "1-0" } else { "0-1" });
    let mut match_left = [3, 3];
    match_left[w] = 1;
    match_left[1 - w] = 2;
    assert_eq!(m["bribes_left"], json!(match_left));

    // Game 2: Ben moves first; the bribes left carry over.
    let seats2 = match_seats(&server, &g2, &players, 1).await;
    let s2 = server.game(&g2, None).await;
    assert_eq!(s2["status"], "live");
    assert_eq!(s2["match_game"], json!([mid, 2]));
    assert_eq!(s2["bribes_left"], json!([match_left[1], match_left[0]]));
    assert_eq!(s2["moves"], json!([]));
    // A draw by agreement is replayed.
    server
        .act_ok(&g2, &seats2[0], json!({"type": "offer_draw"}))
        .await;
    let (status, body) = server
        .act(&g2, &seats2[0], json!({"type": "accept_draw"}))
        .await;
    assert_eq!(status, 409, "one's own offer cannot be accepted: {body}");
    server
        .act_ok(&g2, &seats2[1], json!({"type": "accept_draw"}))
        .await;
    let m = wait_match(&server, &mid, |m| m["games"].as_array().unwrap().len() == 3).await;
    assert_eq!(m["games"][1]["result"], "1/2-1/2");
    assert_eq!(m["games"][1]["winner"], Value::Null);
    assert_eq!(m["score"], json!(score));
    // Game 3: Ann first again; participant 1 - w wins it.
    let g3 = m["current_game"].as_str().unwrap().to_string();
    // The drawn game points to its replay (the event follows the match's update).
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.game(&g2, None).await["next_game"] != g3.as_str() {
        assert!(Instant::now() < deadline, "game 2 never named game 3");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seats3 = match_seats(&server, &g3, &players, 0).await;
    server
        .act_ok(&g3, &players[w], json!({"type": "resign"}))
        .await;
    let m = wait_match(&server, &mid, |m| m["games"].as_array().unwrap().len() == 4).await;
    score[1 - w] = 1;
    assert_eq!(m["score"], json!(score));
    assert_eq!(m["games"][2]["winner"], 1 - w);
    assert_eq!(m["winner"], Value::Null);
    // Game 4: Ben first; participant w wins it, and the match.
    let g4 = m["current_game"].as_str().unwrap().to_string();
    let seats4 = match_seats(&server, &g4, &players, 1).await;
    let s3 = server.game(&g3, Some(&seats3[1])).await;
    assert_eq!(
        s3["result"]["winner"],
        if w == 0 { 2 } else { 1 },
        "{}",
        brief(&s3)
    );
    server
        .act_ok(&g4, &players[1 - w], json!({"type": "resign"}))
        .await;
    let m = wait_match(&server, &mid, |m| m["winner"] == w).await;
    score[w] = 2;
    assert_eq!(m["score"], json!(score));
    assert_eq!(m["status"], "finished");
    assert_eq!(m["current_game"], Value::Null);
    assert_eq!(m["games"].as_array().unwrap().len(), 4);
    let firsts: Vec<&Value> = m["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["first"])
        .collect();
    assert_eq!(firsts, [&json!(0), &json!(1), &json!(0), &json!(1)]);
    // No fifth game comes.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let last = server.game(&g4, Some(&seats4[0])).await;
    assert_eq!(last["next_game"], Value::Null);
    assert_eq!(last["status"], "finished");
    let (status, body) = server
        .act(&g4, &seats4[0], json!({"type": "rematch"}))
        .await;
    assert_eq!(status, 409, "a match game has no rematch: {body}");
    let (_, list) = server.get("/api/matches?status=finished", None).await;
    assert!(
        list["matches"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == mid.as_str()),
        "{list}"
    );
    server.assert_healthy().await;
}

/// Creates an invitation game with `clock`, with the creator's socket open before the friend
/// joins (so every event is seen). Returns the game, both tokens and the creator's socket.
async fn clocked_game(server: &Server, clock: Value) -> (String, [String; 2], Ws, Instant) {
    let created = server
        .create(json!({"opponent": {"kind": "invite"}, "name": "Alice", "clock": clock}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let tokens = [
        created["token"].as_str().unwrap().to_string(),
        created["invite_token"].as_str().unwrap().to_string(),
    ];
    let mut ws = server.ws(&id, Some(&tokens[0]), None).await;
    assert_eq!(ws.state["status"], "open");
    assert_eq!(ws.state["clock"], clock);
    let started = Instant::now();
    server.join(&id, &tokens[1], "Bob").await;
    ws.wait_version(4).await;
    assert_eq!(ws.events.last().unwrap().1["type"], "started");
    (id, tokens, ws, started)
}

/// Waits on `ws` for the flag of `seat` (no action sent), and checks the result.
async fn wait_flag(ws: &mut Ws, seat: u64) {
    let flag = ws.wait_event("flagged").await;
    assert_eq!(flag["seat"], seat);
    let state = &ws.state;
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"]["winner"], 3 - seat, "{}", brief(state));
    assert!(
        state["result"]["text"]
            .as_str()
            .unwrap()
            .contains("on time"),
        "{}",
        brief(state)
    );
    assert_eq!(state["clocks"][seat as usize - 1]["running"], false);
    assert_eq!(state["clocks"][seat as usize - 1]["remaining_ms"], 0);
}

#[tokio::test]
async fn every_clock_runs_out() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // Player one never moves: the server's timer flags them, whatever the clock.
    let kinds = [
        json!({"kind": "sudden_death", "total_ms": 300}),
        json!({"kind": "fischer", "base_ms": 300, "increment_ms": 100}),
        json!({"kind": "periods", "main_ms": 0, "periods": 1, "period_ms": 300}),
        json!({"kind": "per_move_reserve", "per_move_ms": 200, "reserve_ms": 100, "step_ms": 100}),
        json!({"kind": "correspondence", "per_move_ms": 300}),
    ];
    let mut games = Vec::new();
    for clock in &kinds {
        games.push(clocked_game(&server, clock.clone()).await);
    }
    for (id, tokens, ws, started) in games.iter_mut() {
        let clock = ws.state["clock"].clone();
        wait_flag(ws, 1).await;
        // The flag came when the time ran out, not before.
        assert!(
            started.elapsed() >= Duration::from_millis(300),
            "{clock}: flagged after {:?}",
            started.elapsed()
        );
        // Nothing more comes, and moves are refused.
        let (status, body) = server.act(id, &tokens[0], mv("Wd4,a1")).await;
        assert_eq!(status, 409, "{clock}: {body}");
        let (status, body) = server.act(id, &tokens[1], mv("Wd4,a1")).await;
        assert_eq!(status, 409, "{clock}: {body}");
        assert_eq!(server.game(id, None).await["version"], ws.version);
    }

    // Player one moves in time (charged as the clock says), then player two runs out.
    let kinds = [
        json!({"kind": "sudden_death", "total_ms": 1500}),
        json!({"kind": "fischer", "base_ms": 1000, "increment_ms": 500}),
        json!({"kind": "periods", "main_ms": 0, "periods": 2, "period_ms": 600}),
        json!({"kind": "per_move_reserve", "per_move_ms": 300, "reserve_ms": 1000, "step_ms": 500}),
        json!({"kind": "correspondence", "per_move_ms": 800}),
    ];
    let mut games = Vec::new();
    for clock in &kinds {
        let (id, tokens, mut ws, _) = clocked_game(&server, clock.clone()).await;
        // Periods and reserve: think past the free time, so that a period or a step is used.
        let think = match clock["kind"].as_str().unwrap() {
            "periods" => 700,
            "per_move_reserve" => 400,
            _ => 100,
        };
        tokio::time::sleep(Duration::from_millis(think)).await;
        let text = pick_move(&ws.state, &mut Rng::new(5));
        let v = ws.act_ok(mv(&text)).await;
        let moved = ws.events.last().unwrap().1.clone();
        assert_eq!(moved["type"], "moved");
        let c = &moved["clock"];
        let remaining = c["remaining_ms"].as_i64().unwrap();
        match clock["kind"].as_str().unwrap() {
            "sudden_death" => assert!((800..=1400).contains(&remaining), "{moved}"),
            // The increment is added: without it, at most 900 would be left.
            "fischer" => assert!((1000..=1400).contains(&remaining), "{moved}"),
            // One period overrun is used up.
            "periods" => assert_eq!(
                (remaining, c["periods_left"].as_i64().unwrap()),
                (0, 1),
                "{moved}"
            ),
            // 100 ms past the free time costs a whole 500 ms step.
            "per_move_reserve" => assert_eq!(remaining, 500, "{moved}"),
            "correspondence" => assert_eq!(remaining, 0, "{moved}"),
            _ => unreachable!(),
        }
        let state = &ws.state;
        assert_eq!(state["clocks"][0]["running"], false);
        assert_eq!(state["clocks"][1]["running"], true);
        assert_eq!(
            state["clocks"][0]["remaining_ms"],
            remaining,
            "{}",
            brief(state)
        );
        games.push((id, tokens, ws, v, clock.clone()));
    }
    for (id, _, ws, v, clock) in games.iter_mut() {
        wait_flag(ws, 2).await;
        assert_eq!(ws.version, *v + 1, "{clock}");
        let got = server.game(id, None).await;
        assert_eq!(got["result"]["token"], "1-0");
    }
    server.assert_healthy().await;
}

#[tokio::test]
async fn spectators_see_everything_and_cannot_act() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let created = server
        .create(json!({"opponent": {"kind": "invite"}, "name": "Alice"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let tokens = [
        created["token"].as_str().unwrap().to_string(),
        created["invite_token"].as_str().unwrap().to_string(),
    ];
    // The spectator is there from the start.
    let mut spectator = server.ws(&id, None, None).await;
    assert_eq!(spectator.version, 2);
    assert_eq!(spectator.state["you"], Value::Null);
    server.join(&id, &tokens[1], "Bob").await;
    let mut rng = Rng::new(3);
    let mut played = Vec::new();
    for _ in 0..8 {
        let state = server.game(&id, None).await;
        let seat = to_move(&state);
        let text = pick_move(&state, &mut rng);
        server.act_ok(&id, &tokens[seat - 1], mv(&text)).await;
        played.push(text);
    }
    server
        .act_ok(&id, &tokens[0], json!({"type": "offer_draw"}))
        .await;
    server
        .act_ok(&id, &tokens[1], json!({"type": "decline_draw"}))
        .await;
    let last = server.game(&id, None).await["version"].as_i64().unwrap();
    spectator.wait_version(last).await;
    // Every event, in order, once.
    let versions: Vec<i64> = spectator.events.iter().map(|(v, _)| *v).collect();
    assert_eq!(versions, (3..=last).collect::<Vec<_>>());
    let mut expected = vec!["joined".to_string(), "started".to_string()];
    expected.extend(std::iter::repeat_n("moved".to_string(), 8));
    expected.extend(["draw_offered".to_string(), "draw_declined".to_string()]);
    assert_eq!(event_types(&spectator, 0), expected);
    let notations: Vec<&str> = spectator
        .events
        .iter()
        .filter(|(_, e)| e["type"] == "moved")
        .map(|(_, e)| e["notation"].as_str().unwrap())
        .collect();
    assert_eq!(notations, played);
    assert_eq!(spectator.state["you"], Value::Null);
    assert!(
        !spectator.state["legal_moves"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    // Whatever the spectator sends is refused, and changes nothing.
    let legal = spectator.state["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_string();
    for action in [
        mv(&legal),
        json!({"type": "resign"}),
        json!({"type": "offer_draw"}),
        json!({"type": "claim_victory"}),
    ] {
        let answer = spectator.act(action.clone()).await;
        assert_eq!(answer["type"], "refused", "{action}: {answer}");
        assert_eq!(answer["status"], 403, "{action}: {answer}");
    }
    let answer = spectator.act(json!({"type": "dance"})).await;
    assert_eq!(
        (answer["type"].as_str(), answer["status"].as_u64()),
        (Some("refused"), Some(400)),
        "{answer}"
    );
    spectator.send_text("not json".into()).await;
    let answer = spectator.recv().await;
    assert_eq!(answer["status"], 400, "{answer}");
    assert_eq!(server.game(&id, None).await["version"], last);

    // Over HTTP: no token is 401, a wrong token 403, another game's token 403.
    let (status, body) = server
        .post_raw(
            &format!("/api/games/{id}/action"),
            mv(&legal).to_string(),
            Some("application/json"),
            None,
        )
        .await;
    assert_eq!(status, 401, "{body}");
    assert!(body["error"].as_str().unwrap().contains("token"), "{body}");
    let (status, body) = server.act(&id, "0123456789abcdef", mv(&legal)).await;
    assert_eq!(status, 403, "{body}");
    let other = server
        .create(json!({"opponent": {"kind": "invite"}, "name": "Eve"}))
        .await;
    let eve = other["token"].as_str().unwrap();
    let (status, body) = server.act(&id, eve, mv(&legal)).await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = server.get(&format!("/api/games/{id}"), Some(eve)).await;
    assert_eq!(status, 403, "{body}");
    // A WebSocket with a wrong token is refused before the upgrade.
    let refused = Ws::connect(&server.ws_url(&id, Some(eve), None), None).await;
    assert_eq!(refused.err().as_deref(), Some("HTTP 403"));
    assert_eq!(server.game(&id, None).await["version"], last);
    // The spectator saw nothing more.
    spectator.assert_quiet(Duration::from_millis(200)).await;
    server.assert_healthy().await;
}

#[tokio::test]
async fn reconnecting_presence_and_claiming() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (id, alice, bob) = server.invite_game(json!({})).await;
    let tokens = [alice.clone(), bob.clone()];
    let mut a = server.ws(&id, Some(&alice), None).await;
    let mut b = server.ws(&id, Some(&bob), None).await;
    // Alice sees Bob arrive.
    let seen = a
        .until(|m| m["type"] == "presence" && m["state"]["seats"][1]["connected"] == true)
        .await;
    assert_eq!(seen["state"]["seats"][0]["connected"], true);
    assert_eq!(seen["state"]["you"], 1);
    let mut rng = Rng::new(11);
    let state = a.state.clone();
    a.act_ok(mv(&pick_move(&state, &mut rng))).await;

    // Bob leaves at version V.
    let since = b.version.max(a.version);
    b.wait_version(since).await;
    b.close().await;
    let away = a
        .until(|m| m["type"] == "presence" && m["state"]["seats"][1]["connected"] == false)
        .await;
    let claim_in = away["state"]["seats"][1]["away_claim_in_ms"]
        .as_i64()
        .expect("a countdown");
    assert!((0..=1000).contains(&claim_in), "{}", brief(&away));
    assert_eq!(away["state"]["seats"][0]["away_claim_in_ms"], Value::Null);

    // Moves happen while Bob is away (his over HTTP).
    for _ in 0..4 {
        let state = server.game(&id, None).await;
        let seat = to_move(&state);
        let text = pick_move(&state, &mut rng);
        server.act_ok(&id, &tokens[seat - 1], mv(&text)).await;
    }
    let now = server.game(&id, None).await;
    let current = now["version"].as_i64().unwrap();
    assert_eq!(current, since + 4);
    a.wait_version(current).await;

    // Bob comes back with `since`: exactly the missed events.
    let mut b = server.ws(&id, Some(&bob), Some(since)).await;
    assert_eq!(b.first["type"], "catchup");
    assert_eq!(b.version, current);
    let missed: Vec<(i64, Value)> = b.events.clone();
    let from_a: Vec<(i64, Value)> = a
        .events
        .iter()
        .filter(|(v, _)| *v > since)
        .cloned()
        .collect();
    assert_eq!(missed, from_a);
    assert_eq!(b.first["state"]["moves"], now["moves"]);
    assert_eq!(b.state["you"], 2);
    // A `since` from the future or too far back gets a full sync.
    let ws = server.ws(&id, None, Some(current + 10)).await;
    assert_eq!(ws.first["type"], "sync");
    ws.close().await;
    // Alice sees Bob back; the game goes on.
    a.until(|m| m["type"] == "presence" && m["state"]["seats"][1]["connected"] == true)
        .await;
    let (status, body) = server
        .act(&id, &alice, json!({"type": "claim_victory"}))
        .await;
    assert_eq!(status, 409, "nothing to claim while Bob is here: {body}");
    let state = b.state.clone();
    let seat = to_move(&state);
    let text = pick_move(&state, &mut rng);
    let v = if seat == 2 {
        b.act_ok(mv(&text)).await
    } else {
        a.act_ok(mv(&text)).await
    };
    assert_eq!(v, current + 1);
    a.wait_version(v).await;
    b.wait_version(v).await;
    assert_eq!(a.events.last(), b.events.last());

    // Bob leaves for good: claiming is refused during the countdown, then wins.
    b.close().await;
    a.until(|m| m["type"] == "presence" && m["state"]["seats"][1]["connected"] == false)
        .await;
    let left = Instant::now();
    let answer = a.act(json!({"type": "claim_victory"})).await;
    if left.elapsed() < Duration::from_millis(500) {
        assert_eq!(answer["type"], "refused", "{answer}");
        assert_eq!(answer["status"], 409, "{answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("claimed after"),
            "{answer}"
        );
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let v = a.act_ok(json!({"type": "claim_victory"})).await;
    assert_eq!(v, current + 2);
    assert_eq!(
        a.events.last().unwrap().1,
        json!({"type": "claimed", "seat": 1})
    );
    let result = &a.state["result"];
    assert_eq!(result["winner"], 1, "{result}");
    assert!(
        result["text"].as_str().unwrap().contains("left"),
        "{result}"
    );
    // Bob, back too late, learns it from the catch-up.
    let b = server.ws(&id, Some(&bob), Some(current + 1)).await;
    assert_eq!(b.events.len(), 1);
    assert_eq!(b.state["status"], "finished");
    server.assert_healthy().await;
}

#[tokio::test]
async fn illegal_and_out_of_turn_moves() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (id, alice, bob) = server.invite_game(json!({})).await;
    // Not Bob's turn (his own token, out of turn).
    let (status, body) = server.act(&id, &bob, mv("Wd4,a1")).await;
    refused(status, &body, 409, "not your turn");
    // Gibberish and impossible moves are refused with a reason naming them.
    let (status, body) = server.act(&id, &alice, mv("Qz9")).await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = server.act(&id, &alice, mv("Wd4,d5")).await;
    refused(status, &body, 422, "Wd4,d5");
    assert_eq!(server.game(&id, None).await["version"], 4);

    server.act_ok(&id, &alice, mv("Wd4,a1")).await;
    // Placing on an occupied ring.
    let (status, body) = server.act(&id, &bob, mv("Bd4,g1")).await;
    refused(status, &body, 422, "Bd4,g1");
    // Removing a ring that is gone.
    let (status, body) = server.act(&id, &bob, mv("Bd6,a1")).await;
    refused(status, &body, 422, "Bd6,a1");
    let (status, body) = server.act(&id, &alice, mv("Bd6,g1")).await;
    refused(status, &body, 409, "not your turn");
    let state = server.game(&id, None).await;
    assert_eq!(state["version"], 5);
    assert_eq!(state["moves"], json!(["Wd4,a1"]));

    // Bob places next to Alice's marble: a capture is now compulsory.
    server.act_ok(&id, &bob, mv("Wd5,g1")).await;
    let state = server.game(&id, Some(&alice)).await;
    let legal = state["legal_moves"].as_array().unwrap();
    assert!(!legal.is_empty());
    assert!(
        legal.iter().all(|m| m.as_str().unwrap().starts_with('x')),
        "only captures: {legal:?}"
    );
    let (status, body) = server.act(&id, &alice, mv("Bc3,a2")).await;
    refused(status, &body, 422, "Bc3,a2");
    assert!(body["error"].as_str().unwrap().contains("captur"), "{body}");
    // Over the WebSocket too, with the same answer.
    let mut ws = server.ws(&id, Some(&alice), None).await;
    let answer = ws.act(mv("Bc3,a2")).await;
    assert_eq!(answer["type"], "refused", "{answer}");
    assert_eq!(answer["status"], 422, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("Bc3,a2"),
        "{answer}"
    );
    let answer = ws.act(json!({"type": "accept_takeback"})).await;
    assert_eq!(answer["status"], 409, "nothing to accept: {answer}");
    let after = server.game(&id, Some(&alice)).await;
    assert_eq!(after["version"], state["version"]);
    assert_eq!(after["moves"], state["moves"]);
    assert_eq!(after["position"], state["position"]);

    // The capture is played (in the short form without colours), then a takeback.
    let capture = legal[0].as_str().unwrap().to_string();
    let short: String = capture
        .chars()
        .filter(|c| !matches!(c, 'W' | 'G' | 'B'))
        .collect();
    assert_ne!(short, capture);
    let v = ws.act_ok(mv(&short)).await;
    assert_eq!(v, 7);
    assert_eq!(ws.events.last().unwrap().1["notation"], capture.as_str());
    let answer = ws.act(json!({"type": "request_takeback"})).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    server
        .act_ok(&id, &bob, json!({"type": "accept_takeback"}))
        .await;
    ws.wait_version(9).await;
    assert_eq!(ws.state["moves"], json!(["Wd4,a1", "Wd5,g1"]));
    assert_eq!(ws.state["legal_moves"], state["legal_moves"]);
    // Aborting is too late once both have moved.
    let (status, body) = server.act(&id, &bob, json!({"type": "abort"})).await;
    assert_eq!(status, 409, "{body}");

    // A finished game refuses moves.
    server.act_ok(&id, &bob, json!({"type": "resign"})).await;
    let (status, body) = server.act(&id, &alice, mv(&capture)).await;
    refused(status, &body, 409, "over");
    let (status, body) = server.act(&id, &bob, json!({"type": "resign"})).await;
    assert_eq!(status, 409, "{body}");
    let end = server.game(&id, None).await;
    assert_eq!(end["result"]["winner"], 1);
    assert_eq!(end["version"], 10);

    // A rated game refuses takebacks; an abort before both moved is allowed.
    let (id2, alice2, _) = server.invite_game(json!({"casual": false})).await;
    server.act_ok(&id2, &alice2, mv("Wd4,a1")).await;
    let (status, body) = server
        .act(&id2, &alice2, json!({"type": "request_takeback"}))
        .await;
    refused(status, &body, 409, "rated");
    server.act_ok(&id2, &alice2, json!({"type": "abort"})).await;
    let aborted = server.game(&id2, None).await;
    assert_eq!(aborted["status"], "finished");
    assert_eq!(aborted["result"]["token"], "*");
    server.assert_healthy().await;
}

#[tokio::test]
async fn bad_input_is_refused_and_nothing_panics() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let json_type = Some("application/json");
    // Malformed JSON, not JSON, unknown fields, missing fields.
    let (status, body) = server
        .post_raw("/api/games", "{\"opponent\": ", json_type, None)
        .await;
    refused(status, &body, 400, "");
    let (status, body) = server
        .post_raw(
            "/api/games",
            r#"{"opponent": {"kind": "invite"}}"#,
            Some("text/plain"),
            None,
        )
        .await;
    refused(status, &body, 415, "");
    let (status, body) = server
        .post(
            "/api/games",
            &json!({"opponent": {"kind": "invite"}, "colour": "red"}),
            None,
        )
        .await;
    refused(status, &body, 400, "colour");
    let (status, body) = server.post("/api/games", &json!({"name": "x"}), None).await;
    refused(status, &body, 400, "opponent");
    let (status, body) = server
        .post("/api/games", &json!({"opponent": {"kind": "robot"}}), None)
        .await;
    refused(status, &body, 400, "robot");
    // A body over 256 KB.
    let big = json!({"opponent": {"kind": "invite"}, "name": "x".repeat(300 * 1024)});
    let (status, body) = server.post("/api/games", &big, None).await;
    refused(status, &body, 413, "");
    let (status, body) = server
        .post(
            "/api/import",
            &json!({"text": "y".repeat(257 * 1024)}),
            None,
        )
        .await;
    refused(status, &body, 413, "");
    // Bad settings, each named.
    for (field, value, needle) in [
        ("board", json!("99"), "board"),
        ("board", json!("custom:a1,c5"), "board"),
        ("board", json!("custom:a1,a1"), "board"),
        ("rules", json!("chess"), "rules"),
        ("rules", json!("custom:1/2"), "rules"),
        ("position", json!("nonsense"), "position"),
        (
            "clock",
            json!({"kind": "fischer", "base_ms": 0, "increment_ms": 1}),
            "base_ms",
        ),
        (
            "clock",
            json!({"kind": "fischer", "base_ms": 1000, "increment_ms": -5}),
            "increment_ms",
        ),
        (
            "clock",
            json!({"kind": "sudden_death", "total_ms": 1_000_000_000_000_i64}),
            "total_ms",
        ),
        (
            "clock",
            json!({"kind": "periods", "main_ms": 0, "periods": 0, "period_ms": 1000}),
            "periods",
        ),
        (
            "clock",
            json!({"kind": "per_move_reserve", "per_move_ms": 1000, "reserve_ms": 0, "step_ms": 0}),
            "step_ms",
        ),
        (
            "clock",
            json!({"kind": "correspondence", "per_move_ms": -1}),
            "per_move_ms",
        ),
        ("clock", json!({"kind": "hourglass"}), "hourglass"),
        // Unknown fields are refused, not dropped: an increment on a sudden-death clock.
        (
            "clock",
            json!({"kind": "sudden_death", "total_ms": 300, "increment_ms": 5}),
            "unknown field `increment_ms`",
        ),
        (
            "clock",
            json!({"kind": "unlimited", "total_ms": 300}),
            "unknown field `total_ms`",
        ),
        (
            "clock",
            json!({"kind": "fischer", "base_ms": 1000}),
            "increment_ms",
        ),
        ("opponent", json!({"kind": "engine", "level": 11}), "level"),
        (
            "opponent",
            json!({"kind": "invite", "level": 3}),
            "unknown field `level`",
        ),
        ("opponent", json!({"kind": "engine", "level": 0}), "level"),
        ("seat", json!("middle"), "middle"),
        ("name", json!("x".repeat(41)), "name"),
        ("best_of", json!(3), "best_of"),
    ] {
        let mut body = json!({"opponent": {"kind": "invite"}});
        body[field] = value.clone();
        let (status, answer) = server.post("/api/games", &body, None).await;
        assert_eq!(status, 400, "{body}: {answer}");
        refused(status, &answer, 400, needle);
    }
    let (status, body) = server
        .post(
            "/api/matches",
            &json!({"opponent": {"kind": "invite"}, "best_of": 2}),
            None,
        )
        .await;
    refused(status, &body, 400, "best_of");
    let (status, body) = server.get("/api/games?status=bogus", None).await;
    refused(status, &body, 400, "bogus");
    let (status, body) = server.get("/api/games?limit=many", None).await;
    refused(status, &body, 400, "");

    // Unknown and junk ids, on every route.
    let (id, alice, _) = server.invite_game(json!({})).await;
    for game in ["abcdefghijkm", "zz..", "a%20b", "x'%3B--", &"a".repeat(300)] {
        for path in ["", "/record", "/sgf"] {
            let (status, body) = server.get(&format!("/api/games/{game}{path}"), None).await;
            refused(status, &body, 404, "");
        }
        let ws = Ws::connect(&server.ws_url(game, None, None), None).await;
        assert_eq!(ws.err().as_deref(), Some("HTTP 404"), "{game}");
        let (status, body) = server.act(game, &alice, mv("Wd4,a1")).await;
        refused(status, &body, 404, "");
        let (status, body) = server
            .post(
                &format!("/api/games/{game}/join"),
                &json!({"name": "x"}),
                None,
            )
            .await;
        refused(status, &body, 404, "");
        let (status, body) = server.get(&format!("/api/matches/{game}"), None).await;
        refused(status, &body, 404, "");
    }
    let (status, body) = server.get("/api/nothing/here", None).await;
    refused(status, &body, 404, "");

    // Bad actions on a real game: malformed, unknown type, unknown field, huge.
    for (body, expected) in [
        ("{".to_string(), 400),
        (r#"{"type": "dance"}"#.to_string(), 400),
        (
            r#"{"type": "move", "move": "Wd4,a1", "extra": 1}"#.to_string(),
            400,
        ),
        (r#"{"type": "move"}"#.to_string(), 400),
        (mv(&"W".repeat(300 * 1024)).to_string(), 413),
    ] {
        let (status, answer) = server
            .post_raw(
                &format!("/api/games/{id}/action"),
                body.clone(),
                json_type,
                Some(&alice),
            )
            .await;
        assert_eq!(status, expected, "{body:.80}: {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    // An action without fields refuses fields too, and names them.
    let (status, answer) = server
        .post_raw(
            &format!("/api/games/{id}/action"),
            r#"{"type": "resign", "seat": 2}"#,
            json_type,
            Some(&alice),
        )
        .await;
    refused(status, &answer, 400, "unknown field `seat`");
    // A long move text is refused as illegal (not a crash).
    let (status, answer) = server.act(&id, &alice, mv(&"Wd4".repeat(1000))).await;
    assert_eq!(status, 422, "{answer}");
    let (status, answer) = server.act(&id, &alice, mv("Wd4,a1\u{0}é∑")).await;
    assert_eq!(status, 422, "{answer}");
    // A bad WebSocket query and an oversized WebSocket message.
    let url = format!("{}&since=abc", server.ws_url(&id, Some(&alice), None));
    let ws = Ws::connect(&url, None).await;
    assert_eq!(ws.err().as_deref(), Some("HTTP 400"));
    let mut ws = server.ws(&id, Some(&alice), None).await;
    ws.send_text(format!(
        "{{\"type\": \"move\", \"move\": \"{}\"}}",
        "W".repeat(100 * 1024)
    ))
    .await;
    let answer = ws
        .until(|m| m["type"] == "refused" || m["type"] == "ack")
        .await;
    assert_eq!(answer["type"], "refused", "{answer}");
    assert_eq!(answer["status"], 422, "{answer}");
    ws.close().await;
    // Joining: an invitation game without the token, a wrong token.
    let (status, body) = server
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"name": "Mallory"}),
            None,
        )
        .await;
    refused(status, &body, 403, "invitation");
    let (status, body) = server
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"name": "Mallory", "token": "nope"}),
            None,
        )
        .await;
    refused(status, &body, 403, "");
    // Importing junk.
    let (status, body) = server
        .post("/api/import", &json!({"text": "(;junk"}), None)
        .await;
    refused(status, &body, 422, "SGF");
    let (status, body) = server
        .post("/api/import", &json!({"text": "1. Zz9"}), None)
        .await;
    refused(status, &body, 422, "record");

    // Nothing changed the game; the server is alive and never panicked.
    let state = server.game(&id, None).await;
    assert_eq!(state["version"], 4);
    assert_eq!(state["moves"], json!([]));
    server.assert_healthy().await;
}

#[tokio::test]
async fn acknowledged_moves_survive_a_kill() {
    let (_dir, db) = temp_db();
    kill_and_restart(Db::from(&db)).await;
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
    let eid = engine["id"].as_str().unwrap().to_string();
    let etoken = engine["token"].as_str().unwrap().to_string();
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

    let mut server = Server::start(&db);
    let restarted = Instant::now();
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
    let (_, list) = server.get("/api/games?status=finished", None).await;
    assert!(
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    );
    server.assert_healthy().await;
}

#[tokio::test]
async fn an_abandoned_upgrade_leaves_no_presence_behind() {
    use tokio::io::AsyncWriteExt;
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (id, _alice, bob) = server.invite_game(json!({})).await;
    // Bob's browser asks for the WebSocket and goes away before the answer.
    for _ in 0..5 {
        let mut tcp = tokio::net::TcpStream::connect(&server.addr).await.unwrap();
        let request = format!(
            "GET /api/games/{id}/ws?token={bob} HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\n\
             Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
            server.addr
        );
        tcp.write_all(request.as_bytes()).await.unwrap();
        drop(tcp);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let state = server.game(&id, None).await;
    assert_eq!(state["seats"][1]["connected"], false, "{}", brief(&state));
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
    let id = created["id"].as_str().unwrap().to_string();
    let olga = created["token"].as_str().unwrap().to_string();
    assert_eq!(created["seat"], 2);
    assert_eq!(created["invite_token"], Value::Null);
    let (status, open) = server.get("/api/games?status=open", None).await;
    assert_eq!(status, 200);
    assert!(
        open["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str()),
        "{open}"
    );
    let (status, joined) = server
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"name": "Pete"}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 1);
    let pete = joined["token"].as_str().unwrap().to_string();
    assert_eq!(pete.len(), 48);
    assert_ne!(pete, olga);
    let (status, body) = server
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"name": "Quinn"}),
            None,
        )
        .await;
    refused(status, &body, 409, "taken");
    let (_, open) = server.get("/api/games?status=open", None).await;
    assert!(
        !open["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    );
    let (_, live) = server.get("/api/games?status=live", None).await;
    assert!(
        live["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    );

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
    let rematch = next["game_id"].as_str().unwrap().to_string();
    assert_eq!(ws.state["next_game"], rematch.as_str());
    let r = server.game(&rematch, Some(&olga)).await;
    assert_eq!(r["you"], 1);
    assert_eq!(r["status"], "live");
    assert_eq!(r["seats"][0]["name"], "Olga");
    assert_eq!(server.game(&rematch, Some(&pete)).await["you"], 2);

    // A best-of-3 match against the engine: the engine opens game 2 by itself.
    let (status, created) = server
        .post(
            "/api/matches",
            &json!({"opponent": {"kind": "engine", "level": 1}, "name": "Rita", "best_of": 3,
                    "clock": {"kind": "fischer", "base_ms": 60_000, "increment_ms": 0}}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["invite_token"], Value::Null);
    let mid = created["id"].as_str().unwrap().to_string();
    let rita = created["token"].as_str().unwrap().to_string();
    let m = wait_match(&server, &mid, |m| m["current_game"].is_string()).await;
    assert_eq!(m["status"], "live");
    assert_eq!(m["players"][1]["kind"], "engine");
    let g1 = m["current_game"].as_str().unwrap().to_string();
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
    let g2 = next["game_id"].as_str().unwrap().to_string();
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
    let m = wait_match(&server, &mid, |m| m["winner"] == 1).await;
    assert_eq!(m["score"], json!([0, 2]));
    assert_eq!(m["status"], "finished");
    assert_eq!(m["games"].as_array().unwrap().len(), 2);
    server.assert_healthy().await;
}

#[tokio::test]
async fn sockets_opened_during_play_see_each_event_once() {
    let (_dir, db) = temp_db();
    // Hundreds of actions and sockets from one address in a few seconds: without the
    // per-address limit, which would refuse some of them depending on the machine's speed.
    let mut server = Server::start_args(&db, 50, &["--http-rate", "0"]);
    let (id, alice, bob) = server.invite_game(json!({})).await;
    let done = std::cell::Cell::new(false);
    // The players make events as fast as they can (draw offers, declined) while others keep
    // opening sockets: whatever a new socket's first message shows, the events after it
    // follow on, none twice, none missing, and presence never shows an older state.
    let play = async {
        let mut last = 0;
        for _ in 0..150 {
            server
                .act_ok(&id, &alice, json!({"type": "offer_draw"}))
                .await;
            last = server
                .act_ok(&id, &bob, json!({"type": "decline_draw"}))
                .await;
        }
        done.set(true);
        last
    };
    let watch = |first: usize| {
        let (done, server, id) = (&done, &server, &id);
        let tokens = [alice.clone(), bob.clone()];
        async move {
            let mut opened = first;
            while !done.get() {
                let seat = opened % 3;
                let token = (seat < 2).then(|| tokens[seat].as_str());
                let mut ws = server.ws(id, token, None).await;
                // A few messages of each socket, checked by `recv`.
                for _ in 0..3 {
                    let next = tokio::time::timeout(Duration::from_millis(300), ws.recv());
                    if next.await.is_err() {
                        break;
                    }
                }
                ws.close().await;
                opened += 1;
            }
            opened - first
        }
    };
    let (last, a, b) = tokio::join!(play, watch(0), watch(1));
    assert!(a + b > 10, "{a} + {b} sockets");
    // A socket from the start sees every event once.
    let ws = server.ws(&id, None, Some(0)).await;
    assert_eq!(ws.events.len() as i64, last);
    assert_eq!(last, 4 + 300);
    server.assert_healthy().await;
}

#[tokio::test]
async fn late_moves_binary_messages_and_oversized_messages() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // A move that arrives after the mover's time ran out is refused (409), and the game is
    // lost on time: by the server's timer, or by the late move itself when it gets there
    // first. Sent at several moments just past the end of the time, to meet both.
    for late_ms in [0, 2, 5, 10, 20] {
        let created = server
            .create(json!({"opponent": {"kind": "invite"}, "name": "Alice",
                           "clock": {"kind": "sudden_death", "total_ms": 300}}))
            .await;
        let id = created["id"].as_str().unwrap().to_string();
        let alice = created["token"].as_str().unwrap().to_string();
        let invite = created["invite_token"].as_str().unwrap().to_string();
        let mut ws = server.ws(&id, Some(&alice), None).await;
        server.join(&id, &invite, "Bob").await;
        // The clock started before the join was answered.
        tokio::time::sleep(Duration::from_millis(300 + late_ms)).await;
        let answer = ws.act(mv("Wd4,a1")).await;
        assert_eq!(answer["type"], "refused", "{answer}");
        assert_eq!(answer["status"], 409, "{answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(
            error.contains("time ran out") || error.contains("on time"),
            "{answer}"
        );
        let state = server.game(&id, None).await;
        assert_eq!(state["status"], "finished");
        assert_eq!(state["result"]["token"], "0-1", "{}", brief(&state));
        assert_eq!(state["moves"], json!([]));
        ws.wait_version(state["version"].as_i64().unwrap()).await;
        let kinds = event_types(&ws, 0);
        assert_eq!(
            kinds.last().map(String::as_str),
            Some("flagged"),
            "{kinds:?}"
        );
        assert!(!kinds.iter().any(|k| k == "moved"), "{kinds:?}");
    }

    // A binary message is answered, not ignored; the connection stays open.
    let (id, alice, _) = server.invite_game(json!({})).await;
    let mut ws = server.ws(&id, Some(&alice), None).await;
    ws.send_binary(mv("Wd4,a1").to_string().into_bytes()).await;
    let answer = ws
        .until(|m| m["type"] == "refused" || m["type"] == "ack")
        .await;
    assert_eq!(answer["type"], "refused", "{answer}");
    assert_eq!(answer["status"], 400, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("binary"),
        "{answer}"
    );
    assert_eq!(ws.act_ok(mv("Wd4,a1")).await, 5);

    // A message over the limit (256 KB) closes the connection with 1009 and the reason.
    ws.send_text(mv(&"W".repeat(300 * 1024)).to_string()).await;
    let (code, reason) = ws.closed().await.expect("a close frame");
    assert_eq!(code, 1009, "{reason}");
    assert!(reason.contains("too big"), "{reason}");
    assert!(reason.contains("262144"), "{reason}");
    // Nothing was played; the server is fine.
    assert_eq!(server.game(&id, None).await["version"], 5);
    server.assert_healthy().await;
}

/// Claims the game for `token` once the countdown of `--claim-after 1` has run: refused while
/// it runs (when asked at once), then won.
async fn claim_after_countdown(server: &Server, id: &str, token: &str, claimant: u64) {
    let asked = Instant::now();
    let (status, body) = server
        .act(id, token, json!({"type": "claim_victory"}))
        .await;
    if asked.elapsed() < Duration::from_millis(500) {
        refused(status, &body, 409, "claimed after");
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    server
        .act_ok(id, token, json!({"type": "claim_victory"}))
        .await;
    let state = server.game(id, None).await;
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"]["winner"], claimant, "{}", brief(&state));
    assert!(
        state["result"]["text"].as_str().unwrap().contains("left"),
        "{}",
        brief(&state)
    );
}

#[tokio::test]
async fn claiming_after_a_restart_and_from_a_seat_that_never_connected() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // Both players connected, a few moves, then the server dies: after the restart nobody is
    // connected, and each seat counts as away from the restart.
    let (id, alice, bob) = server.invite_game(json!({})).await;
    let mut a = server.ws(&id, Some(&alice), None).await;
    let mut b = server.ws(&id, Some(&bob), None).await;
    let mut rng = Rng::new(31);
    for _ in 0..3 {
        let state = server.game(&id, None).await;
        let token = if to_move(&state) == 1 { &alice } else { &bob };
        server
            .act_ok(&id, token, mv(&pick_move(&state, &mut rng)))
            .await;
    }
    a.wait_version(7).await;
    b.wait_version(7).await;
    server.kill();
    drop((a, b));
    let mut server = Server::start(&db);
    let state = server.game(&id, None).await;
    assert_eq!(state["status"], "live");
    for seat in &state["seats"].as_array().unwrap()[..] {
        assert_eq!(seat["connected"], false, "{}", brief(&state));
        let claim_in = seat["away_claim_in_ms"].as_i64().expect("a countdown");
        assert!((0..=1000).contains(&claim_in), "{}", brief(&state));
    }
    claim_after_countdown(&server, &id, &alice, 1).await;

    // Bob joins over HTTP and never opens the game's socket: away from the start of the game.
    let (id, alice, _bob) = server.invite_game(json!({})).await;
    let state = server.game(&id, None).await;
    assert_eq!(state["status"], "live");
    assert_eq!(state["seats"][1]["connected"], false);
    assert!(
        state["seats"][1]["away_claim_in_ms"].is_i64(),
        "{}",
        brief(&state)
    );
    claim_after_countdown(&server, &id, &alice, 1).await;

    // Nobody is away from a game that has not started: an open game cannot be claimed.
    let created = server
        .create(json!({"opponent": {"kind": "invite"}, "name": "Alice"}))
        .await;
    let open = created["id"].as_str().unwrap();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (status, body) = server
        .act(
            open,
            created["token"].as_str().unwrap(),
            json!({"type": "claim_victory"}),
        )
        .await;
    refused(status, &body, 409, "not started");
    server.assert_healthy().await;
}

#[tokio::test]
async fn a_silent_connection_is_given_up_after_a_ping() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (_dir, db) = temp_db();
    let mut server = Server::start_args(&db, 50, &["--ping-ms", "300"]);
    let (id, alice, bob) = server.invite_game(json!({})).await;
    // Alice's client reads all the time, so it answers the pings.
    let mut a = server.ws(&id, Some(&alice), None).await;
    // Bob's connection opens, then his network dies: no close, no pong, nothing.
    let mut tcp = tokio::net::TcpStream::connect(&server.addr).await.unwrap();
    let request = format!(
        "GET /api/games/{id}/ws?token={bob} HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\n\
         Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        server.addr
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        assert_eq!(
            tcp.read(&mut byte).await.unwrap(),
            1,
            "the upgrade's answer"
        );
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let seen = a
        .until(|m| m["type"] == "presence" && m["state"]["seats"][1]["connected"] == true)
        .await;
    assert_eq!(seen["state"]["seats"][0]["connected"], true);
    let opened = Instant::now();
    // Within two intervals of silence the server gives Bob's connection up.
    let gone = a
        .until(|m| m["type"] == "presence" && m["state"]["seats"][1]["connected"] == false)
        .await;
    assert!(
        opened.elapsed() < Duration::from_secs(5),
        "given up after {:?}",
        opened.elapsed()
    );
    // Away from when he was last heard from (the upgrade), not from when he was given up.
    let claim_in = gone["state"]["seats"][1]["away_claim_in_ms"]
        .as_i64()
        .expect("a countdown");
    assert!(claim_in < 1000 - 200, "{}", brief(&gone));
    // And the server closed the connection: the pings it sent, then the end.
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the server did not close Bob's connection");
    // Alice, who answers, is still connected after many pings.
    a.listen(Duration::from_millis(1200)).await;
    assert_eq!(
        a.state["seats"][0]["connected"],
        true,
        "{}",
        brief(&a.state)
    );
    let v = a.act_ok(json!({"type": "claim_victory"})).await;
    assert_eq!(
        a.events.last().unwrap(),
        &(v, json!({"type": "claimed", "seat": 1}))
    );
    let state = server.game(&id, None).await;
    assert_eq!(state["seats"][0]["connected"], true);
    server.assert_healthy().await;
}

#[tokio::test]
async fn bribes_are_counted_per_match_and_a_takeback_gives_none_back() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (status, created) = server
        .post(
            "/api/matches",
            &json!({"opponent": {"kind": "invite"}, "name": "Ann", "best_of": 3, "bribes": true,
                    "seat": "first"}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let mid = created["id"].as_str().unwrap().to_string();
    let ann = created["token"].as_str().unwrap().to_string();
    let ben = created["invite_token"].as_str().unwrap().to_string();
    let (status, body) = server
        .post(
            &format!("/api/matches/{mid}/join"),
            &json!({"name": "Ben", "token": ben}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let m = wait_match(&server, &mid, |m| m["current_game"].is_string()).await;
    let g1 = m["current_game"].as_str().unwrap().to_string();
    let empty = json!({"type": "propose_bribe", "marbles": "0/0/0"});

    // Game 1, Ann first: an empty bribe, accepted (a pass), then taken back.
    server.act_ok(&g1, &ann, empty.clone()).await;
    server
        .act_ok(&g1, &ben, json!({"type": "answer_bribe", "accept": true}))
        .await;
    let state = server.game(&g1, None).await;
    assert_eq!(state["moves"], json!(["-"]));
    assert_eq!(state["bribes_left"], json!([2, 3]));
    server
        .act_ok(&g1, &ann, json!({"type": "request_takeback"}))
        .await;
    server
        .act_ok(&g1, &ben, json!({"type": "accept_takeback"}))
        .await;
    let state = server.game(&g1, None).await;
    assert_eq!(state["moves"], json!([]), "the pass was taken back");
    assert_eq!(to_move(&state), 1);
    assert_eq!(
        state["bribes_left"],
        json!([2, 3]),
        "the takeback gave no bribe back"
    );
    // A second one, rejected; then Ann resigns the game.
    server.act_ok(&g1, &ann, empty.clone()).await;
    server
        .act_ok(&g1, &ben, json!({"type": "answer_bribe", "accept": false}))
        .await;
    assert_eq!(server.game(&g1, None).await["bribes_left"], json!([1, 3]));
    server.act_ok(&g1, &ann, json!({"type": "resign"})).await;
    let m = wait_match(&server, &mid, |m| m["games"].as_array().unwrap().len() == 2).await;
    assert_eq!(m["bribes_left"], json!([1, 3]));
    assert_eq!(m["score"], json!([0, 1]));

    // Game 2, Ben first (seat 1): Ann's third bribe, then a fourth, refused with the reason.
    let g2 = m["current_game"].as_str().unwrap().to_string();
    let state = server.game(&g2, Some(&ann)).await;
    assert_eq!(state["you"], 2);
    assert_eq!(state["bribes_left"], json!([3, 1]));
    server
        .act_ok(&g2, &ben, mv(&pick_move(&state, &mut Rng::new(5))))
        .await;
    server.act_ok(&g2, &ann, empty.clone()).await;
    server
        .act_ok(&g2, &ben, json!({"type": "answer_bribe", "accept": false}))
        .await;
    assert_eq!(server.game(&g2, None).await["bribes_left"], json!([3, 0]));
    let (status, body) = server.act(&g2, &ann, empty.clone()).await;
    refused(status, &body, 409, "at most 3, accepted or not");
    assert!(body["error"].as_str().unwrap().contains("match"), "{body}");
    // Ben still has all of his.
    let state = server.game(&g2, None).await;
    server
        .act_ok(&g2, &ann, mv(&pick_move(&state, &mut Rng::new(6))))
        .await;
    server.act_ok(&g2, &ben, empty.clone()).await;
    assert_eq!(server.game(&g2, None).await["bribes_left"], json!([2, 0]));
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
    for _ in 0..4 {
        let state = server.game(&done, None).await;
        let token = if to_move(&state) == 1 { &alice } else { &bob };
        server
            .act_ok(&done, token, mv(&pick_move(&state, &mut rng)))
            .await;
    }
    server.act_ok(&done, &bob, json!({"type": "resign"})).await;
    let finished = server.game(&done, Some(&alice)).await;
    let asked = Instant::now();
    assert_eq!(finished["status"], "finished");
    let (live, _, _) = server.invite_game(json!({})).await;
    let created = server
        .create(json!({"opponent": {"kind": "open"}, "name": "Olga"}))
        .await;
    let open = created["id"].as_str().unwrap().to_string();
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
    let (status, joined) = server
        .post(
            &format!("/api/games/{open}/join"),
            &json!({"name": "Pete"}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(server.game(&open, None).await["status"], "live");
    server.assert_healthy().await;
}

#[tokio::test]
async fn finished_games_are_listed_page_by_page_and_records_keep_their_date() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let mut finished = Vec::new();
    for _ in 0..12 {
        let (id, alice, _) = server.invite_game(json!({})).await;
        server.act_ok(&id, &alice, json!({"type": "resign"})).await;
        finished.push(id);
    }
    // A live game is not in the finished list.
    let (live, _, _) = server.invite_game(json!({})).await;
    // Pages of 5, each from the `next` of the one before, until there is none.
    let mut listed: Vec<(i64, String)> = Vec::new();
    let mut path = "/api/games?status=finished&limit=5".to_string();
    let mut pages = 0;
    loop {
        let (status, page) = server.get(&path, None).await;
        assert_eq!(status, 200, "{page}");
        pages += 1;
        let games = page["games"].as_array().unwrap();
        assert!(games.len() <= 5);
        for g in games {
            assert_eq!(g["status"], "finished");
            listed.push((
                g["updated_ms"].as_i64().unwrap(),
                g["id"].as_str().unwrap().to_string(),
            ));
        }
        match page["next"].as_str() {
            Some(next) => path = format!("/api/games?status=finished&limit=5&before={next}"),
            None => break,
        }
        assert!(pages < 10, "pages without end: {page}");
    }
    assert_eq!(pages, 3, "5 + 5 + 2");
    let mut sorted = listed.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(listed, sorted, "newest change first, across pages");
    let mut ids: Vec<String> = listed.into_iter().map(|(_, id)| id).collect();
    assert!(!ids.contains(&live));
    ids.sort();
    finished.sort();
    assert_eq!(ids, finished, "every finished game, once");
    for bad_cursor in ["soon", "123", "abc-def", "12-a%20b"] {
        let (status, body) = server
            .get(
                &format!("/api/games?status=finished&before={bad_cursor}"),
                None,
            )
            .await;
        refused(status, &body, 400, "before");
    }
    let (status, body) = server.get("/api/matches?before=1-a", None).await;
    refused(status, &body, 400, "before");

    // The record's `Created` is when the game was created, not when it was exported.
    let before = hub_now_ms();
    let (id, _, _) = server.invite_game(json!({})).await;
    let after = hub_now_ms();
    let created = |text: &str| -> i64 {
        let record = zertz::record::Record::parse(text).expect("a record");
        record.header("Created").expect("Created").parse().unwrap()
    };
    let (_, first) = server.get_text(&format!("/api/games/{id}/record")).await;
    let at = created(&first);
    assert!(
        (before..=after).contains(&at),
        "{before} <= {at} <= {after}"
    );
    tokio::time::sleep(Duration::from_millis(30)).await;
    let (_, again) = server.get_text(&format!("/api/games/{id}/record")).await;
    assert_eq!(created(&again), at);
    server.assert_healthy().await;
}

/// Milliseconds since the Unix epoch, as the server counts them.
fn hub_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// The band of the rules library's repetition tests (rules.md 5 and 7.2): an empty supply,
/// player one holding a white, player two a grey; the four turns of `CYCLE` bring it back.
const BAND: &str = "custom standard GBGBG/.W../BGBGB 0/0/0 1/0/0 0/1/0 1";
const CYCLE: [&str; 4] = ["Wb4", "Gb1", "x b1Wb3", "x b4Gb2"];

/// The band, and the band after `Wb4`.
fn band() -> (zertz::Position, zertz::Position) {
    let s0: zertz::Position = BAND.parse().unwrap();
    let wb4 = zertz::notation::official::parse(&s0, CYCLE[0]).unwrap();
    (s0, s0.play(&wb4).unwrap())
}

/// The record of `moves` played from `start` under `rules`.
fn record_of(start: zertz::Position, rules: zertz::Rules, moves: &[&str]) -> String {
    let mut game = zertz::Game::from_position(start, rules);
    for text in moves {
        let m = zertz::notation::official::parse(game.position(), text).unwrap();
        game.play(&m).unwrap();
    }
    zertz::record::Record::new(game, &[("Player1", "Ann"), ("Player2", "Ben")]).to_string()
}

#[tokio::test]
async fn the_no_repetition_rule_through_the_server() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (s0, s1) = band();
    let (id, ann, ben) = server
        .invite_game(json!({"position": s1.to_string(), "no_repetition": true}))
        .await;
    let state = server.game(&id, None).await;
    assert_eq!(state["repetition"], "forbidden");
    assert_eq!(to_move(&state), 2);
    server.act_ok(&id, &ben, mv(CYCLE[1])).await;
    server.act_ok(&id, &ann, mv(CYCLE[2])).await;
    server.act_ok(&id, &ben, mv(CYCLE[3])).await;
    // Back at the band: `Wb4` would recreate the start of this game.
    let state = server.game(&id, None).await;
    assert_eq!(state["position"], s0.to_string());
    assert_eq!(state["legal_moves"], json!(["Wb1", "Wb3"]));
    let (status, body) = server.act(&id, &ann, mv("Wb4")).await;
    refused(status, &body, 422, "recreates an earlier position");
    assert!(
        body["error"].as_str().unwrap().contains("no-repetition"),
        "{body}"
    );
    assert_eq!(server.game(&id, None).await["version"], state["version"]);
    server.act_ok(&id, &ann, mv("Wb3")).await;
    server.assert_healthy().await;
}

#[tokio::test]
async fn a_record_goes_on_with_its_history() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (s0, s1) = band();
    let forbidden = zertz::Rules {
        repetition: zertz::Repetition::Forbidden,
        ..zertz::Rules::default()
    };
    let text = record_of(s1, forbidden, &CYCLE[1..]);

    // Import, then continue from the position (without the history): `Wb4` is allowed there,
    // since the game that starts at the band has never seen the position after it.
    let (status, imported) = server
        .post("/api/import", &json!({"text": text}), None)
        .await;
    assert_eq!(status, 200, "{imported}");
    assert_eq!(imported["position"], s0.to_string());
    assert_eq!(imported["moves"], json!(CYCLE[1..]));
    let (id, ann, _) = server
        .invite_game(json!({"position": imported["position"], "no_repetition": true}))
        .await;
    let state = server.game(&id, None).await;
    assert_eq!(state["moves"], json!([]));
    server.act_ok(&id, &ann, mv("Wb4")).await;

    // The whole record instead: the game goes on after its turns, which it keeps, so `Wb4`
    // (back to the record's start) is refused under the record's no-repetition rule.
    let (id, ann, ben) = server.invite_game(json!({"record": text})).await;
    let state = server.game(&id, None).await;
    assert_eq!(state["repetition"], "forbidden", "the record's rule");
    assert_eq!(state["moves"], json!(CYCLE[1..]));
    assert_eq!(state["position"], s0.to_string());
    assert_eq!(state["status"], "live");
    assert_eq!(state["legal_moves"], json!(["Wb1", "Wb3"]));
    let (status, body) = server.act(&id, &ann, mv("Wb4")).await;
    refused(status, &body, 422, "recreates an earlier position");
    server.act_ok(&id, &ann, mv("Wb3")).await;
    // A takeback undoes what was played here, never the record's turns.
    server
        .act_ok(&id, &ann, json!({"type": "request_takeback"}))
        .await;
    server
        .act_ok(&id, &ben, json!({"type": "accept_takeback"}))
        .await;
    assert_eq!(server.game(&id, None).await["moves"], json!(CYCLE[1..]));
    let (status, body) = server
        .act(&id, &ben, json!({"type": "request_takeback"}))
        .await;
    refused(status, &body, 409, "no move to take back");
    // The game's record has the history and what followed, and the creation time.
    server.act_ok(&id, &ann, mv("Wb1")).await;
    let (_, exported) = server.get_text(&format!("/api/games/{id}/record")).await;
    let record = zertz::record::Record::parse(&exported).expect("the record reads back");
    assert_eq!(*record.game.start(), s1);
    assert_eq!(record.game.turns().len(), 4);

    // Under the official rule the history counts towards a threefold repetition: the band
    // twice in the record, a third time here is a draw.
    let text = record_of(s0, zertz::Rules::default(), &CYCLE);
    let (id, ann, ben) = server
        .invite_game(json!({"record": text, "name": "Ann"}))
        .await;
    let tokens = [ann, ben];
    for (i, text) in CYCLE.iter().enumerate() {
        let state = server.game(&id, None).await;
        assert_eq!(state["status"], "live", "before turn {}", i + 1);
        server
            .act_ok(&id, &tokens[to_move(&state) - 1], mv(text))
            .await;
    }
    let end = server.game(&id, None).await;
    assert_eq!(end["status"], "finished");
    assert_eq!(end["result"]["token"], "1/2-1/2", "{}", brief(&end));
    assert!(
        end["result"]["text"]
            .as_str()
            .unwrap()
            .contains("repetition"),
        "{}",
        brief(&end)
    );
    assert_eq!(end["moves"].as_array().unwrap().len(), 8);

    // Records that cannot be continued, each refused with the reason.
    let over = record_of(s0, forbidden, &CYCLE[..3]);
    let sgf_junk = "(;junk".to_string();
    for (body, needle) in [
        (json!({"record": "1. Zz9 *"}), "record"),
        (json!({"record": sgf_junk}), "SGF"),
        (json!({"record": over}), "nothing to continue"),
        (json!({"record": text, "position": BAND}), "one of"),
        (json!({"record": text, "board": "48"}), "one of"),
    ] {
        let mut body = body;
        body["opponent"] = json!({"kind": "invite"});
        let (status, answer) = server.post("/api/games", &body, None).await;
        refused(status, &answer, 400, needle);
    }
    // The record's rules may be changed: with bribes on, the history replays as well.
    let (id, _, _) = server
        .invite_game(
            json!({"record": record_of(s0, zertz::Rules::default(), &CYCLE), "bribes": true}),
        )
        .await;
    let state = server.game(&id, None).await;
    assert_eq!(state["bribes"], true);
    assert_eq!(state["moves"].as_array().unwrap().len(), 4);
    server.assert_healthy().await;
}

/// The records of a match's export, split where each begins (its `[Board …]` header).
fn split_records(text: &str) -> Vec<String> {
    let mut records: Vec<String> = Vec::new();
    let mut in_headers = false;
    for line in text.lines() {
        let header = line.starts_with('[');
        if header && !in_headers {
            records.push(String::new());
        }
        in_headers = header;
        if let Some(r) = records.last_mut() {
            r.push_str(line);
            r.push('\n');
        }
    }
    records
}

#[tokio::test]
async fn a_match_is_watched_resigned_exported_and_cannot_be_stalled_by_aborts() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (status, created) = server
        .post(
            "/api/matches",
            &json!({"opponent": {"kind": "invite"}, "name": "Ann", "best_of": 3, "bribes": true,
                    "seat": "first"}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let mid = created["id"].as_str().unwrap().to_string();
    let ann = created["token"].as_str().unwrap().to_string();
    let ben = created["invite_token"].as_str().unwrap().to_string();
    let players = [ann.clone(), ben.clone()];
    let match_url = |token: Option<&str>| {
        let mut url = format!("ws://{}/api/matches/{mid}/ws", server.addr);
        if let Some(t) = token {
            url.push_str(&format!("?token={t}"));
        }
        url
    };
    // A spectator and a participant watch; a wrong token and an unknown match are refused.
    let mut watch = MatchWs::connect(&match_url(None)).await.unwrap();
    assert_eq!(watch.state["status"], "open");
    assert_eq!(watch.state["you"], Value::Null);
    let mut mine = MatchWs::connect(&match_url(Some(&ann))).await.unwrap();
    assert_eq!(mine.state["you"], 0);
    let other = server
        .create(json!({"opponent": {"kind": "invite"}, "name": "Eve"}))
        .await;
    let eve = other["token"].as_str().unwrap();
    assert_eq!(
        MatchWs::connect(&match_url(Some(eve)))
            .await
            .err()
            .as_deref(),
        Some("HTTP 403")
    );
    let unknown = format!("ws://{}/api/matches/mabcdefghijk/ws", server.addr);
    assert_eq!(
        MatchWs::connect(&unknown).await.err().as_deref(),
        Some("HTTP 404")
    );
    // Resigning a match nobody has joined yet is refused.
    let resign = format!("/api/matches/{mid}/resign");
    let (status, body) = server.post(&resign, &json!({}), Some(&ann)).await;
    refused(status, &body, 409, "not started");

    // Ben joins: the watchers see the match go live and its first game start.
    let (status, body) = server
        .post(
            &format!("/api/matches/{mid}/join"),
            &json!({"name": "Ben", "token": ben}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let m = watch.until(|m| m["current_game"].is_string()).await;
    assert_eq!(m["status"], "live");
    assert_eq!(m["players"][1]["name"], "Ben");
    let g1 = m["current_game"].as_str().unwrap().to_string();

    // Aborts: each player may abort one game of the match, no more; aborted games are
    // replayed (the first player alternating as for any game).
    server.act_ok(&g1, &ann, json!({"type": "abort"})).await;
    let m = watch
        .until(|m| m["games"].as_array().unwrap().len() == 2)
        .await;
    assert_eq!(m["games"][0]["result"], "*");
    assert_eq!(m["score"], json!([0, 0]));
    let g2 = m["current_game"].as_str().unwrap().to_string();
    let seats2 = match_seats(&server, &g2, &players, 1).await;
    let (status, body) = server.act(&g2, &ann, json!({"type": "abort"})).await;
    refused(status, &body, 409, "already aborted a game of this match");
    server.act_ok(&g2, &ben, json!({"type": "abort"})).await;
    let m = watch
        .until(|m| m["games"].as_array().unwrap().len() == 3)
        .await;
    let g3 = m["current_game"].as_str().unwrap().to_string();
    let seats3 = match_seats(&server, &g3, &players, 0).await;
    for token in &seats3 {
        let (status, body) = server.act(&g3, token, json!({"type": "abort"})).await;
        refused(status, &body, 409, "already aborted");
    }
    assert_eq!(
        server.game(&g2, Some(&seats2[0])).await["status"],
        "finished"
    );

    // A bribe proposed in the game is pushed as the match's bribes left.
    server
        .act_ok(
            &g3,
            &ann,
            json!({"type": "propose_bribe", "marbles": "0/0/0"}),
        )
        .await;
    let m = watch.until(|m| m["bribes_left"] == json!([2, 3])).await;
    assert_eq!(m["current_game"], g3.as_str());
    server
        .act_ok(&g3, &ben, json!({"type": "answer_bribe", "accept": false}))
        .await;
    // Ben resigns game 3: the score is pushed, and game 4 starts (Ben first).
    let state = server.game(&g3, None).await;
    server
        .act_ok(&g3, &ann, mv(&pick_move(&state, &mut Rng::new(9))))
        .await;
    server.act_ok(&g3, &ben, json!({"type": "resign"})).await;
    let m = watch.until(|m| m["score"] == json!([1, 0])).await;
    assert_eq!(m["games"][2]["winner"], 0);
    let m = if m["current_game"].is_string() {
        m
    } else {
        watch.until(|m| m["current_game"].is_string()).await
    };
    let g4 = m["current_game"].as_str().unwrap().to_string();
    assert_ne!(g4, g3);
    match_seats(&server, &g4, &players, 1).await;
    let state = server.game(&g4, None).await;
    server
        .act_ok(&g4, &ben, mv(&pick_move(&state, &mut Rng::new(10))))
        .await;

    // Ben resigns the whole match: Ann wins it, game 4 ends with it, no game 5 comes.
    let (status, body) = server.post(&resign, &json!({}), None).await;
    refused(status, &body, 401, "token");
    let (status, body) = server.post(&resign, &json!({}), Some(eve)).await;
    refused(status, &body, 403, "no place");
    let (status, m) = server.post(&resign, &json!({}), Some(&ben)).await;
    assert_eq!(status, 200, "{m}");
    assert_eq!(m["winner"], 0);
    assert_eq!(m["resigned"], 1);
    assert_eq!(m["status"], "finished");
    assert_eq!(m["score"], json!([2, 0]));
    assert_eq!(m["current_game"], Value::Null);
    assert_eq!(m["games"][3]["winner"], 0);
    assert_eq!(m["you"], 1);
    for ws in [&mut watch, &mut mine] {
        let seen = ws.until(|m| m["winner"] == 0).await;
        assert_eq!(seen["resigned"], 1);
        assert_eq!(seen["games"].as_array().unwrap().len(), 4);
    }
    assert_eq!(mine.state["you"], 0);
    let end = server.game(&g4, None).await;
    assert_eq!(end["status"], "finished");
    assert_eq!(
        end["result"]["token"],
        "0-1",
        "Ann sits in seat 2: {}",
        brief(&end)
    );
    assert!(
        end["result"]["text"].as_str().unwrap().contains("resign"),
        "{}",
        brief(&end)
    );
    let (status, body) = server.post(&resign, &json!({}), Some(&ann)).await;
    refused(status, &body, 409, "over");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, m) = server.get(&format!("/api/matches/{mid}"), None).await;
    assert_eq!(m["games"].as_array().unwrap().len(), 4, "no fifth game");
    assert_eq!(server.game(&g4, None).await["next_game"], Value::Null);
    // The watchers only listen.
    watch.send_text(json!({"type": "resign"}).to_string()).await;
    let answer = watch.until_message().await;
    assert_eq!(answer["type"], "refused", "{answer}");
    assert_eq!(answer["status"], 400, "{answer}");

    // The match's export: the record of each of its games, in order.
    let (status, text) = server.get_text(&format!("/api/matches/{mid}/record")).await;
    assert_eq!(status, 200, "{text}");
    let records = split_records(&text);
    assert_eq!(records.len(), 4, "{text}");
    let mut results = Vec::new();
    for (k, (r, game)) in records.iter().zip([&g1, &g2, &g3, &g4]).enumerate() {
        let record = zertz::record::Record::parse(r).expect("a record");
        assert_eq!(record.header("Match"), Some(mid.as_str()));
        assert_eq!(
            record.header("MatchGame"),
            Some((k + 1).to_string().as_str())
        );
        assert_eq!(record.header("Game"), Some(game.as_str()));
        let (_, alone) = server.get_text(&format!("/api/games/{game}/record")).await;
        let alone = zertz::record::Record::parse(&alone).unwrap();
        assert_eq!(record.game.positions(), alone.game.positions());
        results.push(zertz::record::result_token(record.game.outcome()));
    }
    assert_eq!(results, ["*", "*", "1-0", "0-1"]);
    for r in &records[..2] {
        let record = zertz::record::Record::parse(r).unwrap();
        assert_eq!(record.header("Aborted"), Some("by player 1"), "{r}");
    }
    server.assert_healthy().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engines_thinking_never_stall_other_games() {
    let (_dir, db) = temp_db();
    // One engine slot, and engines that think 3 s a move.
    let mut server = Server::start_args(&db, 3_000, &["--engine-slots", "1"]);
    // Two engine games in which the engine moves first: one thinks, the other waits for the
    // slot.
    let mut engine_games = Vec::new();
    for _ in 0..2 {
        let created = server
            .create(json!({"opponent": {"kind": "engine", "level": 10}, "seat": "second"}))
            .await;
        let id = created["id"].as_str().unwrap().to_string();
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

#[tokio::test]
async fn a_match_survives_a_kill() {
    let (_dir, db) = temp_db();
    match_kill(Db::from(&db)).await;
}

/// The body of `a_match_survives_a_kill`: a best-of-3 match killed with SIGKILL in the middle
/// of its second game is found where it was (score, current game, bribes left), and goes on.
async fn match_kill(db: Db) {
    let mut server = Server::start(&db);
    let (status, created) = server
        .post(
            "/api/matches",
            &json!({"opponent": {"kind": "invite"}, "name": "Ann", "best_of": 3, "bribes": true,
                    "seat": "first"}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let mid = created["id"].as_str().unwrap().to_string();
    let ann = created["token"].as_str().unwrap().to_string();
    let ben = created["invite_token"].as_str().unwrap().to_string();
    let (status, body) = server
        .post(
            &format!("/api/matches/{mid}/join"),
            &json!({"name": "Ben", "token": ben}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let m = wait_match(&server, &mid, |m| m["current_game"].is_string()).await;
    let g1 = m["current_game"].as_str().unwrap().to_string();
    let empty = json!({"type": "propose_bribe", "marbles": "0/0/0"});
    // Game 1: a bribe of Ann's, rejected; Ann resigns.
    server.act_ok(&g1, &ann, empty.clone()).await;
    server
        .act_ok(&g1, &ben, json!({"type": "answer_bribe", "accept": false}))
        .await;
    server.act_ok(&g1, &ann, json!({"type": "resign"})).await;
    let m = wait_match(&server, &mid, |m| m["games"].as_array().unwrap().len() == 2).await;
    let g2 = m["current_game"].as_str().unwrap().to_string();
    // Game 2, Ben first: a move each, and a second bribe of Ann's, rejected.
    let mut rng = Rng::new(12);
    let state = server.game(&g2, None).await;
    server
        .act_ok(&g2, &ben, mv(&pick_move(&state, &mut rng)))
        .await;
    server.act_ok(&g2, &ann, empty.clone()).await;
    server
        .act_ok(&g2, &ben, json!({"type": "answer_bribe", "accept": false}))
        .await;
    let state = server.game(&g2, None).await;
    server
        .act_ok(&g2, &ann, mv(&pick_move(&state, &mut rng)))
        .await;
    let (_, before) = server.get(&format!("/api/matches/{mid}"), None).await;
    assert_eq!(before["score"], json!([0, 1]));
    assert_eq!(before["bribes_left"], json!([1, 3]));
    assert_eq!(before["current_game"], g2.as_str());
    let game_before = server.game(&g2, Some(&ann)).await;

    server.kill();
    let mut server = Server::start(&db);
    let (status, after) = server.get(&format!("/api/matches/{mid}"), None).await;
    assert_eq!(status, 200, "{after}");
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
    let m = wait_match(&server, &mid, |m| m["games"].as_array().unwrap().len() == 3).await;
    assert_eq!(m["score"], json!([1, 1]));
    let g3 = m["current_game"].as_str().unwrap().to_string();
    assert_eq!(
        server.game(&g3, Some(&ann)).await["you"],
        1,
        "Ann first again"
    );
    server.act_ok(&g3, &ben, json!({"type": "resign"})).await;
    let m = wait_match(&server, &mid, |m| m["winner"] == 0).await;
    assert_eq!(m["score"], json!([2, 1]));
    assert_eq!(m["status"], "finished");
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

#[tokio::test]
async fn the_reserve_is_reset_at_the_start_of_each_match_game() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let clock = json!({"kind": "per_move_reserve", "per_move_ms": 300, "reserve_ms": 1000,
                       "step_ms": 500});
    let (status, created) = server
        .post(
            "/api/matches",
            &json!({"opponent": {"kind": "invite"}, "name": "Ann", "best_of": 3,
                    "seat": "first", "clock": clock}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let mid = created["id"].as_str().unwrap().to_string();
    let ann = created["token"].as_str().unwrap().to_string();
    let ben = created["invite_token"].as_str().unwrap().to_string();
    server
        .post(
            &format!("/api/matches/{mid}/join"),
            &json!({"name": "Ben", "token": ben}),
            None,
        )
        .await;
    let m = wait_match(&server, &mid, |m| m["current_game"].is_string()).await;
    let g1 = m["current_game"].as_str().unwrap().to_string();
    // Game 1: Ann thinks past her free time: a step of her reserve is gone.
    let state = server.game(&g1, None).await;
    tokio::time::sleep(Duration::from_millis(450)).await;
    let (status, answer) = server
        .act(&g1, &ann, mv(&pick_move(&state, &mut Rng::new(3))))
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["state"]["clocks"][0]["remaining_ms"], 500);
    server.act_ok(&g1, &ben, json!({"type": "resign"})).await;
    // Game 2: Ann (seat 2 now, her clock not running) has her whole reserve again.
    let m = wait_match(&server, &mid, |m| m["games"].as_array().unwrap().len() == 2).await;
    let g2 = m["current_game"].as_str().unwrap().to_string();
    let state = server.game(&g2, Some(&ann)).await;
    assert_eq!(state["you"], 2);
    assert_eq!(state["clock"], clock);
    assert_eq!(state["clocks"][1]["running"], false);
    assert_eq!(
        state["clocks"][1]["remaining_ms"],
        1000,
        "{}",
        brief(&state)
    );
    assert!(state["clocks"][0]["remaining_ms"].as_i64().unwrap() >= 500);
    server.assert_healthy().await;
}

#[tokio::test]
async fn tokens_are_never_logged_nor_shown_to_spectators() {
    let (_dir, db) = temp_db();
    // The most talkative log level the server has.
    let mut server = Server::start_env(&db, 50, &[], "debug");
    let mut tokens: Vec<String> = Vec::new();
    // What spectators can get: every answer without a token, every message of a spectator's
    // socket.
    let mut seen: Vec<String> = Vec::new();
    let created = server
        .create(json!({"opponent": {"kind": "invite"}, "name": "Alice"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let alice = created["token"].as_str().unwrap().to_string();
    let bob = created["invite_token"].as_str().unwrap().to_string();
    tokens.extend([alice.clone(), bob.clone()]);
    let mut spectator = server.ws(&id, None, None).await;
    spectator.keep_raw();
    seen.push(spectator.first.to_string());
    server.join(&id, &bob, "Bob").await;
    // Both seats on their sockets (the token in the address), moves both ways.
    let mut a = server.ws(&id, Some(&alice), None).await;
    let mut b = server.ws(&id, Some(&bob), None).await;
    let mut rng = Rng::new(8);
    for i in 0..6 {
        let state = a.state.clone();
        let text = pick_move(&state, &mut rng);
        let v = match (to_move(&state), i % 2) {
            (1, 0) => a.act_ok(mv(&text)).await,
            (2, 0) => b.act_ok(mv(&text)).await,
            (1, _) => server.act_ok(&id, &alice, mv(&text)).await,
            _ => server.act_ok(&id, &bob, mv(&text)).await,
        };
        a.wait_version(v).await;
    }
    server
        .act_ok(&id, &alice, json!({"type": "offer_draw"}))
        .await;
    b.act_ok(json!({"type": "accept_draw"})).await;
    a.act_ok(json!({"type": "rematch"})).await;
    b.act_ok(json!({"type": "rematch"})).await;
    let rematch = a.wait_event("next_game").await["game_id"]
        .as_str()
        .unwrap()
        .to_string();
    // An open game joined from the lobby, an engine game, a match with an invitation.
    let open = server
        .create(json!({"opponent": {"kind": "open"}, "name": "Olga"}))
        .await;
    let open_id = open["id"].as_str().unwrap().to_string();
    tokens.push(open["token"].as_str().unwrap().to_string());
    let (_, joined) = server
        .post(
            &format!("/api/games/{open_id}/join"),
            &json!({"name": "Pete"}),
            None,
        )
        .await;
    tokens.push(joined["token"].as_str().unwrap().to_string());
    let engine = server
        .create(json!({"opponent": {"kind": "engine", "level": 1}, "name": "Eva"}))
        .await;
    let engine_id = engine["id"].as_str().unwrap().to_string();
    tokens.push(engine["token"].as_str().unwrap().to_string());
    let (_, m) = server
        .post(
            "/api/matches",
            &json!({"opponent": {"kind": "invite"}, "name": "Ann", "bribes": true}),
            None,
        )
        .await;
    let mid = m["id"].as_str().unwrap().to_string();
    let (ann, ben) = (
        m["token"].as_str().unwrap().to_string(),
        m["invite_token"].as_str().unwrap().to_string(),
    );
    tokens.extend([ann.clone(), ben.clone()]);
    let mut watch = MatchWs::connect(&format!("ws://{}/api/matches/{mid}/ws", server.addr))
        .await
        .unwrap();
    seen.push(watch.state.to_string());
    server
        .post(
            &format!("/api/matches/{mid}/join"),
            &json!({"name": "Ben", "token": ben}),
            None,
        )
        .await;
    seen.push(
        watch
            .until(|m| m["current_game"].is_string())
            .await
            .to_string(),
    );
    // A token used on the wrong game is refused, and not logged either.
    let (status, _) = server.act(&id, &ann, mv("Wd4,a1")).await;
    assert_eq!(status, 403);
    spectator.listen(Duration::from_millis(200)).await;
    a.close().await;
    b.close().await;

    // Everything a spectator can ask for.
    let (_, m) = server.get(&format!("/api/matches/{mid}"), None).await;
    let current = m["current_game"].as_str().unwrap().to_string();
    for game in [&id, &rematch, &open_id, &engine_id, &current] {
        seen.push(server.game(game, None).await.to_string());
        for tail in ["record", "sgf"] {
            seen.push(
                server
                    .get_text(&format!("/api/games/{game}/{tail}"))
                    .await
                    .1,
            );
        }
        let ws = server.ws(game, None, Some(0)).await;
        seen.push(ws.first.to_string());
        ws.close().await;
    }
    seen.push(m.to_string());
    for path in [
        "/api/games",
        "/api/games?status=open",
        "/api/games?status=live",
        "/api/games?status=finished",
        "/api/matches",
    ] {
        seen.push(server.get(path, None).await.1.to_string());
    }
    seen.push(
        server
            .get_text(&format!("/api/matches/{mid}/record"))
            .await
            .1,
    );
    seen.extend(spectator.raw.take().unwrap());
    assert!(seen.len() > 30);
    let log = server.log();
    let stdout = server.stdout();
    assert!(log.contains("DEBUG"), "the debug log is on: {log:.300}");
    for token in &tokens {
        assert_eq!(token.len(), 48);
        assert!(!log.contains(token.as_str()), "a token in the server's log");
        assert!(
            !stdout.contains(token.as_str()),
            "a token on the server's stdout"
        );
        for text in &seen {
            assert!(
                !text.contains(token.as_str()),
                "a token shown to spectators: {text:.300}"
            );
        }
    }
    server.kill();
}

/// The tests that run on PostgreSQL too: the same bodies on `zertz serve --db postgres://…`,
/// a fresh database each. Without `ZERTZ_TEST_POSTGRES` each says on stderr that it did not
/// run there, and passes (CI always sets it).
mod postgres {
    use super::*;
    use common::postgres;

    /// Runs `check` on a fresh database named after `test`, which is dropped afterwards even
    /// when the check fails.
    async fn on_postgres<F, Fut>(test: &str, check: F)
    where
        F: FnOnce(Db) -> Fut,
        Fut: std::future::Future<Output = ()> + Send + 'static,
    {
        let Some(database) = postgres::fresh(test).await else {
            return;
        };
        let outcome = tokio::spawn(check(database.db.clone())).await;
        database.remove().await;
        if let Err(e) = outcome {
            match e.try_into_panic() {
                Ok(panic) => std::panic::resume_unwind(panic),
                Err(e) => panic!("{test}: {e}"),
            }
        }
    }

    #[tokio::test]
    async fn a_whole_game_between_two_people() {
        on_postgres("whole_game", whole_game).await;
    }

    #[tokio::test]
    async fn a_best_of_three_match_with_bribes() {
        on_postgres("match_with_bribes", match_with_bribes).await;
    }

    #[tokio::test]
    async fn acknowledged_moves_survive_a_kill() {
        on_postgres("kill_and_restart", kill_and_restart).await;
    }

    #[tokio::test]
    async fn a_match_survives_a_kill() {
        on_postgres("match_kill", match_kill).await;
    }
}
