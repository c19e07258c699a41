//! The death-match knockout through the HTTP API (docs/tournaments.md, "Knockout"): five
//! players, a bracket of eight (the top three seeds through round 1 without playing), each
//! board a best-of-3 match played through its games, the lower seed moving first in game 1,
//! the house rules (no repetition; bribes in the final only, three each), a match won 2-0,
//! one 2-1 and one resigned as a whole, the places at the end, and a player who lets a first
//! move wait losing the match by forfeit. On SQLite and on PostgreSQL.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};
use zertz_testkit::accounts::Browser;
use zertz_testkit::in_process::Server;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::site::{Db, string};
use zertz_testkit::tournaments::{boards, match_game, shown, sign_up, wait};

/// Creates a knockout with `extra` settings, enters `names` and starts it: the event once
/// round 1 is paired.
async fn started(
    server: &Server,
    players: &mut HashMap<String, Browser>,
    names: &[&str],
    extra: Value,
) -> (String, Value) {
    let mut body = json!({
        "name": "DM Colosseum",
        "format": "knockout",
        "clock": {"kind": "fischer", "base_ms": 600_000, "increment_ms": 5_000},
    });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let organiser = players.get_mut(names[0]).unwrap();
    let a = organiser.post("/api/tournaments", body).await;
    assert_eq!(a.status, 201, "{:?}", a.body);
    let id = string(&a.body["id"]);
    for name in names {
        let a = players
            .get_mut(*name)
            .unwrap()
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(a.status, 200, "{name}: {:?}", a.body);
    }
    let a = players
        .get_mut(names[0])
        .unwrap()
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = wait(server, &id, |e| e["round"] == 1).await;
    (id, e)
}

/// The match of `board` as `GET /api/matches/{id}` shows it.
async fn the_match(server: &Server, board: &Value) -> Value {
    let (status, m) = server
        .get(&format!("/api/matches/{}", string(&board["game"])), None)
        .await;
    assert_eq!(status, 200, "{m}");
    m
}

/// The game the match of `board` plays now, once it is not `after`, with its state.
async fn game_after(server: &Server, board: &Value, after: Option<&str>) -> (String, Value) {
    let g = match_game(server, board, after).await;
    let (status, state) = server.get(&format!("/api/games/{g}"), None).await;
    assert_eq!(status, 200, "{state}");
    (g, state)
}

/// Plays the match of `board` game by game: in each, the player named by `losers` (in
/// order) resigns. Returns the games' first movers.
async fn play_match(
    server: &Server,
    players: &mut HashMap<String, Browser>,
    board: &Value,
    losers: &[&str],
) -> Vec<String> {
    let mut firsts = Vec::new();
    let mut last: Option<String> = None;
    for loser in losers {
        let (game, state) = game_after(server, board, last.as_deref()).await;
        firsts.push(string(&state["seats"][0]["name"]));
        let a = players
            .get_mut(*loser)
            .unwrap()
            .post(
                &format!("/api/games/{game}/action"),
                json!({"type": "resign"}),
            )
            .await;
        assert_eq!(a.status, 200, "{loser} resigns {game}: {:?}", a.body);
        last = Some(game);
    }
    firsts
}

/// Five players: round 1 pairs seeds 4 and 5 (Dee and Eve), the lower seed moving first, and
/// gives seeds 1 to 3 a walkover; the bracket then meets 1-4 and 2-3, and the final. Every
/// game is under the house rules: no repetition; bribes only in the final.
async fn a_knockout_of_five_is_played_to_its_final(db: Db) {
    let server = Server::start(&db);
    let names = ["Ann", "Bob", "Cyd", "Dee", "Eve"];
    let mut players = sign_up(&server, &names).await;
    let (id, e) = started(&server, &mut players, &names, json!({})).await;
    assert_eq!(e["format"], "knockout");
    assert_eq!(e["rounds"], 3, "a bracket of eight: {e:#}");
    assert_eq!(e["settings"]["first_mover"], "lower");
    // Equal ratings: seeds by name. Slots 1-4 hold seeds (1,8) (4,5) (2,7) (3,6).
    assert_eq!(shown(&e, 1), ["Ann-", "Eve-Dee", "Bob-", "Cyd-"]);
    let round1 = boards(&e, 1);
    let walkovers: Vec<&Value> = round1.iter().map(|b| &b["result"]).collect();
    assert_eq!(walkovers[0], "bye");
    assert!(walkovers[1].is_null());
    let board = boards(&e, 1)[1].clone();
    assert_eq!(board["url"], format!("/match/{}", string(&board["game"])));
    let m = the_match(&server, &board).await;
    assert_eq!(m["best_of"], 3);
    assert_eq!(m["repetition"], "forbidden", "{m:#}");
    assert_eq!(m["bribes"], false);
    // A bribe outside the final is refused as such.
    let (game, _) = game_after(&server, &board, None).await;
    let a = players
        .get_mut("Eve")
        .unwrap()
        .post(
            &format!("/api/games/{game}/action"),
            json!({"type": "propose_bribe", "marbles": "1/0/0"}),
        )
        .await;
    assert!(
        a.body.to_string().contains("bribes are not allowed"),
        "{:?}",
        a.body
    );
    // Dee wins 2-0: Eve moves first in game 1, Dee in game 2. No round 2 before that.
    let firsts = play_match(&server, &mut players, &board, &["Eve", "Eve"]).await;
    assert_eq!(firsts, ["Eve", "Dee"]);

    // Round 2: 1-4 and 2-3, the lower seeds first.
    let e = wait(&server, &id, |e| e["round"] == 2).await;
    assert_eq!(boards(&e, 1)[1]["result"], "0-1");
    assert_eq!(shown(&e, 2), ["Dee-Ann", "Cyd-Bob"]);
    // Dee resigns the whole match at once; Cyd wins 2-1.
    let ann_dee = boards(&e, 2)[0].clone();
    let a = players
        .get_mut("Dee")
        .unwrap()
        .post(
            &format!("/api/matches/{}/resign", string(&ann_dee["game"])),
            json!({}),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let cyd_bob = boards(&e, 2)[1].clone();
    let firsts = play_match(&server, &mut players, &cyd_bob, &["Cyd", "Bob", "Bob"]).await;
    assert_eq!(firsts, ["Cyd", "Bob", "Cyd"]);

    // The final: Ann and Cyd, bribes on, three each across the match.
    let e = wait(&server, &id, |e| e["round"] == 3).await;
    assert_eq!(boards(&e, 2)[0]["result"], "0-1");
    assert_eq!(boards(&e, 2)[1]["result"], "1-0");
    assert_eq!(shown(&e, 3), ["Cyd-Ann"]);
    let fin = boards(&e, 3)[0].clone();
    let m = the_match(&server, &fin).await;
    assert_eq!(m["bribes"], true, "{m:#}");
    assert_eq!(m["bribes_left"], json!([3, 3]));
    // (A bribe of marbles Cyd has not captured is refused by the rules, not as forbidden.)
    let (game, _) = game_after(&server, &fin, None).await;
    let a = players
        .get_mut("Cyd")
        .unwrap()
        .post(
            &format!("/api/games/{game}/action"),
            json!({"type": "propose_bribe", "marbles": "1/0/0"}),
        )
        .await;
    let said = a.body.to_string();
    assert!(
        a.status != 200 && !said.contains("not allowed in this game"),
        "{said}"
    );
    play_match(&server, &mut players, &fin, &["Cyd", "Cyd"]).await;

    // The places: Ann 1, Cyd 2, Bob and Dee 3, Eve 5; the report is refused, the games are
    // in the download (2 + 1 + 3 + 2 games).
    let e = wait(&server, &id, |e| e["status"] == "finished").await;
    let places: Vec<(String, Value)> = e["standings"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (string(&l["name"]), l["rank"].clone()))
        .collect();
    assert_eq!(
        places,
        [
            ("Ann".to_string(), json!(1)),
            ("Cyd".to_string(), json!(2)),
            ("Bob".to_string(), json!(3)),
            ("Dee".to_string(), json!(3)),
            ("Eve".to_string(), json!(5)),
        ],
        "{e:#}"
    );
    let (status, said) = server
        .get(&format!("/api/tournaments/{id}/trf"), None)
        .await;
    assert_eq!(status, 409, "{said}");
    let (status, sgf) = server
        .get_text(&format!("/api/tournaments/{id}/games.sgf"))
        .await;
    assert_eq!(status, 200);
    assert_eq!(sgf.matches("(;").count(), 8, "{sgf}");
}

/// The higher seed may be the one to move first; a player who never makes a first move loses
/// the whole match by forfeit after the event's `first_move_s`.
async fn a_first_move_never_made_loses_the_match(db: Db) {
    let server = Server::start(&db);
    let names = ["Ann", "Bob"];
    let mut players = sign_up(&server, &names).await;
    let (id, e) = started(
        &server,
        &mut players,
        &names,
        json!({"first_mover": "higher", "first_move_s": 10, "max_players": 2}),
    )
    .await;
    assert_eq!(e["rounds"], 1);
    assert_eq!(shown(&e, 1), ["Ann-Bob"]);
    let begun = std::time::Instant::now();
    let until = begun + Duration::from_secs(60);
    let e = loop {
        let e = zertz_testkit::tournaments::event(&server, &id).await;
        if e["status"] == "finished" {
            break e;
        }
        assert!(std::time::Instant::now() < until, "{e:#}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(
        begun.elapsed() >= Duration::from_secs(9),
        "{:?}",
        begun.elapsed()
    );
    assert_eq!(boards(&e, 1)[0]["result"], "0-1", "{e:#}");
    let m = the_match(&server, &boards(&e, 1)[0]).await;
    assert_eq!(m["winner"], 1, "{m:#}");
    assert_eq!(e["standings"]["lines"][0]["name"], "Bob");
}

/// `who` resigns the whole match of `board`.
async fn resign_match(players: &mut HashMap<String, Browser>, who: &str, board: &Value) {
    let a = players
        .get_mut(who)
        .unwrap()
        .post(
            &format!("/api/matches/{}/resign", string(&board["game"])),
            json!({}),
        )
        .await;
    assert_eq!(a.status, 200, "{who}: {:?}", a.body);
}

/// With a third-place match the semifinal losers meet beside the final, under the final's
/// rules (bribes), and the places are 1, 2, 3 and 4.
async fn a_third_place_match_is_played_beside_the_final(db: Db) {
    let server = Server::start(&db);
    let names = ["Ann", "Bob", "Cyd", "Dee"];
    let mut players = sign_up(&server, &names).await;
    let (id, e) = started(&server, &mut players, &names, json!({"third_place": true})).await;
    assert_eq!(e["settings"]["third_place"], true);
    assert_eq!(shown(&e, 1), ["Dee-Ann", "Cyd-Bob"]);
    resign_match(&mut players, "Dee", &boards(&e, 1)[0]).await;
    resign_match(&mut players, "Cyd", &boards(&e, 1)[1]).await;
    let e = wait(&server, &id, |e| e["round"] == 2).await;
    // The final on board 1, the third-place match on board 2, the lower seeds first.
    assert_eq!(shown(&e, 2), ["Bob-Ann", "Dee-Cyd"]);
    for board in boards(&e, 2) {
        let m = the_match(&server, &board).await;
        assert_eq!(m["bribes"], true, "{m:#}");
        assert_eq!(m["bribes_left"], json!([3, 3]));
    }
    // The final alone does not end the event: the third-place match is part of the round.
    resign_match(&mut players, "Bob", &boards(&e, 2)[0]).await;
    let e = wait(&server, &id, |e| !boards(e, 2)[0]["result"].is_null()).await;
    assert_eq!(e["status"], "running");
    resign_match(&mut players, "Dee", &boards(&e, 2)[1]).await;
    let e = wait(&server, &id, |e| e["status"] == "finished").await;
    let places: Vec<(String, Value)> = e["standings"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (string(&l["name"]), l["rank"].clone()))
        .collect();
    assert_eq!(
        places,
        [
            ("Ann".to_string(), json!(1)),
            ("Bob".to_string(), json!(2)),
            ("Cyd".to_string(), json!(3)),
            ("Dee".to_string(), json!(4)),
        ],
        "{e:#}"
    );
}

/// The seed the organiser named (the lower, by default) chooses who begins game 1: Dee lets her
/// opponent begin, Cyd keeps the default and begins. A choice is for an entrant of a knockout
/// only, and says what was wrong otherwise.
async fn the_chooser_may_let_the_opponent_begin(db: Db) {
    let server = Server::start(&db);
    let names = ["Ann", "Bob", "Cyd", "Dee"];
    let mut players = sign_up(&server, &names).await;
    let organiser = players.get_mut("Ann").unwrap();
    let a = organiser
        .post(
            "/api/tournaments",
            json!({"name": "DM", "format": "knockout",
                   "clock": {"kind": "fischer", "base_ms": 600_000, "increment_ms": 5_000}}),
        )
        .await;
    assert_eq!(a.status, 201, "{:?}", a.body);
    let id = string(&a.body["id"]);
    let first = format!("/api/tournaments/{id}/first");
    // Not entered yet: refused with the reason.
    let dee = players.get_mut("Dee").unwrap();
    let a = dee.post(&first, json!({"first": "opponent"})).await;
    assert_eq!(a.status, 409, "{:?}", a.body);
    assert!(string(&a.body["error"]).contains("not playing in this event"));
    for name in names {
        let a = players
            .get_mut(name)
            .unwrap()
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(a.status, 200, "{name}: {:?}", a.body);
    }
    let dee = players.get_mut("Dee").unwrap();
    let a = dee.post(&first, json!({"first": "nobody"})).await;
    assert_eq!(a.status, 400, "{:?}", a.body);
    assert!(string(&a.body["error"]).contains("expected me or opponent"));
    let a = dee.post(&first, json!({"first": "opponent"})).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let firsts: Vec<(String, String)> = a.body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (string(&e["name"]), string(&e["first"])))
        .collect();
    assert!(
        firsts.contains(&("Dee".into(), "opponent".into())),
        "{firsts:?}"
    );
    assert!(firsts.contains(&("Cyd".into(), "me".into())), "{firsts:?}");
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = wait(&server, &id, |e| e["round"] == 1).await;
    // Seeds by name: (Ann 1, Dee 4) and (Bob 2, Cyd 3); the lower seeds choose.
    assert_eq!(shown(&e, 1), ["Ann-Dee", "Cyd-Bob"]);
    // Another format has no such choice.
    let swiss = players
        .get_mut("Bob")
        .unwrap()
        .post(
            "/api/tournaments",
            json!({"name": "Swiss", "format": "swiss", "rounds": 1,
                   "clock": {"kind": "fischer", "base_ms": 600_000, "increment_ms": 5_000}}),
        )
        .await;
    let swiss = string(&swiss.body["id"]);
    let bob = players.get_mut("Bob").unwrap();
    assert_eq!(
        bob.post(&format!("/api/tournaments/{swiss}/join"), json!({}))
            .await
            .status,
        200
    );
    let a = bob
        .post(
            &format!("/api/tournaments/{swiss}/first"),
            json!({"first": "me"}),
        )
        .await;
    assert_eq!(a.status, 400, "{:?}", a.body);
    assert!(string(&a.body["error"]).contains("only a knockout's players"));
}

on_sqlite_and_postgres!(
    a_knockout_of_five_is_played_to_its_final,
    a_first_move_never_made_loses_the_match,
    a_third_place_match_is_played_beside_the_final,
    the_chooser_may_let_the_opponent_begin,
);
