//! Tournaments in a real process: the server killed with SIGKILL in the middle of a round,
//! and again right after the game that ends a round, carries on when it starts again: the
//! results are there (a game that ended before the kill but was never recorded is caught up
//! from the store), the next round is paired once, and the event ends after its last round.
//! A knockout killed in the middle of a best-of-3 match, and again right after the match that
//! ends its round, goes on the same way: the match resumes at its next game, the final is
//! paired once. The rest of tournaments: crates/zertz-server/tests/behaviour/tournaments.rs.

use std::collections::HashMap;
use std::time::Duration;

use crate::common::accounts::Browser;
use crate::common::server::{Db, Server, string};
use serde_json::{Value, json};
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::tournaments::{boards, event, match_game, wait};

const PASSWORD: &str = "correct horse battery";
const NAMES: [&str; 4] = ["Ann", "Bob", "Cyd", "Dee"];

/// Browsers logged in as every player on `server` (after a restart the address changes).
async fn log_in(server: &Server, sign_up: bool) -> HashMap<&'static str, Browser> {
    let mut out = HashMap::new();
    for name in NAMES {
        let mut b = Browser::new(server);
        if sign_up {
            b.sign_up_ok(name, PASSWORD).await;
        } else {
            assert_eq!(b.log_in(name, PASSWORD).await.status, 200);
        }
        out.insert(name, b);
    }
    out
}

/// The second mover of `board` resigns.
async fn resign(players: &mut HashMap<&'static str, Browser>, board: &Value) {
    let black = string(&board["black"]);
    resign_game(players, &black, &string(&board["game"])).await;
}

/// A Swiss of four over two rounds; killed after the first game of round 1 ended, then killed
/// at once after the second (the last of the round): each restart carries on, round 2 is
/// paired once with its two games live, and the event finishes after it.
async fn a_killed_server_resumes_its_events_and_pairs_each_round_once(db: Db) {
    let mut server = Server::start(&db);
    let mut players = log_in(&server, true).await;
    let created = players
        .get_mut("Ann")
        .unwrap()
        .post(
            "/api/tournaments",
            json!({"name": "Night Swiss", "format": "swiss", "rounds": 2,
                   "clock": {"kind": "fischer", "base_ms": 600_000, "increment_ms": 5_000}}),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = string(&created.body["id"]);
    for name in NAMES {
        let a = players
            .get_mut(name)
            .unwrap()
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(a.status, 200, "{:?}", a.body);
    }
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = wait(&server, &id, |e| e["round"] == 1).await;
    let round_one = boards(&e, 1);
    assert_eq!(round_one.len(), 2);

    // Mid-round: one game over, then the kill.
    resign(&mut players, &round_one[0]).await;
    wait(&server, &id, |e| !boards(e, 1)[0]["result"].is_null()).await;
    server.kill();
    server = Server::start(&db);
    let mut players = log_in(&server, false).await;
    let e = event(&server, &id).await;
    assert_eq!(
        (e["status"].as_str(), e["round"].as_i64()),
        (Some("running"), Some(1))
    );
    assert_eq!(boards(&e, 1)[0]["result"], "1-0");
    assert!(boards(&e, 1)[1]["result"].is_null());
    let live = server.game(&string(&round_one[1]["game"]), None).await;
    assert_eq!(live["status"], "live", "the round's other game came back");

    // The round's last game, and the kill at once: its end is stored, maybe not its record
    // nor the next round.
    resign(&mut players, &round_one[1]).await;
    server.kill();
    server = Server::start(&db);
    let mut players = log_in(&server, false).await;
    let e = wait(&server, &id, |e| e["round"] == 2).await;
    assert_eq!(boards(&e, 1)[1]["result"], "1-0");
    let round_two = boards(&e, 2);
    assert_eq!(round_two.len(), 2, "{e:#}");
    assert_eq!(e["pairings"].as_array().unwrap().len(), 2);
    // Paired once: round 2's two games are the only live games there are.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let live: Vec<String> = server
        .listing("/api/games?status=live")
        .await
        .iter()
        .map(|g| string(&g["id"]))
        .collect();
    let mut expected: Vec<String> = round_two.iter().map(|b| string(&b["game"])).collect();
    let mut found = live.clone();
    expected.sort();
    found.sort();
    assert_eq!(found, expected, "round 2 paired more than once?");
    assert_eq!(event(&server, &id).await["pairings"], e["pairings"]);
    for b in &round_two {
        resign(&mut players, b).await;
    }
    let e = wait(&server, &id, |e| e["status"] == "finished").await;
    assert_eq!(e["standings"]["after_round"], 2);
    server.assert_healthy().await;
}

/// `who` resigns `game`.
async fn resign_game(players: &mut HashMap<&'static str, Browser>, who: &str, game: &str) {
    let a = players
        .get_mut(who)
        .unwrap()
        .post(
            &format!("/api/games/{game}/action"),
            json!({"type": "resign"}),
        )
        .await;
    assert_eq!(a.status, 200, "{who} resigns {game}: {:?}", a.body);
}

/// A knockout of four: the server is killed after game 1 of a semifinal, and again right after
/// the match that completes round 1; the match resumes at game 2, the final is paired once,
/// and the event ends with its winner.
async fn a_killed_server_resumes_a_knockout_mid_match(db: Db) {
    let mut server = Server::start(&db);
    let mut players = log_in(&server, true).await;
    let created = players
        .get_mut("Ann")
        .unwrap()
        .post(
            "/api/tournaments",
            json!({"name": "Night knockout", "format": "knockout",
                   "clock": {"kind": "fischer", "base_ms": 600_000, "increment_ms": 5_000}}),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = string(&created.body["id"]);
    for name in NAMES {
        let path = format!("/api/tournaments/{id}/join");
        let a = players.get_mut(name).unwrap().post(&path, json!({})).await;
        assert_eq!(a.status, 200, "{:?}", a.body);
    }
    let path = format!("/api/tournaments/{id}/start");
    let a = players.get_mut("Ann").unwrap().post(&path, json!({})).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    // Equal ratings: seeds by name; the lower seed first. Semifinals Dee-Ann and Cyd-Bob.
    let e = wait(&server, &id, |e| e["round"] == 1).await;
    let semis = boards(&e, 1);
    assert_eq!(
        (string(&semis[0]["white"]), string(&semis[1]["white"])),
        ("Dee".into(), "Cyd".into())
    );

    // Dee loses game 1 of her match; the kill.
    let g1 = match_game(&server, &semis[0], None).await;
    resign_game(&mut players, "Dee", &g1).await;
    let g2 = match_game(&server, &semis[0], Some(&g1)).await;
    server.kill();
    server = Server::start(&db);
    let mut players = log_in(&server, false).await;
    // The match resumes at its game 2, live; the round waits for it.
    assert_eq!(match_game(&server, &semis[0], Some(&g1)).await, g2);
    assert_eq!(server.game(&g2, None).await["status"], "live");
    assert_eq!(event(&server, &id).await["round"], 1);
    resign_game(&mut players, "Dee", &g2).await;
    // Cyd resigns his whole match, the round's last: the kill at once.
    let a = players
        .get_mut("Cyd")
        .unwrap()
        .post(
            &format!("/api/matches/{}/resign", string(&semis[1]["game"])),
            json!({}),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    server.kill();
    server = Server::start(&db);
    let mut players = log_in(&server, false).await;
    let e = wait(&server, &id, |e| e["round"] == 2).await;
    assert_eq!(
        (
            boards(&e, 1)[0]["result"].clone(),
            boards(&e, 1)[1]["result"].clone()
        ),
        (json!("0-1"), json!("0-1")),
        "{e:#}"
    );
    let fin = boards(&e, 2);
    assert_eq!(fin.len(), 1, "the final once: {e:#}");
    // Bob (seed 2) begins the final; Bob loses it 0-2.
    let g = match_game(&server, &fin[0], None).await;
    resign_game(&mut players, "Bob", &g).await;
    let g = match_game(&server, &fin[0], Some(&g)).await;
    resign_game(&mut players, "Bob", &g).await;
    let e = wait(&server, &id, |e| e["status"] == "finished").await;
    assert_eq!(e["pairings"].as_array().unwrap().len(), 2);
    assert_eq!(e["standings"]["lines"][0]["name"], "Ann");
    server.assert_healthy().await;
}

on_sqlite_and_postgres!(
    a_killed_server_resumes_its_events_and_pairs_each_round_once,
    a_killed_server_resumes_a_knockout_mid_match,
);
