// @ts-check
// What the analysis board asks the server about positions, which it never works out itself:
// a position's legal moves and counts (GET /api/position), a move typed or pointed at played
// in it (POST /api/position/play, which reads moves leniently and answers the official text),
// and the positions along a whole line of moves in one request (POST /api/import of a record
// that starts at the line's first position, the route the archive already uses). Bribes go only
// the last way: whether one may be offered depends on the rules and the game before it, which a
// position string does not hold.

import { api } from '../../lib/api.js';
import { bribeOf, isTurn } from './tree.js';

/** @typedef {import('../../lib/types.js').PositionInfo} PositionInfo */

/** @type {Map<string, PositionInfo>} position string → the answer of GET /api/position */
const known = new Map();
const KEEP = 400; // answers kept: a long analysis revisits positions, memory stays small

/**
 * The position `text` as the server reads it: {position, to_move, over, result, legal, supply,
 * captures}. Throws an ApiError with the server's sentence when the text is not a position.
 * @param {string} text
 * @returns {Promise<PositionInfo>}
 */
export async function describe(text) {
  if (known.has(text)) return known.get(text);
  const p = await api('GET', `/api/position?position=${encodeURIComponent(text)}`);
  if (known.size >= KEEP) known.delete(known.keys().next().value);
  known.set(text, p);
  return p;
}

/**
 * Plays `move` (any notation the server reads) in `position`: {position, move, said}.
 * @param {string} position
 * @param {string} move
 * @returns {Promise<import('../../lib/types.js').PlayedMove>}
 */
export function play(position, move) {
  return api('POST', '/api/position/play', { position, move });
}

/** The headers that change the rules (formats.md): they go with every replay of a line. */
const RULE_HEADERS = ['Bribes', 'Repetition'];

/** The rule headers among `headers` (names matched without case): [[name, value], …]. */
export function ruleHeaders(headers = {}) {
  const out = [];
  for (const name of RULE_HEADERS) {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
    if (key && typeof headers[key] === 'string') out.push([name, headers[key]]);
  }
  return out;
}

const quoted = (v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The positions after each of `steps` played from `start` under the rules of `headers` (the
 * tree's), in one request: a record whose `Start` header is the position, its bribes written as
 * the record format's events (`(bribe 1/0/0 accepted) -`). Returns one position per step and the
 * start first; a rejected bribe is no turn and leaves the position as it was. Throws with the
 * server's words (the line and column of the step that cannot be played).
 */
export async function replay(start, steps, headers = {}) {
  if (!steps.length) return [start];
  const tokens = steps.map((s) => {
    const b = bribeOf(s);
    if (!b) return s;
    return b.accepted ? `(bribe ${b.marbles} accepted) -` : `(bribe ${b.marbles} rejected)`;
  });
  const head = [...ruleHeaders(headers), ['Start', start]].map(([k, v]) => `[${k} ${quoted(v)}]\n`).join('');
  /** @type {import('../../lib/types.js').ImportedGame} */
  const game = await api('POST', '/api/import', { text: `${head}\n${tokens.join(' ')}\n` });
  const out = [start];
  let k = 1; // the next position of the record's game (one per turn)
  for (const s of steps) {
    if (isTurn(s)) {
      out.push(game.positions[k]);
      k += 1;
    } else out.push(out[out.length - 1]);
  }
  if (out.some((p) => !p)) throw new Error('the server answered fewer positions than the line has turns');
  return out;
}
