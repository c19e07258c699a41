//! Playing through the server as the tests do: moves picked from the state's legal moves by a
//! seeded generator, the checks every answer and event gets, and whole stretches of play.

use serde_json::{Value, json};

use crate::site::Site;
use crate::ws::Ws;

/// A message or state for an error message, without its long list of legal moves.
pub fn brief(v: &Value) -> String {
    let mut v = v.clone();
    if let Some(n) = v["legal_moves"].as_array().map(|a| a.len()) {
        v["legal_moves"] = json!(format!("{n} moves"));
    }
    if let Some(n) = v["state"]["legal_moves"].as_array().map(|a| a.len()) {
        v["state"]["legal_moves"] = json!(format!("{n} moves"));
    }
    v.to_string()
}

/// A small deterministic generator (xorshift64*), for picking moves.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// A move from a state's `legal_moves`: a capture if there is one, otherwise any, picked by
/// `rng`.
pub fn pick_move(state: &Value, rng: &mut Rng) -> String {
    let legal: Vec<&str> = state["legal_moves"]
        .as_array()
        .expect("legal_moves")
        .iter()
        .map(|m| m.as_str().expect("a move"))
        .collect();
    assert!(!legal.is_empty(), "no legal move in {}", brief(state));
    let captures: Vec<&str> = legal
        .iter()
        .copied()
        .filter(|m| m.starts_with('x'))
        .collect();
    let from = if captures.is_empty() {
        &legal
    } else {
        &captures
    };
    from[rng.below(from.len())].to_string()
}

/// `{"type": "move", "move": mv}`.
pub fn mv(text: &str) -> Value {
    json!({"type": "move", "move": text})
}

/// `{"type": "propose_bribe", "marbles": marbles}` (`white/grey/black`).
pub fn bribe(marbles: &str) -> Value {
    json!({"type": "propose_bribe", "marbles": marbles})
}

/// `{"type": "answer_bribe", "accept": accept}`.
pub fn answer_bribe(accept: bool) -> Value {
    json!({"type": "answer_bribe", "accept": accept})
}

/// The seat to move in a state (1 or 2).
pub fn to_move(state: &Value) -> usize {
    state["to_move"].as_u64().expect("to_move") as usize
}

/// The token of a seat (1 or 2) among `[token of seat 1, token of seat 2]`.
pub fn token_of(tokens: &[String; 2], seat: usize) -> &str {
    &tokens[seat - 1]
}

/// Checks an error answer: its status, and that its message contains `needle`.
#[track_caller]
pub fn refused(status: u16, body: &Value, expected: u16, needle: &str) {
    assert_eq!(status, expected, "{}", brief(body));
    let error = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {}", brief(body)));
    assert!(error.contains(needle), "`{needle}` not in {body}");
}

/// The events of a socket from version `from` on, as their types.
pub fn event_types(ws: &Ws, from: i64) -> Vec<String> {
    ws.events
        .iter()
        .filter(|(v, _)| *v >= from)
        .map(|(_, e)| e["type"].as_str().unwrap_or("?").to_string())
        .collect()
}

impl Site {
    /// Plays `n` moves over HTTP, each picked by `rng` from the game's legal moves and sent
    /// with the token of the seat to move (`tokens`: seat 1's, seat 2's). Returns them.
    pub async fn play_random(
        &self,
        id: &str,
        tokens: &[String; 2],
        rng: &mut Rng,
        n: usize,
    ) -> Vec<String> {
        let mut played = Vec::new();
        for _ in 0..n {
            let state = self.game(id, None).await;
            let text = pick_move(&state, rng);
            self.act_ok(id, token_of(tokens, to_move(&state)), mv(&text))
                .await;
            played.push(text);
        }
        played
    }

    /// Both players make their first move (picked from the legal ones), so that a rated game
    /// that ends next counts: one ended before both have moved is not rated.
    pub async fn both_move(&self, id: &str, tokens: &[String; 2]) -> Vec<String> {
        self.play_random(id, tokens, &mut Rng::new(2), 2).await
    }
}

/// Both players play moves picked from `legal_moves` (captures first), seat 1 over its
/// WebSocket and seat 2 over HTTP, until `stop` says so or the game ends. Both sockets must
/// see every event, one version at a time. Returns the moves played.
pub async fn play_until(
    server: &Site,
    id: &str,
    tokens: &[String; 2],
    sockets: &mut [Ws; 2],
    rng: &mut Rng,
    max_moves: usize,
    mut stop: impl FnMut(&Value) -> bool,
) -> Vec<String> {
    let mut played = Vec::new();
    while played.len() < max_moves {
        let state = sockets[0].state.clone();
        if state["status"] != "live" || stop(&state) {
            break;
        }
        let seat = to_move(&state);
        let text = pick_move(&state, rng);
        let before = sockets[0].version;
        let version = if seat == 1 {
            sockets[0].act_ok(mv(&text)).await
        } else {
            server.act_ok(id, token_of(tokens, 2), mv(&text)).await
        };
        assert_eq!(version, before + 1, "a move is one event");
        for ws in sockets.iter_mut() {
            ws.wait_version(version).await;
            let (v, event) = ws.events.last().expect("the move's event");
            assert_eq!(*v, version);
            assert_eq!(event["type"], "moved", "{event}");
            assert_eq!(event["seat"], seat);
            assert_eq!(event["notation"], text.as_str());
        }
        assert_eq!(sockets[0].state, {
            let mut s = sockets[1].state.clone();
            s["you"] = json!(1);
            s
        });
        played.push(text);
    }
    played
}

/// The action that adds a ring at `at` to a board being designed.
pub fn add_ring(at: &str) -> Value {
    json!({"type": "add_ring", "at": at})
}

/// Twelve rings that make a board a designer may finish.
pub const DESIGN_12: [&str; 12] = [
    "c3", "c4", "c5", "d3", "d4", "d5", "d6", "e3", "e4", "e5", "f4", "f5",
];
