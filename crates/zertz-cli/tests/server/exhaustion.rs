//! Attacks by one client on what all share, through `zertz serve` (issue 21): an invitation
//! link used a second time, a backlog of engine games, a flood of analysis requests, and a
//! lobby buried under games. Each test plays the attack and shows that another client is still
//! served (and passes only with the fix: the comments say what happened before).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use zertz_testkit::on_sqlite_and_postgres;

use crate::common::play::{mv, refused};
use crate::common::server::{Db, Server, string};
use serde_json::{Value, json};

/// An HTTP client whose connections come from `source` (a loopback address of its own), so
/// that the server sees another client.
fn client_from(source: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(source.parse::<std::net::IpAddr>().unwrap())
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap()
}

async fn send(request: reqwest::RequestBuilder) -> (u16, Value, Option<String>) {
    let response = request.send().await.expect("an answer");
    let status = response.status().as_u16();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body, retry)
}

/// An invitation takes its seat once; the seat then plays with a token of its own, and the
/// link no longer acts for it. (Before: the link's token was the seat's, so anyone who saw the
/// link could play for the friend, and "joining" again handed the seat's token out.)
async fn an_invitation_is_used_once(db: Db) {
    let server = Server::start(&db);
    let (id, [alice, invite]) = server.invitation(json!({})).await;
    let joined = server.join(&id, &invite, "Bob").await;
    let bob = string(&joined["token"]);
    assert_ne!(bob, invite);
    // A second use, by anyone, is refused with a sentence and gives no token.
    let (status, body) = server.try_join(&id, Some(&invite), "Mallory").await;
    refused(
        status,
        &body,
        409,
        "this invitation has been used: the seat is taken",
    );
    assert_eq!(body["token"], Value::Null);
    // The link acts for nobody; the seat's own token does.
    let (status, _) = server.act(&id, &invite, mv("Wd4,a1")).await;
    assert_eq!(status, 403);
    let (status, _) = server.get(&format!("/api/games/{id}"), Some(&invite)).await;
    assert_eq!(status, 403);
    server.act_ok(&id, &alice, mv("Wd4,a1")).await;
    let view = server.game(&id, Some(&bob)).await;
    assert_eq!(view["you"], 2);
    // The game still refuses the link after a restart (the invitation is stored).
    drop(server);
    let server = Server::start(&db);
    let (status, body) = server.try_join(&id, Some(&invite), "Mallory").await;
    refused(status, &body, 409, "this invitation has been used");
    assert_eq!(server.game(&id, Some(&bob)).await["you"], 2);

    // The same for a match's invited place.
    let created = server.invite_match(json!({})).await;
    let mid = string(&created["id"]);
    let link = string(&created["invite_token"]);
    let ben = string(&server.join_match(&mid, &link, "Ben").await["token"]);
    assert_ne!(ben, link);
    let (status, body) = server
        .post(
            &format!("/api/matches/{mid}/join"),
            &json!({"name": "Mallory", "token": link}),
            None,
        )
        .await;
    refused(status, &body, 409, "this invitation has been used");
    let (status, _) = server
        .get(&format!("/api/matches/{mid}"), Some(&link))
        .await;
    assert_eq!(status, 403);
    assert_eq!(server.get_match(&mid, Some(&ben)).await["you"], 1);
}

/// Games against the engine where the engine moves first, for the client of `http`.
async fn engine_games(server: &Server, http: &reqwest::Client, n: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for _ in 0..n {
        let body = json!({"opponent": {"kind": "engine", "level": 10}, "seat": "second",
                          "name": "Player"});
        let (status, created, _) = send(http.post(server.url("/api/games")).json(&body)).await;
        assert_eq!(status, 201, "{created}");
        ids.push(string(&created["id"]));
    }
    ids
}

/// How many of `ids` the engine has moved in.
async fn moved(server: &Server, ids: &[String]) -> usize {
    let mut n = 0;
    for id in ids {
        if !server.game(id, None).await["moves"]
            .as_array()
            .unwrap()
            .is_empty()
        {
            n += 1;
        }
    }
    n
}

/// One engine slot; client A has five engine games whose engine must move, then client B one.
/// B's engine moves after at most two of A's (round robin), not after A's whole backlog (first
/// come, first served: all five of A's first).
#[tokio::test]
async fn a_backlog_of_engine_games_does_not_make_another_client_wait_behind_it() {
    let (_dir, db) = crate::common::server::temp_db();
    let server = Server::start_args(
        &db,
        700,
        &["--engine-slots", "1", "--engine-games-per-client", "20"],
    );
    let a = client_from("127.0.0.2");
    let b = client_from("127.0.0.3");
    let backlog = engine_games(&server, &a, 5).await;
    let before_b = moved(&server, &backlog).await;
    assert!(before_b <= 1, "the engine is slower than five requests");
    let mine = engine_games(&server, &b, 1).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while moved(&server, &mine).await == 0 {
        assert!(Instant::now() < deadline, "B's engine never moved");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let a_done = moved(&server, &backlog).await;
    assert!(
        a_done <= before_b + 2,
        "B waited behind {a_done} of A's engine moves (A had {before_b} before B asked)"
    );
    assert!(a_done < backlog.len(), "A's backlog was not served first");
}

/// A finished game to analyse.
async fn finished_game(server: &Server) -> String {
    let (id, alice, _) = server.invite_game(json!({})).await;
    server.act_ok(&id, &alice, mv("Wd4,a1")).await;
    server.act_ok(&id, &alice, json!({"type": "resign"})).await;
    id
}

async fn analyses_held(server: &Server) -> u64 {
    let (_, stats) = server.get("/api/stats", None).await;
    stats["analyses_held"].as_u64().expect("analyses_held")
}

/// Client A asks for 41 analyses at once: 40 wait (its share), the 41st is refused at once
/// with 429, its place and a time to come back; client B is still served, before A's line.
/// (Before: every request waited in one line without bound, B behind all of A's.)
#[tokio::test]
async fn a_flood_of_analyses_is_bounded_and_another_client_is_still_served() {
    let (_dir, db) = crate::common::server::temp_db();
    let server = Arc::new(Server::start_args(
        &db,
        50,
        &["--analyses-per-client", "40", "--analysis-queue", "100"],
    ));
    let id = finished_game(&server).await;
    let path = server.url(&format!("/api/games/{id}/analysis?turn=0"));
    let a = client_from("127.0.0.4");
    let done = Arc::new(AtomicUsize::new(0));
    let mut flood = tokio::task::JoinSet::new();
    for _ in 0..40 {
        let (a, path, done) = (a.clone(), path.clone(), Arc::clone(&done));
        flood.spawn(async move {
            let (status, body, _) = send(a.get(&path)).await;
            done.fetch_add(1, Ordering::SeqCst);
            (status, body)
        });
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while analyses_held(&server).await < 40 {
        assert!(Instant::now() < deadline, "the 40 never all arrived");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (status, body, retry) = send(a.get(&path)).await;
    assert_eq!(status, 429, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("at most 40"), "{error}");
    assert!(error.contains("ask again in about"), "{error}");
    assert_eq!(body["place"], 41, "{body}");
    let retry: u64 = retry.expect("Retry-After").parse().unwrap();
    assert!(retry >= 1 && body["retry_after"] == retry, "{body}");

    let b = client_from("127.0.0.5");
    let (status, body, _) = send(b.get(&path)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["turn"], 0);
    let a_done = done.load(Ordering::SeqCst);
    assert!(a_done <= 3, "B waited behind {a_done} of A's analyses");
    flood.abort_all();
}

/// Client A makes forty invitation games (not seeks: another limit holds them) and its
/// five open seeks; B's seek, older, must still be found. The lobby lists seeks only, in pages
/// whose cursors reach every one. (Before: the lobby read the 30 newest open games, so A's
/// invitations hid B's seek.)
async fn a_flood_of_games_does_not_hide_a_seek_from_the_lobby(db: Db) {
    let server = Server::start(&db);
    let b = client_from("127.0.0.6");
    let seek = json!({"opponent": {"kind": "open"}, "name": "Bea"});
    let (status, created, _) = send(b.post(server.url("/api/games")).json(&seek)).await;
    assert_eq!(status, 201, "{created}");
    let bea = string(&created["id"]);
    let a = client_from("127.0.0.7");
    for _ in 0..40 {
        let body = json!({"opponent": {"kind": "invite"}, "name": "Flood"});
        let (status, _, _) = send(a.post(server.url("/api/games")).json(&body)).await;
        assert_eq!(status, 201);
    }
    let mut a_seeks: Vec<String> = Vec::new();
    for _ in 0..5 {
        let body = json!({"opponent": {"kind": "open"}, "name": "Flood"});
        let (status, created, _) = send(a.post(server.url("/api/games")).json(&body)).await;
        assert_eq!(status, 201, "{created}");
        a_seeks.push(string(&created["id"]));
    }
    // The invitations are in no public listing (issue 39, F15): the 30 newest open games are
    // the six seeks, B's among them. (The lobby read that listing once, when it listed
    // invitations too and B's seek was not among the 30 newest.)
    let newest = server.listed_ids("/api/games?status=open&limit=30").await;
    assert_eq!(newest.len(), 6, "{newest:?}");
    assert!(newest.contains(&bea));
    // The lobby's listing, three to a page: seeks only, newest first, every one reached.
    let seen = lobby_pages(&server, "games").await;
    // Bea's, the oldest, comes last; A's five (made within a few milliseconds, so in any
    // order among themselves) before it.
    assert_eq!(seen.len(), 6, "{seen:?}");
    assert_eq!(seen.last(), Some(&bea));
    let mut first: Vec<String> = seen[..5].to_vec();
    first.sort();
    a_seeks.sort();
    assert_eq!(first, a_seeks);
}

/// The same for matches: client A makes forty invitation matches and its five open matches
/// after client B's open match; the lobby's listing of matches, three to a page, reaches
/// exactly the six open ones. (Before: the lobby read the 30 newest open matches, invitations
/// included, in one page: A's invitations hid B's match.)
async fn a_flood_of_matches_does_not_hide_an_open_match_from_the_lobby(db: Db) {
    let server = Server::start(&db);
    let b = client_from("127.0.0.12");
    let open = json!({"opponent": {"kind": "open"}, "name": "Bea"});
    let (status, created, _) = send(b.post(server.url("/api/matches")).json(&open)).await;
    assert_eq!(status, 201, "{created}");
    let bea = string(&created["id"]);
    let a = client_from("127.0.0.13");
    for _ in 0..40 {
        let body = json!({"opponent": {"kind": "invite"}, "name": "Flood"});
        let (status, created, _) = send(a.post(server.url("/api/matches")).json(&body)).await;
        assert_eq!(status, 201, "{created}");
    }
    let mut a_open: Vec<String> = Vec::new();
    for _ in 0..5 {
        let body = json!({"opponent": {"kind": "open"}, "name": "Flood"});
        let (status, created, _) = send(a.post(server.url("/api/matches")).json(&body)).await;
        assert_eq!(status, 201, "{created}");
        a_open.push(string(&created["id"]));
    }
    // The invitations are in no public listing (issue 39, F15): the 30 newest open matches
    // are the six open ones, B's among them. (The lobby read that listing once, when it listed
    // invitations too and B's match was not among the 30 newest.)
    let (_, newest) = server.get("/api/matches?status=open&limit=30", None).await;
    let newest: Vec<&Value> = newest["matches"].as_array().unwrap().iter().collect();
    assert_eq!(newest.len(), 6);
    assert!(newest.iter().any(|m| m["id"] == bea.as_str()));
    // The lobby's listing, three to a page: open matches only, every one reached.
    let seen = lobby_pages(&server, "matches").await;
    assert_eq!(seen.len(), 6, "{seen:?}");
    assert_eq!(seen.last(), Some(&bea));
    let mut first: Vec<String> = seen[..5].to_vec();
    first.sort();
    a_open.sort();
    assert_eq!(first, a_open);
    // A taken match leaves the lobby; a cursor that is not one is refused, naming it.
    let (status, _) = server
        .post(
            &format!("/api/matches/{bea}/join"),
            &json!({"name": "Cy"}),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let listed = server
        .get("/api/matches?status=open&lobby=true&limit=10", None)
        .await
        .1;
    assert!(
        !listed["matches"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["id"] == bea.as_str())
    );
    let (status, body) = server
        .get("/api/matches?lobby=true&before=nonsense", None)
        .await;
    refused(status, &body, 400, "before `nonsense`");
}

on_sqlite_and_postgres!(
    an_invitation_is_used_once,
    a_flood_of_games_does_not_hide_a_seek_from_the_lobby,
    a_flood_of_matches_does_not_hide_an_open_match_from_the_lobby,
);

/// The ids of the lobby's open `kind` (`games` or `matches`), read three to a page by its
/// cursor to the end; every item listed must be open.
async fn lobby_pages(server: &Server, kind: &str) -> Vec<String> {
    let mut seen = Vec::new();
    let mut before: Option<String> = None;
    loop {
        let mut path = format!("/api/{kind}?status=open&lobby=true&limit=3");
        if let Some(c) = &before {
            path.push_str(&format!("&before={c}"));
        }
        let (status, page) = server.get(&path, None).await;
        assert_eq!(status, 200, "{page}");
        for item in page[kind].as_array().unwrap() {
            assert_eq!(item["open"], true, "{item}");
            seen.push(string(&item["id"]));
        }
        match page["next"].as_str() {
            Some(next) => before = Some(next.to_string()),
            None => break,
        }
    }
    seen
}
