//! The public game room through the HTTP API: lines delivered to players and spectators over
//! the game's WebSocket and kept with the game (after a restart: crates/zertz-cli/tests/server/chat.rs, with the flood, mutes and `zertz admin reports`), guests who only watch
//! limited to the preset phrases (unless `--guest-chat`), a flood refused with its reason, a
//! move typed in the chat played, an illegal one answered, coordinate questions answered,
//! mutes, reports listed by `zertz admin reports`, and a match's room. The main test also runs
//! on PostgreSQL.

use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::ws::guest_watcher;

use serde_json::{Value, json};
use zertz_testkit::in_process::Server;
use zertz_testkit::site::Db;

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

/// With `--guest-chat`, a guest who watches may say anything.
async fn guests_who_watch_may_talk_with_guest_chat(db: Db) {
    let open = Server::start_config(&db, 50, |c| c.guest_chat = true);
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
    moves_and_coordinates_typed_in_the_room,
    a_match_has_its_own_room,
    guests_who_watch_may_talk_with_guest_chat,
);
