//! Ratings in a real process: the server killed right after the last action of rated games
//! leaves the result and both players' ratings together, both or neither. The rest of ratings:
//! crates/zertz-server/tests/behaviour/ratings.rs.

use crate::common::accounts::Browser;
use crate::common::server::{Db, Server};
use serde_json::json;
use zertz_testkit::accounts::{profile, rated_game};
use zertz_testkit::on_sqlite_and_postgres;

const PASSWORD: &str = "correct horse battery";

/// The last action of a rated game, and the server killed at once (SIGKILL) a little after it
/// was sent: whatever was stored, the result and both players' ratings and records agree.
async fn a_killed_server_keeps_result_and_ratings_together(db: Db) {
    let mut server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    let mut bob = Browser::new(&server);
    bob.sign_up_ok("Bob", PASSWORD).await;
    let mut games = Vec::new();
    let mut stored = 0;
    for delay_us in [0u64, 300, 1_000, 3_000, 20_000] {
        let (id, tokens) = rated_game(&mut ann, &mut bob).await;
        // Both move first: a game resigned before that is not rated.
        server.both_move(&id, &tokens).await;
        let url = server.url(&format!("/api/games/{id}/action"));
        let http = server.http.clone();
        let token = tokens[1].clone();
        let resign = tokio::spawn(async move {
            http.post(url)
                .bearer_auth(token)
                .json(&json!({"type": "resign"}))
                .send()
                .await
                .map(|r| r.status().as_u16())
        });
        tokio::time::sleep(std::time::Duration::from_micros(delay_us)).await;
        server.kill();
        let answered = resign.await.unwrap();
        server = Server::start(&db);
        ann = Browser::new(&server);
        assert_eq!(ann.log_in("Ann", PASSWORD).await.status, 200);
        bob = Browser::new(&server);
        assert_eq!(bob.log_in("Bob", PASSWORD).await.status, 200);
        let finished = server.game(&id, None).await["status"] == "finished";
        if matches!(answered, Ok(200)) {
            assert!(finished, "an acknowledged resignation was lost");
        }
        stored += usize::from(finished);
        games.push(id);
        for name in ["Ann", "Bob"] {
            let p = profile(&server, name).await;
            let rated = p["ratings"][0]["games"].as_u64().unwrap_or(0) as usize;
            assert_eq!(
                rated, stored,
                "{name}: {stored} results, {rated} ratings: {p}"
            );
            assert_eq!(p["results"]["games"], stored);
            let graph = p["ratings"][0]["graph"].as_array().map_or(0, Vec::len);
            assert_eq!(graph, stored);
        }
    }
    eprintln!(
        "{stored} of {} resignations stored before the kill",
        games.len()
    );
}

on_sqlite_and_postgres!(a_killed_server_keeps_result_and_ratings_together,);
