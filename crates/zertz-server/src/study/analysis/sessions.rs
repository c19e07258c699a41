//! Analysis sessions: the engine of an analysis board, one search at a time per WebSocket (per
//! browser tab), on the study slots. The page sends `analyse` with a position; the session
//! answers `queued` with its place while the slots are busy, then `lines` after each depth, then
//! `done`. A new `analyse` or a `stop` ends the running search at once; so does closing the tab.
//! Every search has a time budget (`--analysis-time`).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use zertz::notation::official;
use zertz::{Game, Move, Position, Rules};
use zertz_engine::analysis::{Lines, lines};
use zertz_engine::prove::Prover;
use zertz_engine::review::{REVIEW_PROOF_MB, confirm};
use zertz_engine::verdicts::{claim, win_chance};
use zertz_engine::{Engine, Limits, Score, SearchOptions};

use crate::fair_slots::FairSlot;
use crate::study::Study;
use crate::study::positions;

/// The most lines a page may ask for.
pub const MAX_LINES: usize = 5;

/// How often a waiting session is told its place in the line.
const PLACE_EVERY: Duration = Duration::from_millis(500);

/// The transposition table of one analysis, in megabytes.
const HASH_MB: usize = 32;

/// What a page sends.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Analyse a position (replacing the running analysis).
    Analyse {
        /// The position string.
        position: String,
        /// How many best moves to follow (default 3, at most [`MAX_LINES`]).
        #[serde(default)]
        lines: Option<usize>,
    },
    /// Stop the running analysis.
    Stop,
}

/// A message to the page, tagged with the analysis it belongs to (older ones are dropped).
pub type Outgoing = (u64, String);

/// The running analysis of a session.
pub struct Running {
    number: u64,
    stop: Arc<AtomicBool>,
}

impl Running {
    /// Ends it.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Which analysis this is.
    pub fn number(&self) -> u64 {
        self.number
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// An error message for the page.
pub fn error(message: impl Into<String>) -> String {
    json!({"type": "error", "error": message.into()}).to_string()
}

/// Reads a page's message: the request, or the error to send back.
pub fn read(text: &str) -> Result<Request, String> {
    serde_json::from_str(text).map_err(|e| format!("message: {e}"))
}

/// Starts analysing `position` as analysis number `number` for `client` (whose line it waits
/// in), sending what it finds on `out`. The position is checked first: an error comes back at
/// once, with nothing started.
pub fn start(
    study: &Arc<Study>,
    client: &str,
    number: u64,
    position: &str,
    count: Option<usize>,
    out: mpsc::Sender<Outgoing>,
) -> Result<Running, String> {
    let position = positions::parse(position)?;
    let count = count.unwrap_or(3);
    if !(1..=MAX_LINES).contains(&count) {
        return Err(format!("lines: {count} is not from 1 to {MAX_LINES}"));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let running = Running {
        number,
        stop: Arc::clone(&stop),
    };
    let study = Arc::clone(study);
    let client = client.to_string();
    tokio::spawn(async move {
        let Some(slot) = wait_for_slot(&study, &client, number, &stop, &out).await else {
            return;
        };
        let budget = study.analysis_time;
        let _ = tokio::task::spawn_blocking(move || {
            analyse(slot, &position, count, budget, &stop, number, &out)
        })
        .await;
    });
    Ok(running)
}

/// Waits for a study slot in `client`'s line, telling the page its place; `None` if stopped
/// meanwhile.
async fn wait_for_slot(
    study: &Study,
    client: &str,
    number: u64,
    stop: &AtomicBool,
    out: &mpsc::Sender<Outgoing>,
) -> Option<FairSlot> {
    let mut waiting = match study.slots.take(client) {
        Ok(slot) => return Some(slot),
        Err(waiting) => waiting,
    };
    let mut told = 0;
    loop {
        let place = waiting.place();
        if place != told {
            told = place;
            let text = json!({"type": "queued", "place": place}).to_string();
            if out.send((number, text)).await.is_err() {
                return None;
            }
        }
        tokio::select! {
            slot = waiting.slot() => return (!stop.load(Ordering::Relaxed)).then_some(slot),
            _ = tokio::time::sleep(PLACE_EVERY) => {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
            }
        }
    }
}

/// The search itself, on a blocking thread, holding `slot` until it ends.
fn analyse(
    slot: FairSlot,
    position: &Position,
    count: usize,
    budget: Duration,
    stop: &AtomicBool,
    number: u64,
    out: &mpsc::Sender<Outgoing>,
) {
    let text = position.to_string();
    let game = Game::from_position(position.clone(), Rules::default());
    let reason = if game.is_over() || game.legal_moves().is_empty() {
        "over"
    } else {
        let engine = Engine::new(
            SearchOptions {
                threads: 1,
                ..SearchOptions::default()
            },
            HASH_MB,
        );
        let limits = Limits {
            movetime: Some(budget),
            ..Limits::default()
        };
        let started = std::time::Instant::now();
        let mut proofs = Proofs::default();
        lines(&engine, &game, count, &limits, stop, &mut |found| {
            let message = lines_message(&text, position, found, &mut proofs);
            // A page that reads slowly holds the search back rather than piling up lines.
            let _ = out.blocking_send((number, message));
        });
        if stop.load(Ordering::Relaxed) {
            "stopped"
        } else if started.elapsed() >= budget {
            "time"
        } else {
            "depth"
        }
    };
    drop(slot);
    let done = json!({"type": "done", "position": text, "reason": reason}).to_string();
    let _ = out.blocking_send((number, done));
}

/// A score as the page shows it: `{"cp": 35}`, `{"win": 3}` or `{"loss": 2}`.
pub fn score_json(score: Score) -> Value {
    match score {
        Score::Value(v) => json!({ "cp": v }),
        Score::Win(n) => json!({ "win": n }),
        Score::Loss(n) => json!({ "loss": n }),
    }
}

/// Which forced results of the search the prover has confirmed, so that a line says "wins in
/// N" only when it is proven (as the review does). Each (move, score) is tried once per
/// search: the lines repeat at every depth. The prover's table is made at the first forced
/// result, so that most searches (which find none) never allocate it.
#[derive(Default)]
struct Proofs {
    prover: Option<Prover>,
    known: HashMap<(Move, Score), bool>,
}

impl Proofs {
    fn proven(&mut self, position: &Position, mv: &Move, score: Score) -> bool {
        if let Score::Value(_) = score {
            return false;
        }
        let prover = &mut self.prover;
        *self.known.entry((*mv, score)).or_insert_with(|| {
            let prover = prover.get_or_insert_with(|| Prover::new(REVIEW_PROOF_MB));
            confirm(prover, position, mv, score)
        })
    }
}

fn lines_message(text: &str, position: &Position, found: &Lines, proofs: &mut Proofs) -> String {
    let secs = found.time.as_secs_f64();
    let lines: Vec<Value> = found
        .lines
        .iter()
        .map(|l| {
            let proven = proofs.proven(position, &l.mv, l.score);
            json!({
                "move": official::move_text(position, &l.mv),
                "score": score_json(l.score),
                "proven": proven,
                "text": claim(l.score, proven),
                "win_chance": win_chance(l.score),
                "pv": official::line_text(position, &l.pv),
            })
        })
        .collect();
    json!({
        "type": "lines",
        "position": text,
        "depth": found.depth,
        "nodes": found.nodes,
        "nps": if secs > 0.0 { (found.nodes as f64 / secs) as u64 } else { 0 },
        "time_ms": found.time.as_millis() as u64,
        "lines": lines,
    })
    .to_string()
}
