//! The engine text protocol of `docs/protocol.md`: one command per line in, answers out, every
//! answer ending with a line `ok`.
//!
//! A [`Session`] owns the game, the options and the engine. [`Session::handle`] carries out one
//! line and writes its answer to the shared output; `bestmove` and `analyse` start the search on a
//! background thread, which writes its own `info …`, `bestmove …` and `ok` lines when it is done,
//! while the session goes on reading commands (only `stop` and `quit` are accepted meanwhile).
//!
//! Every line is read defensively: a malformed one answers `err <message>` naming the bad token,
//! never panics and never starts anything long. [`Caps`] bound what a line may start (searches,
//! table sizes, perft), for callers such as the fuzzer that must never wait.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use zertz::notation::{self, MoveParseError, official};
use zertz::perft::perft;
use zertz::{Game, Layout, Move, Position, Repetition, RuleSet, Rules};

use crate::players::level_settings;
use crate::search::{Info, MAX_DEPTH};
use crate::{Clock, Engine, Kind, Limits, Player, SearchOptions, Think};

/// The longest line accepted, in bytes (without its line end).
pub const MAX_LINE: usize = 64 * 1024;

/// The deepest `perft` accepted.
pub const MAX_PERFT_DEPTH: u32 = 6;

/// Where answers go: shared with the search thread, which writes too. Each answer is written
/// under the lock, a line at a time, and flushed after every line.
pub type Sink = Arc<Mutex<dyn Write + Send>>;

/// What the caller should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Read the next line.
    Continue,
    /// `quit` was handled: stop reading (any search has been stopped already).
    Quit,
}

/// Bounds on what a line may start, beyond the protocol's own ranges. The defaults leave the
/// protocol's ranges as they are; a fuzzer sets small ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Every search (`bestmove` at any level, `analyse`) gets at most this many nodes.
    pub nodes: Option<u64>,
    /// The transposition tables get at most this many MB, whatever `hash` says.
    pub hash_mb: usize,
    /// Searches use at most this many threads, whatever `threads` says.
    pub threads: usize,
    /// `perft` refuses a depth `d` when `perft(d - 1)` (the positions it would expand) is larger.
    pub perft_positions: u64,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            nodes: None,
            hash_mb: HASH_MAX,
            threads: THREADS_MAX,
            perft_positions: 20_000_000,
        }
    }
}

const HASH_MAX: usize = 4096;
const THREADS_MAX: usize = 64;
const SEED_MAX: u64 = 1 << 63;
/// The time `bestmove` thinks at level 10 when given no limit.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(5);

/// The option values.
#[derive(Clone, Copy, Debug)]
struct Options {
    hash: usize,
    threads: usize,
    level: u8,
    repetition: Repetition,
    seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash: 64,
            threads: 1,
            level: 10,
            repetition: Repetition::ThreefoldDraw,
            seed: 1,
        }
    }
}

const OPTION_NAMES: [&str; 5] = ["hash", "threads", "level", "repetition", "seed"];

/// The engine and the level player; handed to the search thread while it runs.
struct Tools {
    engine: Engine,
    /// The player of `level` < 10, made on the first `bestmove` after an option change. It
    /// shares the engine's transposition table (one table of `hash` MB, not two); a new game
    /// empties that table and restarts the player's random choices from `seed`.
    player: Option<Player>,
    /// True when the table holds entries of a level whose evaluation has noise: they must not
    /// steer a search at full strength, nor the other way round, so it is emptied when the
    /// next search is of the other kind.
    noisy: bool,
    /// True while the table is empty (made or emptied, and no search since): a new game then
    /// need not empty it again, which takes milliseconds a match runner counts in the first
    /// move's time.
    empty: bool,
}

struct Running {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it writes its last lines: the search is over.
    done: Arc<AtomicBool>,
    handle: JoinHandle<Tools>,
}

/// Why a command was refused.
enum Refusal {
    /// `err <message>`: the line cannot be read or carried out.
    Err(String),
    /// `invalidmove <reason>`: a well-formed move that is not legal.
    Invalid(String),
}

/// What a command answers before its `ok`.
enum Reply {
    /// These lines, then `ok`.
    Lines(Vec<String>),
    /// A search started: its thread writes the answer and the `ok`.
    Started,
}

type Answer = Result<Reply, Refusal>;

fn err<T>(message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::Err(message.into()))
}

fn lines(lines: Vec<String>) -> Answer {
    Ok(Reply::Lines(lines))
}

/// Writes whole answers to the sink.
#[derive(Clone)]
struct Output(Sink);

impl Output {
    fn send<S: AsRef<str>>(&self, lines: &[S]) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        for line in lines {
            // A closed output is not the session's business: the input ends soon after.
            let _ = w.write_all(line.as_ref().as_bytes());
            let _ = w.write_all(b"\n");
            let _ = w.flush();
        }
    }
}

/// A protocol session: the game, the options, the engine and the running search if any.
pub struct Session {
    out: Output,
    game: Game,
    options: Options,
    caps: Caps,
    /// `None` while a search runs (the thread has them) or before they are first needed.
    tools: Option<Tools>,
    running: Option<Running>,
}

impl Session {
    /// A session writing to `out`, with the standard game on 37 rings and default options.
    pub fn new(out: Sink) -> Session {
        Session::with_caps(out, Caps::default())
    }

    /// A session whose searches, tables and perft are bounded by `caps`.
    pub fn with_caps(out: Sink, caps: Caps) -> Session {
        let options = Options::default();
        Session {
            out: Output(out),
            game: Game::new(Layout::standard(), rules(RuleSet::STANDARD, &options)),
            options,
            caps,
            tools: None,
            running: None,
        }
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// True while a search runs (it may have just finished and not been collected yet).
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// The megabytes held by transposition tables, a table shared by the analysis engine and
    /// the level player counted once (0 before the first search, and while one runs).
    pub fn table_megabytes(&self) -> usize {
        let Some(tools) = &self.tools else {
            return 0;
        };
        let own = tools.engine.hash_mb();
        match tools.player.as_ref().and_then(Player::engine) {
            Some(player) if !Arc::ptr_eq(&player.tt, &tools.engine.tt) => own + player.hash_mb(),
            _ => own,
        }
    }

    /// Handles one line given as bytes: refuses it when longer than [`MAX_LINE`] or not UTF-8,
    /// and hands it to [`Session::handle`] otherwise. A line end (`\n`, `\r\n`) is ignored.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Status {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > MAX_LINE {
            self.refuse_long_line();
            return Status::Continue;
        }
        match std::str::from_utf8(line) {
            Ok(text) => self.handle(text),
            Err(e) => {
                self.out.send(&[
                    format!(
                        "err the line is not UTF-8 text (invalid byte at offset {})",
                        e.valid_up_to()
                    ),
                    "ok".to_string(),
                ]);
                Status::Continue
            }
        }
    }

    /// Answers a line that was longer than [`MAX_LINE`] bytes (for readers that do not keep such
    /// lines whole).
    pub fn refuse_long_line(&mut self) {
        self.out.send(&[
            format!("err line longer than {MAX_LINE} bytes"),
            "ok".to_string(),
        ]);
    }

    /// Handles one command line and writes its answer.
    pub fn handle(&mut self, line: &str) -> Status {
        if line.len() > MAX_LINE {
            self.refuse_long_line();
            return Status::Continue;
        }
        let line = line.trim();
        if line.is_empty() {
            return Status::Continue;
        }
        self.collect_finished_search();
        // The command word ends at a space, or at the `;` of `newgame; Wd4,a1`.
        let end = line
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(line.len());
        let (word, rest) = (&line[..end], line[end..].trim());
        if matches!(word, "stop" | "quit") && !rest.is_empty() {
            self.answer(err(format!(
                "unexpected `{}`: `{word}` takes no argument",
                first_word(rest)
            )));
            return Status::Continue;
        }
        if self.running.is_some() && !matches!(word, "stop" | "quit") {
            self.answer(err("a search is running"));
            return Status::Continue;
        }
        let answer = match word {
            "info" => self.info(rest),
            "newgame" => self.newgame(rest),
            "position" => {
                no_argument(word, rest).and_then(|()| lines(vec![self.game.position().to_string()]))
            }
            "play" => self.play(rest),
            "undo" => self.undo(rest),
            "validmoves" => no_argument(word, rest).and_then(|()| self.validmoves()),
            "bestmove" => self.bestmove(rest),
            "analyse" => self.analyse(rest),
            "options" => self.options(rest),
            "perft" => self.perft(rest),
            "stop" => {
                self.stop_search();
                lines(Vec::new())
            }
            "quit" => {
                self.stop_search();
                self.answer(lines(Vec::new()));
                return Status::Quit;
            }
            _ => err(format!(
                "unknown command `{word}` (expected info, newgame, position, play, undo, \
                 validmoves, bestmove, analyse, stop, options, perft or quit)"
            )),
        };
        self.answer(answer);
        Status::Continue
    }

    /// Stops any running search and waits for its thread (its answer is written first).
    pub fn finish(&mut self) {
        self.stop_search();
    }

    /// Waits for a running search to end on its own, without stopping it (an `analyse` without
    /// limits only ends under a node cap of [`Caps`]).
    pub fn wait(&mut self) {
        self.join_search();
    }

    fn answer(&mut self, answer: Answer) {
        match answer {
            Ok(Reply::Started) => {}
            Ok(Reply::Lines(mut lines)) => {
                lines.push("ok".into());
                self.out.send(&lines);
            }
            Err(Refusal::Err(message)) => self.out.send(&[format!("err {message}"), "ok".into()]),
            Err(Refusal::Invalid(reason)) => {
                self.out
                    .send(&[format!("invalidmove {reason}"), "ok".into()]);
            }
        }
    }

    // ---- the search thread ----

    /// Takes back the engine from a search that has ended on its own.
    fn collect_finished_search(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.done.load(Ordering::SeqCst))
        {
            self.join_search();
        }
    }

    fn stop_search(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::SeqCst);
        }
        self.join_search();
    }

    fn join_search(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(tools) => self.tools = Some(tools),
                Err(_) => {
                    // Only a panic outside the guarded search gets here: its answer never came.
                    self.tools = None;
                    self.out.send(&["err the search thread failed", "ok"]);
                }
            }
        }
    }

    fn tools(&mut self) -> &mut Tools {
        let hash = self.options.hash.min(self.caps.hash_mb).max(1);
        let threads = self.threads();
        self.tools.get_or_insert_with(|| Tools {
            engine: Engine::new(
                SearchOptions {
                    threads,
                    ..SearchOptions::default()
                },
                hash,
            ),
            player: None,
            noisy: false,
            empty: true,
        })
    }

    fn threads(&self) -> usize {
        self.options.threads.min(self.caps.threads).max(1)
    }

    fn start_search(&mut self, limits: Limits, analyse: bool) -> Answer {
        let moves = self.game.legal_moves();
        if moves.is_empty() {
            return err(match self.game.outcome() {
                Some(outcome) => format!("no legal move: the game is over ({outcome})"),
                None => "no legal move".to_string(),
            });
        }
        let level = self.options.level;
        let use_player = !analyse && level < 10;
        let seed = self.options.seed;
        let tools = self.tools();
        if use_player && tools.player.is_none() {
            tools.player = Some(Player::sharing(Kind::Level(level), seed, &tools.engine));
        }
        let noisy = use_player && level_settings(level).noise != 0;
        if noisy != tools.noisy {
            tools.engine.clear();
            tools.noisy = noisy;
        }
        tools.empty = false;
        let Some(mut tools) = self.tools.take() else {
            return err("the engine is not available");
        };
        let game = self.game.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let (thread_stop, thread_done) = (stop.clone(), done.clone());
        let spawned = std::thread::Builder::new()
            .name("zertz-search".into())
            .spawn(move || {
                let root = game.position().clone();
                let searched = catch_unwind(AssertUnwindSafe(|| {
                    if analyse {
                        let report_out = out.clone();
                        let mut report = |info: &Info| report_out.send(&[info_line(&root, info)]);
                        tools
                            .engine
                            .search(&game, &limits, &thread_stop, &mut report)
                            .best
                    } else if let Some(player) = tools.player.as_mut().filter(|_| use_player) {
                        player.choose_until(&game, &Think { limits }, &thread_stop)
                    } else {
                        // One `info` line, the search's totals, before `bestmove`: a match
                        // runner reads the positions searched from it.
                        let mut seldepth = 0;
                        let result = tools.engine.search(
                            &game,
                            &limits,
                            &thread_stop,
                            &mut |info: &Info| seldepth = info.seldepth,
                        );
                        let totals = Info {
                            depth: result.depth,
                            seldepth,
                            score: result.score,
                            nodes: result.nodes,
                            time: result.time,
                            pv: result.pv.clone(),
                        };
                        if result.best.is_some() {
                            out.send(&[info_line(&root, &totals)]);
                        }
                        result.best
                    }
                }));
                let last = match searched {
                    Ok(Some(mv)) => format!("bestmove {}", official::move_text(&root, &mv)),
                    Ok(None) => "err the search found no move".to_string(),
                    Err(_) => "err the search failed".to_string(),
                };
                thread_done.store(true, Ordering::SeqCst);
                out.send(&[last, "ok".to_string()]);
                tools
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running { stop, done, handle });
                Ok(Reply::Started)
            }
            // The tools went with the closure; they are made again when needed.
            Err(e) => err(format!("cannot start the search thread: {e}")),
        }
    }

    // ---- commands ----

    fn info(&self, rest: &str) -> Answer {
        no_argument("info", rest)?;
        lines(vec![
            format!("id zertz-engine {}", env!("CARGO_PKG_VERSION")),
            "capabilities boards;customboards;rulesets;positions;hostnotation;undo;levels;analyse;clocks;perft"
                .to_string(),
        ])
    }

    fn newgame(&mut self, rest: &str) -> Answer {
        let mut parts = rest.split(';');
        let setup = parts.next().unwrap_or("").trim();
        let tokens: Vec<&str> = setup.split_whitespace().collect();
        let mut game = match tokens.as_slice() {
            [] => Game::new(Layout::standard(), rules(RuleSet::STANDARD, &self.options)),
            [board] | [board, _] => {
                let layout =
                    Layout::from_spec(board).or_else(|e| err(format!("board `{board}`: {e}")))?;
                let set = match tokens.get(1) {
                    None => RuleSet::STANDARD,
                    Some(text) => text
                        .parse::<RuleSet>()
                        .or_else(|e| err(format!("rules: {e}")))?,
                };
                Game::new(layout, rules(set, &self.options))
            }
            [.., last] if tokens.len() < 7 => {
                return err(format!(
                    "`{last}`: a setup is a board and a rule set, or a position string of 7 \
                     fields; found {} fields",
                    tokens.len()
                ));
            }
            _ => {
                let start: Position = setup.parse().or_else(|e| err(format!("{e}")))?;
                Game::from_position(start.clone(), rules(start.rule_set(), &self.options))
            }
        };
        for (i, text) in parts.enumerate() {
            let text = text.trim();
            let n = i + 1;
            if text.is_empty() {
                return err(format!(
                    "move {n} is empty (moves follow the setup, each after a `;`)"
                ));
            }
            let mv = official::parse(game.position(), text).map_err(|e| match e {
                // The error quotes the move already.
                MoveParseError::Syntax { .. } => Refusal::Err(format!("move {n}: {e}")),
                _ => move_refusal(e, &format!("move {n} `{text}`: ")),
            })?;
            game.play(&mv)
                .map_err(|e| Refusal::Invalid(format!("move {n} `{text}`: {e}")))?;
        }
        self.game = game;
        if let Some(tools) = &mut self.tools {
            // The table is shared with the player: emptied once, never made again here.
            if !tools.empty {
                tools.engine.clear();
                tools.empty = true;
            }
            if let Some(player) = &mut tools.player {
                player.reseed(self.options.seed);
            }
        } else {
            // The table is made now rather than by the first `bestmove`, whose time it would
            // take: writing 64 MB took 200 ms on a busy machine.
            self.tools();
        }
        lines(vec![self.game.position().to_string()])
    }

    fn play(&mut self, rest: &str) -> Answer {
        if rest.is_empty() {
            return err("`play` needs a move, such as `play Wd4,a1`");
        }
        let mv: Move =
            notation::parse_any(self.game.position(), rest).map_err(|e| move_refusal(e, ""))?;
        self.game
            .play(&mv)
            .map_err(|e| Refusal::Invalid(e.to_string()))?;
        lines(vec![self.game.position().to_string()])
    }

    fn undo(&mut self, rest: &str) -> Answer {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (n, given) = match words.as_slice() {
            [] => (1, ""),
            [text] => match text.parse::<usize>() {
                Ok(n) if n >= 1 => (n, *text),
                _ => {
                    return err(format!(
                        "undo `{text}`: expected a number of turns, at least 1"
                    ));
                }
            },
            [_, extra, ..] => return err(format!("unexpected `{extra}`: `undo` takes one number")),
        };
        let played = self.game.turns().len();
        if n > played {
            let what = if given.is_empty() {
                "undo".to_string()
            } else {
                format!("undo `{given}`")
            };
            return err(format!(
                "{what}: cannot take back {n} turn{}, {played} played since the start",
                if n == 1 { "" } else { "s" }
            ));
        }
        for _ in 0..n {
            self.game.undo().or_else(|e| err(format!("undo: {e}")))?;
        }
        lines(vec![self.game.position().to_string()])
    }

    fn validmoves(&self) -> Answer {
        let position = self.game.position();
        let texts: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(|mv| official::move_text(position, mv))
            .collect();
        lines(vec![texts.join(";")])
    }

    fn bestmove(&mut self, rest: &str) -> Answer {
        let asked = Instant::now();
        let mut limits = parse_limits(rest)?;
        limits.asked = Some(asked);
        let given = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || limits.clock.is_some();
        if !given && self.options.level >= 10 {
            // Levels below 10 have their own default (the same five seconds at most).
            limits.movetime = Some(DEFAULT_MOVETIME);
        }
        self.cap(&mut limits);
        self.start_search(limits, false)
    }

    fn analyse(&mut self, rest: &str) -> Answer {
        let asked = Instant::now();
        let mut limits = parse_limits(rest)?;
        limits.asked = Some(asked);
        limits.infinite = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none();
        self.cap(&mut limits);
        self.start_search(limits, true)
    }

    fn cap(&self, limits: &mut Limits) {
        if let Some(cap) = self.caps.nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
    }

    fn options(&mut self, rest: &str) -> Answer {
        let words: Vec<&str> = rest.split_whitespace().collect();
        match words.as_slice() {
            [] => lines(OPTION_NAMES.iter().map(|n| self.option_line(n)).collect()),
            ["get", name] => {
                let name = option_name(name)?;
                lines(vec![self.option_line(name)])
            }
            ["get"] => {
                err("`options get` needs an option name (hash, threads, level, repetition or seed)")
            }
            ["get", _, extra, ..] => err(format!("unexpected `{extra}` after the option name")),
            ["set", name, value] => {
                let name = option_name(name)?;
                self.set_option(name, value)?;
                lines(vec![self.option_line(name)])
            }
            ["set"] => err("`options set` needs an option name and a value"),
            ["set", name] => {
                let name = option_name(name)?;
                err(format!("`options set {name}` needs a value"))
            }
            ["set", _, _, extra, ..] => err(format!("unexpected `{extra}` after the value")),
            [other, ..] => err(format!(
                "unknown `options` subcommand `{other}` (expected get or set, or nothing)"
            )),
        }
    }

    fn option_line(&self, name: &str) -> String {
        let o = &self.options;
        match name {
            "hash" => format!("option hash spin {} 1 {HASH_MAX}", o.hash),
            "threads" => format!("option threads spin {} 1 {THREADS_MAX}", o.threads),
            "level" => format!("option level spin {} 1 10", o.level),
            "repetition" => format!(
                "option repetition combo {} threefold forbidden",
                o.repetition.name()
            ),
            _ => format!("option seed spin {} 0 {SEED_MAX}", o.seed),
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), Refusal> {
        let number = |min: u64, max: u64| -> Result<u64, Refusal> {
            match value.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => err(format!(
                    "option {name}: `{value}` is not a whole number from {min} to {max}"
                )),
            }
        };
        match name {
            "hash" => {
                let mb = number(1, HASH_MAX as u64)? as usize;
                if mb != self.options.hash {
                    self.options.hash = mb;
                    let capped = mb.min(self.caps.hash_mb).max(1);
                    if let Some(tools) = &mut self.tools {
                        tools.engine.resize(capped);
                        tools.empty = true;
                        tools.player = None;
                    }
                }
                // The table is made now, not by the first `bestmove`: making it writes all
                // of it, which takes a while for a large one and belongs to no move's time.
                self.tools();
            }
            "threads" => {
                self.options.threads = number(1, THREADS_MAX as u64)? as usize;
                let threads = self.threads();
                if let Some(tools) = &mut self.tools {
                    tools.engine.options.threads = threads;
                    tools.player = None;
                }
            }
            "level" => {
                self.options.level = number(1, 10)? as u8;
                if let Some(tools) = &mut self.tools {
                    tools.player = None;
                }
            }
            "repetition" => {
                self.options.repetition = match value {
                    "threefold" => Repetition::ThreefoldDraw,
                    "forbidden" => Repetition::Forbidden,
                    _ => {
                        return err(format!(
                            "option repetition: `{value}` is not threefold or forbidden"
                        ));
                    }
                };
            }
            _ => {
                self.options.seed = number(0, SEED_MAX)?;
                if let Some(tools) = &mut self.tools {
                    tools.player = None;
                }
            }
        }
        Ok(())
    }

    fn perft(&mut self, rest: &str) -> Answer {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let depth = match words.as_slice() {
            [] => return err("`perft` needs a depth, such as `perft 2`"),
            [text] => match text.parse::<u32>() {
                Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => d,
                _ => {
                    return err(format!(
                        "perft `{text}`: expected a depth from 1 to {MAX_PERFT_DEPTH}"
                    ));
                }
            },
            [_, extra, ..] => return err(format!("unexpected `{extra}`: `perft` takes one depth")),
        };
        let position = self.game.position().clone();
        let mut out = Vec::new();
        let mut previous = 1;
        for d in 1..=depth {
            // perft(d) expands every position counted by perft(d - 1).
            if previous > self.caps.perft_positions {
                out.push(format!(
                    "err perft `{depth}`: perft({d}) would expand {previous} positions, more than {}",
                    self.caps.perft_positions
                ));
                break;
            }
            previous = perft(&position, d);
            out.push(format!("perft({d}) = {previous}"));
        }
        lines(out)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}

/// The rules of a new game: the rule set, the `repetition` option, no bribes.
fn rules(set: RuleSet, options: &Options) -> Rules {
    Rules {
        set,
        repetition: options.repetition,
        bribes: false,
    }
}

fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

fn no_argument(command: &str, rest: &str) -> Result<(), Refusal> {
    if rest.is_empty() {
        Ok(())
    } else {
        err(format!(
            "unexpected `{}`: `{command}` takes no argument",
            first_word(rest)
        ))
    }
}

fn option_name(name: &str) -> Result<&'static str, Refusal> {
    match OPTION_NAMES.iter().find(|n| **n == name) {
        Some(n) => Ok(n),
        None => err(format!(
            "unknown option `{name}` (expected hash, threads, level, repetition or seed)"
        )),
    }
}

/// `err` for a move that cannot be read, `invalidmove` for one that can but is not legal.
fn move_refusal(e: MoveParseError, prefix: &str) -> Refusal {
    match e {
        MoveParseError::Syntax { .. } => Refusal::Err(format!("{prefix}{e}")),
        MoveParseError::Illegal { reason, .. } => Refusal::Invalid(format!("{prefix}{reason}")),
        MoveParseError::Mismatch { message, .. } => Refusal::Invalid(format!("{prefix}{message}")),
    }
}

/// Reads the limits of `bestmove` and `analyse`.
/// A clock in the protocol's words without the leading `clock` (`fischer 60000 500`,
/// `periods 1000 5`, `reserve 1000 10000 1000`, `permove 5000`), for a match runner.
pub fn parse_clock(text: &str) -> Result<Clock, String> {
    match parse_limits(&format!("clock {text}")) {
        Ok(Limits {
            clock: Some(clock),
            depth: None,
            nodes: None,
            movetime: None,
            ..
        }) => Ok(clock),
        Ok(_) => Err(format!("`{text}`: only a clock was expected")),
        Err(Refusal::Err(message) | Refusal::Invalid(message)) => Err(message),
    }
}

fn parse_limits(text: &str) -> Result<Limits, Refusal> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut limits = Limits::default();
    let mut i = 0;
    // The number after `words[i]`, named `what` in errors, at least `min`.
    let number = |i: usize, what: &str, min: u64| -> Result<u64, Refusal> {
        let Some(text) = words.get(i) else {
            return err(format!("`{what}` needs a number"));
        };
        match text.parse::<u64>() {
            Ok(n) if n >= min => Ok(n),
            _ => err(format!(
                "{what} `{text}`: expected a whole number, at least {min}"
            )),
        }
    };
    let ms = |n: u64| Duration::from_millis(n);
    while let Some(&word) = words.get(i) {
        let twice = || err(format!("limit `{word}` given twice"));
        match word {
            "time" => {
                if limits.movetime.is_some() {
                    return twice();
                }
                limits.movetime = Some(ms(number(i + 1, "time", 1)?));
                i += 2;
            }
            "depth" => {
                if limits.depth.is_some() {
                    return twice();
                }
                let d = number(i + 1, "depth", 1)?;
                if d > MAX_DEPTH as u64 {
                    return err(format!(
                        "depth `{d}`: the deepest search is {MAX_DEPTH} turns"
                    ));
                }
                limits.depth = Some(d as u32);
                i += 2;
            }
            "nodes" => {
                if limits.nodes.is_some() {
                    return twice();
                }
                limits.nodes = Some(number(i + 1, "nodes", 1)?);
                i += 2;
            }
            "clock" => {
                if limits.clock.is_some() {
                    return twice();
                }
                let Some(&kind) = words.get(i + 1) else {
                    return err("`clock` needs a kind: fischer, periods, reserve or permove");
                };
                let (clock, used) = match kind {
                    "fischer" => (
                        Clock::Fischer {
                            remaining: ms(number(i + 2, "clock fischer remaining", 1)?),
                            increment: ms(number(i + 3, "clock fischer increment", 0)?),
                        },
                        2,
                    ),
                    "periods" => {
                        let period = ms(number(i + 2, "clock periods period", 1)?);
                        let left = number(i + 3, "clock periods left", 1)?;
                        let Ok(left) = u32::try_from(left) else {
                            return err(format!(
                                "clock periods left `{left}`: at most {}",
                                u32::MAX
                            ));
                        };
                        (Clock::Periods { period, left }, 2)
                    }
                    "reserve" => (
                        Clock::Reserve {
                            per_move: ms(number(i + 2, "clock reserve per move", 0)?),
                            reserve: ms(number(i + 3, "clock reserve reserve", 0)?),
                            step: ms(number(i + 4, "clock reserve step", 1)?),
                        },
                        3,
                    ),
                    "permove" => (
                        Clock::PerMove {
                            limit: ms(number(i + 2, "clock permove", 1)?),
                        },
                        1,
                    ),
                    other => {
                        return err(format!(
                            "unknown clock `{other}` (expected fischer, periods, reserve or permove)"
                        ));
                    }
                };
                limits.clock = Some(clock);
                i += 2 + used;
            }
            other => {
                return err(format!(
                    "unknown limit `{other}` (expected time, depth, nodes or clock)"
                ));
            }
        }
    }
    Ok(limits)
}

/// An `info` line: the iteration's numbers and its line of play in official notation.
fn info_line(root: &Position, info: &Info) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv",
        info.depth,
        info.seldepth,
        info.score.protocol(),
        info.nodes,
        info.nps(),
        info.time.as_millis()
    );
    let mut position = root.clone();
    for mv in &info.pv {
        let Ok(next) = position.play(mv) else { break };
        line.push(' ');
        line.push_str(&official::move_text(&position, mv));
        position = next;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(data);
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session() -> (Session, Buffer) {
        let buffer = Buffer::default();
        let sink: Sink = Arc::new(Mutex::new(buffer.clone()));
        (Session::new(sink), buffer)
    }

    fn take(buffer: &Buffer) -> Vec<String> {
        let bytes = std::mem::take(&mut *buffer.0.lock().unwrap());
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn answers_end_with_ok() {
        let (mut s, out) = session();
        s.handle("newgame 37 standard");
        assert_eq!(
            take(&out),
            [
                "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
                "ok"
            ]
        );
        s.handle("play Wd4,a1");
        s.handle("play Wd4,a2");
        let got = take(&out);
        assert_eq!(
            got[1..],
            ["ok", "invalidmove ring d4 already holds a marble", "ok"]
        );
    }

    #[test]
    fn limits() {
        assert!(parse_limits("depth 2 nodes 10 time 5").is_ok());
        assert!(parse_limits("clock fischer 1000 0 clock permove 5").is_err());
        assert!(parse_limits("clock reserve 1 2").is_err());
        assert!(parse_limits("depth 0").is_err());
    }

    /// The `bestmove` of an answer, without the `info` lines.
    fn bestmove(out: &Buffer) -> String {
        let lines = take(out);
        let best: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .collect();
        assert_eq!(best.len(), 1, "{lines:?}");
        best[0].clone()
    }

    #[test]
    fn the_level_player_shares_the_engines_table() {
        let (mut s, out) = session();
        assert_eq!(s.table_megabytes(), 0);
        s.handle("options set hash 16");
        s.handle("options set level 5");
        s.handle("bestmove depth 1");
        s.wait();
        bestmove(&out);
        // One table of 16 MB for the engine and the level player, not two.
        assert_eq!(s.table_megabytes(), 16);
        let table = {
            let tools = s.tools.as_ref().unwrap();
            let player = tools.player.as_ref().unwrap().engine().unwrap();
            assert!(Arc::ptr_eq(&player.tt, &tools.engine.tt));
            Arc::as_ptr(&tools.engine.tt)
        };
        // A new game empties the table but makes no new one, and analysis uses it too.
        s.handle("newgame");
        s.handle("analyse depth 1");
        s.wait();
        bestmove(&out);
        s.handle("bestmove depth 1");
        s.wait();
        bestmove(&out);
        assert_eq!(s.table_megabytes(), 16);
        assert_eq!(Arc::as_ptr(&s.tools.as_ref().unwrap().engine.tt), table);
        // A new size replaces the one table.
        s.handle("options set hash 8");
        s.handle("bestmove depth 1");
        s.wait();
        bestmove(&out);
        assert_eq!(s.table_megabytes(), 8);
    }

    #[test]
    fn a_new_game_gives_the_same_move_whatever_came_before() {
        // Level 2 has noise in its evaluation, so its move depends on the seed's draws, and
        // its table entries are not those of a full-strength search.
        let first = {
            let (mut s, out) = session();
            s.handle("options set level 2");
            s.handle("newgame 37 standard; Wd4,a1");
            take(&out);
            s.handle("bestmove");
            s.wait();
            bestmove(&out)
        };
        let (mut s, out) = session();
        s.handle("options set level 2");
        s.handle("newgame 37 standard; Wd4,a1");
        s.handle("bestmove");
        s.wait();
        s.handle("analyse nodes 3000");
        s.wait();
        s.handle("play Gc3,g4");
        s.handle("bestmove");
        s.wait();
        assert!(s.tools.as_ref().unwrap().noisy);
        take(&out);
        s.handle("newgame 37 standard; Wd4,a1");
        take(&out);
        s.handle("bestmove");
        s.wait();
        assert_eq!(bestmove(&out), first);
        s.handle("analyse depth 1");
        s.wait();
        assert!(!s.tools.as_ref().unwrap().noisy);
    }

    /// `newgame` makes the table if nothing has (the first `bestmove` would spend its time on
    /// it), and empties it only when a search has written to it.
    #[test]
    fn newgame_makes_the_table_and_empties_it_only_when_used() {
        let (mut s, _out) = session();
        assert!(s.tools.is_none());
        s.handle("newgame");
        assert!(s.tools.as_ref().is_some_and(|t| t.empty));
        s.handle("bestmove depth 1");
        s.wait();
        assert!(s.tools.as_ref().is_some_and(|t| !t.empty));
        s.handle("newgame");
        assert!(s.tools.as_ref().is_some_and(|t| t.empty));
        s.handle("options set hash 2");
        assert!(s.tools.as_ref().is_some_and(|t| t.empty));
    }

    #[test]
    fn search_and_stop() {
        let (mut s, out) = session();
        s.handle("analyse");
        assert!(s.searching());
        s.handle("position");
        std::thread::sleep(Duration::from_millis(50));
        s.handle("stop");
        // The search's `info` lines may come at any point: leave them out.
        let got: Vec<String> = take(&out)
            .into_iter()
            .filter(|l| !l.starts_with("info "))
            .collect();
        assert_eq!(got[0..2], ["err a search is running", "ok"]);
        let n = got.len();
        assert!(got[n - 3].starts_with("bestmove "), "{got:?}");
        assert_eq!(got[n - 2..], ["ok", "ok"]);
    }
}
