//! The game room in a real process: lines kept with the game after a SIGKILL and a restart;
//! floods, mutes and reports, the reports listed by `zertz admin reports` run on the same
//! database. The rest: crates/zertz-server/tests/behaviour/chat.rs.

use std::process::Command;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::ws::guest_watcher;

use crate::common::accounts::Browser;
use crate::common::server::{Db, Server, string};
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse battery";

fn refused_with(answer: &Value, status: u16, needle: &str) {
    assert_eq!(answer["type"], "refused", "{answer}");
    assert_eq!(answer["status"], status, "{answer}");
    let error = answer["error"].as_str().unwrap_or("");
    assert!(error.contains(needle), "{needle:?} not in {error:?}");
}

async fn chat_reaches_everyone_and_stays(db: Db) {
    let mut server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    let created = ann
        .post("/api/games", json!({"opponent": {"kind": "invite"}}))
        .await;
    let id = string(&created.body["id"]);
    let bob_token = string(&created.body["invite_token"]);
    let bob_token = string(&server.join(&id, &bob_token, "Bob").await["token"]);
    let mut cyd = Browser::new(&server);
    cyd.sign_up_ok("Cyd", PASSWORD).await;

    let mut a = ann.ws(&server, &id, None).await.expect("Ann's socket");
    let mut b = server.ws(&id, Some(&bob_token), None).await;
    let mut c = cyd.ws(&server, &id, None).await.expect("Cyd's socket");
    let mut g = guest_watcher(&server, &id, "Robin").await;
    assert!(a.chat.is_empty(), "a new room is empty");

    // A player's line, with markup kept as plain text (clients show it escaped).
    assert_eq!(a.say("hello <b>Bob</b> & all").await["type"], "ack");
    for ws in [&mut a, &mut b, &mut c, &mut g] {
        let line = ws.until_line(|l| l["seq"] == 1).await;
        assert_eq!(line["text"], "hello <b>Bob</b> & all");
        assert_eq!(line["name"], "Ann");
        assert_eq!(line["kind"], "player");
        assert_eq!(line["seat"], 1);
        assert_eq!(line["guest"], false);
        assert!(line["at_ms"].as_i64().unwrap() > 1_700_000_000_000);
        assert!(
            line.get("account_id").is_none(),
            "no account ids on the wire"
        );
    }
    // A guest player and an account watching talk freely.
    assert_eq!(b.say("hi Ann").await["type"], "ack");
    assert_eq!(c.say("enjoy the game").await["type"], "ack");
    let line = a.until_line(|l| l["seq"] == 3).await;
    assert_eq!(
        (line["name"].as_str(), line["kind"].as_str()),
        (Some("Cyd"), Some("spectator"))
    );
    let line = a.until_line(|l| l["seq"] == 2).await;
    assert_eq!(
        (line["name"].as_str(), line["guest"].as_bool()),
        (Some("Bob"), Some(true))
    );
    // A guest who only watches: the preset phrases only.
    refused_with(
        &g.say("buy cheap marbles at spam.example").await,
        403,
        "preset phrases",
    );
    assert_eq!(g.say("Good luck!").await["type"], "ack");
    let line = a.until_line(|l| l["seq"] == 4).await;
    assert_eq!(
        (line["name"].as_str(), line["text"].as_str()),
        (Some("Robin"), Some("Good luck!"))
    );
    // Malformed lines.
    refused_with(&a.say("   ").await, 400, "empty");
    refused_with(
        &a.say(&"x".repeat(501)).await,
        400,
        "at most 500 characters",
    );
    refused_with(
        &a.act(json!({"type": "chat", "text": 5})).await,
        400,
        "message",
    );

    // Kept with the game: over HTTP, after a reconnection, and after a restart.
    let (status, stored) = server.get(&format!("/api/games/{id}/chat"), None).await;
    assert_eq!(status, 200);
    let texts: Vec<&str> = stored["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "hello <b>Bob</b> & all",
            "hi Ann",
            "enjoy the game",
            "Good luck!"
        ]
    );
    drop((a, b, c, g));
    server.kill();
    let server = Server::start(&db);
    let again = server.ws(&id, None, None).await;
    let mut again = again;
    let first = again.until_line(|l| l["seq"] == 4).await;
    assert_eq!(first["text"], "Good luck!");
    assert_eq!(
        again.chat.len(),
        4,
        "the history comes with the first message"
    );
    assert_eq!(
        server.get("/api/games/nope12345678/chat", None).await.0,
        404
    );
}

/// A flood is refused with the reason; muted accounts are refused; reports reach
/// `zertz admin reports`.
async fn floods_mutes_reports_and_guest_chat(db: Db) {
    let server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    let created = ann
        .post("/api/games", json!({"opponent": {"kind": "invite"}}))
        .await;
    let id = string(&created.body["id"]);
    server
        .join(&id, created.body["invite_token"].as_str().unwrap(), "Bob")
        .await;
    let mut eve = Browser::new(&server);
    eve.sign_up_ok("Eve", PASSWORD).await;
    let mut a = ann.ws(&server, &id, None).await.unwrap();
    let mut e = eve.ws(&server, &id, None).await.unwrap();

    // Five lines at once pass; the sixth is refused with the reason.
    for i in 0..5 {
        assert_eq!(e.say(&format!("spam {i}")).await["type"], "ack", "line {i}");
    }
    refused_with(&e.say("spam 5").await, 429, "too many chat messages");

    // A spectator cannot mute; a player can, and the room says so.
    refused_with(
        &e.act(json!({"type": "mute", "name": "Ann"})).await,
        403,
        "only the players",
    );
    refused_with(
        &a.act(json!({"type": "mute", "name": "Nobody"})).await,
        404,
        "no player",
    );
    assert_eq!(
        a.act(json!({"type": "mute", "name": "eve"})).await["type"],
        "ack"
    );
    a.until_line(|l| l["text"] == "Eve was muted by Ann").await;
    // A new connection does not bring new lines: the allowance is the account's across its
    // sockets (issue 39, F14). Its history says who is muted.
    let mut e = eve.ws(&server, &id, None).await.unwrap();
    e.until(|m| m["type"] == "chat_history").await;
    assert_eq!(e.muted, ["Eve"]);
    refused_with(&e.say("let me speak").await, 429, "from your account");
    // A line every 2 s grows back; then the mute is what refuses her.
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    refused_with(&e.say("let me speak").await, 403, "muted");
    assert_eq!(
        a.act(json!({"type": "unmute", "name": "Eve"})).await["type"],
        "ack"
    );
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    assert_eq!(e.say("sorry").await["type"], "ack");

    // Ann reports Eve's first line; the operator sees it.
    let spam = a.until_line(|l| l["text"] == "spam 0").await;
    let seq = spam["seq"].as_i64().unwrap();
    assert_eq!(
        a.act(json!({"type": "report", "seq": seq})).await["type"],
        "ack"
    );
    refused_with(
        &a.act(json!({"type": "report", "seq": 999})).await,
        404,
        "no line 999",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_zertz"))
        .args(["admin", "reports", "--db"])
        .arg(server.db_arg())
        .output()
        .expect("zertz admin reports");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains(&format!("game {id} line {seq}  Eve: spam 0"))
            && listed.contains("reported by Ann"),
        "{listed}"
    );
    let missing = Command::new(env!("CARGO_BIN_EXE_zertz"))
        .args(["admin", "reports", "--db", "/nonexistent/zertz.db"])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such database file"));
}

on_sqlite_and_postgres!(
    chat_reaches_everyone_and_stays,
    floods_mutes_reports_and_guest_chat,
);
