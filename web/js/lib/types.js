// @ts-check
// The JSON the server sends, as JSDoc types for `tsc --noEmit` (tests/browser/tsconfig.json).
// Each type names the Rust struct it mirrors: when a view changes there, change it here. The
// module exports nothing at run time and no page imports it: the other modules name its types
// as `import('./types.js').GameState`.

// ---- a game (crates/zertz-server/src/games/view.rs and around) ----

/**
 * `ClockSpec` (games/clock.rs): the time control, tagged by `kind`.
 * @typedef {{kind: 'unlimited'}
 *   | {kind: 'sudden_death', total_ms: number}
 *   | {kind: 'fischer', base_ms: number, increment_ms: number}
 *   | {kind: 'periods', main_ms: number, periods: number, period_ms: number}
 *   | {kind: 'per_move_reserve', per_move_ms: number, reserve_ms: number, step_ms: number}
 *   | {kind: 'correspondence', per_move_ms: number}} ClockSpec
 */

/**
 * `ClockView` (games/room.rs): one clock as of `server_ms`.
 * @typedef {object} ClockView
 * @property {number} remaining_ms main time or reserve left
 * @property {number} periods_left periods left (periods clocks)
 * @property {boolean} running
 */

/**
 * `SeatView` (games/view.rs).
 * @typedef {object} SeatView
 * @property {'human' | 'engine'} kind
 * @property {number | null} level the engine's level
 * @property {number | null} rating the engine level's published rating
 * @property {string | null} name
 * @property {boolean} guest a person without an account
 * @property {boolean} connected
 * @property {number | null} away_claim_in_ms while a person is away: ms until the game may be claimed
 */

/**
 * `BribeView` (games/view.rs).
 * @typedef {object} BribeView
 * @property {1 | 2} by who proposed it
 * @property {string} marbles `white/grey/black`
 */

/**
 * `ResultView` (games/view.rs).
 * @typedef {object} ResultView
 * @property {string} token `1-0`, `0-1`, `1/2-1/2` or `*`
 * @property {1 | 2 | null} winner
 * @property {string} text in words
 */

/**
 * `CompactLegal` (games/compact.rs): the legal moves, compact (web/js/lib/legal.js spells
 * them out). Every field is left out when empty.
 * @typedef {object} CompactLegal
 * @property {string} [colours] the colours that may be placed (`WGB`)
 * @property {string[]} [empty] the empty rings
 * @property {string[]} [free] the free rings
 * @property {string[]} [isolating] placements that isolate, in full
 * @property {string[]} [repeating] placements the no-repetition rule forbids
 * @property {string[]} [captures] on a capture turn, every capture
 */

/**
 * `DesignView` (games/design.rs): a Zertz+xx board being designed.
 * @typedef {object} DesignView
 * @property {'designing' | 'swap_or_move' | 'played'} phase
 * @property {number} designer
 * @property {string[]} rings
 * @property {string} grid a position string of the whole grid
 * @property {boolean} swapped
 * @property {number} max_rings
 */

/**
 * `GameView` (games/view.rs): a game's state as `GET /api/games/{id}` and the game socket
 * send it. `legal_moves` is added by the page (web/js/lib/legal.js, `withLegalMoves`).
 * @typedef {object} GameState
 * @property {string} id
 * @property {number} version
 * @property {'open' | 'live' | 'finished'} status
 * @property {string} board
 * @property {string} rules
 * @property {string} repetition `threefold` or `forbidden`
 * @property {boolean} bribes
 * @property {boolean} casual
 * @property {boolean} rated
 * @property {string | null} pool
 * @property {ClockSpec} clock
 * @property {string} clock_text
 * @property {[SeatView, SeatView]} seats
 * @property {1 | 2 | null} [you] the viewer's seat (never in a socket's changes)
 * @property {1 | 2} to_move
 * @property {string} position
 * @property {number[]} supply white/grey/black
 * @property {number[][]} captures each player's, white/grey/black
 * @property {[ClockView, ClockView]} clocks
 * @property {string[]} moves official notation
 * @property {CompactLegal | null} legal
 * @property {string[]} [legal_moves] spelled out
 * @property {1 | 2 | null} draw_offer
 * @property {1 | 2 | null} takeback_request
 * @property {BribeView | null} pending_bribe
 * @property {[number, number] | null} bribes_left
 * @property {[boolean, boolean]} rematch
 * @property {string | null} next_game
 * @property {ResultView | null} result
 * @property {string | null} last the last turn in a sentence
 * @property {[string, number] | null} match_game match id and game number
 * @property {number} server_ms
 * @property {number | null} turn_ms
 * @property {DesignView} [design]
 * @property {[boolean, boolean]} [berserk] an arena's game: the seats that went berserk
 */

/**
 * `Event` (games/model.rs): one entry of a game's log, as the socket names the event behind a
 * message. Only the fields the pages read are listed.
 * @typedef {object} GameEvent
 * @property {string} type `joined`, `started`, `moved`, `draw_offered`, `bribe_proposed`, `berserk`, …
 * @property {1 | 2} [seat]
 * @property {string} [name] `joined`
 * @property {string} [notation] `moved`
 * @property {string} [marbles] `bribe_proposed`
 * @property {boolean} [accepted] `bribe_answered`
 * @property {number} [turns] `taken_back`
 * @property {string} [game_id] `next_game`
 */

/**
 * What a message of the game socket changes (games/changes.rs, `Changes`): the fields of the
 * state that differ, and the new tail of the moves.
 * @typedef {Partial<GameState> & {moves_tail?: {from: number, add: string[]}}} GameChanges
 */

/**
 * An action of a seat (games/model.rs, `Action`), sent to `POST /api/games/{id}/action`.
 * @typedef {{type: 'move', move: string}
 *   | {type: 'propose_bribe', marbles: string}
 *   | {type: 'answer_bribe', accept: boolean}
 *   | {type: 'add_ring' | 'remove_ring', at: string}
 *   | {type: 'resign' | 'offer_draw' | 'accept_draw' | 'decline_draw' | 'request_takeback'
 *      | 'accept_takeback' | 'decline_takeback' | 'abort' | 'rematch' | 'claim_victory'
 *      | 'finish_design' | 'swap'}} GameAction
 */

// ---- the rooms' chat (store/chat.rs, http/chat_socket.rs) ----

/**
 * `ChatLine` (store/chat.rs).
 * @typedef {object} ChatLine
 * @property {number} seq its number in the room, from 1
 * @property {number} at_ms
 * @property {'player' | 'spectator' | 'room'} kind
 * @property {number | null} seat
 * @property {string} name
 * @property {boolean} guest
 * @property {string} text plain text
 * @property {string | null} played the move the line was played as
 * @property {number} turn turns played when it was said
 */

/**
 * The room's messages on a game's or a match's socket, and the answers to what was sent.
 * @typedef {{type: 'chat_history', lines: ChatLine[], muted?: string[]}
 *   | {type: 'chat', line: ChatLine}
 *   | {type: 'ack', version?: number, chat?: number}
 *   | {type: 'refused', status: number, error: string}} RoomMessage
 */

// ---- the sockets (http/game_socket.rs, games/broadcast.rs, http/match_socket.rs) ----

/**
 * What the game socket sends: the first message (`sync`, or `catchup` with the events
 * missed since `since`), then an `event` or `presence` per change.
 * @typedef {{type: 'sync', version: number, state: GameState}
 *   | {type: 'catchup', since: number, version: number, state: GameState, events: {version: number, event: GameEvent}[]}
 *   | {type: 'event', version: number, event: GameEvent, changes: GameChanges}
 *   | {type: 'presence', version: number, changes: GameChanges}
 *   | RoomMessage} GameMessage
 */

/**
 * What the match socket sends: the whole match on every change, and its room's chat.
 * @typedef {{type: 'match', match: MatchState} | RoomMessage} MatchMessage
 */

// ---- a match (games/match_state.rs) ----

/**
 * `ParticipantView`.
 * @typedef {object} Participant
 * @property {'human' | 'engine'} kind
 * @property {string | null} name
 * @property {number | null} level
 * @property {boolean} guest
 * @property {number | null} rating
 */

/**
 * `MatchGameEntry`.
 * @typedef {object} MatchGameEntry
 * @property {string} id
 * @property {number} first the participant (0 or 1) who moves first
 * @property {string | null} result
 * @property {number | null} winner
 */

/**
 * `MatchView`: `GET /api/matches/{id}` and the match socket's `match`.
 * @typedef {object} MatchState
 * @property {string} id
 * @property {number} best_of
 * @property {'open' | 'live' | 'finished'} status
 * @property {[Participant, Participant]} players
 * @property {number | null} you the viewer's participant index (0 or 1)
 * @property {[number, number]} score
 * @property {MatchGameEntry[]} games
 * @property {string | null} current_game
 * @property {[number, number] | null} bribes_left
 * @property {number | null} winner
 * @property {number | null} resigned
 * @property {string} clock_text
 * @property {string} start the start position of each game
 * @property {string} repetition
 * @property {boolean} bribes
 * @property {boolean} open
 * @property {boolean} rated
 * @property {string | null} pool
 */

// ---- positions and records ----

/**
 * `Described` (study/positions.rs): `GET /api/position?position=…`.
 * @typedef {object} PositionInfo
 * @property {string} position
 * @property {string} board
 * @property {string} rules
 * @property {1 | 2} to_move
 * @property {boolean} over
 * @property {string | null} result in words
 * @property {string[]} legal every legal move, official notation
 * @property {number[]} supply
 * @property {number[][]} captures
 */

/**
 * `Played` (study/positions.rs): `POST /api/position/play`.
 * @typedef {object} PlayedMove
 * @property {string} position the position after it
 * @property {string} move official notation
 * @property {string} host host notation
 * @property {string} said in words
 */

/**
 * `POST /api/import` (http/games.rs): a record read back by the server.
 * @typedef {object} ImportedGame
 * @property {[string, string][]} headers
 * @property {string} start
 * @property {string[]} moves
 * @property {string[]} positions positions[0] is the start, positions[i] follows moves[i-1]
 * @property {string} position
 * @property {string | null} result
 */

/**
 * A stored game's history, as web/js/lib/api.js `gameHistory` returns it.
 * @typedef {object} GameHistory
 * @property {string[]} moves
 * @property {string[]} positions
 * @property {[string, string][]} headers
 * @property {string | null} result
 */

/**
 * `GET /api/games/{id}/analysis?turn=n` (http/analysis.rs).
 * @typedef {object} GameAnalysis
 * @property {number} turn
 * @property {1 | 2} to_move
 * @property {boolean} over
 * @property {string} [score]
 * @property {number} [depth]
 * @property {{move: string, score: string, line: string[]}[]} best
 */

// ---- accounts and players ----

/**
 * `GET /api/me` (accounts/routes.rs): the logged-in account (the server answers
 * `{"name": null}` for a guest; `me()` in lib/account.js gives null then).
 * @typedef {{name: string}} Account
 */

/**
 * `ShownRating` (ratings/profile.rs): a rating in a pool, as a profile lists it.
 * @typedef {object} PoolRating
 * @property {string} pool the pool's key
 * @property {string} pool_name
 * @property {number} rating
 * @property {number} deviation
 * @property {boolean} provisional
 * @property {number} games rated games in the pool
 * @property {number} last_game_ms
 * @property {object[]} graph the rating after each rated game
 */

/**
 * `Profile` (ratings/profile.rs): `GET /api/players/{name}`.
 * @typedef {object} Profile
 * @property {string} name
 * @property {number} created_ms
 * @property {boolean} online
 * @property {PoolRating[]} ratings
 * @property {{games: number, won: number, lost: number, drawn: number, by_reason: [string, string, number][]}} results
 * @property {{id: string, seat: number | null, pool: string | null, rated: boolean}[]} playing
 */

// ---- tournaments (crates/zertz-server/src/tournaments/routes.rs `view`) ----

/**
 * A board of a round: the first mover (`white`), the second (`black`, null for a bye), the
 * game, and the result from the first mover's side (null while the game is played).
 * @typedef {object} TournamentBoard
 * @property {number} board
 * @property {string} white
 * @property {string | null} black
 * @property {string | null} game
 * @property {string | null} url
 * @property {string | null} result `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`, `bye`, `half-bye`, `zero-bye`, `rest`
 */

/**
 * A line of the standings (a knockout's: its places, without points or tie-breaks).
 * @typedef {object} StandingLine
 * @property {number | null} rank a knockout's player still in has none
 * @property {string} name
 * @property {number} number pairing number
 * @property {number} [points]
 * @property {number} [buchholz_cut1]
 * @property {number} [sonneborn_berger]
 * @property {number} [direct_encounter]
 * @property {number} [out_in] a knockout: the round the player went out in
 * @property {number} wins games won (a knockout: matches won)
 * @property {boolean} [withdrawn] withdrew while the event ran: paired no more
 * @property {number} [games] an arena: games played
 * @property {number} [streak] an arena: wins in a row up to now
 * @property {boolean} [on_fire] an arena: two wins in a row, the next game counts double
 * @property {number} [berserk_wins] an arena: berserk wins that earned the extra point
 * @property {{points: number, outcome: 'win' | 'draw' | 'loss', doubled: boolean, berserk: boolean}[]} [sheet] an arena: each game's points
 * @property {boolean} [playing] an arena: in a game now
 * @property {boolean} [away] an arena: left (not paired until they join again)
 */

/**
 * `GET /api/tournaments/{id}`: an event.
 * @typedef {object} Tournament
 * @property {string} id
 * @property {string} name
 * @property {string} format `swiss`, `round_robin`, `knockout` or `arena`
 * @property {'registering' | 'running' | 'paused' | 'finished'} status
 * @property {string} organiser
 * @property {{board: string, rules: string, clock: ClockSpec, rated: boolean, rounds?: number, double: boolean, first_move_s: number, first_mover?: 'lower' | 'higher', third_place?: boolean, minutes?: number, berserk?: boolean, min_rating?: number, max_rating?: number, min_account_days?: number} | null} settings
 * @property {string | null} clock_text
 * @property {number | null} start_ms
 * @property {number} max_players
 * @property {number} players
 * @property {number} round the last round paired
 * @property {number | null} rounds
 * @property {{name: string, rating: number, number: number | null, withdrawn: boolean, byes: {round: number, points: 'half' | 'zero'}[], first: 'me' | 'opponent', engine: number | null}[]} entries
 * @property {{round: number, boards: TournamentBoard[]}[]} pairings
 * @property {{after_round: number, lines: StandingLine[]}} standings
 * @property {number | null} [ends_ms] an arena: when it stops pairing
 */

export {};
