//! Game reviews in the background: every move of a finished game searched by the engine's
//! review (`zertz_engine::review`, the one `zertz analyse` uses), one game at a time on a
//! worker of its own, never on the games' engine slots.
//!
//! The queue is fair: each requester (an account, or an address for a guest) has a line of
//! their own and the worker takes one review from each in turn, so one person asking for many
//! never holds up the others. A requester may have [`ReviewLimits::per_requester`] reviews
//! waiting and the queue [`ReviewLimits::total`]; beyond those, a request is refused (429 and
//! 503) rather than kept.
//!
//! A review is stored under a hash of the game's start and moves: asked again, by anyone, it is
//! answered from storage at once. Waiting reviews are stored too, and a restarted server
//! queues them again, so nothing asked for is lost when the process dies.

pub mod routes;
pub(crate) mod sql;
pub mod store;

use crate::config::ReviewLimits;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::Notify;
use zertz::notation::official;
use zertz::record::Record;
use zertz::{Game, Turn};
use zertz_engine::review::{self, Reviewed};
use zertz_engine::verdicts::win_chance;

use crate::store::StoreError;
use crate::study::analysis::sessions::score_json;
use crate::study::reviews::store::ReviewRow;
use crate::study::reviews::store::ReviewStore;

/// Why a review was not queued.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The game is not over.
    #[error("the game is not over yet: it can be reviewed once it has ended")]
    NotOver,
    /// The game has no move to review.
    #[error("the game has no move to review")]
    Empty,
    /// This requester (an address: every account at it) has enough waiting.
    #[error(
        "your address already has {0} reviews waiting: wait for one to finish before asking \
         for another"
    )]
    TooManyOfYours(usize),
    /// The queue is full.
    #[error("the review queue is full ({0} games waiting): try again in a few minutes")]
    Full(usize),
    /// Storage failed.
    #[error("{0}")]
    Store(#[from] StoreError),
}

/// Where a review stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    /// The review's id.
    pub id: String,
    /// `queued`, `running`, `done` or `failed`.
    pub state: &'static str,
    /// The place in the queue (1: next), while queued.
    pub place: usize,
    /// Moves reviewed so far.
    pub done: usize,
    /// Moves to review.
    pub total: usize,
    /// The review, when done.
    pub review: Option<Value>,
    /// Why it failed.
    pub error: Option<String>,
}

impl Status {
    /// As the API answers it.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "id": self.id,
            "state": self.state,
            "place": self.place,
            "done": self.done,
            "total": self.total,
        });
        if let Some(r) = &self.review {
            v["review"] = r.clone();
        }
        if let Some(e) = &self.error {
            v["error"] = json!(e);
        }
        v
    }
}

struct Job {
    id: String,
    game: Game,
    names: [String; 2],
    total: usize,
}

#[derive(Default)]
struct Queue {
    /// Each requester's line.
    lines: HashMap<String, VecDeque<Job>>,
    /// The requesters with a line, in the order they are served.
    turn: VecDeque<String>,
    /// The review running: its id, requester, moves done and total.
    running: Option<(String, String, usize, usize)>,
}

impl Queue {
    fn waiting(&self) -> usize {
        self.lines.values().map(VecDeque::len).sum()
    }

    fn of(&self, requester: &str) -> usize {
        self.lines.get(requester).map_or(0, VecDeque::len)
            + usize::from(self.running.as_ref().is_some_and(|r| r.1 == requester))
    }

    /// The place of review `id` (1: next), and its total, if it waits.
    fn place(&self, id: &str) -> Option<(usize, usize)> {
        for (p, requester) in self.turn.iter().enumerate() {
            let line = &self.lines[requester];
            let Some(k) = line.iter().position(|j| j.id == id) else {
                continue;
            };
            // Round k of the rotation: every line serves k before it, and those ahead of
            // this one in the rotation serve one more.
            let before: usize = self
                .turn
                .iter()
                .enumerate()
                .map(|(q, r)| {
                    let n = self.lines[r].len();
                    n.min(k) + usize::from(q < p && n > k)
                })
                .sum();
            return Some((before + 1, line[k].total));
        }
        None
    }

    fn push(&mut self, requester: &str, job: Job) {
        let line = self.lines.entry(requester.to_string()).or_default();
        if line.is_empty() {
            self.turn.push_back(requester.to_string());
        }
        line.push_back(job);
    }

    /// The next review: from the line whose turn it is.
    fn pop(&mut self) -> Option<(String, Job)> {
        let requester = self.turn.pop_front()?;
        let line = self.lines.get_mut(&requester)?;
        let job = line.pop_front()?;
        if line.is_empty() {
            self.lines.remove(&requester);
        } else {
            self.turn.push_back(requester.clone());
        }
        Some((requester, job))
    }
}

/// The reviews: the queue, its worker and the store.
pub struct Reviews {
    store: Arc<dyn ReviewStore>,
    limits: ReviewLimits,
    queue: Mutex<Queue>,
    wake: Notify,
}

/// The id of a game's review: a hash of its start and its turns.
pub fn review_id(game: &Game) -> String {
    let mut hash = Sha256::new();
    hash.update(game.start().to_string());
    hash.update(format!("|{}", game.rules().repetition.name()));
    for (turn, position) in game.turns().iter().zip(game.positions()) {
        let text = match turn {
            Turn::Move(mv) => official::move_text(position, mv),
            Turn::Pass { bribe } => format!("-{bribe}"),
        };
        hash.update(format!(" {text}"));
    }
    hash.finalize()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The moves of `game` a review looks at (passes are not reviewed).
fn moves_of(game: &Game) -> usize {
    game.turns()
        .iter()
        .filter(|t| matches!(t, Turn::Move(_)))
        .count()
}

/// The players' names of a record (`?` when it has none).
pub fn names_of(record: &Record) -> [String; 2] {
    ["Player1", "Player2"].map(|h| record.header(h).unwrap_or("?").to_string())
}

impl Reviews {
    /// The reviews on `store`; [`Reviews::start`] starts the worker.
    pub fn new(store: Arc<dyn ReviewStore>, limits: ReviewLimits) -> Arc<Reviews> {
        Arc::new(Reviews {
            store,
            limits,
            queue: Mutex::new(Queue::default()),
            wake: Notify::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues again the reviews a previous run left waiting, and starts the worker.
    pub async fn start(self: &Arc<Self>) -> Result<usize, StoreError> {
        let waiting = self.store.waiting_reviews().await?;
        let mut queued = 0;
        for row in waiting {
            match Record::parse(&row.record) {
                Ok(record) => {
                    let names = names_of(&record);
                    let total = moves_of(&record.game);
                    self.lock().push(
                        &row.requester,
                        Job {
                            id: row.id,
                            game: record.game,
                            names,
                            total,
                        },
                    );
                    queued += 1;
                }
                Err(e) => {
                    let why = format!("the stored record no longer reads: {e}");
                    self.store
                        .finish_review(&row.id, "failed", None, Some(&why), crate::util::now_ms())
                        .await?;
                }
            }
        }
        let me = Arc::clone(self);
        tokio::spawn(async move { me.work().await });
        Ok(queued)
    }

    /// Asks for the review of `record`'s game (of the server's game `game_id`, if given) for
    /// `requester`: answered from storage if it exists, else queued.
    pub async fn ask(
        &self,
        requester: &str,
        game_id: Option<&str>,
        record: &Record,
    ) -> Result<Status, ReviewError> {
        let game = &record.game;
        let id = review_id(game);
        if let Some(status) = self.status(&id).await? {
            return Ok(status);
        }
        if game.outcome().is_none() && game_id.is_some() {
            return Err(ReviewError::NotOver);
        }
        let total = moves_of(game);
        if total == 0 {
            return Err(ReviewError::Empty);
        }
        {
            let q = self.lock();
            let waiting = q.waiting();
            if waiting >= self.limits.total {
                return Err(ReviewError::Full(waiting));
            }
            let mine = q.of(requester);
            if mine >= self.limits.per_requester {
                return Err(ReviewError::TooManyOfYours(mine));
            }
        }
        let now = crate::util::now_ms();
        let row = ReviewRow {
            id: id.clone(),
            game_id: game_id.map(str::to_string),
            record: record.to_string(),
            requester: requester.to_string(),
            state: "queued".into(),
            result: None,
            error: None,
            created_ms: now,
            updated_ms: now,
        };
        if self.store.add_review(&row).await? {
            let job = Job {
                id: id.clone(),
                game: game.clone(),
                names: names_of(record),
                total,
            };
            self.lock().push(requester, job);
            self.wake.notify_one();
        }
        Ok(self.status(&id).await?.unwrap_or(Status {
            id,
            state: "queued",
            place: 1,
            done: 0,
            total,
            review: None,
            error: None,
        }))
    }

    /// Where review `id` stands (`None`: no such review).
    pub async fn status(&self, id: &str) -> Result<Option<Status>, StoreError> {
        {
            let q = self.lock();
            if let Some((running, _, done, total)) = &q.running
                && running == id
            {
                return Ok(Some(Status {
                    id: id.to_string(),
                    state: "running",
                    place: 0,
                    done: *done,
                    total: *total,
                    review: None,
                    error: None,
                }));
            }
            if let Some((place, total)) = q.place(id) {
                return Ok(Some(Status {
                    id: id.to_string(),
                    state: "queued",
                    place,
                    done: 0,
                    total,
                    review: None,
                    error: None,
                }));
            }
        }
        let Some(row) = self.store.review(id).await? else {
            return Ok(None);
        };
        Ok(Some(from_row(&row)))
    }

    /// The review of the server's game `game_id`, if one was asked for.
    pub async fn of_game(&self, game_id: &str) -> Result<Option<Status>, StoreError> {
        match self.store.review_of_game(game_id).await? {
            Some(row) => self.status(&row.id).await,
            None => Ok(None),
        }
    }

    /// The worker: one review at a time, for ever.
    async fn work(self: Arc<Self>) {
        loop {
            let next = {
                let mut q = self.lock();
                let next = q.pop();
                if let Some((requester, job)) = &next {
                    q.running = Some((job.id.clone(), requester.clone(), 0, job.total));
                }
                next
            };
            let Some((_, job)) = next else {
                self.wake.notified().await;
                continue;
            };
            let me = Arc::clone(&self);
            let id = job.id.clone();
            let outcome = tokio::task::spawn_blocking(move || me.run(&job)).await;
            let (state, result, error) = match outcome {
                Ok(result) => ("done", Some(result.to_string()), None),
                Err(e) => {
                    tracing::error!(review = %id, "a review failed: {e}");
                    (
                        "failed",
                        None,
                        Some("the review failed on the server".to_string()),
                    )
                }
            };
            let stored = self
                .store
                .finish_review(
                    &id,
                    state,
                    result.as_deref(),
                    error.as_deref(),
                    crate::util::now_ms(),
                )
                .await;
            if let Err(e) = stored {
                // Left queued in storage: done again after a restart.
                tracing::warn!(review = %id, "storing a finished review: {e}");
            }
            self.lock().running = None;
        }
    }

    /// Reviews one game (on a blocking thread), keeping its progress for the page.
    fn run(&self, job: &Job) -> Value {
        let engine = review::engine();
        let never = AtomicBool::new(false);
        let mut done = 0;
        let moves = review::review(
            &engine,
            &job.game,
            &review::default_limits(),
            &never,
            &mut |_| {
                done += 1;
                if let Some(r) = self.lock().running.as_mut() {
                    r.2 = done;
                }
            },
        );
        review_json(&job.game, &job.names, &moves)
    }
}

fn from_row(row: &ReviewRow) -> Status {
    let total = Record::parse(&row.record).map_or(0, |r| moves_of(&r.game));
    let review = row
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok());
    let state = match row.state.as_str() {
        "done" => "done",
        "failed" => "failed",
        _ => "queued",
    };
    Status {
        id: row.id.clone(),
        state,
        place: 0,
        done: if state == "done" { total } else { 0 },
        total,
        review,
        error: row.error.clone(),
    }
}

/// A finished review as the API gives it (docs/study.md).
pub fn review_json(game: &Game, names: &[String; 2], moves: &[Reviewed]) -> Value {
    let positions = game.positions();
    let list: Vec<Value> = moves
        .iter()
        .map(|r| {
            let position = &positions[r.turn];
            json!({
                "turn": r.turn,
                "player": r.player.number(),
                "move": official::move_text(position, &r.played),
                "mark": r.mark.name(),
                "symbol": r.mark.symbol(),
                "best": official::move_text(position, &r.best),
                "score": score_json(r.played_score),
                "score_text": r.played_words(),
                "best_score": score_json(r.best_score),
                "best_score_text": r.best_words(),
                "win_chance_before": win_chance(r.best_score),
                "win_chance_after": win_chance(r.played_score),
                "lost": r.lost(),
                "line": zertz::notation::official::line_text(position, &r.best_line),
                "depth": r.depth,
            })
        })
        .collect();
    // The whole game as a tree (bribes and their passes included, which the move list leaves
    // out): what the page shows, each reviewed move at its `turn`.
    let tree =
        crate::study::trees::json::TreeJson::from_tree(&zertz::tree::GameTree::from_game(game))
            .ok();
    json!({
        "start": game.start().to_string(),
        "tree": tree,
        "names": names,
        "result": game.outcome().map(|o| o.to_string()),
        "moves": list,
        "graph": review::graph(moves),
        "accuracy": review::accuracies(moves).map(|a| a.map(|a| (a * 10.0).round() / 10.0)),
        "depth": review::REVIEW_DEPTH,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: &str) -> Job {
        Job {
            id: id.into(),
            game: Game::new(zertz::Layout::standard(), zertz::Rules::default()),
            names: ["a".into(), "b".into()],
            total: 10,
        }
    }

    #[test]
    fn the_queue_serves_each_requester_in_turn_and_knows_each_place() {
        let mut q = Queue::default();
        for id in ["a1", "a2", "a3"] {
            q.push("ann", job(id));
        }
        q.push("bob", job("b1"));
        q.push("cy", job("c1"));
        q.push("cy", job("c2"));
        // Rounds: a1 b1 c1 | a2 c2 | a3.
        let places: Vec<usize> = ["a1", "b1", "c1", "a2", "c2", "a3"]
            .iter()
            .map(|id| q.place(id).unwrap().0)
            .collect();
        assert_eq!(places, [1, 2, 3, 4, 5, 6]);
        let served: Vec<String> = std::iter::from_fn(|| q.pop().map(|(_, j)| j.id)).collect();
        assert_eq!(served, ["a1", "b1", "c1", "a2", "c2", "a3"]);
        assert_eq!(q.waiting(), 0);
    }

    #[test]
    fn the_41st_request_waits_its_turn_and_one_client_cannot_push_it_back() {
        let mut q = Queue::default();
        for n in 0..40 {
            q.push(&format!("player{n}"), job(&format!("r{n}")));
        }
        q.push("late", job("r40"));
        assert_eq!(q.place("r40"), Some((41, 10)));
        // Someone early asking for four more does not move the late one back.
        for extra in 0..4 {
            q.push("player0", job(&format!("more{extra}")));
        }
        assert_eq!(q.place("r40"), Some((41, 10)));
        assert_eq!(q.place("more0"), Some((42, 10)));
        // As the worker takes reviews, the place counts down.
        q.pop();
        q.pop();
        assert_eq!(q.place("r40").unwrap().0, 39);
        assert!(ReviewLimits::default().total > 40);
    }

    #[test]
    fn a_review_id_depends_on_the_moves_only() {
        let mut a = Game::new(zertz::Layout::standard(), zertz::Rules::default());
        let b = a.clone();
        assert_eq!(review_id(&a), review_id(&b));
        let mv = official::parse(a.position(), "Wd4,a1").unwrap();
        a.play(&mv).unwrap();
        assert_ne!(review_id(&a), review_id(&b));
        assert_eq!(review_id(&a).len(), 24);
    }
}
