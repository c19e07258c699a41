//! Records and listings through the server's API: finished games listed page by page with a
//! cursor; a record's creation time; the no-repetition rule; a game continued from an imported
//! position and from a whole record, whose history counts for the repetition rules and is
//! never taken back; records that cannot be continued, refused with the reason.

use std::time::Duration;

use serde_json::json;
use zertz_server::util::iso_time;
use zertz_testkit::in_process::Server;
use zertz_testkit::play::{Rng, brief, mv, refused, to_move};
use zertz_testkit::site::{string, temp_db};

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
            listed.push((g["updated_ms"].as_i64().unwrap(), string(&g["id"])));
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
    let created = |text: &str| -> String {
        let record = zertz::record::Record::parse(text).expect("a record");
        record.header("Created").expect("Created").to_string()
    };
    let (_, first) = server.get_text(&format!("/api/games/{id}/record")).await;
    let at = created(&first);
    // ISO 8601 times sort as the times do.
    let (before, after) = (iso_time(before), iso_time(after));
    assert!(before <= at && at <= after, "{before} <= {at} <= {after}");
    let record = zertz::record::Record::parse(&first).unwrap();
    assert_eq!(record.header("Date"), Some(&at[..10]));
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
    (s0.clone(), s0.play(&wb4).unwrap())
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
    // The compact form says so too: `Wb4` is among its repeating placements, left out.
    assert_eq!(
        state["legal"]["repeating"],
        json!(["Wb4"]),
        "{}",
        state["legal"]
    );
    assert_eq!(
        zertz_testkit::ws::spelled(state.clone())["legal_moves"],
        state["legal_moves"]
    );
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
    let text = record_of(s1.clone(), forbidden, &CYCLE[1..]);

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
    let text = record_of(s0.clone(), zertz::Rules::default(), &CYCLE);
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
            .contains("the same position came up a third time"),
        "{}",
        brief(&end)
    );
    assert_eq!(end["moves"].as_array().unwrap().len(), 8);

    // Records that cannot be continued, each refused with the reason.
    let over = record_of(s0.clone(), forbidden, &CYCLE[..3]);
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

/// The archive's search: finished games listed with their players, board, rule set and length,
/// found by a player's name (either seat, any case), board, rule set and result; bad filters
/// refused with the reason.
#[tokio::test]
async fn finished_games_are_found_by_player_board_rules_and_result() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db);
    let mut ids = Vec::new();
    for (extra, friend) in [
        (json!({}), "Bob"),
        (json!({"board": "48", "rules": "blitz"}), "Cyd"),
        (json!({"seat": "second"}), "bob"),
    ] {
        let (id, [alice, invite]) = server.invitation(extra).await;
        let friend_token = string(&server.join(&id, &invite, friend).await["token"]);
        // One move each, then the friend resigns.
        let mut rng = Rng::new(4);
        server
            .play_random(
                &id,
                &alice_first(&server, &id, &alice, &friend_token).await,
                &mut rng,
                2,
            )
            .await;
        server
            .act_ok(&id, &friend_token, json!({"type": "resign"}))
            .await;
        ids.push(id);
    }
    let listed = server.listing("/api/games?status=finished").await;
    assert_eq!(listed.len(), 3);
    let first = listed.iter().find(|g| g["id"] == ids[0].as_str()).unwrap();
    assert_eq!(first["names"], json!(["Alice", "Bob"]));
    assert_eq!(
        (first["board"].as_str(), first["rules"].as_str()),
        (Some("37"), Some("standard"))
    );
    assert_eq!(first["turns"], 2);
    assert_eq!(first["result"], "1-0");

    let found = |q: &str| {
        let q = q.to_string();
        let server = &server;
        async move {
            server
                .listed_ids(&format!("/api/games?status=finished&{q}"))
                .await
        }
    };
    let mut with_bob = found("player=BOB").await;
    with_bob.sort();
    let mut want = vec![ids[0].clone(), ids[2].clone()];
    want.sort();
    assert_eq!(with_bob, want);
    assert_eq!(found("board=48").await, [ids[1].clone()]);
    assert_eq!(found("rules=blitz").await, [ids[1].clone()]);
    // Alice moved second in the third game and won: 0-1.
    assert_eq!(found("result=0-1").await, [ids[2].clone()]);
    assert!(found("player=nobody").await.is_empty());
    for (q, says) in [
        ("board=36", "expected one of 37"),
        ("result=win", "expected 1-0, 0-1"),
        ("colour=white", "unknown field `colour`"),
    ] {
        let (status, body) = server.get(&format!("/api/games?{q}"), None).await;
        refused(status, &body, 400, says);
    }
}

/// The tokens in the order of the seats (the game's creator may sit second).
async fn alice_first(server: &Server, id: &str, alice: &str, friend: &str) -> [String; 2] {
    let you = server.game(id, Some(alice)).await["you"].as_u64().unwrap();
    if you == 1 {
        [alice.to_string(), friend.to_string()]
    } else {
        [friend.to_string(), alice.to_string()]
    }
}
