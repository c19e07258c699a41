//! Tournaments as both test binaries read them: an event fetched, waited for, and a round's
//! boards; the players signed up.

use std::time::{Duration, Instant};

use std::collections::HashMap;

use serde_json::Value;

use crate::accounts::Browser;
use crate::site::Site;

/// The event `id` as `GET /api/tournaments/{id}` shows it (asserting 200).
pub async fn event(site: &Site, id: &str) -> Value {
    let (status, body) = site.get(&format!("/api/tournaments/{id}"), None).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The event once `ready` holds (within 30 s; the server's tick moves events every second).
pub async fn wait(site: &Site, id: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let e = event(site, id).await;
        if ready(&e) {
            return e;
        }
        assert!(Instant::now() < until, "the event never got there: {e:#}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The boards of round `round` (from 1).
pub fn boards(e: &Value, round: usize) -> Vec<Value> {
    e["pairings"][round - 1]["boards"]
        .as_array()
        .unwrap()
        .clone()
}

/// The password the tournament tests sign their players up with.
pub const PASSWORD: &str = "correct horse battery";

/// Signs up one browser per name, by name.
pub async fn sign_up(site: &Site, names: &[&str]) -> HashMap<String, Browser> {
    let mut out = HashMap::new();
    for name in names {
        let mut b = Browser::new(site);
        b.sign_up_ok(name, PASSWORD).await;
        out.insert(name.to_string(), b);
    }
    out
}

/// The game a knockout board's match plays now (`GET /api/matches/{id}`), once it is not
/// `after` (within 30 s: the next game is made when the last ends).
pub async fn match_game(site: &Site, board: &Value, after: Option<&str>) -> String {
    let until = Instant::now() + Duration::from_secs(30);
    let id = board["game"].as_str().expect("a board with a match");
    loop {
        let (status, m) = site.get(&format!("/api/matches/{id}"), None).await;
        assert_eq!(status, 200, "{m}");
        if let Some(g) = m["current_game"].as_str()
            && Some(g) != after
        {
            return g.to_string();
        }
        assert!(Instant::now() < until, "no next game: {m:#}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Round `round` as `white-black` names (a bye or walkover `name-`).
pub fn shown(e: &Value, round: usize) -> Vec<String> {
    boards(e, round)
        .iter()
        .map(|b| {
            format!(
                "{}-{}",
                b["white"].as_str().unwrap(),
                b["black"].as_str().unwrap_or("")
            )
        })
        .collect()
}
