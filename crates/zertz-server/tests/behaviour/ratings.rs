//! Ratings through the HTTP API: rated games between accounts (and the refusals of rated
//! games a guest or the engine would play), both ratings changed in the same transaction as
//! the result (a server killed right after leaves both or neither: crates/zertz-cli/tests/server/ratings.rs), profiles with their
//! ratings, graph points, results and history filters, and the leaderboard. On SQLite and
//! (in `postgres`) on PostgreSQL.

use serde_json::{Value, json};
use zertz_testkit::accounts::Browser;
use zertz_testkit::accounts::{profile, rapid, rated_game};
use zertz_testkit::in_process::Server;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::play::Rng;
use zertz_testkit::site::{Db, string};

const PASSWORD: &str = "correct horse battery";

/// Plays random legal moves until the game is over; returns its final state.
async fn play_out(server: &Server, id: &str, tokens: &[String; 2], seed: u64) -> Value {
    let mut rng = Rng::new(seed);
    for _ in 0..400 {
        let state = server.game(id, None).await;
        if state["status"] == "finished" {
            return state;
        }
        server.play_random(id, tokens, &mut rng, 1).await;
    }
    panic!("game {id} did not end in 400 moves");
}

/// Two accounts play a rated game to its end: both ratings move the right way, the profile
/// shows the pool's rating (provisional), its graph, the result and how the game ended, and the
/// history lists it with the ratings before and after.
async fn a_rated_game_changes_both_ratings(db: Db) {
    let server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    let mut bob = Browser::new(&server);
    bob.sign_up_ok("Bob", PASSWORD).await;
    let (id, tokens) = rated_game(&mut ann, &mut bob).await;
    let view = server.game(&id, None).await;
    assert_eq!(view["casual"], false, "no takebacks");
    assert_eq!(
        (view["rated"].as_bool(), view["pool"].as_str()),
        (Some(true), Some("standard-rapid"))
    );
    let listed = server.listing("/api/games?status=live").await;
    assert_eq!(listed[0]["rated"], true);
    assert_eq!(listed[0]["pool"], "standard-rapid");
    let refused = server
        .act(&id, &tokens[0], json!({"type": "request_takeback"}))
        .await;
    assert_eq!(refused.0, 409, "{}", refused.1);
    let end = play_out(&server, &id, &tokens, 7).await;
    let winner = end["result"]["winner"].as_u64().map(|w| w as usize);

    let p = [profile(&server, "Ann").await, profile(&server, "bob").await];
    for (i, p) in p.iter().enumerate() {
        let ratings = p["ratings"].as_array().unwrap();
        assert_eq!(ratings.len(), 1, "{p}");
        let r = &ratings[0];
        assert_eq!(r["pool"], "standard-rapid");
        assert_eq!(r["games"], 1);
        assert_eq!(r["provisional"], true);
        assert_eq!(r["graph"].as_array().unwrap().len(), 1);
        assert_eq!(r["graph"][0]["game_id"], id.as_str());
        let rating = r["rating"].as_i64().unwrap();
        match winner {
            Some(w) if w == i + 1 => assert!(rating > 1500, "{p}"),
            Some(_) => assert!(rating < 1500, "{p}"),
            None => assert_eq!(rating, 1500),
        }
        assert_eq!(p["results"]["games"], 1);
        let history = server
            .get(
                &format!("/api/players/{}/games", p["name"].as_str().unwrap()),
                None,
            )
            .await
            .1;
        let g = &history["games"][0];
        assert_eq!(g["game_id"], id.as_str());
        assert_eq!(g["rated"], true);
        assert_eq!(g["rating_before"], 1500.0);
        assert_eq!(g["opponent_name"], if i == 0 { "Bob" } else { "Ann" });
        assert_eq!(g["opponent_is_account"], true);
        assert!(g["rating_after"].as_f64().is_some());
        let reason = g["reason"].as_str().unwrap();
        assert!(
            ["captures", "isolation", "no_legal_move", "repetition"].contains(&reason),
            "{g}"
        );
    }
    // Win and loss are the two sides of one game.
    if let Some(w) = winner {
        assert_eq!(p[w - 1]["results"]["won"], 1);
        assert_eq!(p[2 - w]["results"]["lost"], 1);
    }
}

async fn rated_games_are_for_two_accounts_on_the_37_board_with_a_clock(db: Db) {
    let server = Server::start(&db);
    let rated = |extra: Value| {
        let mut body = json!({"opponent": {"kind": "invite"}, "rated": true, "clock": rapid()});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    // A guest asking for a rated game.
    let (status, body) = server.post("/api/games", &rated(json!({})), None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("rated games need an account on both seats"))
    );
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    for (extra, says) in [
        (
            json!({"opponent": {"kind": "engine", "level": 3}}),
            "games against the engine are unrated",
        ),
        (json!({"board": "48"}), "only games on the 37-ring board"),
        (json!({"clock": null}), "rated games need a clock"),
        (
            json!({"clock": {"kind": "sudden_death", "total_ms": 1}}),
            "the clock is too fast for a rated game",
        ),
        (json!({"casual": true}), "a rated game has no takebacks"),
    ] {
        let a = ann.post("/api/games", rated(extra.clone())).await;
        assert_eq!(a.status, 400, "{extra}: {:?}", a.body);
        assert!(
            a.body["error"].as_str().unwrap().contains(says),
            "{extra}: {:?}",
            a.body
        );
    }
    // A guest cannot take the seat of a rated game, an account can; the Blitz rule set has
    // its own pools.
    let open = ann
        .post(
            "/api/games",
            rated(json!({"opponent": {"kind": "open"}, "rules": "blitz"})),
        )
        .await;
    assert_eq!(open.status, 201, "{:?}", open.body);
    let id = string(&open.body["id"]);
    let (status, body) = server.try_join(&id, None, "Guest").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("rated games need an account on both seats"))
    );
    let mut bob = Browser::new(&server);
    bob.sign_up_ok("Bob", PASSWORD).await;
    let joined = bob.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    let tokens = [string(&open.body["token"]), string(&joined.body["token"])];
    server.both_move(&id, &tokens).await;
    server
        .act_ok(&id, &tokens[1], json!({"type": "resign"}))
        .await;
    let p = profile(&server, "Ann").await;
    assert_eq!(p["ratings"][0]["pool"], "blitz-rapid");
    assert_eq!(
        p["results"]["by_reason"],
        json!([["win", "resignation", 1]])
    );
    // Engines carry their published rating.
    let engine = server
        .create(json!({"opponent": {"kind": "engine", "level": 10}, "name": "G"}))
        .await;
    let view = server.game(&string(&engine["id"]), None).await;
    assert_eq!(view["seats"][1]["rating"], 2720);
    // Unknown players, unknown pools and filters are refused with the reason.
    assert_eq!(server.get("/api/players/Nobody", None).await.0, 404);
    for (query, says) in [
        ("result=won", "expected win, loss or draw"),
        ("pool=bullet", "expected one of standard-blitz"),
        ("board=36", "expected one of 37"),
        ("opponent=Nobody", "no player has that name"),
        ("before=yesterday", "the `next` of an earlier page"),
        ("colour=white", "unknown field `colour`"),
    ] {
        let (status, body) = server
            .get(&format!("/api/players/Ann/games?{query}"), None)
            .await;
        assert_eq!(status, 400, "{query}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{query}: {body}"
        );
    }
    assert_eq!(
        server.get("/api/leaderboard?pool=bullet", None).await.0,
        400
    );
}

/// The history filters and pages, and the leaderboard once ratings are established.
async fn profiles_and_the_leaderboard(db: Db) {
    let server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    let mut bob = Browser::new(&server);
    bob.sign_up_ok("Bob", PASSWORD).await;
    // Nobody has played: an empty leaderboard.
    let board = server
        .get("/api/leaderboard?pool=standard-rapid", None)
        .await
        .1;
    assert_eq!(board["pools"][0]["players"], json!([]));
    // Rated games until both ratings are established: Ann wins two of three. After the first,
    // both are listed, marked provisional, so that a new server's leaderboard is not empty.
    let mut n = 0;
    loop {
        if n == 1 {
            let board = server
                .get("/api/leaderboard?pool=standard-rapid", None)
                .await
                .1;
            let players = board["pools"][0]["players"].as_array().unwrap();
            let shown: Vec<_> = players
                .iter()
                .map(|p| (p["name"].as_str().unwrap(), p["provisional"].as_bool()))
                .collect();
            assert_eq!(shown, [("Ann", Some(true)), ("Bob", Some(true))], "{board}");
        }
        let (id, tokens) = rated_game(&mut ann, &mut bob).await;
        let loser = if n % 3 == 2 { 0 } else { 1 };
        server.both_move(&id, &tokens).await;
        server
            .act_ok(&id, &tokens[loser], json!({"type": "resign"}))
            .await;
        n += 1;
        let p = profile(&server, "Bob").await;
        if p["ratings"][0]["provisional"] == false {
            break;
        }
        assert!(n < 80, "still provisional after {n} games: {p}");
    }
    let board = server
        .get("/api/leaderboard?pool=standard-rapid", None)
        .await
        .1;
    let players = board["pools"][0]["players"].as_array().unwrap();
    assert_eq!(players.len(), 2, "{board}");
    assert_eq!(players[0]["name"], "Ann");
    assert_eq!(players[0]["rank"], 1);
    assert_eq!(players[0]["provisional"], false, "{board}");
    assert_eq!(players[1]["name"], "Bob");
    assert!(players[0]["rating"].as_i64() > players[1]["rating"].as_i64());
    assert_eq!(players[0]["games"], n);
    // Without a pool: every pool's top.
    let all = server.get("/api/leaderboard", None).await.1;
    assert_eq!(all["pools"].as_array().unwrap().len(), 8);

    // The history, filtered and paged.
    let wins = server
        .get(
            "/api/players/Ann/games?result=win&opponent=bob&pool=standard-rapid&board=37&limit=100",
            None,
        )
        .await
        .1;
    let wins = wins["games"].as_array().unwrap().len();
    let losses = server
        .get("/api/players/Ann/games?result=loss&limit=100", None)
        .await
        .1;
    let losses = losses["games"].as_array().unwrap().len();
    assert_eq!(wins + losses, n as usize);
    assert_eq!(losses, n as usize / 3);
    assert_eq!(
        server.get("/api/players/Ann/games?board=48", None).await.1["games"],
        json!([])
    );
    let mut seen = Vec::new();
    let mut before = String::new();
    loop {
        let page = server
            .get(
                &format!("/api/players/Ann/games?limit=7&before={before}"),
                None,
            )
            .await
            .1;
        for g in page["games"].as_array().unwrap() {
            seen.push(string(&g["game_id"]));
        }
        match page["next"].as_str() {
            Some(next) => before = next.to_string(),
            None => break,
        }
    }
    assert_eq!(seen.len(), n as usize);
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), seen.len(), "no game twice across pages");
    let p = profile(&server, "Ann").await;
    assert_eq!(
        p["ratings"][0]["graph"].as_array().unwrap().len(),
        n as usize
    );
    assert_eq!(p["results"]["games"], n);
}

/// A best-of-3 match on seed 004's clock between two accounts is rated game by game; a guest
/// cannot take the place of a rated match. Its house rules (bribes, no repetition) are not
/// rated: a rating compares games under the official rules (issue 39, F15), and the refusal
/// says so.
async fn a_rated_match_is_rated_game_by_game(db: Db) {
    let server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    let clock = json!({"kind": "per_move_reserve", "per_move_ms": 60000,
                       "reserve_ms": 180000, "step_ms": 15000});
    for (house_rule, why) in [
        (
            json!({"bribes": true}),
            "bribe-to-pass house rule are unrated",
        ),
        (
            json!({"no_repetition": true}),
            "no-repetition house rule are unrated",
        ),
    ] {
        let mut body = json!({"opponent": {"kind": "invite"}, "best_of": 3, "rated": true,
                              "clock": clock});
        body.as_object_mut()
            .unwrap()
            .extend(house_rule.as_object().unwrap().clone());
        let refused = ann.post("/api/matches", body).await;
        assert_eq!(refused.status, 400, "{:?}", refused.body);
        assert!(
            string(&refused.body["error"]).contains(why),
            "{:?}",
            refused.body
        );
    }
    let created = ann
        .post(
            "/api/matches",
            json!({"opponent": {"kind": "invite"}, "best_of": 3, "rated": true, "clock": clock}),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = string(&created.body["id"]);
    let invite = string(&created.body["invite_token"]);
    let (status, body) = server
        .post(
            &format!("/api/matches/{id}/join"),
            &json!({"token": invite, "name": "Guest"}),
            None,
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("rated games need an account on both seats"))
    );
    let mut bob = Browser::new(&server);
    bob.sign_up_ok("Bob", PASSWORD).await;
    let joined = bob
        .post(&format!("/api/matches/{id}/join"), json!({"token": invite}))
        .await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    let tokens = [
        string(&created.body["token"]),
        string(&joined.body["token"]),
    ];
    for n in 1..=2 {
        let m = server
            .wait_match(&id, |m| {
                m["current_game"].is_string() && m["games"].as_array().map(Vec::len) == Some(n)
            })
            .await;
        let game = string(&m["current_game"]);
        let view = server.game(&game, Some(&tokens[0])).await;
        assert_eq!(
            (view["rated"].as_bool(), view["pool"].as_str()),
            (Some(true), Some("standard-rapid"))
        );
        // Bob resigns each game, once both have moved: Ann takes the match 2-0.
        let by_seat = if view["you"] == 1 {
            [tokens[0].clone(), tokens[1].clone()]
        } else {
            [tokens[1].clone(), tokens[0].clone()]
        };
        server.both_move(&game, &by_seat).await;
        let bob_token = &tokens[1];
        server
            .act_ok(&game, bob_token, json!({"type": "resign"}))
            .await;
        let p = profile(&server, "Ann").await;
        assert_eq!(p["ratings"][0]["games"], n, "{p}");
        assert_eq!(p["results"]["won"], n);
    }
    let m = server.wait_match(&id, |m| m["winner"].is_number()).await;
    assert_eq!(m["winner"], 0);
    assert_eq!(
        (m["rated"].as_bool(), m["pool"].as_str()),
        (Some(true), Some("standard-rapid"))
    );
}

/// A rated game that ends before both players have moved is not rated, however it ends: two
/// accounts cannot trade points by resigning at once (issue 39, F5: one account went 1500 →
/// 2366 in 100 such games). Once both have moved, a resignation is rated.
async fn a_game_ended_before_both_moved_is_not_rated(db: Db) {
    let server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    let mut bob = Browser::new(&server);
    bob.sign_up_ok("Bob", PASSWORD).await;
    // Resigned at move 0, at move 1 (after the first move), and agreed drawn at move 1.
    for (moves, end) in [(0, "resign"), (1, "resign"), (1, "draw")] {
        let (id, tokens) = rated_game(&mut ann, &mut bob).await;
        server
            .play_random(&id, &tokens, &mut Rng::new(5), moves)
            .await;
        if end == "resign" {
            server
                .act_ok(&id, &tokens[1], json!({"type": "resign"}))
                .await;
        } else {
            server
                .act_ok(&id, &tokens[1], json!({"type": "offer_draw"}))
                .await;
            server
                .act_ok(&id, &tokens[0], json!({"type": "accept_draw"}))
                .await;
        }
        let p = profile(&server, "Ann").await;
        assert_eq!(p["ratings"], json!([]), "{end} after {moves} moves: {p}");
        let history = server.get("/api/players/Ann/games", None).await.1;
        assert_eq!(history["games"][0]["game_id"], id.as_str());
        assert_eq!(history["games"][0]["rated"], false, "{history}");
    }
    // After both have moved, the same resignation is rated.
    let (id, tokens) = rated_game(&mut ann, &mut bob).await;
    server.both_move(&id, &tokens).await;
    server
        .act_ok(&id, &tokens[1], json!({"type": "resign"}))
        .await;
    let p = profile(&server, "Ann").await;
    assert_eq!(p["ratings"][0]["games"], 1, "{p}");
    assert!(p["ratings"][0]["rating"].as_i64() > Some(1500), "{p}");
}

on_sqlite_and_postgres!(
    a_game_ended_before_both_moved_is_not_rated,
    a_rated_game_changes_both_ratings,
    profiles_and_the_leaderboard,
    rated_games_are_for_two_accounts_on_the_37_board_with_a_clock,
    a_rated_match_is_rated_game_by_game,
);
