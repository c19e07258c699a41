// @ts-check
// Zertz+xx games (docs/server.md, "Zertz+xx"): player one designs the board on BoardSpace's grid
// of 17 columns of 12 places, a click adding or taking away a ring; then player two makes the
// first move or swaps, so that the designer moves first. The server keeps the design and
// sends it as `state.design`; this module draws it and offers its buttons. It knows no rules.

import { parsePosition } from '../../lib/position.js';

/** @typedef {import('../../lib/types.js').GameState} GameState */

/** The board of `s` is still being designed. */
export const designing = (s) => Boolean(s && s.design && s.design.phase === 'designing');

/** The viewer may swap now: player two, before the first move, the design finished. */
const maySwap = (s) => s.status === 'live' && s.design && s.design.phase === 'swap_or_move' && s.you && s.you !== s.design.designer;

/** Draws the grid being designed: rings placed, and every other place as an outline to click. */
export function renderDesign(board, s, coords) {
  const mine = s.you === s.design.designer && s.status === 'live';
  const pos = parsePosition(s.design.grid);
  board.render(pos, {
    absent: true,
    interactive: mine,
    coords,
    targets: mine ? new Set(pos.places.map((p) => p.coord)) : new Set(),
  });
  const n = s.design.rings.length;
  return mine
    ? `Design the board: click a place to add a ring, a ring to take it away (${n} of at most ${s.design.max_rings}), then finish the design.`
    : `Player ${s.design.designer} is designing the board (${n} rings so far).`;
}

/**
 * The action a click on `coord` of the grid sends, or why there is none.
 * @param {GameState} s
 * @param {string} coord
 * @returns {{action?: import('../../lib/types.js').GameAction, what?: string, why?: string}}
 */
export function designClick(s, coord) {
  if (s.status !== 'live') return { why: 'The game has not started: it waits for a second player.' };
  if (s.you !== s.design.designer) return { why: `Only player ${s.design.designer} designs the board.` };
  /** @type {'add_ring' | 'remove_ring'} */
  const type = s.design.rings.includes(coord) ? 'remove_ring' : 'add_ring';
  return { action: { type, at: coord }, what: `${type === 'add_ring' ? 'Adding' : 'Removing'} the ring on ${coord} was` };
}

/** The status line while the board is designed or the swap is open, or null. */
export function designStatus(s, name) {
  if (!s.design || s.status !== 'live') return null;
  if (s.design.phase === 'designing') {
    return s.you === s.design.designer ? 'Design the board.' : `${name(s.design.designer)} is designing the board.`;
  }
  if (s.design.phase === 'swap_or_move') {
    if (maySwap(s)) return 'Make the first move, or swap: the designer then moves first.';
    if (s.you) return `${name(s.to_move)} moves first or swaps.`;
  }
  return null;
}

/** The design's buttons: "Finish the design" for the designer, "Swap" for player two. */
export function designButtons(s, button, act) {
  if (!s.design || s.status !== 'live') return [];
  if (designing(s) && s.you === s.design.designer) {
    return [button('Finish the design', () => act({ type: 'finish_design' }, 'Finishing the design was'), 'primary', { id: 'finish-design', disabled: !s.design.rings.length })];
  }
  if (maySwap(s)) return [button('Swap (the designer moves first)', () => act({ type: 'swap' }, 'The swap was'), '', { id: 'swap' })];
  return [];
}
