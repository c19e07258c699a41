//! Tournaments through the HTTP API (docs/tournaments.md, "Running an event on the server"):
//! a Swiss of five played through (each round paired only once the previous one's games are
//! all over, the odd player's bye, the final standings and tie-breaks checked by hand), a
//! round robin of four (every pair once, the colours of the Berger table), an event that
//! starts by itself at its time, the joining rules and the refusals. On SQLite and on
//! PostgreSQL. The once-only pairing of a round under a race is checked on the stores
//! (tests/store.rs, `a_round_is_stored_once`), the resume after a kill in
//! crates/zertz-cli/tests/server/tournaments.rs.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};
use zertz_testkit::accounts::Browser;
use zertz_testkit::in_process::Server;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::site::{Db, string};
use zertz_testkit::tournaments::{boards, event, shown, sign_up, wait};

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// An event body: a Swiss of 3 rounds with a rapid clock, changed by `extra` (a null removes
/// a field).
fn body(extra: Value) -> Value {
    let mut b = json!({
        "name": "Club Swiss",
        "format": "swiss",
        "rounds": 3,
        "clock": {"kind": "fischer", "base_ms": 600_000, "increment_ms": 5_000},
    });
    for (k, v) in extra.as_object().unwrap() {
        if v.is_null() {
            b.as_object_mut().unwrap().remove(k);
        } else {
            b[k] = v.clone();
        }
    }
    b
}

/// Creates an event; must succeed.
async fn create(organiser: &mut Browser, extra: Value) -> String {
    let a = organiser.post("/api/tournaments", body(extra)).await;
    assert_eq!(a.status, 201, "{:?}", a.body);
    string(&a.body["id"])
}

/// The events of a listing (`GET /api/tournaments?…`); must succeed.
async fn list(server: &Server, path: &str) -> Vec<Value> {
    let (status, answer) = server.get(path, None).await;
    assert_eq!(status, 200, "GET {path}: {answer}");
    answer["tournaments"].as_array().expect("a list").clone()
}

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq)]
enum End {
    White,
    Black,
    Draw,
}

/// Ends the game of `board` over the API as its players would: the loser resigns, or the
/// first mover offers a draw that the other accepts.
async fn finish(players: &mut HashMap<String, Browser>, board: &Value, end: End) {
    let game = string(&board["game"]);
    let path = format!("/api/games/{game}/action");
    let (white, black) = (string(&board["white"]), string(&board["black"]));
    let steps = match end {
        End::White => vec![(black, json!({"type": "resign"}))],
        End::Black => vec![(white, json!({"type": "resign"}))],
        End::Draw => vec![
            (white, json!({"type": "offer_draw"})),
            (black, json!({"type": "accept_draw"})),
        ],
    };
    for (who, action) in steps {
        let a = players.get_mut(&who).unwrap().post(&path, action).await;
        assert_eq!(a.status, 200, "{path}: {:?}", a.body);
    }
}

/// Enters each of `names` in event `id`, then its `organiser` starts it; the event once its
/// round 1 is paired.
async fn join_and_start(
    server: &Server,
    players: &mut HashMap<String, Browser>,
    id: &str,
    names: &[&str],
    organiser: &str,
) -> Value {
    for name in names {
        let a = players
            .get_mut(*name)
            .unwrap()
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(a.status, 200, "{name}: {:?}", a.body);
    }
    let a = players
        .get_mut(organiser)
        .unwrap()
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    wait(server, id, |e| e["round"] == 1).await
}

/// Ends the games of round `round` of `e`: in each, the player earlier in `order` wins.
async fn play_by_order(
    players: &mut HashMap<String, Browser>,
    e: &Value,
    round: usize,
    order: &[&str],
) {
    let place = |b: &Value, side: &str| order.iter().position(|n| b[side] == *n);
    for b in boards(e, round).iter().filter(|b| !b["game"].is_null()) {
        let end = if place(b, "white") < place(b, "black") {
            End::White
        } else {
            End::Black
        };
        finish(players, b, end).await;
    }
}

/// Standings as (name, points, Buchholz cut 1, Sonneborn-Berger, wins), best first.
fn table(e: &Value) -> Vec<(String, f64, f64, f64, u64)> {
    e["standings"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                string(&l["name"]),
                l["points"].as_f64().unwrap(),
                l["buchholz_cut1"].as_f64().unwrap(),
                l["sonneborn_berger"].as_f64().unwrap(),
                l["wins"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Five players, three Swiss rounds, every game played over the API; the higher-ranked
/// player (lower number) wins each game but one draw. Each round is paired only once the
/// previous one's games are all over; the odd player gets the bye (a win's points), never
/// twice; the final standings are those worked out by hand below.
async fn a_swiss_of_five_is_played_through(db: Db) {
    let server = Server::start(&db);
    let names = ["Ann", "Bob", "Cyd", "Dee", "Eve"];
    let mut players = sign_up(&server, &names).await;
    let id = create(players.get_mut("Ann").unwrap(), json!({})).await;
    for name in names {
        let a = players
            .get_mut(name)
            .unwrap()
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(a.status, 200, "{name}: {:?}", a.body);
    }
    let listed = list(&server, "/api/tournaments?status=registering").await;
    assert_eq!((listed.len(), listed[0]["players"].as_i64()), (1, Some(5)));
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = wait(&server, &id, |e| e["round"] == 1).await;
    assert_eq!(e["status"], "running");
    // Everyone at 1500: numbered by name. Round 1: the top half against the bottom half,
    // colours alternating down the boards; the lowest number left over has the bye.
    let numbers: Vec<(String, i64)> = e["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (string(&x["name"]), x["number"].as_i64().unwrap()))
        .collect();
    assert!(numbers.contains(&("Ann".into(), 1)) && numbers.contains(&("Eve".into(), 5)));
    assert_eq!(shown(&e, 1), ["Ann-Cyd", "Dee-Bob", "Eve-"]);
    assert_eq!(boards(&e, 1)[2]["result"], "bye");
    let number: HashMap<String, i64> = numbers.into_iter().collect();
    // The lower number wins, except the draw of round 2's first board.
    let decide = |round: usize, board: usize, b: &Value| -> End {
        if round == 2 && board == 0 {
            return End::Draw;
        }
        let (w, bl) = (string(&b["white"]), string(&b["black"]));
        if number[&w] < number[&bl] {
            End::White
        } else {
            End::Black
        }
    };
    let mut e = e;
    for round in 1..=3 {
        let games: Vec<Value> = boards(&e, round)
            .into_iter()
            .filter(|b| !b["game"].is_null())
            .collect();
        for (i, b) in games.iter().enumerate() {
            if i + 1 == games.len() {
                // One game still on: the next round is not paired.
                tokio::time::sleep(Duration::from_millis(300)).await;
                let now = event(&server, &id).await;
                assert_eq!(now["round"], round, "paired before the round ended");
                assert_eq!(now["standings"]["after_round"], round - 1);
            }
            finish(&mut players, b, decide(round, i, b)).await;
        }
        e = wait(&server, &id, |e| {
            e["round"] == round + 1 || e["status"] == "finished"
        })
        .await;
    }
    assert_eq!(e["status"], "finished");
    assert_eq!(e["round"], 3);
    let all: Vec<Vec<String>> = (1..=3).map(|r| shown(&e, r)).collect();
    let byes: Vec<String> = all
        .iter()
        .flat_map(|r| r.iter().filter(|b| b.ends_with('-')).cloned())
        .collect();
    assert_eq!(byes.len(), 3, "{all:?}");
    let distinct: std::collections::HashSet<_> = byes.iter().collect();
    assert_eq!(distinct.len(), 3, "a bye twice: {all:?}");
    assert_eq!(e["standings"]["after_round"], 3);
    // Worked out by hand.
    assert_eq!(all, expected_swiss_rounds(), "pairings");
    assert_eq!(table(&e), expected_swiss_table(), "standings");
    // The games were ordinary unrated games between the two accounts.
    let g = string(&boards(&e, 1)[0]["game"]);
    let game = server.game(&g, None).await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["rated"], false);
    let listed = list(&server, "/api/tournaments?status=finished").await;
    assert_eq!(listed[0]["id"], id.as_str());
    // The report pairs again as the event did, round by round; the games come as SGF.
    the_report_pairs_again(&server, &e).await;
    let (status, sgf) = server
        .get_text(&format!("/api/tournaments/{id}/games.sgf"))
        .await;
    assert_eq!(status, 200);
    assert_eq!(sgf.matches("(;").count(), 6, "six games: {sgf}");
}

/// The event `e`'s TRF (`GET /api/tournaments/{id}/trf`): its players and points are the
/// standings', and each round of it, paired again by the Dutch system from the rounds before
/// it, is the round the event played (a withdrawn player's absence kept, as a pairing program
/// reads it).
async fn the_report_pairs_again(server: &Server, e: &Value) {
    use zertz_tournament::dutch::{self, SwissInput};
    use zertz_tournament::trf::{ResultCode, RoundEntry, Trf};
    let id = string(&e["id"]);
    let (status, text) = server.get_text(&format!("/api/tournaments/{id}/trf")).await;
    assert_eq!(status, 200, "{text}");
    let trf = Trf::parse(&text).unwrap_or_else(|err| panic!("{err}: {text}"));
    assert!(
        text.starts_with(&format!("012 {}", string(&e["name"]))),
        "{text}"
    );
    let number: HashMap<String, u32> = e["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| !x["number"].is_null())
        .map(|x| (string(&x["name"]), x["number"].as_u64().unwrap() as u32))
        .collect();
    for line in e["standings"]["lines"].as_array().unwrap() {
        let p = trf
            .players()
            .find(|p| p.start_rank == number[&string(&line["name"])])
            .expect("a line per player");
        assert_eq!(p.name, string(&line["name"]));
        assert_eq!(
            p.points_tenths,
            Some((line["points"].as_f64().unwrap() * 10.0) as u32)
        );
        assert_eq!(p.rank, Some(line["rank"].as_u64().unwrap() as u32));
    }
    let rounds = e["round"].as_u64().unwrap() as usize;
    assert_eq!(trf.total_rounds(), Some(rounds as u32));
    for k in 1..=rounds {
        let mut t = trf.clone();
        for p in t.players_mut() {
            let entry = p.rounds.get(k - 1).copied().flatten();
            p.rounds.truncate(k - 1);
            if let Some(
                a @ RoundEntry {
                    opponent: None,
                    result,
                    ..
                },
            ) = entry
                && result != ResultCode::PairingBye
            {
                p.rounds.push(Some(a));
            }
        }
        let input = SwissInput::from_trf(&t).expect("input");
        let got = dutch::pair(&input).expect("pairs");
        let mut played: Vec<(u32, u32)> = Vec::new();
        let mut bye = None;
        for b in boards(e, k) {
            let white = number[&string(&b["white"])];
            match b["black"].as_str() {
                Some(black) => played.push((white, number[black])),
                // The pairing-allocated bye; a bye asked for is an absence.
                None if b["result"] == "bye" => bye = Some(white),
                None => {}
            }
        }
        let mut paired = got.pairs.clone();
        paired.sort();
        played.sort();
        assert_eq!((paired, got.bye), (played, bye), "round {k} of:\n{text}");
    }
}

/// The Dutch pairings of the event (numbers: Ann 1, Bob 2, Cyd 3, Dee 4, Eve 5), checked by
/// hand. Round 1: S1 {1, 2} against S2 {3, 4}, 1 white, colours alternating down the boards;
/// 5 has the bye. Round 2: the scoregroup of one point {1, 2, 5} is odd; 5 floated down
/// already (the bye counts as a downfloat), so 2 floats down to meet 3 (2 met 4); 1 meets 5,
/// 4 has the bye; 1 was white, so black; 2 and 3 both were black, the higher-ranked 2 gets
/// white. Round 3: 2 (2 points) meets 1 (1.5; 1 has B after W, so white), 5 (1.5) meets 4
/// (1): both had white last, the higher score 5 gets black; 3 has its first bye.
fn expected_swiss_rounds() -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        s(&["Ann-Cyd", "Dee-Bob", "Eve-"]),
        s(&["Eve-Ann", "Bob-Cyd", "Dee-"]),
        s(&["Ann-Bob", "Dee-Eve", "Cyd-"]),
    ]
}

/// The final standings, by hand. Points: Ann 1, ½, 1; Bob 1, 1, 0; Dee 0, 1 (bye), 1; Eve
/// 1 (bye), ½, 0; Cyd 0, 0, 1 (bye). A bye counts as a game against a dummy with the
/// player's own score capped at half the maximum (1.5); Buchholz cut 1 drops the lowest
/// contribution. Ann: Cyd 1, Eve 1.5, Bob 2, less 1: 3.5. Bob: Dee 2, Cyd 1, Ann 2.5, less
/// 1: 4.5. Dee: Bob 2, dummy 1.5, Eve 1.5, less 1.5: 3.5. Eve: dummy 1.5, Ann 2.5, Dee 2,
/// less 1.5: 4.5. Cyd: Ann 2.5, Bob 2, dummy 1, less 1: 4.5. Sonneborn-Berger: Ann 1, ½ of
/// 1.5 and 2: 3.75; Bob 2 and 1: 3; Dee 1.5 and 1.5: 3; Eve 1.5 and ½ of 2.5: 2.75; Cyd 1.
/// Wins (a bye counts): 2, 2, 2, 1, 1. Bob and Dee tie on points; Bob's Buchholz is higher.
fn expected_swiss_table() -> Vec<(String, f64, f64, f64, u64)> {
    [
        ("Ann", 2.5, 3.5, 3.75, 2),
        ("Bob", 2.0, 4.5, 3.0, 2),
        ("Dee", 2.0, 3.5, 3.0, 2),
        ("Eve", 1.5, 4.5, 2.75, 1),
        ("Cyd", 1.0, 4.5, 1.0, 1),
    ]
    .into_iter()
    .map(|(n, p, b, sb, w)| (n.to_string(), p, b, sb, w))
    .collect()
}

/// A round robin of four: three rounds of the Berger table (1-4 2-3, 4-3 1-2, 2-4 3-1, the
/// first named moving first), every pair meeting once; rated games. The lower number wins
/// but for a draw between 4 and 3; the tied pair at the bottom stays tied on every
/// tie-break and is ranked by number.
async fn a_round_robin_of_four_meets_every_pair_once(db: Db) {
    let server = Server::start(&db);
    let names = ["Ann", "Bob", "Cyd", "Dee"];
    let mut players = sign_up(&server, &names).await;
    let id = create(
        players.get_mut("Bob").unwrap(),
        json!({"format": "round_robin", "rounds": null, "rated": true, "max_players": 4}),
    )
    .await;
    for name in names {
        let a = players
            .get_mut(name)
            .unwrap()
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(a.status, 200, "{name}: {:?}", a.body);
    }
    let e = event(&server, &id).await;
    assert_eq!(e["rounds"], 3);
    let a = players
        .get_mut("Bob")
        .unwrap()
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let expected = [
        ["Ann-Dee", "Bob-Cyd"],
        ["Dee-Cyd", "Ann-Bob"],
        ["Bob-Dee", "Cyd-Ann"],
    ];
    let mut e = wait(&server, &id, |e| e["round"] == 1).await;
    let mut met = std::collections::HashSet::new();
    for round in 1..=3 {
        assert_eq!(shown(&e, round), expected[round - 1], "round {round}");
        for b in boards(&e, round) {
            let (w, bl) = (string(&b["white"]), string(&b["black"]));
            let end = if (w.as_str(), bl.as_str()) == ("Dee", "Cyd") {
                End::Draw
            } else if w < bl {
                End::White
            } else {
                End::Black
            };
            let mut pair = [w, bl];
            pair.sort();
            assert!(met.insert(pair), "a pair met twice");
            finish(&mut players, &b, end).await;
        }
        e = wait(&server, &id, |e| {
            e["round"] == round + 1 || e["status"] == "finished"
        })
        .await;
    }
    assert_eq!(met.len(), 6, "every pair once");
    assert_eq!(e["status"], "finished");
    let game = server.game(&string(&boards(&e, 1)[0]["game"]), None).await;
    assert_eq!(
        (game["rated"].as_bool(), game["casual"].as_bool()),
        (Some(true), Some(false))
    );
    // By hand: Ann 3 (beat Dee, Bob, Cyd), Bob 2 (beat Cyd, Dee), Cyd and Dee ½ (their draw).
    // Buchholz cut 1 drops the lowest opponent: Ann 2+½+½ less ½ = 2.5, Bob 3+½+½ less ½ =
    // 3.5, Cyd and Dee 3+2+½ less ½ = 5. Sonneborn-Berger: Ann ½+2+½ = 3, Bob ½+½ = 1, Cyd and
    // Dee ½·½ = 0.25. Cyd and Dee drew, so direct encounter and wins keep them tied: number.
    assert_eq!(
        table(&e),
        [
            ("Ann".to_string(), 3.0, 2.5, 3.0, 3),
            ("Bob".to_string(), 2.0, 3.5, 1.0, 2),
            ("Cyd".to_string(), 0.5, 5.0, 0.25, 0),
            ("Dee".to_string(), 0.5, 5.0, 0.25, 0),
        ]
    );
    let lines = e["standings"]["lines"].as_array().unwrap();
    assert_eq!(
        (
            lines[2]["direct_encounter"].as_f64(),
            lines[3]["direct_encounter"].as_f64()
        ),
        (Some(0.5), Some(0.5))
    );
}

/// An event with a start time starts by itself then, and pairs its first round; one that
/// nobody (or one player) joined is over at its time.
async fn an_event_starts_at_its_time(db: Db) {
    let server = Server::start(&db);
    let mut players = sign_up(&server, &["Ann", "Bob"]).await;
    let soon = now_ms() + 1_500;
    let id = create(
        players.get_mut("Ann").unwrap(),
        json!({"rounds": 1, "start_ms": soon}),
    )
    .await;
    let lonely = create(
        players.get_mut("Bob").unwrap(),
        json!({"rounds": 1, "start_ms": soon}),
    )
    .await;
    for name in ["Ann", "Bob"] {
        let a = players
            .get_mut(name)
            .unwrap()
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(a.status, 200, "{:?}", a.body);
    }
    let e = event(&server, &id).await;
    assert_eq!(e["status"], "registering");
    let e = wait(&server, &id, |e| e["round"] == 1).await;
    assert_eq!(e["status"], "running");
    assert_eq!(shown(&e, 1), ["Ann-Bob"]);
    assert!(now_ms() >= soon);
    let e = wait(&server, &lonely, |e| e["status"] == "finished").await;
    assert_eq!(e["pairings"], json!([]));
    // The one game played, the one round over: the event is finished.
    finish(
        &mut players,
        &boards(&e_of(&server, &id).await, 1)[0],
        End::Black,
    )
    .await;
    let e = wait(&server, &id, |e| e["status"] == "finished").await;
    assert_eq!(table(&e)[0].0, "Bob");
}

async fn e_of(server: &Server, id: &str) -> Value {
    event(server, id).await
}

/// Joining and withdrawing while the event registers; a full event, a second join, a
/// withdrawal by someone not entered, a start by someone else than the organiser, a start
/// with one player, joining or withdrawing once started: each refused with a sentence.
async fn joining_rules(db: Db) {
    let server = Server::start(&db);
    let mut p = sign_up(&server, &["Ann", "Bob", "Cyd"]).await;
    let id = create(
        p.get_mut("Ann").unwrap(),
        json!({"rounds": 1, "max_players": 2}),
    )
    .await;
    let join = format!("/api/tournaments/{id}/join");
    let withdraw = format!("/api/tournaments/{id}/withdraw");
    let start = format!("/api/tournaments/{id}/start");
    let a = p.get_mut("Ann").unwrap().post(&start, json!({})).await;
    assert_eq!(a.status, 409, "{:?}", a.body);
    assert!(
        a.body["error"]
            .as_str()
            .unwrap()
            .contains("at least 2 players"),
        "{:?}",
        a.body
    );
    assert_eq!(
        p.get_mut("Ann")
            .unwrap()
            .post(&join, json!({}))
            .await
            .status,
        200
    );
    let again = p.get_mut("Ann").unwrap().post(&join, json!({})).await;
    assert_eq!(again.status, 409);
    assert!(
        again.body["error"]
            .as_str()
            .unwrap()
            .contains("already entered")
    );
    let out = p.get_mut("Bob").unwrap().post(&withdraw, json!({})).await;
    assert_eq!(out.status, 409);
    assert!(out.body["error"].as_str().unwrap().contains("not entered"));
    assert_eq!(
        p.get_mut("Bob")
            .unwrap()
            .post(&join, json!({}))
            .await
            .status,
        200
    );
    let full = p.get_mut("Cyd").unwrap().post(&join, json!({})).await;
    assert_eq!(full.status, 409);
    assert!(
        full.body["error"].as_str().unwrap().contains("full"),
        "{:?}",
        full.body
    );
    // Bob withdraws: Cyd takes the place; Bob cannot come back while it is full.
    let a = p.get_mut("Bob").unwrap().post(&withdraw, json!({})).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    assert_eq!(a.body["players"], 1);
    assert_eq!(
        p.get_mut("Cyd")
            .unwrap()
            .post(&join, json!({}))
            .await
            .status,
        200
    );
    assert_eq!(
        p.get_mut("Bob")
            .unwrap()
            .post(&join, json!({}))
            .await
            .status,
        409
    );
    let not_mine = p.get_mut("Cyd").unwrap().post(&start, json!({})).await;
    assert_eq!(not_mine.status, 403);
    assert!(
        not_mine.body["error"]
            .as_str()
            .unwrap()
            .contains("organiser (Ann)")
    );
    let guest = server.post(&join, &json!({}), None).await;
    assert_eq!(guest.0, 401, "{}", guest.1);
    let a = p.get_mut("Ann").unwrap().post(&start, json!({})).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    assert_eq!(a.body["status"], "running");
    let e = wait(&server, &id, |e| e["round"] == 1).await;
    let entries: Vec<(String, bool)> = e["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (string(&x["name"]), x["number"].is_null()))
        .collect();
    assert!(
        entries.contains(&("Bob".into(), true)),
        "a withdrawn player has no number"
    );
    for (who, path, needle) in [
        ("Bob", &join, "has started"),
        ("Bob", &withdraw, "not entered"),
        ("Ann", &start, "started already"),
    ] {
        let a = p.get_mut(who).unwrap().post(path, json!({})).await;
        assert_eq!(a.status, 409, "{path}: {:?}", a.body);
        assert!(
            a.body["error"].as_str().unwrap().contains(needle),
            "{:?}",
            a.body
        );
    }
}

/// Refusals of a new event, each a 400 with a sentence naming what is wrong; a guest, another
/// site, an unknown event; and the limit of events an account creates.
async fn refusals(db: Db) {
    let server = Server::start(&db);
    let mut p = sign_up(&server, &["Ann"]).await;
    let ann = p.get_mut("Ann").unwrap();
    for (extra, needle) in [
        (json!({"colour": "white"}), "unknown field"),
        (
            json!({"format": "round_robin", "rounds": 8, "max_players": 6}),
            "has 5 rounds",
        ),
        (json!({"start_ms": now_ms() - 60_000}), "in the past"),
        (json!({"clock": null}), "need a clock"),
        (json!({"board": "61", "rated": true}), "rated:"),
        (json!({"board": "custom:a1,a2,b1"}), "standard boards"),
        (
            json!({"format": "arena", "rounds": null}),
            "minutes: an arena needs",
        ),
        (
            json!({"format": "knockout"}),
            "as many rounds as its bracket needs",
        ),
        (
            json!({"format": "knockout", "rounds": null, "first_mover": "oldest"}),
            "first_mover `oldest`",
        ),
        (json!({"rounds": 0}), "1 to 30"),
        (json!({"first_move_s": 5}), "10 to 3600 seconds"),
        (
            json!({"clock": {"kind": "fischer", "base_ms": -5, "increment_ms": 0}}),
            "clock",
        ),
    ] {
        let a = ann.post("/api/tournaments", body(extra.clone())).await;
        assert_eq!(a.status, 400, "{extra}: {:?}", a.body);
        let said = a.body["error"].as_str().unwrap();
        assert!(said.contains(needle), "{extra}: {said}");
    }
    let (status, said) = server
        .post("/api/tournaments", &body(json!({})), None)
        .await;
    assert_eq!(status, 401, "{said}");
    let mut elsewhere = Browser::new(&server);
    elsewhere.cookies = ann.cookies.clone();
    elsewhere.origin = Some("https://evil.example".into());
    let a = elsewhere.post("/api/tournaments", body(json!({}))).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    let (status, _) = server.get("/api/tournaments/nosuchevent", None).await;
    assert_eq!(status, 404);
    let (status, said) = server.get("/api/tournaments?status=sleeping", None).await;
    assert_eq!(status, 400, "{said}");
    // Three events not over at once: the fourth waits until one is ended.
    let mut made = Vec::new();
    for _ in 0..3 {
        made.push(create(ann, json!({})).await);
    }
    let a = ann.post("/api/tournaments", body(json!({}))).await;
    assert_eq!(a.status, 409, "{:?}", a.body);
    assert!(
        a.body["error"]
            .as_str()
            .unwrap()
            .contains("the most at once")
    );
    // Five events an hour per account: the sixth is refused (the refused bodies above did not
    // count).
    for id in made.drain(..2) {
        let a = ann
            .post(&format!("/api/tournaments/{id}/end"), json!({}))
            .await;
        assert_eq!(a.status, 200, "{:?}", a.body);
    }
    for _ in 0..2 {
        create(ann, json!({})).await;
    }
    let a = ann
        .post(&format!("/api/tournaments/{}/end", made[0]), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let a = ann.post("/api/tournaments", body(json!({}))).await;
    assert_eq!(a.status, 429, "{:?}", a.body);
    assert!(
        a.body["error"]
            .as_str()
            .unwrap()
            .contains("by your account")
    );
    assert_eq!(list(&server, "/api/tournaments").await.len(), 5);
}

/// A player who lets a first move wait past the event's `first_move_s` loses the game by
/// forfeit, and the round goes on: in round 1 of a double round robin of two, the first mover
/// never moves (`-+`); in round 2 the first mover moves and the second never does (`+-`).
async fn a_first_move_never_made_is_a_forfeit(db: Db) {
    let server = Server::start(&db);
    let mut players = sign_up(&server, &["Ann", "Bob"]).await;
    let id = create(
        players.get_mut("Ann").unwrap(),
        json!({"format": "round_robin", "double": true, "rounds": null, "max_players": 2, "first_move_s": 10}),
    )
    .await;
    let e = join_and_start(&server, &mut players, &id, &["Ann", "Bob"], "Ann").await;
    assert_eq!(e["settings"]["first_move_s"], 10);
    let first = boards(&e, 1)[0].clone();
    let begun = std::time::Instant::now();
    // Nobody moves: the first mover forfeits after 10 s, not before.
    let e = wait_long(&server, &id, |e| boards(e, 1)[0]["result"].is_string()).await;
    assert!(
        begun.elapsed() >= Duration::from_secs(9),
        "{:?}",
        begun.elapsed()
    );
    assert_eq!(boards(&e, 1)[0]["result"], "-+", "{e:#}");
    let game = string(&first["game"]);
    let (_, state) = server.get(&format!("/api/games/{game}"), None).await;
    assert_eq!(state["status"], "finished", "{state}");
    // Round 2: the first mover moves at once, the second never does.
    let e = wait(&server, &id, |e| e["round"] == 2).await;
    let board = boards(&e, 2)[0].clone();
    let (white, game) = (string(&board["white"]), string(&board["game"]));
    let a = players
        .get_mut(&white)
        .unwrap()
        .post(
            &format!("/api/games/{game}/action"),
            json!({"type": "move", "move": "Wd4,a1"}),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = wait_long(&server, &id, |e| e["status"] == "finished").await;
    assert_eq!(boards(&e, 2)[0]["result"], "+-", "{e:#}");
    // Ann moved first in round 1 and second in round 2: both forfeits are hers, and count as
    // Bob's wins.
    assert_eq!(white, "Bob");
    assert_eq!(first["white"], "Ann");
    let lines = table(&e);
    let points: Vec<(&str, f64)> = lines.iter().map(|l| (l.0.as_str(), l.1)).collect();
    assert_eq!(points, [("Bob", 2.0), ("Ann", 0.0)], "{lines:?}");
}

/// Entry limits: a new account (rating 1500, made today) is refused by an event for 1600 and
/// up, by one for 1400 and down, and by one for accounts a day old, each with a sentence that
/// names the limit; an event within its limits takes it. Nothing is entered by a refusal.
async fn entry_limits(db: Db) {
    let server = Server::start(&db);
    let mut p = sign_up(&server, &["Ann", "Bob"]).await;
    for (extra, said) in [
        (
            json!({"min_rating": 1600}),
            "your rating for this event's games, 1500, is below its minimum of 1600",
        ),
        (
            json!({"max_rating": 1400}),
            "your rating for this event's games, 1500, is above its maximum of 1400",
        ),
        (
            json!({"min_account_days": 1}),
            "this event takes accounts at least 1 day old; yours is 0",
        ),
    ] {
        let id = create(p.get_mut("Ann").unwrap(), extra.clone()).await;
        let a = p
            .get_mut("Bob")
            .unwrap()
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(a.status, 403, "{extra}: {:?}", a.body);
        assert_eq!(a.body["error"], said, "{extra}");
        let e = event(&server, &id).await;
        assert_eq!(e["players"], 0, "{e}");
        assert_eq!(
            e["settings"][extra.as_object().unwrap().keys().next().unwrap()],
            extra.as_object().unwrap().values().next().unwrap().clone()
        );
        let end = p
            .get_mut("Ann")
            .unwrap()
            .post(&format!("/api/tournaments/{id}/end"), json!({}))
            .await;
        assert_eq!(end.status, 200, "{:?}", end.body);
    }
    let id = create(
        p.get_mut("Ann").unwrap(),
        json!({"min_rating": 1400, "max_rating": 1600, "min_account_days": 0}),
    )
    .await;
    let a = p
        .get_mut("Bob")
        .unwrap()
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
}

/// The organiser's pause: the game under way is played on and its result recorded, but no
/// round is paired until the event runs again; only the organiser pauses and resumes, and
/// only a running event (a paused one) is paused (resumed).
async fn the_organiser_pauses_and_resumes(db: Db) {
    let server = Server::start(&db);
    let mut players = sign_up(&server, &["Ann", "Bob"]).await;
    let id = create(
        players.get_mut("Ann").unwrap(),
        json!({"format": "round_robin", "double": true, "rounds": null, "max_players": 2}),
    )
    .await;
    let e = join_and_start(&server, &mut players, &id, &["Ann", "Bob"], "Ann").await;
    let pause = format!("/api/tournaments/{id}/pause");
    let resume = format!("/api/tournaments/{id}/resume");
    let a = players
        .get_mut("Bob")
        .unwrap()
        .post(&pause, json!({}))
        .await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&resume, json!({}))
        .await;
    assert_eq!(a.status, 409, "not paused: {:?}", a.body);
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&pause, json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    assert_eq!(a.body["status"], "paused");
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&pause, json!({}))
        .await;
    assert_eq!(a.status, 409, "paused already: {:?}", a.body);
    // Round 1's game is played on and recorded; two ticks later round 2 is still not paired.
    play_by_order(&mut players, &e, 1, &["Ann", "Bob"]).await;
    let e = wait(&server, &id, |e| boards(e, 1)[0]["result"].is_string()).await;
    assert_eq!(e["status"], "paused");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let e = event(&server, &id).await;
    assert_eq!(
        (e["round"].as_i64(), e["status"].as_str()),
        (Some(1), Some("paused")),
        "{e:#}"
    );
    // Resumed: round 2 is paired at the next tick.
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&resume, json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = wait(&server, &id, |e| e["round"] == 2).await;
    assert_eq!(e["status"], "running");
}

/// [`wait`] for a forfeit, which comes after the event's first-move time (over 10 s).
async fn wait_long(server: &Server, id: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let until = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let e = event(server, id).await;
        if ready(&e) {
            return e;
        }
        assert!(
            std::time::Instant::now() < until,
            "the event never got there: {e:#}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Withdrawing from a running event: the game under way is played on, the player is paired no
/// more and keeps their results in the standings. A Swiss of four: Dee withdraws during round
/// 1 and loses her game; rounds 2 and 3 pair the three others (one bye each round). A round
/// robin of three: Cyd withdraws after round 1; her later boards are forfeits with no game.
/// Withdrawing twice, or from an event that is over, is refused.
async fn withdrawing_while_it_runs(db: Db) {
    let server = Server::start(&db);
    let names = ["Ann", "Bob", "Cyd", "Dee"];
    let mut players = sign_up(&server, &names).await;
    let id = create(players.get_mut("Ann").unwrap(), json!({"max_players": 4})).await;
    let withdraw = format!("/api/tournaments/{id}/withdraw");
    let e = join_and_start(&server, &mut players, &id, &names, "Ann").await;
    let a = players
        .get_mut("Dee")
        .unwrap()
        .post(&withdraw, json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let a = players
        .get_mut("Dee")
        .unwrap()
        .post(&withdraw, json!({}))
        .await;
    assert_eq!(a.status, 409, "{:?}", a.body);
    // Her game goes on; she loses it. Each game is won by the player higher in `names`.
    let mut e = e;
    for round in 1..=3 {
        play_by_order(&mut players, &e, round, &names).await;
        if round < 3 {
            e = wait(&server, &id, |e| e["round"] == round + 1).await;
            let later = boards(&e, round + 1);
            assert!(
                !shown(&e, round + 1).iter().any(|p| p.contains("Dee")),
                "Dee is not paired after withdrawing: {:?}",
                shown(&e, round + 1)
            );
            assert_eq!(
                later.len(),
                2,
                "one game and a bye: {:?}",
                shown(&e, round + 1)
            );
        }
    }
    let e = wait(&server, &id, |e| e["status"] == "finished").await;
    let lines = e["standings"]["lines"].as_array().unwrap();
    let dee = lines
        .iter()
        .find(|l| l["name"] == "Dee")
        .expect("Dee stays in the standings");
    assert_eq!(dee["withdrawn"], true);
    assert_eq!(dee["points"], 0.0);
    the_report_pairs_again(&server, &e).await;
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&withdraw, json!({}))
        .await;
    assert_eq!(a.status, 409, "{:?}", a.body);
    assert!(
        a.body["error"].as_str().unwrap().contains("is over"),
        "{:?}",
        a.body
    );

    // A round robin of three: Cyd withdraws after round 1.
    let id = create(
        players.get_mut("Bob").unwrap(),
        json!({"name": "Round robin", "format": "round_robin", "rounds": null, "max_players": 3}),
    )
    .await;
    let withdraw = format!("/api/tournaments/{id}/withdraw");
    let e = join_and_start(&server, &mut players, &id, &["Ann", "Bob", "Cyd"], "Bob").await;
    let a = players
        .get_mut("Cyd")
        .unwrap()
        .post(&withdraw, json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let mut e = e;
    for round in 1..=3 {
        for b in boards(&e, round).iter().filter(|b| !b["game"].is_null()) {
            finish(&mut players, b, End::Draw).await;
        }
        e = wait(&server, &id, |e| {
            e["round"].as_u64() > Some(round as u64) || e["status"] == "finished"
        })
        .await;
    }
    let e = wait(&server, &id, |e| e["status"] == "finished").await;
    let mut forfeits = 0;
    for round in 2..=3 {
        for b in boards(&e, round).iter().filter(|b| !b["black"].is_null()) {
            let cyd_white = b["white"] == "Cyd";
            if b["black"] == "Cyd" || cyd_white {
                assert!(b["game"].is_null(), "no game with a withdrawn player: {b}");
                assert_eq!(b["result"], if cyd_white { "-+" } else { "+-" }, "{b}");
                forfeits += 1;
            }
        }
    }
    assert!(forfeits >= 1, "Cyd had a board after round 1: {e:#}");
    assert_eq!(
        e["pairings"].as_array().unwrap().len(),
        3,
        "the whole cycle is played"
    );
}

/// Byes asked for in a Swiss: a round sat out for half a point or none, asked before the round
/// is paired, taken back, one half-point bye an event and none in the last round; the rounds
/// paired without the player, the standings counting the half point, and the report pairing
/// again as the event did.
async fn byes_asked_for(db: Db) {
    let server = Server::start(&db);
    let names = ["Ann", "Bob", "Cyd", "Dee", "Eve"];
    let mut players = sign_up(&server, &names).await;
    let id = create(players.get_mut("Ann").unwrap(), json!({"max_players": 4})).await;
    let (join, start, ask) = (
        format!("/api/tournaments/{id}/join"),
        format!("/api/tournaments/{id}/start"),
        format!("/api/tournaments/{id}/bye"),
    );
    for name in &names[..4] {
        let a = players.get_mut(*name).unwrap().post(&join, json!({})).await;
        assert_eq!(a.status, 200, "{name}: {:?}", a.body);
    }
    // Each player's session, for requests while `players` is lent to `finish`.
    let jar: HashMap<String, _> = players
        .iter()
        .map(|(name, b)| (name.clone(), b.cookies.clone()))
        .collect();
    let asks = |who: &str, round: u32, points: &str| {
        let mut browser = Browser::new(&server);
        browser.cookies = jar[who].clone();
        let ask = ask.clone();
        let body = json!({"round": round, "points": points});
        async move { browser.post(&ask, body).await }
    };
    let a = asks("Cyd", 1, "half").await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    for (who, round, points, status, needle) in [
        ("Cyd", 2, "half", 409, "one per event"),
        ("Cyd", 3, "half", 400, "last round"),
        ("Cyd", 4, "zero", 400, "rounds 1 to 3"),
        ("Cyd", 2, "maybe", 400, "half, zero or none"),
        ("Eve", 2, "zero", 409, "not playing"),
    ] {
        let a = asks(who, round, points).await;
        assert_eq!(a.status, status, "{who} {round} {points}: {:?}", a.body);
        let said = a.body["error"].as_str().unwrap();
        assert!(said.contains(needle), "{said}");
    }
    let a = asks("Cyd", 3, "zero").await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    // Dee asks and thinks again.
    assert_eq!(asks("Dee", 2, "zero").await.status, 200);
    let a = asks("Dee", 2, "none").await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let byes = |e: &Value, name: &str| -> Value {
        e["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["name"] == name)
            .unwrap()["byes"]
            .clone()
    };
    assert_eq!(byes(&a.body, "Dee"), json!([]));
    assert_eq!(
        byes(&a.body, "Cyd"),
        json!([{"round": 1, "points": "half"}, {"round": 3, "points": "zero"}])
    );
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&start, json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let mut e = wait(&server, &id, |e| e["round"] == 1).await;
    let a = asks("Cyd", 1, "zero").await;
    assert_eq!(a.status, 409, "{:?}", a.body);
    for round in 1..=3 {
        let shown_now = shown(&e, round);
        let cyd_sits = round == 1 || round == 3;
        assert_eq!(
            shown_now
                .iter()
                .any(|b| b.starts_with("Cyd-") && b.ends_with('-')),
            cyd_sits,
            "round {round}: {shown_now:?}"
        );
        let cyd = boards(&e, round)
            .into_iter()
            .find(|b| b["white"] == "Cyd" || b["black"] == "Cyd")
            .unwrap();
        if cyd_sits {
            assert_eq!(
                cyd["result"],
                if round == 1 { "half-bye" } else { "zero-bye" }
            );
        }
        play_by_order(&mut players, &e, round, &names).await;
        e = wait(&server, &id, |e| {
            e["round"].as_u64() > Some(round as u64) || e["status"] == "finished"
        })
        .await;
    }
    let e = wait(&server, &id, |e| e["status"] == "finished").await;
    let cyd = table(&e).into_iter().find(|l| l.0 == "Cyd").unwrap();
    // Half a point for round 1, her round-2 game lost to a better player or won against Dee.
    assert!(cyd.1 == 0.5 || cyd.1 == 1.5, "{cyd:?}");
    the_report_pairs_again(&server, &e).await;
}

/// The organiser removes a player (paired no more, as a withdrawal) and ends the event while a
/// round is played: nothing is paired after it, the game under way is played on and counts.
/// Nobody else may do either.
async fn the_organiser_removes_a_player_and_ends_the_event(db: Db) {
    let server = Server::start(&db);
    let names = ["Ann", "Bob", "Cyd", "Dee", "Eve"];
    let mut players = sign_up(&server, &names).await;
    let id = create(players.get_mut("Ann").unwrap(), json!({"max_players": 5})).await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    let e = join_and_start(&server, &mut players, &id, &names, "Ann").await;
    // Only the organiser: Bob may neither remove nor end.
    for (what, body) in [("remove", json!({"name": "Cyd"})), ("end", json!({}))] {
        let a = players
            .get_mut("Bob")
            .unwrap()
            .post(&path(what), body)
            .await;
        assert_eq!(a.status, 403, "{what}: {:?}", a.body);
        assert!(
            a.body["error"]
                .as_str()
                .unwrap()
                .contains("only the organiser")
        );
    }
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&path("remove"), json!({"name": "Nobody"}))
        .await;
    assert_eq!(a.status, 409, "{:?}", a.body);
    // Eve is removed: marked withdrawn, not paired in round 2.
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&path("remove"), json!({"name": "Eve"}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let eve = a.body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "Eve")
        .unwrap()
        .clone();
    assert_eq!(eve["withdrawn"], true);
    for b in boards(&e, 1).iter().filter(|b| !b["game"].is_null()) {
        finish(&mut players, b, End::White).await;
    }
    let e = wait(&server, &id, |e| e["round"] == 2).await;
    assert!(
        !shown(&e, 2).iter().any(|b| b.contains("Eve")),
        "{:?}",
        shown(&e, 2)
    );
    // The end, with round 2's games under way: one is finished after it and counts.
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&path("end"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    assert_eq!(a.body["status"], "finished");
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(&path("end"), json!({}))
        .await;
    assert_eq!(a.status, 409, "{:?}", a.body);
    let board = boards(&e, 2)
        .into_iter()
        .find(|b| !b["game"].is_null())
        .unwrap();
    finish(&mut players, &board, End::Black).await;
    let e = wait(&server, &id, |e| {
        !boards(e, 2)
            .iter()
            .any(|b| b["game"] == board["game"] && b["result"].is_null())
    })
    .await;
    assert_eq!(e["round"], 2, "nothing paired after the end");
    let got = boards(&e, 2)
        .into_iter()
        .find(|b| b["game"] == board["game"])
        .unwrap();
    assert_eq!(got["result"], "0-1");
}

/// The organiser enters the engine's levels as players (issue 38): only the organiser, a level
/// from 1 to 10, each once, four at most; an entered level has its published rating and the
/// tag `engine`. Two levels in a round robin play their game by themselves to the end and the
/// event finishes; a person's game against a level is not rated, even in a rated event, and
/// its result counts in the standings; two levels in a knockout play their death match through.
async fn engine_levels_entered_by_the_organiser_play_their_games(db: Db) {
    let server = Server::start(&db);
    let mut players = sign_up(&server, &["Ann", "Bob"]).await;
    let robin = create(
        players.get_mut("Ann").unwrap(),
        json!({"format": "round_robin", "rounds": null, "max_players": 6}),
    )
    .await;
    let engines = format!("/api/tournaments/{robin}/engines");
    let a = players
        .get_mut("Bob")
        .unwrap()
        .post(&engines, json!({"level": 3}))
        .await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    let ann = players.get_mut("Ann").unwrap();
    for (body, status, needle) in [
        (json!({"level": 11}), 400, "levels are 1 to 10"),
        (json!({"level": 0}), 400, "levels are 1 to 10"),
        (json!({"level": "five"}), 400, "level"),
        (json!({}), 400, "level"),
    ] {
        let a = ann.post(&engines, body.clone()).await;
        assert_eq!(a.status, status, "{body}: {:?}", a.body);
        assert!(
            a.body["error"].as_str().unwrap().contains(needle),
            "{:?}",
            a.body
        );
    }
    let a = ann.post(&engines, json!({"level": 1})).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let entry = a.body["entries"][0].clone();
    assert_eq!(
        (&entry["name"], &entry["engine"], &entry["rating"]),
        (&json!("Engine level 1"), &json!(1), &json!(800.0)),
        "{entry}"
    );
    let again = ann.post(&engines, json!({"level": 1})).await;
    assert_eq!(again.status, 409, "{:?}", again.body);
    assert_eq!(ann.post(&engines, json!({"level": 2})).await.status, 200);
    // Nobody logs in to a level's account.
    let mut someone = Browser::new(&server);
    assert_eq!(someone.log_in("Engine level 1", "").await.status, 401);
    // The two levels play their game, and the event is over.
    let a = ann
        .post(&format!("/api/tournaments/{robin}/start"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = wait_long(&server, &robin, |e| e["status"] == "finished").await;
    let board = &boards(&e, 1)[0];
    assert!(
        ["1-0", "0-1", "1/2-1/2"].contains(&board["result"].as_str().unwrap()),
        "{board}"
    );
    let (status, game) = server
        .get(&format!("/api/games/{}", string(&board["game"])), None)
        .await;
    assert_eq!(status, 200, "{game}");
    assert!(game.to_string().contains("Engine level 1"), "{game}");
    let points: f64 = table(&e).iter().map(|line| line.1).sum();
    assert_eq!(points, 1.0, "{:?}", table(&e));

    // A rated Swiss of Ann against level 1: the game is not rated, Ann's loss counts.
    let swiss = create(
        players.get_mut("Ann").unwrap(),
        json!({"rounds": 1, "rated": true}),
    )
    .await;
    let ann = players.get_mut("Ann").unwrap();
    let a = ann
        .post(
            &format!("/api/tournaments/{swiss}/engines"),
            json!({"level": 1}),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = join_and_start(&server, &mut players, &swiss, &["Ann"], "Ann").await;
    let board = boards(&e, 1)[0].clone();
    let game = string(&board["game"]);
    let (_, shown_game) = server.get(&format!("/api/games/{game}"), None).await;
    assert_eq!(shown_game["rated"], false, "{shown_game}");
    let kinds: Vec<&Value> = shown_game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["kind"])
        .collect();
    assert!(kinds.contains(&&json!("engine")), "{shown_game}");
    let a = players
        .get_mut("Ann")
        .unwrap()
        .post(
            &format!("/api/games/{game}/action"),
            json!({"type": "resign"}),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = wait(&server, &swiss, |e| e["status"] == "finished").await;
    let lines = table(&e);
    assert_eq!(lines[0].0, "Engine level 1", "{lines:?}");
    assert_eq!((lines[0].1, lines[1].1), (1.0, 0.0), "{lines:?}");

    // Four levels at most, and none in a knockout.
    let full = create(players.get_mut("Ann").unwrap(), json!({"max_players": 8})).await;
    let ann = players.get_mut("Ann").unwrap();
    for level in 3..=6 {
        let a = ann
            .post(
                &format!("/api/tournaments/{full}/engines"),
                json!({"level": level}),
            )
            .await;
        assert_eq!(a.status, 200, "{level}: {:?}", a.body);
    }
    let a = ann
        .post(
            &format!("/api/tournaments/{full}/engines"),
            json!({"level": 7}),
        )
        .await;
    assert_eq!(a.status, 409, "{:?}", a.body);
    assert!(
        a.body["error"].as_str().unwrap().contains("at most 4"),
        "{:?}",
        a.body
    );
    // A knockout of two levels: their death match (best of 3, no repetition, bribes in the
    // final, which they decline) is played through by themselves, and the event is over.
    let knockout = create(
        players.get_mut("Ann").unwrap(),
        json!({"format": "knockout", "rounds": null}),
    )
    .await;
    let ann = players.get_mut("Ann").unwrap();
    for level in [1, 2] {
        let a = ann
            .post(
                &format!("/api/tournaments/{knockout}/engines"),
                json!({"level": level}),
            )
            .await;
        assert_eq!(a.status, 200, "{:?}", a.body);
    }
    let a = ann
        .post(&format!("/api/tournaments/{knockout}/start"), json!({}))
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let e = wait_long(&server, &knockout, |e| e["status"] == "finished").await;
    let board = &boards(&e, 1)[0];
    assert!(
        ["1-0", "0-1"].contains(&board["result"].as_str().unwrap()),
        "{board}"
    );
}

on_sqlite_and_postgres!(
    engine_levels_entered_by_the_organiser_play_their_games,
    the_organiser_pauses_and_resumes,
    entry_limits,
    the_organiser_removes_a_player_and_ends_the_event,
    byes_asked_for,
    withdrawing_while_it_runs,
    a_first_move_never_made_is_a_forfeit,
    a_swiss_of_five_is_played_through,
    a_round_robin_of_four_meets_every_pair_once,
    an_event_starts_at_its_time,
    joining_rules,
    refusals,
);
