//! Quick pairing and the limits per player, through the HTTP API: two accounts asking for a
//! rated game of a pool are paired at once into one live game; guests are paired with guests;
//! players far apart in rating wait until the gap both accept has widened enough; leaving the
//! page withdraws the request; a guest cannot ask for a rated game; and no player (or address)
//! holds more than its share of engine games and open seeks (429 with a sentence).

use std::time::Instant;
use zertz_testkit::on_sqlite_and_postgres;

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use zertz_testkit::accounts::Browser;
use zertz_testkit::in_process::Server;
use zertz_testkit::site::{Db, string};

const PASSWORD: &str = "correct horse battery";

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the pairing socket of `browser` (with its cookies) for `query`; an error is the
/// refused upgrade's status.
async fn ask(server: &Server, browser: &Browser, query: &str) -> Result<Socket, u16> {
    let url = format!("ws://{}/api/pairing/ws?{query}", server.addr);
    let mut request = url.into_client_request().unwrap();
    if !browser.cookies.is_empty() {
        request
            .headers_mut()
            .insert("cookie", browser.cookie_header().parse().unwrap());
    }
    if let Some(origin) = &browser.origin {
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
        Err(e) => panic!("pairing socket: {e}"),
    }
}

/// Reads the socket until `paired`; returns it and the `waiting` messages before it.
async fn until_paired(socket: &mut Socket) -> (Value, Vec<Value>) {
    let mut waited = Vec::new();
    loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(30), socket.next())
            .await
            .expect("paired in time")
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(text) = message {
            let v: Value = serde_json::from_str(&text).unwrap();
            match v["type"].as_str() {
                Some("paired") => return (v, waited),
                Some("waiting") => waited.push(v),
                _ => panic!("unexpected: {v}"),
            }
        }
    }
}

async fn account(server: &Server, name: &str) -> Browser {
    let mut b = Browser::new(server);
    b.sign_up_ok(name, PASSWORD).await;
    b
}

async fn two_accounts_are_paired_and_guests_with_guests(db: Db) {
    let server = Server::start(&db);
    let ann = account(&server, "Ann").await;
    let bob = account(&server, "Bob").await;
    let mut a = ask(&server, &ann, "pool=standard-blitz").await.unwrap();
    let (status, queues) = server.get("/api/pairing", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        queues["queues"],
        json!([{"pool": "standard-blitz", "rated": true, "guests": false, "waiting": 1}])
    );
    // The same account twice: refused, the first request stays.
    assert_eq!(
        ask(&server, &ann, "pool=standard-blitz").await.err(),
        Some(409)
    );
    let mut b = ask(&server, &bob, "pool=standard-blitz").await.unwrap();
    let (pa, _) = until_paired(&mut a).await;
    let (pb, _) = until_paired(&mut b).await;
    assert_eq!(pa["game"], pb["game"]);
    let mut seats = [pa["seat"].as_u64().unwrap(), pb["seat"].as_u64().unwrap()];
    seats.sort();
    assert_eq!(seats, [1, 2]);
    let id = string(&pa["game"]);
    let view = server.game(&id, None).await;
    assert_eq!(view["status"], "live", "the game starts for both at once");
    assert_eq!(view["casual"], false);
    assert_eq!(
        view["clock"],
        json!({"kind": "fischer", "base_ms": 300000, "increment_ms": 3000})
    );
    let names: Vec<&str> = view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"Ann") && names.contains(&"Bob"),
        "{names:?}"
    );
    // Each token is its seat's.
    let ann_seat = if names[0] == "Ann" { 1 } else { 2 };
    let token = if pa["seat"] == ann_seat {
        &pa["token"]
    } else {
        &pb["token"]
    };
    let me = server.game(&id, Some(token.as_str().unwrap())).await;
    assert_eq!(me["you"], ann_seat);
    assert_eq!(
        server.get("/api/pairing", None).await.1["queues"],
        json!([])
    );

    // Guests: paired with guests, casual; a guest cannot ask for a rated game.
    let g1 = Browser::new(&server);
    assert_eq!(
        ask(&server, &g1, "pool=blitz-rapid&rated=true").await.err(),
        Some(400)
    );
    assert_eq!(ask(&server, &g1, "pool=bullet").await.err(), Some(400));
    let mut x = ask(&server, &g1, "pool=blitz-rapid&name=Xan")
        .await
        .unwrap();
    // An account asking for the same pool waits in its own queue.
    let cyd = account(&server, "Cyd").await;
    let _c = ask(&server, &cyd, "pool=blitz-rapid").await.unwrap();
    let mut y = ask(&server, &Browser::new(&server), "pool=blitz-rapid&name=Yun")
        .await
        .unwrap();
    let (px, _) = until_paired(&mut x).await;
    let (py, _) = until_paired(&mut y).await;
    assert_eq!(px["game"], py["game"]);
    let view = server.game(px["game"].as_str().unwrap(), None).await;
    assert_eq!(view["seats"][0]["guest"], true);
    assert_eq!(view["casual"], true);
    assert_eq!(view["rules"], "blitz");
    let waiting = server.get("/api/pairing", None).await.1;
    assert_eq!(
        waiting["queues"],
        json!([{"pool": "blitz-rapid", "rated": true, "guests": false, "waiting": 1}])
    );
}

/// Players 324 apart (one rated win apart) are not paired until both accept that gap: 50 at
/// once, +50 a second.
async fn players_far_apart_wait_until_the_gap_widens(db: Db) {
    let server = Server::start(&db);
    let mut ann = account(&server, "Ann").await;
    let mut bob = account(&server, "Bob").await;
    // One rated blitz game, won by Ann: 1662 against 1338.
    let mut a = ask(&server, &ann, "pool=standard-blitz").await.unwrap();
    let mut b = ask(&server, &bob, "pool=standard-blitz").await.unwrap();
    let (pa, _) = until_paired(&mut a).await;
    let (pb, _) = until_paired(&mut b).await;
    let id = string(&pa["game"]);
    // Both move first: a game resigned before that is not rated.
    let by_seat = if pa["seat"] == 1 {
        [string(&pa["token"]), string(&pb["token"])]
    } else {
        [string(&pb["token"]), string(&pa["token"])]
    };
    server.both_move(&id, &by_seat).await;
    server
        .act_ok(
            &id,
            pb["token"].as_str().unwrap(),
            json!({"type": "resign"}),
        )
        .await;
    let rating = |p: &Value| p["ratings"][0]["rating"].as_f64().unwrap();
    let ra = rating(&server.get("/api/players/Ann", None).await.1);
    let rb = rating(&server.get("/api/players/Bob", None).await.1);
    let distance = ra - rb;
    assert!(distance > 200.0, "{ra} {rb}");
    let _ = (&mut ann, &mut bob);

    let started = Instant::now();
    let mut a = ask(&server, &ann, "pool=standard-blitz").await.unwrap();
    let mut b = ask(&server, &bob, "pool=standard-blitz").await.unwrap();
    // Ann's gap runs ahead of Bob's by the time between their requests as the server took them,
    // at most the time from before hers to after his (the time from after hers fell short by
    // a fraction of a unit on a loaded machine), and the queue is swept every half second: by
    // that much her gap may pass the distance before both accept it.
    let ahead = 50.0 * (started.elapsed().as_secs_f64() + 0.5);
    let (pa, waited) = until_paired(&mut a).await;
    let (pb, _) = until_paired(&mut b).await;
    assert_eq!(pa["game"], pb["game"]);
    let took = started.elapsed().as_secs_f64();
    let needed = (distance - 50.0) / 50.0;
    assert!(
        took >= needed - 0.5,
        "paired after {took:.1} s, the gap needed {needed:.1} s"
    );
    // The gap reported while waiting grew, and stayed below the distance (but for Ann's head
    // start and one sweep).
    let gaps: Vec<f64> = waited.iter().map(|w| w["gap"].as_f64().unwrap()).collect();
    assert!(gaps.len() >= 2, "{waited:?}");
    assert!(gaps.windows(2).all(|g| g[1] >= g[0]), "{gaps:?}");
    assert!(
        gaps.iter().all(|g| *g <= distance + ahead + 1.0),
        "{gaps:?} vs {distance} (+ {ahead:.0} for Ann's head start and a sweep)"
    );
}

async fn leaving_the_page_withdraws_the_request(db: Db) {
    let server = Server::start(&db);
    let ann = account(&server, "Ann").await;
    let a = ask(&server, &ann, "pool=standard-rapid").await.unwrap();
    drop(a);
    // The server sees the socket close; the queue empties.
    let mut empty = false;
    for _ in 0..100 {
        if server.get("/api/pairing", None).await.1["queues"] == json!([]) {
            empty = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(empty, "the request was not withdrawn");
    // Bob then waits alone: nobody is paired with a page that left.
    let bob = account(&server, "Bob").await;
    let mut b = ask(&server, &bob, "pool=standard-rapid").await.unwrap();
    let first = tokio::time::timeout(std::time::Duration::from_secs(5), b.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let v: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
    assert_eq!(v["type"], "waiting", "{v}");
}

/// No one player (nor one address, for guests) holds more than its share: engine games being
/// played and open seeks (open games, open matches, pairing requests).
async fn engine_games_and_open_seeks_are_limited_per_player(db: Db) {
    let server = Server::start_config(&db, 50, |c| {
        c.engine_games_per_client = 2;
        c.seeks_per_client = 2;
    });
    let engine = json!({"opponent": {"kind": "engine", "level": 1}, "name": "G"});
    let first = server.create(engine.clone()).await;
    server.create(engine.clone()).await;
    let (status, body) = server.post("/api/games", &engine, None).await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("too many games against the engine being played: at most 2"),
        "{body}"
    );
    // An engine match counts as an engine game too.
    let (status, _) = server
        .post(
            "/api/matches",
            &json!({"opponent": {"kind": "engine", "level": 1}}),
            None,
        )
        .await;
    assert_eq!(status, 429);
    // Finishing one frees a place.
    server
        .act_ok(
            &string(&first["id"]),
            first["token"].as_str().unwrap(),
            json!({"type": "resign"}),
        )
        .await;
    server.create(engine.clone()).await;

    // Open seeks: two, then 429; a pairing request is a seek too.
    let open = json!({"opponent": {"kind": "open"}, "name": "G"});
    let seek = server.create(open.clone()).await;
    let (status, _) = server.post("/api/matches", &open, None).await;
    assert_eq!(status, 201);
    let (status, body) = server.post("/api/games", &open, None).await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("open games and pairing requests"),
        "{body}"
    );
    let guest = Browser::new(&server);
    assert_eq!(
        ask(&server, &guest, "pool=standard-blitz").await.err(),
        Some(429)
    );
    // A seek taken is no longer held.
    server.try_join(&string(&seek["id"]), None, "Taker").await;
    assert!(ask(&server, &guest, "pool=standard-blitz").await.is_ok());
    // An account has its own share, apart from its address's: a new one half of it.
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    assert_eq!(ann.post("/api/games", engine.clone()).await.status, 201);
    let refused = ann.post("/api/games", engine).await;
    assert_eq!(refused.status, 429, "{:?}", refused.body);
    let why = refused.body["error"].as_str().unwrap();
    assert!(why.contains("at most 1 at once for a new account"), "{why}");
}

on_sqlite_and_postgres!(
    two_accounts_are_paired_and_guests_with_guests,
    players_far_apart_wait_until_the_gap_widens,
    leaving_the_page_withdraws_the_request,
    engine_games_and_open_seeks_are_limited_per_player,
);
