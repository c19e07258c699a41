//! Seat tokens never written in a real process's log (at `debug`) or on its standard output,
//! nor in anything a spectator receives. The rest of whole games:
//! crates/zertz-server/tests/behaviour/games.rs.

use std::time::Duration;

use crate::common::play::{Rng, mv, pick_move, to_move};
use crate::common::server::{Server, string, temp_db};
use serde_json::json;

#[tokio::test]
async fn tokens_are_never_logged_nor_shown_to_spectators() {
    let (_dir, db) = temp_db();
    // The most talkative log level the server has.
    let mut server = Server::start_env(&db, 50, &[], "debug");
    let mut tokens: Vec<String> = Vec::new();
    // What spectators can get: every answer without a token, every message of a spectator's
    // socket.
    let mut seen: Vec<String> = Vec::new();
    let (id, [alice, invite]) = server.invitation(json!({})).await;
    tokens.extend([alice.clone(), invite.clone()]);
    let mut spectator = server.ws(&id, None, None).await;
    spectator.keep_raw();
    seen.push(spectator.first.to_string());
    let bob = string(&server.join(&id, &invite, "Bob").await["token"]);
    tokens.push(bob.clone());
    // Both seats on their sockets (the token in the address), moves both ways.
    let mut a = server.ws(&id, Some(&alice), None).await;
    let mut b = server.ws(&id, Some(&bob), None).await;
    let mut rng = Rng::new(8);
    for i in 0..6 {
        let state = a.state.clone();
        let text = pick_move(&state, &mut rng);
        let v = match (to_move(&state), i % 2) {
            (1, 0) => a.act_ok(mv(&text)).await,
            (2, 0) => b.act_ok(mv(&text)).await,
            (1, _) => server.act_ok(&id, &alice, mv(&text)).await,
            _ => server.act_ok(&id, &bob, mv(&text)).await,
        };
        a.wait_version(v).await;
    }
    server
        .act_ok(&id, &alice, json!({"type": "offer_draw"}))
        .await;
    b.act_ok(json!({"type": "accept_draw"})).await;
    a.act_ok(json!({"type": "rematch"})).await;
    b.act_ok(json!({"type": "rematch"})).await;
    let rematch = string(&a.wait_event("next_game").await["game_id"]);
    // An open game joined from the lobby, an engine game, a match with an invitation.
    let open = server
        .create(json!({"opponent": {"kind": "open"}, "name": "Olga"}))
        .await;
    let open_id = string(&open["id"]);
    tokens.push(string(&open["token"]));
    let (_, joined) = server.try_join(&open_id, None, "Pete").await;
    tokens.push(string(&joined["token"]));
    let engine = server
        .create(json!({"opponent": {"kind": "engine", "level": 1}, "name": "Eva"}))
        .await;
    let engine_id = string(&engine["id"]);
    tokens.push(string(&engine["token"]));
    let m = server
        .create_match(json!({"opponent": {"kind": "invite"}, "name": "Ann", "bribes": true}))
        .await;
    let mid = string(&m["id"]);
    let (ann, ben_invite) = (string(&m["token"]), string(&m["invite_token"]));
    tokens.extend([ann.clone(), ben_invite.clone()]);
    let mut watch = server.match_ws(&mid, None).await;
    seen.push(watch.state.to_string());
    let ben = server.join_match(&mid, &ben_invite, "Ben").await;
    tokens.push(string(&ben["token"]));
    seen.push(
        watch
            .until(|m| m["current_game"].is_string())
            .await
            .to_string(),
    );
    // A token used on the wrong game is refused, and not logged either.
    let (status, _) = server.act(&id, &ann, mv("Wd4,a1")).await;
    assert_eq!(status, 403);
    spectator.listen(Duration::from_millis(200)).await;
    a.close().await;
    b.close().await;

    // Everything a spectator can ask for.
    let m = server.get_match(&mid, None).await;
    let current = string(&m["current_game"]);
    for game in [&id, &rematch, &open_id, &engine_id, &current] {
        seen.push(server.game(game, None).await.to_string());
        for tail in ["record", "sgf"] {
            seen.push(
                server
                    .get_text(&format!("/api/games/{game}/{tail}"))
                    .await
                    .1,
            );
        }
        let ws = server.ws(game, None, Some(0)).await;
        seen.push(ws.first.to_string());
        ws.close().await;
    }
    seen.push(m.to_string());
    for path in [
        "/api/games",
        "/api/games?status=open",
        "/api/games?status=live",
        "/api/games?status=finished",
        "/api/matches",
    ] {
        seen.push(server.get(path, None).await.1.to_string());
    }
    seen.push(
        server
            .get_text(&format!("/api/matches/{mid}/record"))
            .await
            .1,
    );
    seen.extend(spectator.raw.take().unwrap());
    assert!(seen.len() > 30);
    let log = server.log();
    let stdout = server.stdout();
    assert!(log.contains("DEBUG"), "the debug log is on: {log:.300}");
    for token in &tokens {
        assert_eq!(token.len(), 48);
        assert!(!log.contains(token.as_str()), "a token in the server's log");
        assert!(
            !stdout.contains(token.as_str()),
            "a token on the server's stdout"
        );
        for text in &seen {
            assert!(
                !text.contains(token.as_str()),
                "a token shown to spectators: {text:.300}"
            );
        }
    }
    server.kill();
}
