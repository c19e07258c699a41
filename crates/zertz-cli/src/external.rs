//! An external engine: a program that speaks the protocol of docs/protocol.md, driven as a
//! match contestant. Its word is never trusted: the match checks every move it sends.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use zertz::notation::official;
use zertz::{Game, Move, Turn};
use zertz_engine::Think;
use zertz_engine::arena::Contestant;

/// A running external engine.
pub struct External {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
}

/// How long an answer may take beyond the time given for the move.
const GRACE: Duration = Duration::from_secs(10);

impl External {
    /// Starts `command` (run by the shell) and checks that it answers `info`.
    pub fn start(command: &str) -> Result<External, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
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
        };
        let info = engine.ask("info", GRACE)?;
        if let Some(id) = info.iter().find_map(|l| l.strip_prefix("id ")) {
            engine.name = id.to_string();
        }
        Ok(engine)
    }

    /// Sends one command and collects its answer up to `ok` (without it).
    fn ask(&mut self, command: &str, timeout: Duration) -> Result<Vec<String>, String> {
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("`{}` stopped reading: {e}", self.command))?;
        let mut answer = Vec::new();
        loop {
            match self.lines.recv_timeout(timeout) {
                Ok(line) if line.trim() == "ok" => return Ok(answer),
                Ok(line) => answer.push(line),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "`{}` did not answer `{command}` in time",
                        self.command
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "`{}` exited while answering `{command}`",
                        self.command
                    ));
                }
            }
        }
    }

    fn check(answer: &[String], command: &str) -> Result<(), String> {
        match answer
            .iter()
            .find(|l| l.starts_with("err") || l.starts_with("invalidmove"))
        {
            Some(line) => Err(format!("`{command}` answered `{line}`")),
            None => Ok(()),
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(10));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The limits of a move in the protocol's words.
fn limit_words(think: &Think) -> String {
    let l = &think.limits;
    let mut words = Vec::new();
    if let Some(t) = l.movetime {
        words.push(format!("time {}", t.as_millis()));
    }
    if let Some(d) = l.depth {
        words.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        words.push(format!("nodes {n}"));
    }
    words.join(" ")
}

impl Contestant for External {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _game: &Game) {}

    fn choose(&mut self, game: &Game, think: &Think) -> Result<Move, String> {
        // The whole game is sent each time: the engine sees the history (for repetition).
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
        let command = format!("newgame {setup}");
        let answer = self.ask(&command, GRACE)?;
        Self::check(&answer, "newgame")?;
        let timeout = think.limits.movetime.unwrap_or(Duration::from_secs(60)) + GRACE;
        let command = format!("bestmove {}", limit_words(think));
        let answer = self.ask(command.trim(), timeout)?;
        Self::check(&answer, "bestmove")?;
        let text = answer
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .ok_or_else(|| format!("no bestmove in the answer {answer:?}"))?;
        official::parse(game.position(), text.trim()).map_err(|e| format!("sent {text}: {e}"))
    }
}
