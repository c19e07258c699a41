//! An external engine: a program that speaks the protocol of docs/protocol.md, driven as a
//! match contestant. Its word is never trusted: the match checks every move it sends.
//!
//! The engine is given each game once, with `newgame`, and then the moves as they are played,
//! with `play`: a `newgame` empties its transposition table, so sending the whole game before
//! every move would throw away what it learned on the previous one. When the engine's
//! position and the match's disagree (a `play` refused, or answered with another position),
//! the game is sent again whole. Positions are compared by meaning (engine_positions.rs), and
//! an engine may leave them out; docs/protocol.md says what an engine must send.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use zertz::notation::official;
use zertz::{Game, Move, Position, Repetition, Turn};
use zertz_engine::arena::Contestant;
use zertz_engine::{Clock, Limits, Think};

use crate::support::engine_log::EngineLog;
use crate::support::engine_positions;

/// A running external engine.
pub struct External {
    command: String,
    child: Child,
    /// Closed (taken) when the engine is told to quit.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    name: String,
    /// The game the engine holds, as far as the match knows (`None`: a `newgame` is due).
    held: Option<Game>,
    /// The engine's `repetition` option as last set (the protocol's default is threefold).
    repetition: Repetition,
    /// The engine asked for the legal moves before each `bestmove` (capability `legalmoves`).
    wants_moves: bool,
    /// The positions searched for the last move, from its last `info … nodes N` line.
    nodes: Option<u64>,
    /// Hears when the copy of the engine's standard error into its log has finished.
    log_done: Option<Receiver<()>>,
}

/// How long an answer may take beyond the time given for the move.
const GRACE: Duration = Duration::from_secs(10);
/// How long a move limited only by depth or nodes may take: a slow engine is not a broken
/// one, but a hung one must not stop the match for ever.
const UNTIMED: Duration = Duration::from_secs(600);
/// How long `bestmove` without any limit may take: the protocol's default is 5 seconds.
const DEFAULT_MOVE: Duration = Duration::from_secs(60);
/// How long an engine told to `quit` has to exit before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);
/// How long a finished engine's last lines of standard error may take to reach the log.
const LOG_DRAIN: Duration = Duration::from_secs(2);

impl External {
    /// Starts `command` (run by the shell), checks that it answers `info`, and asks for a
    /// table of `hash_mb` MB and `threads` search threads (an engine that refuses them keeps
    /// its own). Its standard error goes to `log`, or nowhere.
    pub fn start(
        command: &str,
        hash_mb: usize,
        threads: usize,
        log: Option<&Arc<EngineLog>>,
    ) -> Result<External, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = Some(child.stdin.take().ok_or("no stdin")?);
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let log_done = match (log, child.stderr.take()) {
            (Some(log), Some(stderr)) => Some(log.attach(command, stderr)),
            _ => None,
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    // `\r\n` line ends are accepted: the `\r` is not part of the answer.
                    Ok(l) => {
                        if tx.send(l.trim_end_matches('\r').to_string()).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let mut engine = External {
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
            name: command.to_string(),
            held: None,
            repetition: Repetition::ThreefoldDraw,
            wants_moves: false,
            nodes: None,
            log_done,
        };
        let info = engine.ask("info", GRACE)?;
        if let Some(id) = info.iter().find_map(|l| l.strip_prefix("id "))
            && !id.trim().is_empty()
        {
            engine.name = id.trim().to_string();
        }
        engine.wants_moves = info
            .iter()
            .filter_map(|l| l.strip_prefix("capabilities "))
            .flat_map(|list| list.split(';'))
            .any(|c| c.trim() == "legalmoves");
        // Preferences, not rules of the game: a refusal is not a reason to stop the match.
        engine.ask(&format!("options set hash {hash_mb}"), GRACE)?;
        engine.ask(&format!("options set threads {threads}"), GRACE)?;
        Ok(engine)
    }

    /// Sends one command and collects its answer up to `ok` (without it).
    fn ask(&mut self, command: &str, timeout: Duration) -> Result<Vec<String>, String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| format!("`{}` was told to quit", self.command))?;
        writeln!(stdin, "{command}")
            .and_then(|_| stdin.flush())
            .map_err(|e| match e.kind() {
                // It exited before the command reached it: the same end as one that exits
                // after reading it, said the same way whichever came first.
                std::io::ErrorKind::BrokenPipe => {
                    format!("`{}` exited without answering `{command}`", self.command)
                }
                _ => format!("`{}` stopped reading: {e}", self.command),
            })?;
        let mut answer = Vec::new();
        loop {
            match self.lines.recv_timeout(timeout) {
                Ok(line) if line.trim() == "ok" => return Ok(answer),
                Ok(line) => answer.push(line),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "`{}` did not answer `{command}` within {} s",
                        self.command,
                        timeout.as_secs()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "`{}` exited without answering `{command}`",
                        self.command
                    ));
                }
            }
        }
    }

    /// The refusal in an answer, if any.
    fn refusal(answer: &[String]) -> Option<&String> {
        answer
            .iter()
            .find(|l| l.starts_with("err") || l.starts_with("invalidmove"))
    }

    fn check(answer: &[String], command: &str) -> Result<(), String> {
        match Self::refusal(answer) {
            Some(line) => Err(format!("`{command}` answered `{line}`")),
            None => Ok(()),
        }
    }

    /// Brings the engine to `game`'s position: the moves it has not seen yet with `play`, or
    /// the whole game with `newgame` when it holds another game or disagrees.
    fn sync(&mut self, game: &Game) -> Result<(), String> {
        if let Some(played) = self.held.as_ref().and_then(|held| continues(held, game))
            && self.play_moves(game, played)?
        {
            self.held = Some(game.clone());
            return Ok(());
        }
        self.held = None;
        let repetition = game.rules().repetition;
        if repetition != self.repetition {
            let command = format!("options set repetition {}", repetition.name());
            let answer = self.ask(&command, GRACE)?;
            Self::check(&answer, &command)?;
            self.repetition = repetition;
        }
        let command = format!("newgame {}", setup(game)?);
        let answer = self.ask(&command, GRACE)?;
        Self::check(&answer, "newgame")?;
        if let Some(written) = position_line(&answer) {
            engine_positions::check(game.position(), written)
                .map_err(|e| format!("after `newgame`, {e}"))?;
        }
        self.held = Some(game.clone());
        Ok(())
    }

    /// Plays `game`'s turns from index `from` on the engine. False when the engine refuses one
    /// or answers another position than the rules library: the game must be sent again.
    fn play_moves(&mut self, game: &Game, from: usize) -> Result<bool, String> {
        for i in from..game.turns().len() {
            let Turn::Move(mv) = game.turns()[i] else {
                return Ok(false);
            };
            let text = official::move_text(&game.positions()[i], &mv);
            let answer = self.ask(&format!("play {text}"), GRACE)?;
            let expected = &game.positions()[i + 1];
            let agrees = position_line(&answer)
                .is_none_or(|written| engine_positions::check(expected, written).is_ok());
            if Self::refusal(&answer).is_some() || !agrees {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The position line of an answer to `newgame` or `play`: its first line, if it has one (an
/// engine may answer `ok` alone).
fn position_line(answer: &[String]) -> Option<&str> {
    answer
        .first()
        .map(|l| l.as_str())
        .filter(|l| !l.trim().is_empty())
}

/// The positions searched, from the last `info` line of an answer that gives `nodes N`.
fn reported_nodes(answer: &[String]) -> Option<u64> {
    answer
        .iter()
        .filter(|l| l.starts_with("info "))
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "nodes")?;
            words.get(at + 1)?.parse().ok()
        })
        .next_back()
}

/// The legal moves of `game`'s position in official notation, separated by `;`.
fn legal_moves_line(game: &Game) -> String {
    let position: &Position = game.position();
    let texts: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|mv| official::move_text(position, mv))
        .collect();
    texts.join(";")
}

/// The number of turns of `game` that `held` has already played, when `game` continues it
/// (same start, same rules, `held`'s turns first).
fn continues(held: &Game, game: &Game) -> Option<usize> {
    let played = held.turns().len();
    (held.start() == game.start()
        && held.rules() == game.rules()
        && game.turns().get(..played) == Some(held.turns()))
    .then_some(played)
}

/// The argument of `newgame` for the whole game: its start, then every move.
fn setup(game: &Game) -> Result<String, String> {
    let mut setup = game.start().to_string();
    for (turn, position) in game.turns().iter().zip(game.positions()) {
        match turn {
            Turn::Move(mv) => {
                setup.push_str("; ");
                setup.push_str(&official::move_text(position, mv));
            }
            Turn::Pass { .. } => return Err("passes cannot be sent to an engine".into()),
        }
    }
    Ok(setup)
}

impl Drop for External {
    fn drop(&mut self) {
        // `quit`, then the end of input (which the protocol also reads as `quit`; a pipeline
        // such as `tee log | engine` ends only with it).
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit");
            let _ = stdin.flush();
        }
        // A moment to exit by itself (and say its last words on standard error), then killed.
        let asked = Instant::now();
        while asked.elapsed() < QUIT_WAIT {
            if !matches!(self.child.try_wait(), Ok(None)) {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The engine's last words (why it failed, often) reach the log before the match ends.
        if let Some(done) = &self.log_done {
            let _ = done.recv_timeout(LOG_DRAIN);
        }
    }
}

/// A whole number of milliseconds, at least `min` (the protocol's smallest value of the field).
fn ms(d: Duration, min: u128) -> u128 {
    d.as_millis().max(min)
}

/// The limits of a move in the protocol's words (`time 1000 nodes 5000 clock fischer 60000 0`).
pub fn limit_words(limits: &Limits) -> String {
    let mut words = Vec::new();
    if let Some(t) = limits.movetime {
        words.push(format!("time {}", ms(t, 1)));
    }
    if let Some(d) = limits.depth {
        words.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nodes {
        words.push(format!("nodes {n}"));
    }
    match limits.clock {
        Some(Clock::Fischer {
            remaining,
            increment,
        }) => words.push(format!(
            "clock fischer {} {}",
            ms(remaining, 1),
            ms(increment, 0)
        )),
        Some(Clock::Periods { period, left }) => {
            words.push(format!("clock periods {} {}", ms(period, 1), left.max(1)));
        }
        Some(Clock::Reserve {
            per_move,
            reserve,
            step,
        }) => words.push(format!(
            "clock reserve {} {} {}",
            ms(per_move, 0),
            ms(reserve, 0),
            ms(step, 1)
        )),
        Some(Clock::PerMove { limit }) => words.push(format!("clock permove {}", ms(limit, 1))),
        None => {}
    }
    words.join(" ")
}

/// The longest a `bestmove` with these limits may rightly take: all the time the engine has
/// (it may budget differently from this engine), then [`GRACE`] for the answer.
pub fn answer_time(limits: &Limits) -> Duration {
    let clock = limits.clock.map(|c| match c {
        Clock::Fischer { remaining, .. } => remaining,
        Clock::Periods { period, left } => period * left.max(1),
        Clock::Reserve {
            per_move, reserve, ..
        } => per_move + reserve,
        Clock::PerMove { limit } => limit,
    });
    let time = match (limits.movetime, clock) {
        (Some(t), Some(c)) => Some(t.min(c)),
        (t, c) => t.or(c),
    };
    let untimed = if limits.depth.is_some() || limits.nodes.is_some() {
        UNTIMED
    } else {
        DEFAULT_MOVE
    };
    time.unwrap_or(untimed) + GRACE
}

impl Contestant for External {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn nodes(&self) -> Option<u64> {
        self.nodes
    }

    fn new_game(&mut self, _game: &Game) {
        // The first move of the game sends it with `newgame`, which also empties the table.
        self.held = None;
    }

    fn choose(&mut self, game: &Game, think: &Think) -> Result<Move, String> {
        self.nodes = None;
        self.sync(game)?;
        if self.wants_moves {
            let command = format!("legalmoves {}", legal_moves_line(game));
            let answer = self.ask(&command, GRACE)?;
            Self::check(&answer, "legalmoves")?;
        }
        let command = format!("bestmove {}", limit_words(&think.limits));
        let answer = self.ask(command.trim(), answer_time(&think.limits))?;
        Self::check(&answer, "bestmove")?;
        self.nodes = reported_nodes(&answer);
        let text = answer
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .ok_or_else(|| format!("no bestmove in the answer {answer:?}"))?;
        official::parse(game.position(), text.trim()).map_err(|e| format!("sent {text}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_in_the_protocol_words() {
        let limits = Limits {
            depth: Some(3),
            nodes: Some(5000),
            movetime: Some(Duration::from_millis(250)),
            clock: Some(Clock::Reserve {
                per_move: Duration::from_secs(60),
                reserve: Duration::from_secs(180),
                step: Duration::from_secs(15),
            }),
            infinite: false,
            asked: None,
        };
        assert_eq!(
            limit_words(&limits),
            "time 250 depth 3 nodes 5000 clock reserve 60000 180000 15000"
        );
        // The protocol's least values: a Fischer clock with under a millisecond left still
        // says 1, and sub-millisecond times are never written as 0.
        let nearly_out = Limits {
            clock: Some(Clock::Fischer {
                remaining: Duration::from_micros(300),
                increment: Duration::ZERO,
            }),
            ..Limits::default()
        };
        assert_eq!(limit_words(&nearly_out), "clock fischer 1 0");
        assert_eq!(
            limit_words(&Limits {
                clock: Some(Clock::Periods {
                    period: Duration::from_secs(30),
                    left: 2
                }),
                ..Limits::default()
            }),
            "clock periods 30000 2"
        );
        assert_eq!(limit_words(&Limits::default()), "");
    }

    #[test]
    fn answers_may_take_the_whole_clock() {
        let periods = Limits {
            clock: Some(Clock::Periods {
                period: Duration::from_secs(30),
                left: 3,
            }),
            ..Limits::default()
        };
        assert_eq!(answer_time(&periods), Duration::from_secs(90) + GRACE);
        let both = Limits {
            movetime: Some(Duration::from_secs(2)),
            ..periods
        };
        assert_eq!(answer_time(&both), Duration::from_secs(2) + GRACE);
        assert_eq!(answer_time(&Limits::nodes(10)), UNTIMED + GRACE);
        assert_eq!(answer_time(&Limits::default()), DEFAULT_MOVE + GRACE);
    }

    #[test]
    fn nodes_come_from_the_last_info_line_that_gives_them() {
        let answer = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        let two = answer(&[
            "info depth 1 nodes 120 pv Wa1,a2",
            "info depth 2 seldepth 3 score cp 4 nodes 5400 nps 9 time 2 pv Wa1,a2",
            "info string thinking",
            "bestmove Wa1,a2",
        ]);
        assert_eq!(reported_nodes(&two), Some(5400));
        assert_eq!(reported_nodes(&answer(&["bestmove Wa1,a2"])), None);
        assert_eq!(reported_nodes(&answer(&["info nodes many"])), None);
        // A position line is the first line, when there is one.
        assert_eq!(position_line(&answer(&[])), None);
        assert_eq!(position_line(&answer(&["  "])), None);
        assert_eq!(
            position_line(&answer(&["37 standard"])),
            Some("37 standard")
        );
    }

    #[test]
    fn a_game_continues_another_only_from_its_turns() {
        let mut held = Game::standard();
        let mut game = held.clone();
        for text in ["Wd4,a1", "Be3,g1"] {
            let mv = official::parse(game.position(), text).unwrap();
            game.play(&mv).unwrap();
        }
        assert_eq!(continues(&held, &game), Some(0));
        let mv = official::parse(held.position(), "Wd4,a1").unwrap();
        held.play(&mv).unwrap();
        assert_eq!(continues(&held, &game), Some(1));
        assert_eq!(continues(&game, &held), None);
        let mut other = Game::standard();
        let mv = official::parse(other.position(), "Wd4,a2").unwrap();
        other.play(&mv).unwrap();
        assert_eq!(continues(&other, &game), None);
        assert_eq!(
            setup(&game).unwrap(),
            format!("{}; Wd4,a1; Be3,g1", Game::standard().position())
        );
    }
}
