//! `zertz play`: a game of ZÈRTZ in the terminal, against the engine or between two people at
//! one keyboard.
//!
//! The game reads one line at a time from standard input, so it works the same on a terminal
//! and with piped input. A line is a move, in official notation (`Wd4,a1`, `x d1Gd3`) or host
//! notation (`W D4 A1`, `C3xC5`), or a command (`help` lists them). A move the rules refuse is
//! not played: the reason is printed and the game waits for another line, so a typo never
//! changes or loses the game. When the input ends, the game stops and says it was not finished.
//!
//! The board is drawn after every move: against the engine after the player's own move (so
//! that its effect, captures and isolations included, is seen before the engine answers) and
//! again after the engine's reply. Resigning, and loading another game over one with unsaved
//! moves, ask first: a stray word must not end or lose a game.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use clap::{Args, ValueEnum};
use zertz::diagram::{DiagramOptions, Labels, render};
use zertz::notation::{self, host, official};
use zertz::record::Record;
use zertz::{
    Colour, Game, Layout, Marbles, Move, Outcome, Place, Player, Position, Repetition, RuleSet,
    Rules, Turn, boardspace,
};
use zertz_engine::{Kind, Limits, Rng, Score, SearchOptions, Think};

use crate::commands::show::{ColourArg, LabelArg};

/// Which player the human is.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SideArg {
    /// Player 1, who moves first.
    First,
    /// Player 2.
    Second,
    /// Chosen at random (from --seed).
    Random,
}

/// Options of `zertz play`.
#[derive(Args)]
pub struct PlayArgs {
    /// Strength of the engine, from 1 (beatable by a beginner) to 10 (full strength).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// Which seat you take: first (player 1, moves first), second, or random. (Players are
    /// not colours in ZÈRTZ: every marble is shared.)
    #[arg(long, value_enum, default_value_t = SideArg::First)]
    seat: SideArg,
    /// Board: 37, 40, 43, 44, 48, 61, or a custom layout such as a1-4,b1-5,c1-6,d2-6.
    #[arg(long)]
    board: Option<String>,
    /// Rule set: standard, blitz, or custom:W/G/B:w/g/b/each (custom:6/8/10:4/5/6/3 is standard).
    #[arg(long)]
    rules: Option<String>,
    /// Forbid any move that recreates an earlier position (house rule), instead of the
    /// threefold-repetition draw.
    #[arg(long)]
    no_repetition: bool,
    /// Allow the bribe-to-pass house rule: offer captured marbles to skip your turn.
    #[arg(long)]
    bribes: bool,
    /// Two people at one keyboard: no engine.
    #[arg(long)]
    two_players: bool,
    /// Longest the engine thinks per move, in milliseconds (also the time of `hint`). Levels
    /// below 10 also stop at their own depth or node cap, so they usually answer sooner.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    time_per_move: u64,
    /// Seed of the engine's random choices and of --seat random (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Continue a saved game: a game record (as `save` writes) or a BoardSpace .sgf.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Your name, for saved records (default: $USER).
    #[arg(long)]
    name: Option<String>,
    /// Colour the board with ANSI escape codes (as `zertz show --colour` does).
    #[arg(long, value_enum, default_value_t = ColourArg::Auto)]
    colour: ColourArg,
    /// Board labels: every ring's coordinate (the default), column letters and row numbers on
    /// the edges only, or host coordinates.
    #[arg(long, value_enum, default_value_t = LabelArg::Every)]
    labels: LabelArg,
}

/// The commands, for `help` and for "did you mean".
const COMMANDS: [&str; 16] = [
    "help", "moves", "hint", "undo", "board", "position", "coords", "free", "save", "load",
    "bribe", "accept", "reject", "resign", "quit", "exit",
];

/// What the main loop does next.
enum Flow {
    Continue,
    Leave,
}

/// A game in progress with everything around it.
struct Session<R: BufRead, W: Write> {
    input: R,
    out: W,
    /// Echo each input line after its prompt (when the input is not a terminal, so that a
    /// transcript reads like a terminal session).
    echo: bool,
    /// Show "thinking" while the engine searches (on a terminal).
    live: bool,
    /// Set when the output can no longer be written: the session ends.
    broken: bool,
    game: Game,
    /// The human's side against the engine; `None` with two players.
    human: Option<Player>,
    engine: Option<zertz_engine::Player>,
    level: u8,
    think: Think,
    /// The engine used for hints and for judging bribes (full strength, `think` limits).
    adviser: Option<zertz_engine::Player>,
    seed: u64,
    options: DiagramOptions,
    /// The official labels to return to when `coords` leaves host labels.
    official_labels: Labels,
    /// Headers of a loaded record, kept when saving.
    headers: Vec<(String, String)>,
    human_name: String,
    /// True when the game has changed since it was last saved or loaded.
    dirty: bool,
    /// Said after the introduction (what was loaded, options ignored).
    notes: Vec<String>,
}

/// Runs `zertz play`.
pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let ansi = match args.colour {
        ColourArg::Always => true,
        ColourArg::Never => false,
        ColourArg::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let labels = match args.labels {
        LabelArg::Edges => Labels::Edges,
        LabelArg::Every => Labels::Every,
        LabelArg::Host => Labels::Host,
    };
    let options = DiagramOptions {
        ansi,
        labels,
        mark_free: true,
    };

    let (game, headers, loaded_from) = match &args.load {
        Some(path) => {
            let (game, headers) = load_game(path)?;
            (game, headers, Some(path.clone()))
        }
        None => {
            let layout = Layout::from_spec(args.board.as_deref().unwrap_or("37"))
                .map_err(|e| anyhow::anyhow!("bad --board: {e}"))?;
            let set: RuleSet = args
                .rules
                .as_deref()
                .unwrap_or("standard")
                .parse()
                .context("bad --rules")?;
            let rules = Rules {
                set,
                repetition: if args.no_repetition {
                    Repetition::Forbidden
                } else {
                    Repetition::ThreefoldDraw
                },
                bribes: args.bribes,
            };
            (Game::new(layout, rules), Vec::new(), None)
        }
    };

    let mut rng = Rng::new(seed);
    let human = if args.two_players {
        None
    } else {
        Some(match args.seat {
            SideArg::First => Player::One,
            SideArg::Second => Player::Two,
            SideArg::Random => {
                if rng.below(2) == 0 {
                    Player::One
                } else {
                    Player::Two
                }
            }
        })
    };
    let engine = human.map(|_| {
        zertz_engine::Player::new(
            Kind::Level(args.level),
            rng.next_u64(),
            SearchOptions::default(),
            64,
        )
    });
    let human_name = args
        .name
        .clone()
        .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
        .unwrap_or_else(|| "human".to_string());

    let stdin = std::io::stdin();
    let echo = !stdin.is_terminal();
    let live = std::io::stdout().is_terminal();
    let mut session = Session {
        input: stdin.lock(),
        out: std::io::stdout().lock(),
        echo,
        live,
        broken: false,
        game,
        human,
        engine,
        level: args.level,
        think: Think {
            limits: Limits::movetime(Duration::from_millis(args.time_per_move.max(1))),
        },
        adviser: None,
        seed: rng.next_u64(),
        options,
        official_labels: if labels == Labels::Host {
            Labels::Every
        } else {
            labels
        },
        headers,
        human_name,
        dirty: false,
        notes: Vec::new(),
    };
    if let Some(path) = loaded_from {
        session.notes.push(format!(
            "Loaded {}: {} turns played.",
            path.display(),
            session.game.turns().len()
        ));
        if args.board.is_some() || args.rules.is_some() || args.no_repetition || args.bribes {
            session.notes.push(
                "(--board, --rules, --no-repetition and --bribes are ignored: the loaded game has its own rules.)"
                    .to_string(),
            );
        }
    }
    session.play();
    Ok(())
}

/// A game read from a file (BoardSpace `.sgf` or the project's record), with its headers.
fn load_game(path: &Path) -> anyhow::Result<(Game, Vec<(String, String)>)> {
    let file = crate::support::game_file::read(path)?;
    Ok((file.game, file.headers))
}

impl<R: BufRead, W: Write> Session<R, W> {
    // ---- output and input ----

    /// Prints a line (or several).
    fn say(&mut self, text: &str) {
        if self.broken {
            return;
        }
        if writeln!(self.out, "{text}").is_err() {
            self.broken = true;
        }
    }

    /// Prints `prompt` and reads a line; `None` when the input has ended (or the output broke).
    fn ask(&mut self, prompt: &str) -> Option<String> {
        if self.broken {
            return None;
        }
        if write!(self.out, "{prompt}")
            .and_then(|()| self.out.flush())
            .is_err()
        {
            self.broken = true;
            return None;
        }
        let mut bytes = Vec::new();
        match self.input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => {
                // End the prompt's line so that what follows starts on its own.
                self.say("");
                None
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&bytes)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                if self.echo {
                    self.say(&line);
                }
                Some(line)
            }
        }
    }

    // ---- names ----

    fn is_human(&self, player: Player) -> bool {
        self.human.is_none_or(|h| h == player)
    }

    /// "you", "the engine", or "player 2".
    fn who(&self, player: Player) -> String {
        match self.human {
            Some(h) if h == player => "you".to_string(),
            Some(_) => "the engine".to_string(),
            None => player.to_string(),
        }
    }

    /// Who a sentence about `player`'s turn is about: the engine, or the person by name.
    fn subject(&self, player: Player) -> String {
        match self.human {
            Some(h) if h != player => "The engine".to_string(),
            _ => self.names()[player.index()].clone(),
        }
    }

    /// What a capture or an isolation took, in the words the web page uses too; nothing for a
    /// plain placement (the move itself says it).
    fn took_words(&self, before: &Position, mv: &Move) -> Option<String> {
        let text = zertz::sentences::turn(before, mv, &self.subject(before.to_move()));
        (mv.is_capture() || text.contains("isolates")).then_some(text)
    }

    /// Player 1's and player 2's names for records.
    fn names(&self) -> [String; 2] {
        match self.human {
            Some(h) => {
                let engine = format!("zertz level {}", self.level);
                let mut names = [engine.clone(), engine];
                names[h.index()] = self.human_name.clone();
                names
            }
            // Two players keep the names of a loaded game.
            None => ["Player1", "Player2"].map(|key| {
                self.headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(key))
                    .map(|(_, v)| v.clone())
                    .unwrap_or_else(|| key.replace("Player", "player "))
            }),
        }
    }

    /// A move in official notation, with its host notation when the board shows host labels.
    fn move_words(&self, position: &Position, mv: &Move) -> String {
        let text = official::move_text(position, mv);
        if self.options.labels == Labels::Host {
            format!("{text}  (host: {})", host::move_text(position, mv))
        } else {
            text
        }
    }

    fn turn_words(&self, i: usize) -> String {
        let position = &self.game.positions()[i];
        match self.game.turns()[i] {
            Turn::Move(mv) => self.move_words(position, &mv),
            Turn::Pass { bribe } => format!("- (a pass bought with a bribe of {bribe})"),
        }
    }

    // ---- the game ----

    fn play(&mut self) {
        self.intro();
        for note in std::mem::take(&mut self.notes) {
            self.say(&note);
        }
        // When the engine moves first, its move is drawn with the board.
        if self.game.is_over() || self.is_human(self.game.to_move()) {
            self.show();
        }
        loop {
            if self.broken {
                return;
            }
            if self.game.is_over() {
                match self.after_game() {
                    Flow::Continue => continue,
                    Flow::Leave => return,
                }
            }
            let to_move = self.game.to_move();
            if !self.is_human(to_move) {
                self.engine_turn();
                self.show();
                continue;
            }
            let prompt = match (self.game.pending_bribe(), self.human) {
                (Some(b), _) => format!(
                    "{}: {} offers you {} to pass. accept or reject?> ",
                    to_move.other(),
                    b.by,
                    b.bribe
                ),
                (None, Some(_)) => "your move> ".to_string(),
                (None, None) => format!("{to_move}> "),
            };
            let Some(line) = self.ask(&prompt) else {
                self.say("The input has ended: the game was not finished, and it was not saved.");
                return;
            };
            if let Flow::Leave = self.handle(&line) {
                return;
            }
        }
    }

    fn intro(&mut self) {
        let position = self.game.position().clone();
        let rules = self.game.rules();
        let set = rules.set;
        let mut text = String::new();
        match self.human {
            Some(h) => {
                let first = if !self.game.turns().is_empty() {
                    "a game in progress"
                } else if position.to_move() == h {
                    "you move first"
                } else {
                    "the engine moves first"
                };
                let _ = writeln!(
                    text,
                    "ZÈRTZ: you are {h}, against the engine at level {} ({}); {first}.",
                    self.level,
                    h.other()
                );
            }
            None => text.push_str("ZÈRTZ for two players at one keyboard.\n"),
        }
        let _ = writeln!(
            text,
            "Board: {} rings. Win by capturing {} white, or {} grey, or {} black, or {} of each colour.",
            position.layout().len(),
            set.single.get(Colour::White),
            set.single.get(Colour::Grey),
            set.single.get(Colour::Black),
            set.each
        );
        let _ = writeln!(
            text,
            "{}{}",
            match rules.repetition {
                Repetition::ThreefoldDraw => "A position that occurs three times is a draw.",
                Repetition::Forbidden =>
                    "No repetition: a move that recreates an earlier position is not allowed.",
            },
            if rules.bribes {
                " Bribes are allowed: `bribe 1/0/0` offers one white marble to skip your turn."
            } else {
                ""
            }
        );
        text.push_str(
            "On your turn, capture if you can (it is compulsory); otherwise place a marble of any \
             colour on an empty ring,\nthen remove a free ring, marked (o) on the board.\n",
        );
        text.push_str(
            "Type a move such as Wd4,a1 (white marble on d4, ring a1 removed), or `help` for \
             notation and commands.",
        );
        self.say(&text);
    }

    /// The board, the last move and whose turn it is.
    fn show(&mut self) {
        let position = self.game.position().clone();
        let mut text = String::from("\n");
        text.push_str(&render(&position, &self.options));
        text.push('\n');
        let turns = self.game.turns().len();
        if turns > 0 {
            let mover = self.game.positions()[turns - 1].to_move();
            let who = match self.human {
                Some(_) => format!("{mover} ({})", self.who(mover)),
                None => mover.to_string(),
            };
            let _ = writeln!(text, "Last move: {who} {}", self.turn_words(turns - 1));
        }
        if !self.game.is_over() {
            let to_move = position.to_move();
            match self.human {
                Some(h) if h == to_move => {
                    let _ = write!(text, "Your turn ({h}).");
                }
                Some(_) => {
                    let _ = write!(text, "The engine's turn ({to_move}).");
                }
                None => {
                    let _ = write!(text, "{to_move} to move.");
                }
            }
            if self.is_human(to_move) {
                let moves = self.game.legal_moves();
                if moves.first().is_some_and(Move::is_capture) {
                    let captures: Vec<String> = moves
                        .iter()
                        .map(|m| official::move_text(&position, m))
                        .collect();
                    if captures.len() <= 3 {
                        let _ = write!(text, " A capture is compulsory: {}.", join_or(&captures));
                    } else {
                        let _ = write!(
                            text,
                            " A capture is compulsory: {} ways (type `moves`).",
                            captures.len()
                        );
                    }
                } else if position.supply().is_empty() {
                    text.push_str(" The supply is empty: place from your own captures.");
                }
            }
        }
        self.say(&text);
    }

    /// One line of input on a human's turn.
    fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        if line.is_empty() {
            self.say("Type a move such as Wd4,a1, or `help`.");
            return Flow::Continue;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "help" | "?" => self.help(),
            "moves" => self.moves(rest.eq_ignore_ascii_case("all")),
            "hint" => self.hint(),
            "undo" => self.undo(),
            "board" => self.show(),
            "position" => {
                let p = self.game.position().to_string();
                self.say(&p);
            }
            "coords" => self.toggle_coords(),
            "free" => {
                self.options.mark_free = !self.options.mark_free;
                self.say(if self.options.mark_free {
                    "Free rings are marked (o)."
                } else {
                    "Free rings are no longer marked."
                });
                self.show();
            }
            "save" => self.save(rest),
            "load" => self.load(rest),
            "bribe" => self.bribe(rest),
            "accept" | "yes" | "reject" | "no" => {
                let accept = matches!(word.to_ascii_lowercase().as_str(), "accept" | "yes");
                self.answer_bribe(accept);
            }
            "resign" => self.resign(),
            "quit" | "exit" => return self.quit(),
            _ => self.try_move(line),
        }
        Flow::Continue
    }

    fn try_move(&mut self, line: &str) {
        let position = self.game.position().clone();
        let parsed = parse_move(&position, line);
        let mv = match parsed {
            Ok(mv) => mv,
            Err(e) => {
                let no_digit = !line.chars().any(|c| c.is_ascii_digit());
                let word = line.split_whitespace().next().unwrap_or(line);
                if no_digit && word.len() > 1 && word.chars().all(|c| c.is_alphabetic()) {
                    let mut text = format!("Unknown command `{word}`");
                    if let Some(close) = closest_command(word) {
                        let _ = write!(text, " (did you mean `{close}`?)");
                    }
                    text.push_str(". Type `help` for the commands, or a move such as Wd4,a1.");
                    self.say(&text);
                } else {
                    self.say(&format!("Not played: {e}."));
                    self.say("The position is unchanged; type another move, `moves` or `help`.");
                }
                return;
            }
        };
        let text = self.move_words(&position, &mv);
        if let Err(e) = self.game.play(&mv) {
            self.say(&format!("Not played: `{line}`: {e}."));
            return;
        }
        self.dirty = true;
        match self.human {
            Some(_) => self.say(&format!("You play {text}")),
            None => self.say(&format!("{} plays {text}", position.to_move())),
        }
        if let Some(took) = self.took_words(&position, &mv) {
            self.say(&took);
        }
        self.show();
    }

    /// Asks a yes/no question; true for yes. No, an empty answer or the end of the input is no.
    fn confirm(&mut self, question: &str) -> bool {
        loop {
            match self.ask(question) {
                None => return false,
                Some(answer) => match answer.trim().to_ascii_lowercase().as_str() {
                    "yes" | "y" => return true,
                    "no" | "n" | "" => return false,
                    _ => self.say("Please answer yes or no."),
                },
            }
        }
    }

    fn resign(&mut self) {
        let player = self.human.unwrap_or(self.game.to_move());
        let question = match self.human {
            Some(_) => "Resign this game? (yes/no)> ".to_string(),
            None => format!("Does {player} resign? (yes/no)> "),
        };
        if !self.confirm(&question) {
            self.say("Not resigned: the game goes on.");
            return;
        }
        match self.game.resign(player) {
            Ok(()) => {
                self.dirty = true;
                self.say(&format!("{player} resigns."));
            }
            Err(e) => self.say(&format!("Cannot resign: {e}.")),
        }
    }

    fn engine_turn(&mut self) {
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        if self.live {
            let _ = write!(self.out, "the engine is thinking...");
            let _ = self.out.flush();
        }
        let choice = engine.choose(&self.game, &self.think);
        if self.live {
            let _ = write!(self.out, "\r{:30}\r", "");
        }
        let position = self.game.position().clone();
        let Some(mv) = choice else {
            // Only when the game is over or a bribe awaits its answer, which the loop rules out.
            self.say("The engine found no move.");
            let _ = self.game.resign(position.to_move());
            return;
        };
        let text = official::move_text(&position, &mv);
        match self.game.play(&mv) {
            Ok(()) => {
                self.dirty = true;
                self.say(&format!("engine plays {text}"));
                if let Some(took) = self.took_words(&position, &mv) {
                    self.say(&took);
                }
                if self.options.labels == Labels::Host {
                    self.say(&format!(
                        "  (in host notation: {})",
                        host::move_text(&position, &mv)
                    ));
                }
            }
            Err(e) => {
                self.say(&format!("The engine chose an illegal move, {text}: {e}."));
                let _ = self.game.resign(position.to_move());
            }
        }
    }

    fn help(&mut self) {
        let set = self.game.rules().set;
        let mut text = String::new();
        text.push_str(
            "\
HOW TO WRITE A MOVE
Official notation: columns a, b, c... from the left; rings numbered from 1 at the bottom of
each column (with the default board labels every ring shows its name).
  Wd4,a1      place a white marble on d4, then remove the free ring a1
  Bc3         place a black marble on c3 (only when no ring is free to remove)
  x d1Gd3     capture: the marble on d1 jumps the grey marble on d2 and lands on d3
  x d1d3d5    a longer capture: it jumps again, from d3 to d5 (colours may be left out)
Host notation (type `coords` to label the board with it): rows A, B... from the right-hand
column, rings numbered from its top among the rings still there.
  W D4 A1     a placement with its removed ring
  C3xC5       a capture from C3 to C5 (C3xC5xE5 for a chain)
W, G and B are white, grey and black; `w d4 a1` and `wd4 a1` are understood too.

THE RULES IN SHORT
- If a capture is possible you must capture, and keep jumping while you can.
- Otherwise place a marble of any colour from the supply on an empty ring, then remove a free
  ring: an empty ring at the edge that can slide out sideways, shown (o) on the board.
- Rings cut off from the rest with a marble on each are taken too, marbles and all (isolation).
- Once the supply is empty you place marbles from your own captures.
",
        );
        let _ = writeln!(
            text,
            "- You win with {} white, or {} grey, or {} black, or {} of each colour.\n",
            set.single.get(Colour::White),
            set.single.get(Colour::Grey),
            set.single.get(Colour::Black),
            set.each
        );
        text.push_str(
            "\
COMMANDS
  moves         the legal moves (captures listed; many placements summarised); `moves all`
  hint          a suggestion from the engine, with its score
  undo          take back your last move (and the engine's reply; with two players, one turn)
  board         draw the board again
  position      the position as a one-line string (for `zertz show`)
  coords        switch the board labels between official (d4) and host (C3) coordinates
  free          mark the free rings (o) on the board, or stop marking them
  save [FILE]   save the game as a record (BoardSpace .sgf if FILE ends in .sgf); without a
                name, to zertz-DATE.txt
  load FILE     continue a game from a record or a BoardSpace .sgf (asks first when this
                game has moves that are not saved)
  resign        give up this game (asks first)
  quit          leave (if the game has unsaved moves, asks first)
  help          this text
",
        );
        if self.game.rules().bribes {
            text.push_str(
                "\
  bribe W/G/B   offer marbles to skip your turn, e.g. `bribe 1/0/0` for one white. Both
                players must hold them among their captures; if accepted they go to the
                opponent and your turn passes.
",
            );
            if self.human.is_some() {
                text.push_str(
                    "                The engine accepts when the bribe completes a winning set \
for it, or when\n                its search rates the position after your pass at least as \
good for it as\n                letting you move. It never offers bribes itself.\n",
                );
            } else {
                text.push_str("  accept/reject answer the other player's bribe\n");
            }
        }
        self.say(text.trim_end());
    }

    fn moves(&mut self, all: bool) {
        if let Some(b) = self.game.pending_bribe() {
            self.say(&format!(
                "A bribe of {} is waiting: `accept` or `reject` it first.",
                b.bribe
            ));
            return;
        }
        let position = self.game.position().clone();
        let moves = self.game.legal_moves();
        let host = self.options.labels == Labels::Host;
        let text = describe_moves(&position, &moves, host, all);
        self.say(&text);
    }

    fn adviser(&mut self) -> &mut zertz_engine::Player {
        let seed = self.seed;
        self.adviser.get_or_insert_with(|| {
            zertz_engine::Player::new(Kind::Level(10), seed, SearchOptions::default(), 32)
        })
    }

    fn hint(&mut self) {
        if self.game.is_over() || self.game.pending_bribe().is_some() {
            self.say("There is no move to suggest now.");
            return;
        }
        let game = self.game.clone();
        let limits = self.think.limits.clone();
        let Some(result) = self.adviser().search(&game, &limits) else {
            return;
        };
        let Some(best) = result.best else {
            self.say("There is no legal move.");
            return;
        };
        let position = game.position().clone();
        let mut pv = Vec::new();
        let mut p = position.clone();
        for mv in result.pv.iter().take(6) {
            if p.check(mv).is_err() {
                break;
            }
            pv.push(official::move_text(&p, mv));
            p.play_unchecked(mv);
        }
        let whom = if self.human.is_some() {
            "you".to_string()
        } else {
            position.to_move().to_string()
        };
        self.say(&format!(
            "hint: {}, score {} for {whom} ({}; {} turn{} deep)",
            self.move_words(&position, &best),
            result.score,
            score_words(result.score),
            result.depth,
            if result.depth == 1 { "" } else { "s" }
        ));
        if pv.len() > 1 {
            self.say(&format!("expected line: {}", pv.join("  ")));
        }
    }

    fn undo(&mut self) {
        let turns = self.game.turns().len();
        let target = match self.human {
            None => {
                if turns == 0 {
                    self.say("There is no move to undo: the game has just started.");
                    return;
                }
                turns - 1
            }
            Some(h) => match (0..turns)
                .rev()
                .find(|&i| self.game.positions()[i].to_move() == h)
            {
                Some(i) => i,
                None => {
                    self.say("There is no move of yours to undo: you have not moved yet.");
                    return;
                }
            },
        };
        let mut taken = Vec::new();
        while self.game.turns().len() > target {
            let i = self.game.turns().len() - 1;
            let mover = self.game.positions()[i].to_move();
            let words = format!("{} ({})", self.turn_words(i), self.who(mover));
            if self.game.undo().is_err() {
                break;
            }
            taken.push(words);
        }
        taken.reverse();
        self.dirty = true;
        self.say(&format!("Taken back: {}.", taken.join(", ")));
        self.show();
    }

    fn toggle_coords(&mut self) {
        if self.options.labels == Labels::Host {
            self.options.labels = self.official_labels;
            self.say(
                "The board shows official coordinates (d4). Host notation is still understood.",
            );
        } else {
            self.official_labels = self.options.labels;
            self.options.labels = Labels::Host;
            self.say(
                "The board shows host coordinates (C3); they change as rings leave. \
                 Official notation is still understood.",
            );
        }
        self.show();
    }

    fn save(&mut self, name: &str) {
        let path = if name.is_empty() {
            default_file_name()
        } else {
            PathBuf::from(name)
        };
        let names = self.names();
        let date = self
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Date"))
            .map_or_else(|| today().0, |(_, v)| v.clone());
        let is_sgf = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
        let text = if is_sgf {
            let info = boardspace::ExportInfo {
                players: names.clone(),
                date: Some(date),
                name: Some("zertz play".to_string()),
                designer: None,
            };
            match boardspace::export(&self.game, &info) {
                Ok(text) => text,
                Err(e) => {
                    self.say(&format!(
                        "Not saved: {e}. Save without .sgf to use the project's record format."
                    ));
                    return;
                }
            }
        } else {
            let mut record = Record::new(self.game.clone(), &[]);
            record.headers = self.headers.clone();
            record.set_header("Player1", &names[0]);
            record.set_header("Player2", &names[1]);
            record.set_header("Date", &date);
            if record.header("Event").is_none() {
                record.set_header("Event", "zertz play");
            }
            record.to_string()
        };
        match std::fs::write(&path, text) {
            Ok(()) => {
                self.dirty = false;
                self.say(&format!(
                    "Saved {} turns to {} (continue it with `zertz play --load {}`).",
                    self.game.turns().len(),
                    path.display(),
                    path.display()
                ));
            }
            Err(e) => self.say(&format!("Not saved: cannot write {}: {e}.", path.display())),
        }
    }

    fn load(&mut self, name: &str) {
        if name.is_empty() {
            self.say("Which file? Type `load FILE`, e.g. `load mygame.txt`.");
            return;
        }
        match load_game(Path::new(name)) {
            Ok((game, headers)) => {
                if self.dirty && !self.game.turns().is_empty() {
                    self.say("This game has moves that are not saved (`save FILE` keeps them).");
                    if !self.confirm(&format!("Replace it with {name}? (yes/no)> ")) {
                        self.say("Not loaded: the game goes on.");
                        return;
                    }
                }
                self.game = game;
                self.headers = headers;
                self.dirty = false;
                if let Some(engine) = self.engine.as_mut() {
                    engine.new_game();
                }
                self.say(&format!(
                    "Loaded {name}: {} turns played.",
                    self.game.turns().len()
                ));
                self.show();
            }
            Err(e) => self.say(&format!("Not loaded: {e:#}.")),
        }
    }

    fn bribe(&mut self, counts: &str) {
        if !self.game.rules().bribes {
            self.say("Bribes are not allowed in this game (start it with --bribes to allow them).");
            return;
        }
        if counts.is_empty() {
            self.say("Write the bribe as white/grey/black counts: `bribe 1/0/0` offers one white marble.");
            return;
        }
        let bribe = match Marbles::parse_slashed(counts) {
            Ok(b) => b,
            Err(e) => {
                self.say(&format!("Not a bribe: {e}."));
                return;
            }
        };
        let proposer = self.game.to_move();
        if let Err(e) = self.game.propose_bribe(bribe) {
            self.say(&format!("Bribe refused: {e}."));
            return;
        }
        self.dirty = true;
        if self.human.is_none() {
            self.say(&format!(
                "{proposer} offers {} {bribe} (white/grey/black) to pass.",
                proposer.other()
            ));
            return;
        }
        let (accept, why) = self.engine_answer(bribe);
        if let Err(e) = self.game.answer_bribe(accept) {
            self.say(&format!("The bribe could not be settled: {e}."));
            return;
        }
        if accept {
            self.say(&format!(
                "The engine accepts your bribe of {bribe} ({why}): the marbles are handed over and your turn passes."
            ));
            if self.game.is_over() {
                self.show();
            }
        } else {
            self.say(&format!(
                "The engine rejects your bribe of {bribe} ({why}). Make your move."
            ));
        }
    }

    /// The engine's answer to the human's bribe, and why.
    fn engine_answer(&mut self, bribe: Marbles) -> (bool, String) {
        let position = self.game.position().clone();
        let engine_side = position.to_move().other();
        if let Ok(after) = position.pass_with_bribe(bribe)
            && after.winner_by_captures() == Some(engine_side)
        {
            return (true, "it completes a winning set".to_string());
        }
        let limits = self.think.limits.clone();
        let mut passed = self.game.clone();
        let mut refused = self.game.clone();
        if passed.answer_bribe(true).is_err() || refused.answer_bribe(false).is_err() {
            return (false, "the pass is not allowed".to_string());
        }
        let adviser = self.adviser();
        // Both scores from the engine's side: after the pass the engine moves; otherwise the
        // proposer does, and the engine's view is the opposite of theirs.
        let pass = adviser.search(&passed, &limits).map(|r| r.score.rank());
        let moves = adviser.search(&refused, &limits).map(|r| -r.score.rank());
        match (pass, moves) {
            (Some(p), Some(m)) if p >= m => (
                true,
                "its search rates your pass at least as good for it as your move".to_string(),
            ),
            _ => (false, "its search prefers that you make a move".to_string()),
        }
    }

    fn answer_bribe(&mut self, accept: bool) {
        let Some(pending) = self.game.pending_bribe() else {
            self.say("No bribe is waiting for an answer.");
            return;
        };
        match self.game.answer_bribe(accept) {
            Ok(()) => {
                self.dirty = true;
                if accept {
                    self.say(&format!(
                        "{} accepts {} from {}: {} passes.",
                        pending.by.other(),
                        pending.bribe,
                        pending.by,
                        pending.by
                    ));
                    self.show();
                } else {
                    self.say(&format!(
                        "{} rejects the bribe: {} must move.",
                        pending.by.other(),
                        pending.by
                    ));
                }
            }
            Err(e) => self.say(&format!("{e}.")),
        }
    }

    fn quit(&mut self) -> Flow {
        if !self.dirty || self.game.turns().is_empty() {
            self.say("Bye.");
            return Flow::Leave;
        }
        self.say("This game has moves that are not saved (`save FILE` keeps them).");
        loop {
            match self.ask("Leave without saving? (yes/no)> ") {
                None => return Flow::Leave,
                Some(answer) => match answer.trim().to_ascii_lowercase().as_str() {
                    "yes" | "y" => {
                        self.say("Game left unfinished and not saved. Bye.");
                        return Flow::Leave;
                    }
                    "no" | "n" | "" => {
                        self.say("Back to the game.");
                        return Flow::Continue;
                    }
                    _ => self.say("Please answer yes or no."),
                },
            }
        }
    }

    /// The end of the game: the result, then an offer to save.
    fn after_game(&mut self) -> Flow {
        let Some(outcome) = self.game.outcome() else {
            return Flow::Continue;
        };
        let verdict = match (outcome.winner(), self.human) {
            (Some(w), Some(h)) if w == h => " You win!",
            _ => "",
        };
        let names = [0, 1].map(|i| self.subject(Player::BOTH[i]));
        let said =
            zertz::sentences::outcome(&outcome, [&names[0], &names[1]], self.game.position());
        self.say(&format!("Game over: {said}{verdict}"));
        let undo = if outcome_by_rules(outcome) {
            ", `undo` to take back moves"
        } else {
            ""
        };
        self.say(&format!(
            "Type `save` to keep a record of this game (or `save FILE`){undo}, or press Enter to leave."
        ));
        loop {
            let Some(line) = self.ask("game over> ") else {
                return Flow::Leave;
            };
            let line = line.trim();
            let (word, rest) = match line.split_once(char::is_whitespace) {
                Some((w, r)) => (w, r.trim()),
                None => (line, ""),
            };
            match word.to_ascii_lowercase().as_str() {
                "" | "quit" | "exit" | "no" | "n" => {
                    self.say("Bye.");
                    return Flow::Leave;
                }
                "save" | "yes" | "y" => {
                    self.save(rest);
                    self.say("Press Enter to leave.");
                }
                "undo" if outcome_by_rules(outcome) => {
                    self.undo();
                    return Flow::Continue;
                }
                "load" => {
                    self.load(rest);
                    if !self.game.is_over() {
                        return Flow::Continue;
                    }
                }
                "board" => self.show(),
                "position" => {
                    let p = self.game.position().to_string();
                    self.say(&p);
                }
                "help" | "?" => self.say(
                    "The game is over. `save [FILE]` saves it, `undo` takes back moves (not after a \
                     resignation), `board` draws it, `load FILE` opens another game, Enter leaves.",
                ),
                _ => self.say(&format!(
                    "The game is over: type `save` to keep it{undo}, or press Enter to leave."
                )),
            }
        }
    }
}

/// A move in official or host notation, read by the rules library as the server reads it
/// (a lower-case colour and a dash or a space before the removed ring are understood there).
fn parse_move(position: &Position, line: &str) -> Result<Move, notation::MoveParseError> {
    notation::parse_any(position, line)
}

/// True when the rules ended the game (not a resignation), so that an undo makes sense.
fn outcome_by_rules(outcome: Outcome) -> bool {
    !matches!(
        outcome,
        Outcome::Win {
            reason: zertz::WinReason::Resignation,
            ..
        }
    )
}

/// What a score means, for the player to move.
fn score_words(score: Score) -> String {
    match score {
        Score::Value(_) => "above zero favours you, about 10 points a marble".into(),
        Score::Win(1) => "this move wins".into(),
        Score::Win(n) => format!("a forced win: the winning move is your turn {n} from now"),
        Score::Loss(n) => format!(
            "a forced loss: the opponent can win on their turn {n} from now whatever you do"
        ),
    }
}

/// "a, b or c".
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Words wrapped to lines of about 78 characters, each indented by `indent` spaces.
fn wrap(words: &[String], indent: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && indent + line.len() + 1 + w.len() > 78 {
            let _ = writeln!(out, "{}{line}", " ".repeat(indent));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{}{line}", " ".repeat(indent));
    }
    out
}

/// The legal moves, described for a person: captures all listed; placements listed when few,
/// otherwise summarised by colour, target ring and removable ring.
fn describe_moves(position: &Position, moves: &[Move], host: bool, all: bool) -> String {
    if moves.is_empty() {
        return "There is no legal move now.".to_string();
    }
    let name = |mv: &Move| {
        if host {
            host::move_text(position, mv)
        } else {
            official::move_text(position, mv)
        }
    };
    let in_host = if host { " (host notation)" } else { "" };
    let mut text = String::new();
    let captures: Vec<&Move> = moves.iter().filter(|m| m.is_capture()).collect();
    if !captures.is_empty() {
        let _ = writeln!(
            text,
            "{} capture{}{in_host}; capturing is compulsory:",
            captures.len(),
            if captures.len() == 1 { "" } else { "s" }
        );
        let shown = if all { captures.len() } else { 40 };
        let names: Vec<String> = captures.iter().take(shown).map(|m| name(m)).collect();
        text.push_str(&wrap(&names, 2));
        if captures.len() > shown {
            let _ = writeln!(
                text,
                "  ... and {} more (`moves all`)",
                captures.len() - shown
            );
        }
        return text.trim_end().to_string();
    }
    if all || moves.len() <= 24 {
        let _ = writeln!(
            text,
            "{} legal move{}{in_host}:",
            moves.len(),
            if moves.len() == 1 { "" } else { "s" }
        );
        let names: Vec<String> = moves.iter().map(name).collect();
        text.push_str(&wrap(&names, 2));
        return text.trim_end().to_string();
    }
    let layout = position.layout();
    // Host coordinates sort by row letter, then number; official ones by column, then row.
    let coords = |places: &BTreeSet<(zertz::Coord, Place)>| -> Vec<String> {
        if !host {
            return places.iter().map(|(c, _)| c.to_string()).collect();
        }
        let mut named: Vec<(char, u32, String)> = places
            .iter()
            .filter_map(|(_, p)| host::coord_text(position, *p))
            .map(|t| {
                let letter = t.chars().next().unwrap_or('?');
                (letter, t[1..].parse().unwrap_or(0), t)
            })
            .collect();
        named.sort();
        named.into_iter().map(|(_, _, t)| t).collect()
    };
    let mut colours = BTreeSet::new();
    let mut targets = BTreeSet::new();
    let mut removals = BTreeSet::new();
    let mut without_removal = false;
    for mv in moves {
        if let Move::Place(p) = mv {
            colours.insert(p.colour);
            targets.insert((layout.coord(p.at), p.at));
            match p.remove {
                Some(r) => {
                    removals.insert((layout.coord(r), r));
                }
                None => without_removal = true,
            }
        }
    }
    let source = position.placement_source();
    let from = if position.supply().is_empty() {
        "your captures"
    } else {
        "the supply"
    };
    let _ = writeln!(
        text,
        "{} legal placements: a marble on an empty ring, then a free ring removed.",
        moves.len()
    );
    let colour_words: Vec<String> = colours
        .iter()
        .map(|c: &Colour| format!("{} ({} {})", c.letter(), source.get(*c), c.name()))
        .collect();
    let _ = writeln!(text, "  Colours, from {from}: {}", colour_words.join(", "));
    let _ = writeln!(text, "  On any of these {} empty rings:", targets.len());
    text.push_str(&wrap(&coords(&targets), 4));
    if removals.is_empty() {
        text.push_str("  No ring is free, so none is removed: write the placement alone.\n");
    } else {
        let _ = writeln!(
            text,
            "  Then remove one of these {} free rings (not the one just filled){}:",
            removals.len(),
            if without_removal {
                ", or none when none is left"
            } else {
                ""
            }
        );
        text.push_str(&wrap(&coords(&removals), 4));
    }
    let _ = write!(
        text,
        "  For example: {}{in_host}. `moves all` lists every one.",
        name(&moves[0])
    );
    text
}

/// The command closest to `word` by edit distance, if close enough to be a typo.
fn closest_command(word: &str) -> Option<&'static str> {
    let word = word.to_ascii_lowercase();
    COMMANDS
        .iter()
        .map(|c| (edit_distance(&word, c), *c))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut row = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            row.push((prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1));
        }
        prev = row;
    }
    prev[b.len()]
}

/// Today's date (UTC) as `YYYY-MM-DD`, and the time as `HHMMSS`.
fn today() -> (String, String) {
    let iso = zertz_server::util::iso_time(zertz_server::util::now_ms());
    (iso[..10].to_string(), iso[11..19].replace(':', ""))
}

/// `zertz-DATE.txt`, or `zertz-DATE-2.txt` and so on when that file exists.
fn default_file_name() -> PathBuf {
    let (date, _) = today();
    let mut n = 1;
    loop {
        let name = if n == 1 {
            format!("zertz-{date}.txt")
        } else {
            format!("zertz-{date}-{n}.txt")
        };
        let path = PathBuf::from(name);
        if !path.exists() {
            return path;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loose_placements_are_read_as_the_library_reads_them() {
        let start = Position::standard();
        let want = notation::parse_any(&start, "Wd4,a1").unwrap();
        for loose in ["wd4,a1", "W d4 a1", "Wd4 a1", "Wd4-a1", " w d4, a1 "] {
            assert_eq!(parse_move(&start, loose), Ok(want), "{loose}");
        }
        let refused = parse_move(&start, "w d4 d5").unwrap_err().to_string();
        assert!(refused.ends_with("ring d5 is not free"), "{refused}");
        assert!(parse_move(&start, "board").is_err());
    }

    #[test]
    fn typos_find_their_command() {
        assert_eq!(closest_command("hlep"), Some("help"));
        assert_eq!(closest_command("mvoes"), Some("moves"));
        assert_eq!(closest_command("Undo"), Some("undo"));
        assert_eq!(closest_command("xyzzyplugh"), None);
    }

    #[test]
    fn the_start_is_summarised() {
        let start = Position::standard();
        let text = describe_moves(&start, &start.legal_moves(), false, false);
        assert!(text.starts_with("1944 legal placements"), "{text}");
        assert!(text.contains("On any of these 37 empty rings"), "{text}");
        assert!(
            text.contains("Then remove one of these 18 free rings"),
            "{text}"
        );
    }

    #[test]
    fn dates_are_civil() {
        let (date, time) = today();
        assert_eq!(date.len(), 10);
        assert_eq!(time.len(), 6);
        assert!(date.starts_with("20"));
    }
}
