//! Accounts over HTTP and WebSocket: sign-up, login, logout, wrong
//! passwords, the rules for names and passwords, sessions that survive a restart (that and the database holding no secret: crates/zertz-cli/tests/server/accounts.rs), a cross-site
//! request refused, limits on guessing, password changes, a database that holds no password
//! and no session key, and seats that follow their account from device to device. Each test
//! that touches storage runs on SQLite and (in `postgres`) on PostgreSQL.

use reqwest::Method;
use serde_json::json;
use zertz_testkit::accounts::{Browser, DEVICE, SESSION};
use zertz_testkit::in_process::Server;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::site::{Db, string};

const PASSWORD: &str = "correct horse battery";

async fn sign_up_log_in_log_out(db: Db) {
    let server = Server::start(&db);
    let mut ann = Browser::new(&server);
    assert_eq!(ann.me().await, None);

    let signed = ann.sign_up("Ann", PASSWORD).await;
    assert_eq!(signed.status, 201, "{:?}", signed.body);
    assert_eq!(signed.body, json!({"name": "Ann"}));
    let session = signed
        .set_cookies
        .iter()
        .find(|c| c.starts_with(&format!("{SESSION}=")))
        .expect("a session cookie");
    for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(session.contains(part), "{session}");
    }
    assert!(!session.contains("Secure"), "not behind HTTPS: {session}");
    let key = ann.session_key().expect("session key").to_string();
    assert_eq!(key.len(), 64, "256 bits in hex");
    // Nothing sends the password back.
    assert!(!signed.body.to_string().contains(PASSWORD));
    assert_eq!(ann.me().await.as_deref(), Some("Ann"));

    // Logged out: the cookie is cleared and the old key opens nothing.
    let out = ann.send(Method::DELETE, "/api/session", None).await;
    assert_eq!(out.status, 200, "{:?}", out.body);
    assert!(out.set_cookies.iter().any(|c| c.contains("Max-Age=0")));
    assert_eq!(ann.me().await, None);
    let mut thief = Browser::new(&server);
    thief.cookies.insert(SESSION.into(), key);
    assert_eq!(thief.me().await, None, "a logged-out key stays dead");

    // A wrong password and an unknown name get the same answer.
    let wrong = ann.log_in("Ann", "correct horse batteri").await;
    let unknown = ann.log_in("Nobody", PASSWORD).await;
    assert_eq!(wrong.status, 401);
    assert_eq!(unknown.status, 401);
    assert_eq!(wrong.body, unknown.body);
    assert_eq!(wrong.body, json!({"error": "wrong name or password"}));
    assert!(wrong.set_cookies.is_empty());

    // Names are found without regard to case.
    let back = ann.log_in("aNN", PASSWORD).await;
    assert_eq!(back.status, 200, "{:?}", back.body);
    assert_eq!(back.body, json!({"name": "Ann"}));
    assert_eq!(ann.me().await.as_deref(), Some("Ann"));
    let log = server.log();
    assert!(!log.contains(PASSWORD), "the password in the log");
    assert!(
        !log.contains(ann.session_key().unwrap()),
        "a session key in the log"
    );
}

async fn names_and_passwords_follow_the_rules(db: Db) {
    let server = Server::start(&db);
    let mut b = Browser::new(&server);
    b.sign_up_ok("Ann_1", PASSWORD).await;
    let mut c = Browser::new(&server);
    for (name, password, status, says) in [
        ("ab", PASSWORD, 400, "3 to 20"),
        ("a234567890123456789012", PASSWORD, 400, "3 to 20"),
        ("ann smith", PASSWORD, 400, "not ` `"),
        ("<b>x</b>", PASSWORD, 400, "not `<`"),
        (
            "Engine_10",
            PASSWORD,
            400,
            "kept for the engine or the site",
        ),
        ("ZERTZ", PASSWORD, 400, "kept for the engine or the site"),
        ("ANN_1", PASSWORD, 409, "the name ANN_1 is taken"),
        (
            "Ben",
            "short",
            400,
            "password: at least 8 characters, not 5",
        ),
        (
            "Ben",
            &"x".repeat(129),
            400,
            "password: at most 128 characters",
        ),
    ] {
        let a = c.sign_up(name, password).await;
        assert_eq!(a.status, status, "{name}: {:?}", a.body);
        let error = a.body["error"].as_str().expect("an error");
        assert!(error.contains(says), "{name}: {error}");
        assert!(a.set_cookies.is_empty(), "{name}: no cookie on a refusal");
    }
    let a = c
        .post(
            "/api/accounts",
            json!({"name": "Ben", "password": PASSWORD, "admin": true}),
        )
        .await;
    assert_eq!(a.status, 400);
    assert!(
        a.body["error"]
            .as_str()
            .unwrap()
            .contains("unknown field `admin`"),
        "{:?}",
        a.body
    );
    let a = c.post("/api/accounts", json!({"name": "Ben"})).await;
    assert_eq!(a.status, 400);
    assert!(
        a.body["error"]
            .as_str()
            .unwrap()
            .contains("missing field `password`"),
        "{:?}",
        a.body
    );
    assert_eq!(c.me().await, None);
}

/// A page on another site cannot act for a logged-in player: its requests carry the cookie
/// (as an old browser would send it) but not this site's origin.
async fn a_cross_site_request_is_refused(db: Db) {
    let server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    let game = json!({"opponent": {"kind": "open"}});

    ann.origin = Some("http://evil.example".into());
    let a = ann.post("/api/games", game.clone()).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    assert!(
        a.body["error"]
            .as_str()
            .unwrap()
            .contains("cross-site request refused")
    );
    let a = ann.send(Method::DELETE, "/api/session", None).await;
    assert_eq!(a.status, 403, "logging out from elsewhere: {:?}", a.body);
    let a = ann
        .post(
            "/api/me/password",
            json!({"old": PASSWORD, "new": "hijacked-password"}),
        )
        .await;
    assert_eq!(a.status, 403);
    // A login from another site's form (login CSRF) is refused too, cookie or not.
    let mut stranger = Browser::new(&server);
    stranger.origin = Some("http://evil.example".into());
    assert_eq!(stranger.log_in("Ann", PASSWORD).await.status, 403);

    ann.origin = None;
    ann.fetch_site = Some("cross-site".into());
    assert_eq!(ann.post("/api/games", game.clone()).await.status, 403);
    // Without any sign of where it comes from, a request with the cookie is refused too.
    ann.fetch_site = None;
    assert_eq!(ann.post("/api/games", game.clone()).await.status, 403);
    // Nothing was made, and the session is still good.
    assert!(server.listed_ids("/api/games").await.is_empty());

    // From the site itself: fine.
    ann.fetch_site = Some("same-origin".into());
    assert_eq!(ann.post("/api/games", game.clone()).await.status, 201);
    ann.fetch_site = None;
    ann.origin = Some(format!("http://{}", server.addr));
    assert_eq!(ann.post("/api/games", game).await.status, 201);
    assert_eq!(ann.me().await.as_deref(), Some("Ann"));
    // A guest (no cookie) from anywhere is not affected: there is no session to abuse.
    let mut guest = Browser::new(&server);
    guest.origin = Some("http://elsewhere.example".into());
    assert_eq!(
        guest
            .post("/api/games", json!({"opponent": {"kind": "open"}}))
            .await
            .status,
        201
    );
}

/// Guessing is slow: after five failures for a name its logins lock for a while that grows
/// (`Retry-After` says how long), even with the right password; the browser that logged in to
/// the account before is not held back.
async fn failed_logins_are_limited(db: Db) {
    let server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    assert!(ann.cookies.contains_key(DEVICE));
    ann.send(Method::DELETE, "/api/session", None).await;

    let mut guesser = Browser::new(&server);
    for i in 0..5 {
        let a = guesser.log_in("Ann", &format!("guess number {i}")).await;
        assert_eq!(a.status, 401, "guess {i}: {:?}", a.body);
    }
    let locked = guesser.log_in("Ann", PASSWORD).await;
    assert_eq!(locked.status, 429, "{:?}", locked.body);
    assert!(
        locked.body["error"]
            .as_str()
            .unwrap()
            .contains("too many failed logins for this name"),
        "{:?}",
        locked.body
    );
    let wait = locked.retry_after.expect("Retry-After");
    assert!((1..=60).contains(&wait), "{wait}");
    // A name nobody has locks the same way: the lock tells nothing about who exists.
    for i in 0..5 {
        guesser.log_in("Nobody", &format!("guess {i}")).await;
    }
    assert_eq!(guesser.log_in("Nobody", PASSWORD).await.status, 429);

    // Ann's own browser (its device cookie) logs in during the lock.
    let back = ann.log_in("Ann", PASSWORD).await;
    assert_eq!(back.status, 200, "{:?}", back.body);
    // The guesser, after the wait, with the right password, gets in.
    tokio::time::sleep(std::time::Duration::from_secs(wait)).await;
    assert_eq!(guesser.log_in("Ann", PASSWORD).await.status, 200);
}

async fn a_password_change_ends_other_sessions(db: Db) {
    let server = Server::start(&db);
    let mut phone = Browser::new(&server);
    phone.sign_up_ok("Ann", PASSWORD).await;
    let mut laptop = Browser::new(&server);
    assert_eq!(laptop.log_in("Ann", PASSWORD).await.status, 200);

    let wrong = phone
        .post(
            "/api/me/password",
            json!({"old": "not it at all", "new": "new password 1"}),
        )
        .await;
    assert_eq!(wrong.status, 401, "{:?}", wrong.body);
    let weak = phone
        .post("/api/me/password", json!({"old": PASSWORD, "new": "short"}))
        .await;
    assert_eq!(weak.status, 400);
    assert!(weak.body["error"].as_str().unwrap().contains("at least 8"));
    let mut nobody = Browser::new(&server);
    let a = nobody
        .post(
            "/api/me/password",
            json!({"old": PASSWORD, "new": "new password 1"}),
        )
        .await;
    assert_eq!(a.status, 401);

    let done = phone
        .post(
            "/api/me/password",
            json!({"old": PASSWORD, "new": "new password 1"}),
        )
        .await;
    assert_eq!(done.status, 200, "{:?}", done.body);
    assert_eq!(
        phone.me().await.as_deref(),
        Some("Ann"),
        "this session stays"
    );
    assert_eq!(laptop.me().await, None, "the other session ended");
    assert_eq!(laptop.log_in("Ann", PASSWORD).await.status, 401);
    assert_eq!(laptop.log_in("Ann", "new password 1").await.status, 200);
}

/// A logged-in player's seats are bound to the account: from another device, with no token,
/// they find the game, act in it over HTTP and over its WebSocket. Guests are shown as guests.
async fn seats_follow_their_account(db: Db) {
    let server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    let created = ann
        .post(
            "/api/games",
            json!({"opponent": {"kind": "invite"}, "name": "ignored"}),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = string(&created.body["id"]);
    let invite = string(&created.body["invite_token"]);

    // Bob, logged in, takes the invitation: his seat is bound to him.
    let mut bob = Browser::new(&server);
    bob.sign_up_ok("Bob", PASSWORD).await;
    let joined = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"token": invite, "name": "whatever"}),
        )
        .await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    let view = server.game(&id, None).await;
    assert_eq!(view["seats"][0]["name"], "Ann");
    assert_eq!(view["seats"][1]["name"], "Bob");
    assert_eq!(view["seats"][0]["guest"], false);
    assert_eq!(view["status"], "live");

    // Ann on her laptop: no token, only her session.
    let mut laptop = Browser::new(&server);
    assert_eq!(laptop.log_in("Ann", PASSWORD).await.status, 200);
    let mine = laptop.get("/api/me/games").await;
    assert_eq!(mine.status, 200);
    let games = mine.body["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{:?}", mine.body);
    assert_eq!(games[0]["id"], id.as_str());
    assert_eq!(games[0]["seat"], 1);
    let seen = laptop.get(&format!("/api/games/{id}?legal=list")).await;
    assert_eq!(seen.body["you"], 1);
    let legal = seen.body["legal_moves"][0].as_str().unwrap().to_string();
    let moved = laptop
        .post(
            &format!("/api/games/{id}/action"),
            json!({"type": "move", "move": legal}),
        )
        .await;
    assert_eq!(moved.status, 200, "{:?}", moved.body);
    // Bob answers over his socket, opened with his cookie alone.
    let mut socket = bob.ws(&server, &id, None).await.expect("Bob's socket");
    assert_eq!(socket.state["you"], 2);
    let reply = socket.state["legal_moves"][0].as_str().unwrap().to_string();
    socket.act_ok(json!({"type": "move", "move": reply})).await;
    assert_eq!(
        server.game(&id, None).await["moves"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // Nobody else acts for them: a guest without a token 401, another account 403.
    let mut guest = Browser::new(&server);
    let a = guest
        .post(
            &format!("/api/games/{id}/action"),
            json!({"type": "resign"}),
        )
        .await;
    assert_eq!(a.status, 401, "{:?}", a.body);
    let mut cy = Browser::new(&server);
    cy.sign_up_ok("Cyd", PASSWORD).await;
    let a = cy
        .post(
            &format!("/api/games/{id}/action"),
            json!({"type": "resign"}),
        )
        .await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    // Cy's socket opens, as a spectator's.
    let watching = cy.ws(&server, &id, None).await.expect("Cy's socket");
    assert_eq!(watching.state["you"], serde_json::Value::Null);

    // A guest seat is marked as a guest's, with the name given (also by an invited player).
    let (gid, [_, invite]) = server.invitation(json!({})).await;
    server.join(&gid, &invite, "Robin").await;
    let view = server.game(&gid, None).await;
    assert_eq!(view["seats"][0]["name"], "Alice");
    assert_eq!(view["seats"][1]["name"], "Robin");
    assert_eq!(view["seats"][0]["guest"], true);
    assert_eq!(view["seats"][1]["guest"], true);
}

/// Behind HTTPS (`--behind-https`) the cookies are marked `Secure` (and `__Host-` named:
/// attacks.rs, F15); the pages are then `https://` ones.
async fn cookies_are_secure_behind_https(db: Db) {
    let server = Server::start_config(&db, 50, |c| c.secure_cookies = true);
    let mut ann = Browser::new(&server);
    ann.origin = Some(format!("https://{}", server.addr));
    let signed = ann.sign_up("Ann", PASSWORD).await;
    assert_eq!(signed.status, 201);
    assert_eq!(signed.set_cookies.len(), 2, "session and device");
    for cookie in &signed.set_cookies {
        assert!(cookie.contains("; Secure"), "{cookie}");
        assert!(cookie.contains("HttpOnly"), "{cookie}");
    }
}

on_sqlite_and_postgres!(
    sign_up_log_in_log_out,
    a_password_change_ends_other_sessions,
    seats_follow_their_account,
    names_and_passwords_follow_the_rules,
    a_cross_site_request_is_refused,
    failed_logins_are_limited,
    cookies_are_secure_behind_https,
);
