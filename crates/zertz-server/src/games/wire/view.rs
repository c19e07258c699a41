//! The state of a game as clients receive it: everything a player needs to show the game and
//! choose a move, including the legal moves (compact, see `compact`), so no client
//! re-implements the rules.

use serde::Serialize;
use zertz::{Colour, Marbles, Player};

use crate::games::model::{SeatKind, seat_number};
pub use crate::games::presence::Presence;
use crate::games::room::{ClockView, Room, slashed};
use crate::games::wire::compact::Legal;
use crate::games::wire::move_list::MoveList;

/// A game's state at one version. (`events` sends the fields that changed from one to the
/// next: a field added here is sent there too.)
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game.
    pub id: String,
    /// The number of events so far; every event raises it by one.
    pub version: i64,
    /// `open`, `live` or `finished`.
    pub status: &'static str,
    /// Board name (`37`, `48`, …, `custom`).
    pub board: &'static str,
    /// Rule set name.
    pub rules: String,
    /// `threefold` or `forbidden`.
    pub repetition: String,
    /// Bribe-to-pass rule on.
    pub bribes: bool,
    /// Casual (takebacks allowed).
    pub casual: bool,
    /// Rated: the result changes both players' ratings in `pool`.
    pub rated: bool,
    /// The rating pool of the game (`standard-rapid`…), rated or not; none outside every pool.
    pub pool: Option<String>,
    /// The time control.
    pub clock: crate::games::clock::ClockSpec,
    /// The time control in words.
    pub clock_text: String,
    /// Player one's and player two's seats.
    pub seats: [SeatView; 2],
    /// The viewer's seat (1 or 2), if they hold one.
    pub you: Option<u8>,
    /// The player to move (1 or 2).
    pub to_move: u8,
    /// The position string.
    pub position: String,
    /// Marbles in the supply, white/grey/black.
    pub supply: [u8; 3],
    /// Captures of player one and player two, white/grey/black.
    pub captures: [[u8; 3]; 2],
    /// Both clocks.
    pub clocks: [ClockView; 2],
    /// The moves in official notation.
    pub moves: MoveList,
    /// The legal moves of the player to move, compact (`null` when the game is not live, a
    /// bribe awaits its answer, or there is no move).
    pub legal: Legal,
    /// The same moves spelled out in official notation, for the API clients that ask for them
    /// (`?legal=list`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<crate::games::wire::legal::LegalMoves>,
    /// A draw offered by this seat.
    pub draw_offer: Option<u8>,
    /// A takeback asked by this seat.
    pub takeback_request: Option<u8>,
    /// A bribe waiting for its answer.
    pub pending_bribe: Option<BribeView>,
    /// Bribes each player may still propose (when bribes are on).
    pub bribes_left: Option<[u32; 2]>,
    /// Seats that asked for a rematch.
    pub rematch: [bool; 2],
    /// The rematch or the match's next game.
    pub next_game: Option<String>,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// What the last turn did, in a sentence ("Ann places a white marble on d4 and removes ring
    /// a1; it isolates one ring and takes a grey marble.").
    pub last: Option<String>,
    /// The match this game belongs to: id and game number.
    pub match_game: Option<(String, u32)>,
    /// Server time when this view was made (ms since the epoch), for ticking the clocks.
    pub server_ms: i64,
    /// Time the running clock has run at `server_ms` (ms), while the game is live: into the
    /// current turn, or into the answer to a pending bribe. With `clocks`, lets a client tick
    /// clocks that charge per turn (per move + reserve).
    pub turn_ms: Option<i64>,
    /// A Zertz+xx game's design: the rings placed, the grid, and whether player two swapped
    /// (absent in other games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub design: Option<crate::games::design::DesignView>,
    /// An arena's game: the seats that went berserk (absent in other games, where nobody
    /// may).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub berserk: Option<[bool; 2]>,
}

/// A seat as shown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatView {
    /// `human` or `engine`.
    pub kind: &'static str,
    /// The engine's level.
    pub level: Option<u8>,
    /// The engine level's published rating (docs/accounts.md).
    pub rating: Option<i32>,
    /// The name, once someone sits there.
    pub name: Option<String>,
    /// A person without an account (the name is what they typed, shown with a guest mark);
    /// false for an account (its name leads to its profile), an engine or an empty seat.
    pub guest: bool,
    /// Connected now (engines always are).
    pub connected: bool,
    /// While a person is away (docs/server.md, "Presence"): ms until the opponent may claim
    /// the game (0: claimable now).
    pub away_claim_in_ms: Option<i64>,
}

/// A bribe waiting for its answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BribeView {
    /// Who proposed it (1 or 2).
    pub by: u8,
    /// `white/grey/black`.
    pub marbles: String,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultView {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` (aborted).
    pub token: String,
    /// The winner (1 or 2), if any.
    pub winner: Option<u8>,
    /// In words.
    pub text: String,
}

fn counts(m: Marbles) -> [u8; 3] {
    Colour::ALL.map(|c| m.get(c))
}

/// The move list of `room`, carried from `previous` when that is the view one event earlier
/// (spelling every move out again for each event cost the server 2 % of its CPU at 9,000
/// games): a move or an accepted bribe adds one turn's text, a takeback cuts the list, the
/// events that play no turn leave it; the rest (a designed board begun, a first event) spell
/// it out again.
pub fn moves_after(previous: &GameView, room: &Room) -> MoveList {
    use crate::games::model::Event;
    if previous.version + 1 != room.version() {
        return move_list(room);
    }
    let kept = &previous.moves;
    let (turns, positions) = (room.game.turns(), room.game.positions());
    let n = turns.len();
    match room.log.last().map(|(_, e)| e) {
        Some(Event::Moved { .. } | Event::BribeAnswered { .. }) if n == kept.len() + 1 => kept.and(
            &zertz::notation::official::turn_text(&positions[n - 1], &turns[n - 1]),
        ),
        Some(Event::TakenBack { .. }) if n <= kept.len() => kept.first(n),
        Some(
            Event::Created { .. }
            | Event::RingAdded { .. }
            | Event::RingRemoved { .. }
            | Event::DesignFinished { .. }
            | Event::Swapped { .. },
        )
        | None => move_list(room),
        Some(_) if n == kept.len() => kept.clone(),
        Some(_) => move_list(room),
    }
}

/// The move list of `room`, every move spelled out.
pub fn move_list(room: &Room) -> MoveList {
    room.move_list().into_iter().collect()
}

impl GameView {
    /// The view of `room` for `viewer` (a seat, or a spectator), at `now_ms`. `claim_after_ms`
    /// is the countdown before an absent player's game may be claimed.
    pub fn of(
        room: &Room,
        viewer: Option<Player>,
        presence: &Presence,
        now_ms: i64,
        claim_after_ms: i64,
        legal: &Legal,
    ) -> GameView {
        let moves = move_list(room);
        GameView::with_moves(room, viewer, presence, now_ms, claim_after_ms, legal, moves)
    }

    /// As [`GameView::of`], with the move list given (see [`moves_after`]).
    #[allow(clippy::too_many_arguments)]
    pub fn with_moves(
        room: &Room,
        viewer: Option<Player>,
        presence: &Presence,
        now_ms: i64,
        claim_after_ms: i64,
        legal: &Legal,
        moves: MoveList,
    ) -> GameView {
        let position = room.game.position();
        let live = room.status() == crate::games::room::status::LIVE;
        // While the board is designed, nobody moves.
        let playing = live && !room.designing();
        let mover = position.to_move();
        let seats = [0, 1].map(|i| {
            let (kind, level) = match room.settings.seats[i] {
                SeatKind::Human => ("human", None),
                SeatKind::Engine { level } => ("engine", Some(level)),
            };
            let connected = level.is_some() || presence.connections[i] > 0;
            SeatView {
                kind,
                level,
                rating: level.and_then(crate::games::engine_ratings::rating),
                name: room.names[i].clone(),
                guest: level.is_none() && room.names[i].is_some() && room.accounts[i].is_none(),
                connected,
                away_claim_in_ms: match (connected, presence.away_since(i, room.started_at_ms)) {
                    (false, Some(since)) if live => Some((since + claim_after_ms - now_ms).max(0)),
                    _ => None,
                },
            }
        });
        let clocks = [Player::One, Player::Two].map(|p| {
            // The mover's clock runs; while a bribe waits for its answer, the answerer's runs
            // and the proposer's is stopped.
            let (shown, running) = room.clock_shown(p, now_ms);
            ClockView {
                remaining_ms: shown.remaining_ms,
                periods_left: shown.periods_left,
                running,
            }
        });
        GameView {
            id: room.id.clone(),
            version: room.version(),
            status: room.status(),
            board: position.layout().kind().name(),
            rules: position.rule_set().to_string(),
            repetition: room.settings.repetition.clone(),
            bribes: room.settings.bribes,
            casual: room.settings.casual,
            rated: room.settings.rated,
            pool: room.settings.pool.clone(),
            clock: room.settings.clock,
            clock_text: room.settings.clock.describe(),
            seats,
            you: viewer.map(seat_number),
            to_move: seat_number(mover),
            position: position.to_string(),
            supply: counts(position.supply()),
            captures: [
                counts(position.captures(Player::One)),
                counts(position.captures(Player::Two)),
            ],
            clocks,
            moves,
            legal: if playing {
                legal.clone()
            } else {
                Legal::default()
            },
            legal_moves: None,
            draw_offer: room.draw_offer.map(seat_number),
            takeback_request: room.takeback_request.map(seat_number),
            pending_bribe: room.game.pending_bribe().map(|b| BribeView {
                by: seat_number(b.by),
                marbles: slashed(b.bribe),
            }),
            bribes_left: room
                .bribes_left(Player::One)
                .zip(room.bribes_left(Player::Two))
                .map(|(a, b)| [a, b]),
            rematch: room.rematch,
            next_game: room.next_game.clone(),
            result: room.result().map(|token| ResultView {
                winner: room
                    .game
                    .outcome()
                    .and_then(|o| o.winner())
                    .map(seat_number),
                text: room.result_text().unwrap_or_default(),
                token,
            }),
            last: room.last_turn_text(),
            match_game: room
                .settings
                .match_game
                .as_ref()
                .map(|m| (m.match_id.clone(), m.number)),
            server_ms: now_ms,
            turn_ms: live.then(|| room.running_ms(now_ms)),
            berserk: room.settings.berserk.then_some(room.berserk),
            design: room
                .design
                .as_ref()
                .map(|d| d.view(room.game.turns().len())),
        }
    }
}

/// The legal moves of the player to move, in official notation.
pub fn legal_move_texts(room: &Room) -> crate::games::wire::legal::LegalMoves {
    crate::games::wire::legal::LegalMoves::of(&room.game)
}

impl GameView {
    /// Adds the legal moves spelled out (`?legal=list`), while the game is live.
    pub fn with_list(mut self, room: &Room) -> GameView {
        let live = room.status() == crate::games::room::status::LIVE && !room.designing();
        self.legal_moves = Some(if live {
            legal_move_texts(room)
        } else {
            crate::games::wire::legal::LegalMoves::default()
        });
        self
    }
}
