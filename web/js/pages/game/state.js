// @ts-check
// The game page's state, and each state the server sends applied to it: the position and the
// moves that may be entered in it, the positions before the moves (for host notation), the
// profiles of the accounts playing, the match the game belongs to. Everything the page shows
// is drawn from here (view.js); what changed is said (speech.js).

import { api, gameHistory, matchToken, saveSeatToken, seatToken } from '../../lib/api.js';
import { withLegalMoves } from '../../lib/legal.js';
import { hostMoveText, parsePosition } from '../../lib/position.js';
import { handOf } from '../../lib/playable.js';
import { pref } from '../../lib/prefs.js';
import { analyse, show } from './actions.js';
import { playPremove } from './premove.js';
import { announce, presence, react } from './speech.js';
import { render, renderMatch } from './view.js';

/** @typedef {import('../../lib/types.js').GameState} GameState */

/** The game's id, from the address. */
export const id = decodeURIComponent(location.pathname.split('/')[2] || '');

/** An address of the game's API: `path('/action')`. */
export const path = (tail = '') => `/api/games/${encodeURIComponent(id)}${tail}`;

/** Everything the page knows of the game, and what the player is doing on it. */
export const page = {
  /** @type {GameState | null} the last state received */
  state: null,
  receivedAt: 0,
  /** @type {string | null} this browser's seat token, if it holds one */
  token: null,
  /** @type {import('../../lib/types.js').Account | null} the logged-in account, null for a guest */
  account: null,
  /** @type {string | null} the invitation's token from the link's #join=…, until the seat is taken */
  invite: null,
  /** @type {HTMLElement | null} kept from one drawing to the next, so a name being typed stays */
  joinForm: null,
  /** @type {import('../../lib/socket.js').GameSocket | null} */
  socket: null,
  /** @type {import('../../lib/playable.js').PlayableBoard | null} the board and the move being entered */
  board: null,
  /** @type {import('../../lib/position.js').Position | null} the game's position */
  pos: null,
  /** @type {number | null} null: following the game; n: showing the position after n turns */
  viewTurn: null,
  /** @type {import('../../lib/types.js').GameHistory | null} every position of the game, once read */
  history: null,
  /** @type {import('../../lib/types.js').MatchState | null} the match the game belongs to */
  match: null,
  matchTries: 0, // how often the match was read again, waiting for it to count the game

  busy: false,
  confirmResign: false,
  /** @type {{el: HTMLElement, i: number}[]} the clocks drawn, by seat index */
  clocks: [],
  refreshedAt: 0,
  /** @type {number | null | undefined} the second of the claim countdown last drawn */
  claimSecond: undefined,
  /** @type {Map<number, any>} the engine's analysis after each turn (finished games) */
  analysis: new Map(),
  /**
   * A move made while the server could not be reached: sent when the link is back, unless the
   * game shows it arrived after all (`plies`: the moves there were when it was made).
   * @type {{move: string, plies: number, version: number} | null}
   */
  outbox: null,
  flushing: false, // the kept move is being sent
  /** @type {string | null} a move entered and shown, waiting for "Confirm" (its text) */
  pending: null,
  /** @type {string | null} a placement entered while the opponent thinks, sent on the player's turn */
  premove: null,
  /** @type {import('../../lib/moves.js').PremoveInput | null} the premove being entered */
  premoveInput: null,
  /** @type {string[]} the position string before each move, as far as known (for host notation) */
  before: [],
  /** @type {string[]} the moves in host notation, as far as known */
  hostTexts: [],
  beforeAsked: false, // the game's history has been asked for, to write the moves in host notation
  /** @type {import('../../lib/types.js').BribeView | null} the last bribe proposed (its answer does not repeat the marbles) */
  lastBribe: null,
  saidVersion: 0, // the last event told in words
  /** @type {number | null} the turn (version) whose low time was already warned of */
  lowWarned: null,
  myTurn: false,
  missing: false, // no such game
  /** @type {import('../../lib/chat.js').ChatPanel | null} the game room's chat panel */
  chat: null,
  /** @type {Map<string, import('../../lib/types.js').Profile | null>} account name → its profile (GET /api/players/{name}), null while asked */
  people: new Map(),
  /** @type {Map<string, any>} account name → this game's row among its finished games (false: none) */
  ended: new Map(),
  peopleKey: '', // the status and names the profiles were read for
};

/**
 * Takes a state from the server (socket or HTTP answer); older versions are ignored. `event` is
 * the event that made it, when the socket says (an HTTP answer does not).
 * @param {GameState} state
 * @param {import('../../lib/types.js').GameEvent | null} [event]
 */
export function apply(state, event = null) {
  withLegalMoves(state);
  const old = page.state;
  if (old && state.version < old.version) return;
  const moved = !old || state.version !== old.version;
  const before = page.pos;
  page.state = state;
  page.receivedAt = performance.now();
  if (!old) window.zertzShownAt = page.receivedAt; // time to the first state, for the tests
  if (state.pending_bribe) page.lastBribe = state.pending_bribe;
  if (moved) {
    page.pos = parsePosition(state.position);
    page.board.setMoves(page.pos, state.legal_moves);
    page.premoveInput = null;
    page.pending = null;
    page.confirmResign = false;
    learnPositions(old, state);
    // Looking back while the game changed under the history (a move, a takeback): read it again.
    const h = page.history;
    if (h && (h.moves.length !== state.moves.length || h.moves.some((m, k) => m !== state.moves[k]))) {
      page.history = null;
      if (page.viewTurn !== null) setTimeout(() => show(page.viewTurn), 0);
    }
    if (state.match_game && (!old || old.result !== state.result || old.next_game !== state.next_game)) loadMatch();
  }
  // A rematch (or the match's next game) keeps the seat tokens, so this browser keeps its seat.
  // (An account needs none: its seats follow it.)
  if (state.next_game && page.token && state.you && !page.account && !seatToken(state.next_game)) saveSeatToken(state.next_game, page.token);
  render();
  readPeople();
  if (old && moved) react(old, state, before);
  else if (old && state.seats.some((seat, i) => seat.connected !== old.seats[i].connected)) presence(old, state);
  if (event && state.version > page.saidVersion) {
    page.saidVersion = state.version;
    announce(event, state);
  }
  if (moved && state.status === 'finished' && (!old || old.status !== 'finished')) analyse();
  if (moved) playPremove();
}

/** True when the viewer has something to do now: move, or answer a bribe. */
export function myTurn(s) {
  if (!s || s.status !== 'live' || !s.you) return false;
  if (s.pending_bribe) return s.pending_bribe.by !== s.you;
  return s.to_move === s.you;
}

/** Where the mover's marbles come from: the supply, or their captures when it is empty. */
export const hand = () => handOf(page.state.supply);

/** The number of turns of the position shown: the game's, or the one looked back at. */
export function shownTurn() {
  return page.viewTurn === null ? page.state.moves.length : page.viewTurn;
}

/** Keeps the position before each move, to write the moves in host notation. */
function learnPositions(old, s) {
  const n = s.moves.length;
  let same = 0;
  if (old) while (same < Math.min(n, old.moves.length) && old.moves[same] === s.moves[same]) same += 1;
  page.before.length = Math.min(page.before.length, same);
  page.hostTexts.length = Math.min(page.hostTexts.length, same);
  if (old && n === old.moves.length + 1 && same === old.moves.length && page.before.length === same) page.before[same] = old.position;
  if (pref('notation') === 'host') learnHistory();
}

/** Reads the whole history once when the moves cannot all be written in host notation yet. */
export async function learnHistory() {
  const s = page.state;
  if (!s || page.before.length >= s.moves.length || page.beforeAsked) return;
  page.beforeAsked = true;
  try {
    const hist = await gameHistory(id);
    const now = page.state;
    if (hist.moves.length === now.moves.length && hist.moves.every((m, k) => m === now.moves[k])) {
      page.before = hist.positions.slice(0, now.moves.length);
      page.history = hist;
      render();
    }
  } catch {
    // the moves stay in official notation
  } finally {
    page.beforeAsked = false;
  }
}

/** The moves as the list shows them: host notation where the position is known, if chosen. */
export function movesShown() {
  const s = page.state;
  if (pref('notation') !== 'host') return s.moves;
  return s.moves.map((m, k) => {
    if (!page.hostTexts[k] && page.before[k]) page.hostTexts[k] = hostMoveText(parsePosition(page.before[k]), m);
    return page.hostTexts[k] || m;
  });
}

/** The seats held by accounts: [{seat, i}]. */
export const accountSeats = (s) => s.seats.map((seat, i) => ({ seat, i })).filter(({ seat }) => seat.kind === 'human' && seat.name && !seat.guest);

/**
 * Reads the profile of each account playing (its ratings), again when the game starts or ends;
 * once a rated game has ended, this game's row among each account's finished games (its rating
 * change).
 */
export function readPeople() {
  const s = page.state;
  const seats = accountSeats(s);
  const key = `${s.status}:${seats.map(({ seat }) => seat.name).join(',')}`;
  if (key === page.peopleKey) return;
  page.peopleKey = key;
  const redraw = () => {
    if (page.state) render();
  };
  for (const { seat, i } of seats) {
    const name = seat.name;
    page.people.set(name, page.people.get(name) || null);
    api('GET', `/api/players/${encodeURIComponent(name)}`).then((p) => { page.people.set(name, p); redraw(); }, () => {});
    if (s.status === 'finished' && s.rated && !page.ended.get(name)) {
      const other = s.seats[1 - i];
      const q = new URLSearchParams({ limit: '100' });
      if (other.kind === 'human' && other.name && !other.guest) q.set('opponent', other.name);
      api('GET', `/api/players/${encodeURIComponent(name)}/games?${q}`).then((r) => {
        page.ended.set(name, r.games.find((g) => g.game_id === id) || false);
        redraw();
      }, () => {});
    }
  }
}

/** The game's pool and whether it is rated, as its state says. */
export function gameRating() {
  const s = page.state;
  return { pool: s.pool || null, rated: Boolean(s.rated) };
}

/** Reads the match the game belongs to (its score, its next game). */
async function loadMatch() {
  const s = page.state;
  if (!s || !s.match_game) return;
  const [mid] = s.match_game;
  try {
    page.match = await api('GET', `/api/matches/${encodeURIComponent(mid)}`, undefined, matchToken(mid) || undefined);
  } catch {
    page.match = await api('GET', `/api/matches/${encodeURIComponent(mid)}`).catch(() => null);
  }
  renderMatch();
  // The match counts a finished game a moment after the game's last event: look again until
  // it has (no event of this game will say so).
  const entry = page.match && page.match.games.find((g) => g.id === id);
  if (s.status === 'finished' && entry && !entry.result && (page.matchTries += 1) < 20) {
    setTimeout(loadMatch, 500);
  }
}
