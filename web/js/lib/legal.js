// @ts-check
// The legal moves and the events of a game as the server sends them (docs/server.md, "What a
// move costs"): the legal moves come compact and are spelled out here, and after the first full
// state each message says only what changed, which is set on the state held.

/** @typedef {import('./types.js').GameState} GameState */

/**
 * The legal moves in official notation from their compact form (null: none), in the rules
 * library's order: the captures when there are any; otherwise each colour on each empty ring,
 * removing each free ring but that one (or none when no other is free), the isolating
 * placements written in full and the repeating ones left out.
 * @param {import('./types.js').CompactLegal | null | undefined} legal
 * @returns {string[]}
 */
export function expandLegal(legal) {
  if (!legal) return [];
  if (legal.captures && legal.captures.length) return legal.captures.slice();
  const empty = legal.empty || [];
  const free = legal.free || [];
  const repeating = new Set(legal.repeating || []);
  const isolating = new Map();
  for (const full of legal.isolating || []) isolating.set(full.slice(0, full.indexOf(' x ')), full);
  const out = [];
  const push = (text) => {
    if (!repeating.has(text)) out.push(isolating.get(text) || text);
  };
  for (const colour of legal.colours || '') {
    for (const at of empty) {
      let removed = false;
      for (const r of free) {
        if (r === at) continue;
        push(`${colour}${at},${r}`);
        removed = true;
      }
      if (!removed) push(`${colour}${at}`);
    }
  }
  return out;
}

/**
 * The state after `changes` (a message's `changes`) on `state`: a new object, `state` is left
 * as it was. `moves_tail` keeps the first `from` moves and adds `add`; every other field is set
 * as given. The spelled-out legal moves are dropped when the compact ones change.
 * @param {GameState} state
 * @param {import('./types.js').GameChanges} changes
 * @returns {GameState}
 */
export function applyChanges(state, changes) {
  const next = { ...state };
  for (const [key, value] of Object.entries(changes)) {
    if (key === 'moves_tail') next.moves = state.moves.slice(0, changes.moves_tail.from).concat(changes.moves_tail.add);
    else next[key] = value;
  }
  if ('legal' in changes) delete next.legal_moves;
  return next;
}

/**
 * `state` with its legal moves spelled out (`legal_moves`), read from the compact form.
 * @param {GameState} state
 */
export function withLegalMoves(state) {
  if (!state.legal_moves) state.legal_moves = expandLegal(state.legal);
  return state;
}
