//! Best-of-N matches through the server's API (docs/server.md, "Matches"): a best-of-3 with bribes
//! accepted and rejected, a replayed draw, alternating first players and the score; bribes
//! counted per match and never given back by a takeback; a match watched on its WebSocket,
//! resigned, exported, and aborts capped so that it cannot be stalled. The best-of-3 runs on
//! PostgreSQL too (`mod postgres`) when `ZERTZ_TEST_POSTGRES` is set.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zertz_testkit::in_process::Server;
use zertz_testkit::matches::{MatchSeats, game_count};
use zertz_testkit::play::{
    Rng, answer_bribe, bribe, brief, mv, pick_move, play_until, refused, to_move,
};
use zertz_testkit::site::{Db, string, temp_db};
use zertz_testkit::ws::MatchWs;

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
    let created = server.invite_match(json!({"bribes": true})).await;
    let mid = string(&created["id"]);
    let ann = string(&created["token"]);
    let invite = string(&created["invite_token"]);
    let m = server.wait_match(&mid, |_| true).await;
    assert_eq!(m["status"], "open");
    assert_eq!(m["current_game"], Value::Null);
    assert_eq!(m["bribes_left"], json!([3, 3]));
    // The friend takes the invited place.
    let joined = server.join_match(&mid, &invite, "Ben").await;
    assert_eq!(joined["player"], 1);
    let ben = string(&joined["token"]);
    assert_ne!(ben, invite, "the place gets a token of its own");
    // The invitation was used: a second use is refused with a sentence.
    let (status, again) = server
        .post(
            &format!("/api/matches/{mid}/join"),
            &json!({"name": "Mallory", "token": invite}),
            None,
        )
        .await;
    refused(status, &again, 409, "this invitation has been used");
    let players = [ann.clone(), ben.clone()];
    let m = server
        .wait_match(&mid, |m| m["current_game"].is_string())
        .await;
    assert_eq!(m["status"], "live");
    assert_eq!(m["players"][0]["name"], "Ann");
    assert_eq!(m["players"][1]["name"], "Ben");
    let as_ben = server.get_match(&mid, Some(&ben)).await;
    assert_eq!(as_ben["you"], 1);

    // Game 1: Ann moves first.
    let g1 = string(&m["current_game"]);
    let seats = server.match_seats(&g1, &players, 0).await;
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
    let offered = one_of(colour);
    let p = to_move(&state);
    let q = 3 - p;
    let (tp, tq) = (seats[p - 1].clone(), seats[q - 1].clone());
    let propose = bribe(&offered);

    // The opponent may not propose out of turn; a bribe of marbles not held is refused.
    let (status, body) = server.act(&g1, &tq, propose.clone()).await;
    assert_eq!(status, 409, "{body}");
    let (status, body) = server.act(&g1, &tp, bribe("9/9/9")).await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = server.act(&g1, &tp, bribe("lots")).await;
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
            json!({"type": "bribe_proposed", "seat": p, "marbles": offered})
        );
        assert_eq!(
            ws.state["pending_bribe"],
            json!({"by": p, "marbles": offered})
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
        (&tp, answer_bribe(true)),
    ] {
        let (status, body) = server.act(&g1, token, action.clone()).await;
        assert_eq!(status, 409, "{action}: {body}");
    }
    let v = server.act_ok(&g1, &tq, answer_bribe(false)).await;
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
    server.act_ok(&g1, &tq, answer_bribe(false)).await;
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
    let offered = one_of(colour);
    let v = server.act_ok(&g1, &tq, bribe(&offered)).await;
    left[q - 1] = 2;
    let v2 = sockets[p - 1].act_ok(answer_bribe(true)).await;
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
    let g2 = string(&next["game_id"]);
    sockets[1].wait_event("next_game").await;
    assert_eq!(sockets[1].state["next_game"], g2.as_str());
    assert_eq!(sockets[1].state["result"]["winner"], p);
    // Participant of seat p in game 1 (Ann sits in seat 1).
    let w = p - 1;
    let m = server.wait_match(&mid, |m| game_count(m) == 2).await;
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
    let seats2 = server.match_seats(&g2, &players, 1).await;
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
    let m = server.wait_match(&mid, |m| game_count(m) == 3).await;
    assert_eq!(m["games"][1]["result"], "1/2-1/2");
    assert_eq!(m["games"][1]["winner"], Value::Null);
    assert_eq!(m["score"], json!(score));
    // Game 3: Ann first again; participant 1 - w wins it.
    let g3 = string(&m["current_game"]);
    // The drawn game points to its replay (the event follows the match's update).
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.game(&g2, None).await["next_game"] != g3.as_str() {
        assert!(Instant::now() < deadline, "game 2 never named game 3");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seats3 = server.match_seats(&g3, &players, 0).await;
    server
        .act_ok(&g3, &players[w], json!({"type": "resign"}))
        .await;
    let m = server.wait_match(&mid, |m| game_count(m) == 4).await;
    score[1 - w] = 1;
    assert_eq!(m["score"], json!(score));
    assert_eq!(m["games"][2]["winner"], 1 - w);
    assert_eq!(m["winner"], Value::Null);
    // Game 4: Ben first; participant w wins it, and the match.
    let g4 = string(&m["current_game"]);
    let seats4 = server.match_seats(&g4, &players, 1).await;
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
    let m = server.wait_match(&mid, |m| m["winner"] == w).await;
    score[w] = 2;
    assert_eq!(m["score"], json!(score));
    assert_eq!(m["status"], "finished");
    assert_eq!(m["current_game"], Value::Null);
    assert_eq!(game_count(&m), 4);
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
    let finished = server.listed_ids("/api/matches?status=finished").await;
    assert!(finished.contains(&mid), "{finished:?}");
    server.assert_healthy().await;
}

#[tokio::test]
async fn bribes_are_counted_per_match_and_a_takeback_gives_none_back() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let MatchSeats {
        id: mid,
        ann,
        ben,
        first_game: g1,
    } = server.invited_match(json!({"bribes": true})).await;
    let empty = bribe("0/0/0");

    // Game 1, Ann first: an empty bribe, accepted (a pass), then taken back.
    server.act_ok(&g1, &ann, empty.clone()).await;
    server.act_ok(&g1, &ben, answer_bribe(true)).await;
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
    server.act_ok(&g1, &ben, answer_bribe(false)).await;
    assert_eq!(server.game(&g1, None).await["bribes_left"], json!([1, 3]));
    server.act_ok(&g1, &ann, json!({"type": "resign"})).await;
    let m = server.wait_match(&mid, |m| game_count(m) == 2).await;
    assert_eq!(m["bribes_left"], json!([1, 3]));
    assert_eq!(m["score"], json!([0, 1]));

    // Game 2, Ben first (seat 1): Ann's third bribe, then a fourth, refused with the reason.
    let g2 = string(&m["current_game"]);
    let state = server.game(&g2, Some(&ann)).await;
    assert_eq!(state["you"], 2);
    assert_eq!(state["bribes_left"], json!([3, 1]));
    server
        .act_ok(&g2, &ben, mv(&pick_move(&state, &mut Rng::new(5))))
        .await;
    server.act_ok(&g2, &ann, empty.clone()).await;
    server.act_ok(&g2, &ben, answer_bribe(false)).await;
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
    let created = server.invite_match(json!({"bribes": true})).await;
    let mid = string(&created["id"]);
    let ann = string(&created["token"]);
    let invite = string(&created["invite_token"]);
    // A spectator and a participant watch; a wrong token and an unknown match are refused.
    let mut watch = server.match_ws(&mid, None).await;
    assert_eq!(watch.state["status"], "open");
    assert_eq!(watch.state["you"], Value::Null);
    let mut mine = server.match_ws(&mid, Some(&ann)).await;
    assert_eq!(mine.state["you"], 0);
    let (_, [eve, _]) = server.invitation(json!({"name": "Eve"})).await;
    assert_eq!(
        MatchWs::connect(&server.match_ws_url(&mid, Some(&eve)))
            .await
            .err()
            .as_deref(),
        Some("HTTP 403")
    );
    let unknown = server.match_ws_url("mabcdefghijk", None);
    assert_eq!(
        MatchWs::connect(&unknown).await.err().as_deref(),
        Some("HTTP 404")
    );
    // Resigning a match nobody has joined yet is refused.
    let resign = format!("/api/matches/{mid}/resign");
    let (status, body) = server.post(&resign, &json!({}), Some(&ann)).await;
    refused(status, &body, 409, "not started");

    // Ben joins: the watchers see the match go live and its first game start.
    let ben = string(&server.join_match(&mid, &invite, "Ben").await["token"]);
    let players = [ann.clone(), ben.clone()];
    let m = watch.until(|m| m["current_game"].is_string()).await;
    assert_eq!(m["status"], "live");
    assert_eq!(m["players"][1]["name"], "Ben");
    let g1 = string(&m["current_game"]);

    // Aborts: each player may abort one game of the match, no more; aborted games are
    // replayed (the first player alternating as for any game).
    server.act_ok(&g1, &ann, json!({"type": "abort"})).await;
    let m = watch.until(|m| game_count(m) == 2).await;
    assert_eq!(m["games"][0]["result"], "*");
    assert_eq!(m["score"], json!([0, 0]));
    let g2 = string(&m["current_game"]);
    let seats2 = server.match_seats(&g2, &players, 1).await;
    let (status, body) = server.act(&g2, &ann, json!({"type": "abort"})).await;
    refused(status, &body, 409, "already aborted a game of this match");
    server.act_ok(&g2, &ben, json!({"type": "abort"})).await;
    let m = watch.until(|m| game_count(m) == 3).await;
    let g3 = string(&m["current_game"]);
    let seats3 = server.match_seats(&g3, &players, 0).await;
    for token in &seats3 {
        let (status, body) = server.act(&g3, token, json!({"type": "abort"})).await;
        refused(status, &body, 409, "already aborted");
    }
    assert_eq!(
        server.game(&g2, Some(&seats2[0])).await["status"],
        "finished"
    );

    // A bribe proposed in the game is pushed as the match's bribes left.
    server.act_ok(&g3, &ann, bribe("0/0/0")).await;
    let m = watch.until(|m| m["bribes_left"] == json!([2, 3])).await;
    assert_eq!(m["current_game"], g3.as_str());
    server.act_ok(&g3, &ben, answer_bribe(false)).await;
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
    let g4 = string(&m["current_game"]);
    assert_ne!(g4, g3);
    server.match_seats(&g4, &players, 1).await;
    let state = server.game(&g4, None).await;
    server
        .act_ok(&g4, &ben, mv(&pick_move(&state, &mut Rng::new(10))))
        .await;

    // Ben resigns the whole match: Ann wins it, game 4 ends with it, no game 5 comes.
    let (status, body) = server.post(&resign, &json!({}), None).await;
    refused(status, &body, 401, "token");
    let (status, body) = server.post(&resign, &json!({}), Some(&eve)).await;
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
        assert_eq!(game_count(&seen), 4);
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
    let m = server.get_match(&mid, None).await;
    assert_eq!(game_count(&m), 4, "no fifth game");
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

/// The tests above that run on PostgreSQL too: the same bodies on `zertz serve --db
/// postgres://…`, a fresh database each (see `zertz_testkit::postgres`).
mod postgres {
    use super::*;

    #[tokio::test]
    async fn a_best_of_three_match_with_bribes() {
        zertz_testkit::postgres::run("match_with_bribes", match_with_bribes).await;
    }
}
