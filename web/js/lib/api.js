// @ts-check
// The HTTP API (docs/server.md) and what the browser keeps: seat tokens per game, match
// tokens per match, the player's name. Every error becomes an ApiError with the server's words.

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: the server could not be reached)
   * @param {string} message the server's words
   */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Calls the API: `method`, `path`, optional JSON `body` and seat `token`. Resolves to the
 * answer's JSON (its type is the route's: web/js/lib/types.js names them), or its text.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @returns {Promise<any>}
 */
export async function api(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, `the server cannot be reached (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const message = (data && data.error) || text || res.statusText || `HTTP ${res.status}`;
    throw new ApiError(res.status, message);
  }
  return data === null ? text : data;
}

/**
 * A text resource (record, SGF).
 * @param {string} path
 */
export async function getText(path) {
  const res = await fetch(path);
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      message = JSON.parse(text).error || text;
    } catch {
      // plain text
    }
    throw new ApiError(res.status, message);
  }
  return text;
}

const store = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      // private mode: the seat lasts as long as the page
    }
  },
};

export const seatToken = (gameId) => store.get(`zertz.seat.${gameId}`);
export const saveSeatToken = (gameId, token) => store.set(`zertz.seat.${gameId}`, token);
export const matchToken = (matchId) => store.get(`zertz.match.${matchId}`);
export const saveMatchToken = (matchId, token) => store.set(`zertz.match.${matchId}`, token);

/** The name this browser plays under (made up once if never given). */
export function playerName() {
  let name = store.get('zertz.name');
  if (!name) {
    name = `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
    store.set('zertz.name', name);
  }
  return name;
}
export const setPlayerName = (name) => store.set('zertz.name', name.trim() || null);
/** The name this browser remembers, or '' (none made up). */
export const rememberedName = () => store.get('zertz.name') || '';

/** A setting of the page (notation, letters on marbles). */
export const setting = (key, fallback) => store.get(`zertz.ui.${key}`) ?? fallback;
export const saveSetting = (key, value) => store.set(`zertz.ui.${key}`, String(value));

/**
 * All positions of a stored game, from its record read back by the server:
 * {moves, positions} where positions[0] is the start and positions[i] follows moves[i-1].
 */
/**
 * @param {string} gameId
 * @returns {Promise<import('./types.js').GameHistory>}
 */
export async function gameHistory(gameId) {
  const record = await getText(`/api/games/${encodeURIComponent(gameId)}/record`);
  /** @type {import('./types.js').ImportedGame} */
  const game = await api('POST', '/api/import', { text: record });
  return { moves: game.moves, positions: game.positions, headers: game.headers, result: game.result };
}
