//! The public game room through the real binary: lines delivered to players and spectators over
//! the game's WebSocket and kept with the game (after a restart too), guests who only watch
//! limited to the preset phrases (unless `--guest-chat`), a flood refused with its reason, a
//! move typed in the chat played, an illegal one answered, coordinate questions answered,
//! mutes, reports listed by `zertz admin reports`, and a match's room. The main test also runs
//! on PostgreSQL.

mod common;

use std::process::Command;

use common::accounts::Browser;
use common::server::{Db, Server, string};
use common::ws::Ws;
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse battery";

/// A guest watching, with the name they gave.
async fn guest_watcher(server: &Server, id: &str, name: &str) -> Ws {
    let url = format!("{}?name={name}", server.ws_url(id, None, None));
    Ws::connect(&url, None).await.expect("a guest's socket")
}

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

/// The room reads the lines of the player to move: a legal move is played, an illegal one is
/// answered with the reason and changes nothing; questions about coordinates are answered.
async fn moves_and_coordinates_typed_in_the_room(db: Db) {
    let server = Server::start(&db);
    let (id, ann, bob) = server.invite_game(json!({})).await;
    let mut a = server.ws(&id, Some(&ann), None).await;
    let mut b = server.ws(&id, Some(&bob), None).await;
    let legal = a.state["legal_moves"][0].as_str().unwrap().to_string();

    // Bob is not to move: his move-like line is only talk.
    assert_eq!(b.say(&legal).await["type"], "ack");
    let line = a.until_line(|l| l["seq"] == 1).await;
    assert_eq!(line["played"], Value::Null);
    assert_eq!(server.game(&id, None).await["moves"], json!([]));

    // Ann is: her line is played as the move.
    let version = a.version;
    assert_eq!(a.say(&format!("  {legal} ")).await["type"], "ack");
    let moved = a
        .until(|m| m["type"] == "event" && m["event"]["type"] == "moved")
        .await;
    assert_eq!(moved["event"]["notation"], legal.as_str());
    assert_eq!(a.version, version + 1);
    let line = b.until_line(|l| l["seq"] == 2).await;
    assert_eq!(line["played"], legal.as_str());
    assert_eq!(line["turn"], 0, "said before the move was made");

    // Bob types a move that is not legal: the room says why, nothing is played.
    let before = server.game(&id, None).await["version"].clone();
    assert_eq!(b.say("Wz9,a1").await["type"], "ack");
    let answer = a.until_line(|l| l["kind"] == "room").await;
    assert_eq!(answer["name"], "the room");
    let text = answer["text"].as_str().unwrap();
    assert!(
        text.starts_with("Bob: ") && text.contains("nothing was played"),
        "{text}"
    );
    assert_eq!(server.game(&id, None).await["version"], before);
    let occupied = moved["event"]["notation"].as_str().unwrap()[1..3].to_string();
    assert_eq!(b.say(&format!("W{occupied}")).await["type"], "ack");
    let answer = a
        .until_line(|l| l["kind"] == "room" && l["seq"].as_i64() > Some(4))
        .await;
    assert!(
        answer["text"].as_str().unwrap().contains("not legal here"),
        "{answer}"
    );
    assert_eq!(server.game(&id, None).await["version"], before);

    // Coordinates, in host notation and in official notation.
    assert_eq!(b.say("where is A1?").await["type"], "ack");
    let answer = a
        .until_line(|l| l["text"].as_str().unwrap_or("").starts_with("A1 (host"))
        .await;
    assert!(
        answer["text"]
            .as_str()
            .unwrap()
            .contains("is g4 in official notation"),
        "{answer}"
    );
    assert_eq!(a.say(&format!("what is {occupied}?")).await["type"], "ack");
    let answer = b
        .until_line(|l| {
            l["text"]
                .as_str()
                .unwrap_or("")
                .starts_with(&format!("{occupied} is"))
        })
        .await;
    assert!(
        answer["text"].as_str().unwrap().contains("marble"),
        "{answer}"
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
    // (A new connection: the limit is per connection, and the flood used this one's up.) Its
    // history says who is muted.
    let mut e = eve.ws(&server, &id, None).await.unwrap();
    e.until(|m| m["type"] == "chat_history").await;
    assert_eq!(e.muted, ["Eve"]);
    refused_with(&e.say("let me speak").await, 403, "muted");
    assert_eq!(
        a.act(json!({"type": "unmute", "name": "Eve"})).await["type"],
        "ack"
    );
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

/// With `--guest-chat`, a guest who watches may say anything.
async fn guests_who_watch_may_talk_with_guest_chat(db: Db) {
    let open = Server::start_args(&db, 50, &["--guest-chat"]);
    let (gid, _, _) = open.invite_game(json!({})).await;
    let mut guest = guest_watcher(&open, &gid, "Robin").await;
    assert_eq!(guest.say("free words from a guest").await["type"], "ack");
}

/// A match has its own room on its socket: participants and spectators talk there.
async fn a_match_has_its_own_room(db: Db) {
    let server = Server::start(&db);
    let m = server.invited_match(json!({})).await;
    let [ann, bob] = m.players();
    let mut a = server.match_ws(&m.id, Some(&ann)).await;
    let mut watcher = server.match_ws(&m.id, None).await;
    a.send_text(json!({"type": "chat", "text": "good luck in the match"}).to_string())
        .await;
    let ack = a.until_message().await;
    assert_eq!(ack["type"], "ack", "{ack}");
    loop {
        if let Some(line) = watcher.chat.last() {
            assert_eq!(line["text"], "good luck in the match");
            assert_eq!(line["seat"], 1);
            break;
        }
        watcher.recv().await;
    }
    let mut b = server.match_ws(&m.id, Some(&bob)).await;
    // The history comes right after the first message.
    let history = b.recv().await;
    assert_eq!(history["type"], "chat_history", "{history}");
    assert_eq!(b.chat.len(), 1);
    let (_, stored) = server
        .get(&format!("/api/matches/{}/chat", m.id), None)
        .await;
    assert_eq!(stored["lines"][0]["text"], "good luck in the match");
    // Anything but a message to the room is still refused on a match's socket.
    b.send_text(json!({"type": "resign"}).to_string()).await;
    let answer = b.until_message().await;
    assert_eq!(answer["status"], 400, "{answer}");
}

on_sqlite_and_postgres!(
    chat_reaches_everyone_and_stays,
    moves_and_coordinates_typed_in_the_room,
    floods_mutes_reports_and_guest_chat,
    a_match_has_its_own_room,
    guests_who_watch_may_talk_with_guest_chat,
);
