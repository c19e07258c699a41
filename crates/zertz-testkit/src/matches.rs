//! Best-of-N matches through the server: creating and joining them, reading and watching
//! their state.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::site::{Site, merged, string};
use crate::ws::MatchWs;

/// A best-of-3 match by invitation that both have joined: Ann, who created it and moves first
/// in its first game, and Ben, who took the invited place.
pub struct MatchSeats {
    /// The match's id.
    pub id: String,
    /// Ann's token for the whole match.
    pub ann: String,
    /// Ben's token (the invitation's).
    pub ben: String,
    /// The game being played when the match started.
    pub first_game: String,
}

impl MatchSeats {
    /// `[Ann's token, Ben's token]`, the participants in the order the match numbers them.
    pub fn players(&self) -> [String; 2] {
        [self.ann.clone(), self.ben.clone()]
    }
}

/// How many games a match has had, the one being played included.
pub fn game_count(m: &Value) -> usize {
    m["games"].as_array().expect("the match's games").len()
}

impl Site {
    /// Creates a match (`POST /api/matches`); must succeed. The answer: `id`, `token`,
    /// `invite_token`.
    pub async fn create_match(&self, body: Value) -> Value {
        let (status, created) = self.post("/api/matches", &body, None).await;
        assert_eq!(status, 201, "create the match {body}: {created}");
        created
    }

    /// Creates Ann's best-of-3 match by invitation, Ann first in its first game, with `extra`
    /// fields merged into the body; nobody has joined it yet.
    pub async fn invite_match(&self, extra: Value) -> Value {
        let body = json!({"opponent": {"kind": "invite"}, "name": "Ann", "best_of": 3,
                          "seat": "first"});
        self.create_match(merged(body, extra)).await
    }

    /// Takes a place in a match, with an invitation's `token`; must succeed.
    pub async fn join_match(&self, id: &str, token: &str, name: &str) -> Value {
        let (status, joined) = self
            .post(
                &format!("/api/matches/{id}/join"),
                &json!({"name": name, "token": token}),
                None,
            )
            .await;
        assert_eq!(status, 200, "join the match {id}: {joined}");
        joined
    }

    /// [`Site::invite_match`], Ben's joining, and its first game once it has started.
    pub async fn invited_match(&self, extra: Value) -> MatchSeats {
        let created = self.invite_match(extra).await;
        let id = string(&created["id"]);
        let invite = string(&created["invite_token"]);
        let ben = string(&self.join_match(&id, &invite, "Ben").await["token"]);
        assert_ne!(ben, invite, "the invitation is not the place's token");
        let m = self
            .wait_match(&id, |m| m["current_game"].is_string())
            .await;
        MatchSeats {
            ann: string(&created["token"]),
            ben,
            first_game: string(&m["current_game"]),
            id,
        }
    }

    /// `GET /api/matches/{id}` (with a participant's token if given); must succeed.
    pub async fn get_match(&self, id: &str, token: Option<&str>) -> Value {
        let (status, m) = self.get(&format!("/api/matches/{id}"), token).await;
        assert_eq!(status, 200, "GET match {id}: {m}");
        m
    }

    /// Polls `GET /api/matches/{id}` until `pred` holds (20 s at most).
    pub async fn wait_match(&self, id: &str, mut pred: impl FnMut(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let m = self.get_match(id, None).await;
            if pred(&m) {
                return m;
            }
            assert!(
                Instant::now() < deadline,
                "the match did not get there: {m}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The WebSocket URL of a match (a participant's with `token`).
    pub fn match_ws_url(&self, id: &str, token: Option<&str>) -> String {
        match token {
            Some(t) => format!("ws://{}/api/matches/{id}/ws?token={t}", self.addr),
            None => format!("ws://{}/api/matches/{id}/ws", self.addr),
        }
    }

    /// Opens a match's WebSocket; must succeed.
    pub async fn match_ws(&self, id: &str, token: Option<&str>) -> MatchWs {
        match MatchWs::connect(&self.match_ws_url(id, token)).await {
            Ok(ws) => ws,
            Err(e) => panic!("WebSocket to match {id}: {e}"),
        }
    }

    /// The seat tokens of a match game, `[seat 1, seat 2]`, from the participants' tokens;
    /// checks that participant `first` sits in seat 1.
    pub async fn match_seats(
        &self,
        game: &str,
        players: &[String; 2],
        first: usize,
    ) -> [String; 2] {
        for (i, token) in players.iter().enumerate() {
            let view = self.game(game, Some(token)).await;
            let expected = if i == first { 1 } else { 2 };
            assert_eq!(view["you"], expected, "participant {i} in game {game}");
        }
        [players[first].clone(), players[1 - first].clone()]
    }
}
