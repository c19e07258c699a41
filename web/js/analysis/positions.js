// What the analysis board asks the server about positions, which it never works out itself:
// a position's legal moves and counts (GET /api/position), a move typed or pointed at played
// in it (POST /api/position/play, which reads moves leniently and answers the official text),
// and the positions along a whole line of moves in one request (POST /api/import of a record
// that starts at the line's first position, the route the archive already uses).

import { api } from '../api.js';

const known = new Map(); // position string → the answer of GET /api/position
const KEEP = 400; // answers kept: a long analysis revisits positions, memory stays small

/**
 * The position `text` as the server reads it: {position, to_move, over, result, legal, supply,
 * captures}. Throws an ApiError with the server's sentence when the text is not a position.
 */
export async function describe(text) {
  if (known.has(text)) return known.get(text);
  const p = await api('GET', `/api/position?position=${encodeURIComponent(text)}`);
  if (known.size >= KEEP) known.delete(known.keys().next().value);
  known.set(text, p);
  return p;
}

/** Plays `move` (any notation the server reads) in `position`: {position, move, said}. */
export function play(position, move) {
  return api('POST', '/api/position/play', { position, move });
}

/**
 * The positions after each of `moves` played from `start`, in one request: a record whose
 * `Start` header is the position. Throws with the server's words (the line and column of the
 * move that cannot be played).
 */
export async function replay(start, moves) {
  if (!moves.length) return [start];
  const record = `[Start "${start}"]\n\n${moves.join(' ')}\n`;
  const game = await api('POST', '/api/import', { text: record });
  return game.positions;
}
