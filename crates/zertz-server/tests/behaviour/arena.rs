//! Arenas through the HTTP API (docs/tournaments.md, "Arena on the server"): the free players
//! paired at once and near each other in the standings, never the last opponent again, a late
//! entry paired as soon as it comes, a player who leaves and comes back, berserk (half the
//! clock, one point more for a win of 7 turns of one's own), a streak of two wins that
//! doubles the next game's points, the table with its score sheets, and the end. On SQLite and
//! on PostgreSQL. The end on time, with games under way finishing first, is the unit test
//! `tournaments::arena::tests::the_time_up_stops_pairing_and_the_games_under_way_finish_first`.

use std::collections::HashMap;

use serde_json::{Value, json};
use zertz_testkit::accounts::Browser;
use zertz_testkit::in_process::Server;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::site::{Db, string};
use zertz_testkit::tournaments::{boards, shown, sign_up, wait};

/// `POST path` by `who`, which must answer 200.
async fn ok(players: &mut HashMap<String, Browser>, who: &str, path: &str, body: Value) -> Value {
    let a = players.get_mut(who).unwrap().post(path, body).await;
    assert_eq!(a.status, 200, "{who} {path}: {:?}", a.body);
    a.body
}

/// Ann creates an arena of 30 minutes with a 5 min + 2 s clock, changed by `extra`; the
/// event as created.
async fn create_arena(players: &mut HashMap<String, Browser>, extra: Value) -> Value {
    let mut body = json!({
        "name": "Arena", "format": "arena", "minutes": 30,
        "clock": {"kind": "fischer", "base_ms": 300_000, "increment_ms": 2_000},
    });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post("/api/tournaments", body)
        .await;
    assert_eq!(a.status, 201, "{:?}", a.body);
    a.body
}

/// `who` plays their game `game` move by move, taking the first legal move each turn, with
/// `other` answering, until `who` has made `turns` turns; `who` moves first.
async fn play_turns(
    players: &mut HashMap<String, Browser>,
    game: &str,
    [who, other]: [&str; 2],
    turns: usize,
) {
    for i in 0..turns * 2 - 1 {
        let mover = if i % 2 == 0 { who } else { other };
        let view = players
            .get_mut(mover)
            .unwrap()
            .get(&format!("/api/games/{game}?legal=list"))
            .await;
        let first = string(&view.body["legal_moves"][0]);
        ok(
            players,
            mover,
            &format!("/api/games/{game}/action"),
            json!({"type": "move", "move": first}),
        )
        .await;
    }
}

/// The table as (name, points, sheet of points), best first.
fn table(e: &Value) -> Vec<(String, u64, Vec<u64>)> {
    e["standings"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                string(&l["name"]),
                l["points"].as_u64().unwrap(),
                l["sheet"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|g| g["points"].as_u64().unwrap())
                    .collect(),
            )
        })
        .collect()
}

/// The line of `name` in the table.
fn line<'a>(e: &'a Value, name: &str) -> &'a Value {
    e["standings"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == name)
        .unwrap()
}

async fn an_arena_pairs_the_free_at_once_with_streaks_and_berserk(db: Db) {
    let server = Server::start(&db);
    let mut players = sign_up(&server, &["Ann", "Bob", "Cyd", "Dee"]).await;
    let created = create_arena(&mut players, json!({"name": "Friday arena"})).await;
    assert_eq!(created["settings"]["berserk"], true, "{created}");
    assert!(created["rounds"].is_null(), "an arena has no rounds");
    let id = string(&created["id"]);
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    for name in ["Ann", "Bob", "Cyd"] {
        ok(&mut players, name, &path("join"), json!({})).await;
    }
    ok(&mut players, "Ann", &path("start"), json!({})).await;

    // Three players: the first two by number play, the third waits.
    let e = wait(&server, &id, |e| e["round"] == 1).await;
    assert_eq!(shown(&e, 1), ["Ann-Bob"]);
    let ends = e["ends_ms"].as_i64().expect("an arena shows its end");
    let started = e["start_ms"].as_i64().expect("its start");
    assert_eq!(ends - started, 30 * 60_000);
    assert_eq!(line(&e, "Cyd")["playing"], false);
    assert_eq!(line(&e, "Ann")["playing"], true);

    // A late entry takes the next number and meets the one who waited.
    ok(&mut players, "Dee", &path("join"), json!({})).await;
    let e = wait(&server, &id, |e| e["round"] == 2).await;
    assert_eq!(shown(&e, 2), ["Cyd-Dee"]);
    let dee = e["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Dee")
        .unwrap();
    assert_eq!(dee["number"], 4);

    // Ann goes berserk before her first move: half her clock; once only.
    let g1 = string(&boards(&e, 1)[0]["game"]);
    let act = format!("/api/games/{g1}/action");
    let view = ok(&mut players, "Ann", &act, json!({"type": "berserk"})).await;
    assert_eq!(view["state"]["berserk"], json!([true, false]));
    assert_eq!(view["state"]["clocks"][0]["remaining_ms"], 150_000);
    let again = players
        .get_mut("Ann")
        .unwrap()
        .post(&act, json!({"type": "berserk"}))
        .await;
    assert_eq!(again.status, 409, "{:?}", again.body);

    // Cyd beats Dee at once; they have just met, so they wait for others.
    let g2 = string(&boards(&e, 2)[0]["game"]);
    ok(
        &mut players,
        "Dee",
        &format!("/api/games/{g2}/action"),
        json!({"type": "resign"}),
    )
    .await;
    let e = wait(&server, &id, |e| line(e, "Cyd")["points"] == 2).await;
    assert_eq!(e["round"], 2, "Cyd and Dee are not paired again: {e:#}");

    // Ann makes 7 turns, Bob one fewer and too late to go berserk, then resigns: Ann's berserk
    // win earns 3.
    play_turns(&mut players, &g1, ["Ann", "Bob"], 7).await;
    let late = players
        .get_mut("Bob")
        .unwrap()
        .post(&act, json!({"type": "berserk"}))
        .await;
    assert_eq!(late.status, 409, "{:?}", late.body);
    ok(&mut players, "Bob", &act, json!({"type": "resign"})).await;

    // All four free at once: Ann (3) meets Cyd (2), not Bob again; Bob meets Dee.
    let e = wait(&server, &id, |e| e["round"] == 3).await;
    assert_eq!(table(&e)[0], ("Ann".into(), 3, vec![3]));
    assert_eq!(line(&e, "Ann")["sheet"][0]["berserk"], true);
    let mut wave = shown(&e, 3);
    wave.sort();
    assert_eq!(wave, ["Ann-Cyd", "Bob-Dee"]);

    // Bob and Dee draw (1 each; they wait), then Ann beats Cyd: two wins in a row.
    let boards3 = boards(&e, 3);
    let game_of =
        |white: &str| string(&boards3.iter().find(|b| b["white"] == white).unwrap()["game"]);
    let (ann_cyd, bob_dee) = (game_of("Ann"), game_of("Bob"));
    let draw = format!("/api/games/{bob_dee}/action");
    ok(&mut players, "Bob", &draw, json!({"type": "offer_draw"})).await;
    ok(&mut players, "Dee", &draw, json!({"type": "accept_draw"})).await;
    wait(&server, &id, |e| line(e, "Dee")["points"] == 1).await;
    ok(
        &mut players,
        "Cyd",
        &format!("/api/games/{ann_cyd}/action"),
        json!({"type": "resign"}),
    )
    .await;
    let e = wait(&server, &id, |e| e["round"] == 4).await;
    assert_eq!(line(&e, "Ann")["on_fire"], true, "{e:#}");
    // Ann (5) meets Bob (1): he had the first move less often, so he has it; Cyd meets Dee.
    let mut wave = shown(&e, 4);
    wave.sort();
    assert_eq!(wave, ["Bob-Ann", "Dee-Cyd"]);

    // On fire, Ann's win counts double: 4.
    let boards4 = boards(&e, 4);
    let bob_ann = string(&boards4.iter().find(|b| b["white"] == "Bob").unwrap()["game"]);
    ok(
        &mut players,
        "Bob",
        &format!("/api/games/{bob_ann}/action"),
        json!({"type": "resign"}),
    )
    .await;
    let e = wait(&server, &id, |e| line(e, "Ann")["points"] == 9).await;
    let ann = line(&e, "Ann");
    assert_eq!(ann["sheet"][2]["doubled"], true);
    assert_eq!(
        (ann["wins"].clone(), ann["streak"].clone()),
        (json!(3), json!(3))
    );

    // Bob leaves (away: paired no more). Dee loses to Cyd meanwhile: Ann (9) meets Cyd (4),
    // who had the first move less often; Dee waits, Bob being away.
    ok(&mut players, "Bob", &path("withdraw"), json!({})).await;
    let e = wait(&server, &id, |e| line(e, "Bob")["away"] == true).await;
    assert_eq!(line(&e, "Bob")["points"], 1);
    let dee_cyd = string(&boards4.iter().find(|b| b["white"] == "Dee").unwrap()["game"]);
    ok(
        &mut players,
        "Dee",
        &format!("/api/games/{dee_cyd}/action"),
        json!({"type": "resign"}),
    )
    .await;
    let e = wait(&server, &id, |e| e["round"] == 5).await;
    assert_eq!(shown(&e, 5), ["Cyd-Ann"]);

    // Bob comes back with his number and points and meets Dee, who waited, at once.
    ok(&mut players, "Bob", &path("join"), json!({})).await;
    let e = wait(&server, &id, |e| e["round"] == 6).await;
    assert_eq!(shown(&e, 6), ["Dee-Bob"]);
    let bob = e["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Bob")
        .unwrap();
    assert_eq!(bob["number"], 2, "the same number");
    assert_eq!(line(&e, "Bob")["points"], 1);

    // The organiser ends it: no more pairing; the table stands.
    ok(&mut players, "Ann", &path("end"), json!({})).await;
    let e = wait(&server, &id, |e| e["status"] == "finished").await;
    assert_eq!(table(&e)[0].0, "Ann");
    // No TRF for an arena; its games are one download.
    let (status, body) = server.get(&path("trf"), None).await;
    assert_eq!(status, 409, "{body}");
    let (status, _) = server.get(&path("games.sgf"), None).await;
    assert_eq!(status, 200);
}

/// A player who never makes their first move loses the game by forfeit after the event's
/// `first_move_s` and is set away (paired no more, as if they had left), so an absent player
/// holds nobody up again: the two others are paired at once. Coming back (joining), they are
/// paired again as soon as someone is free.
async fn an_arena_player_who_never_moves_forfeits_and_is_set_away(db: Db) {
    let server = Server::start(&db);
    let mut players = sign_up(&server, &["Ann", "Bob", "Cyd"]).await;
    let created = create_arena(&mut players, json!({"first_move_s": 10})).await;
    let id = string(&created["id"]);
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    for name in ["Ann", "Bob", "Cyd"] {
        ok(&mut players, name, &path("join"), json!({})).await;
    }
    ok(&mut players, "Ann", &path("start"), json!({})).await;
    let e = wait(&server, &id, |e| e["round"] == 1).await;
    assert_eq!(shown(&e, 1), ["Ann-Bob"]);
    let begun = std::time::Instant::now();
    // Nobody moves: Ann, the first mover, forfeits after 10 s and is away; Bob meets Cyd.
    let e = wait(&server, &id, |e| e["round"] == 2).await;
    assert!(
        begun.elapsed() >= std::time::Duration::from_secs(9),
        "{:?}",
        begun.elapsed()
    );
    assert_eq!(boards(&e, 1)[0]["result"], "-+", "{e:#}");
    let second = shown(&e, 2);
    assert!(second == ["Bob-Cyd"] || second == ["Cyd-Bob"], "{second:?}");
    assert_eq!(line(&e, "Ann")["away"], true, "{e:#}");
    assert_eq!(
        (
            line(&e, "Bob")["points"].clone(),
            line(&e, "Ann")["points"].clone()
        ),
        (json!(2), json!(0))
    );
    // Back, Ann is paired once a game ends: Cyd resigns, and Ann meets the one now free.
    ok(&mut players, "Ann", &path("join"), json!({})).await;
    let e = wait(&server, &id, |e| line(e, "Ann")["away"] == false).await;
    let game = string(&boards(&e, 2)[0]["game"]);
    ok(
        &mut players,
        "Cyd",
        &format!("/api/games/{game}/action"),
        json!({"type": "resign"}),
    )
    .await;
    let e = wait(&server, &id, |e| e["round"] == 3).await;
    let third = shown(&e, 3);
    assert!(third.len() == 1 && third[0].contains("Ann"), "{third:?}");
}

on_sqlite_and_postgres!(
    an_arena_pairs_the_free_at_once_with_streaks_and_berserk,
    an_arena_player_who_never_moves_forfeits_and_is_set_away,
);
