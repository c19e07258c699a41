// @ts-check
// Berserk, in an arena's game (docs/tournaments.md, "Arena on the server"): before your first
// move you may halve your clock (and give up the increment) for one point more if you win in 7
// moves of yours or more. The button while it is possible, and a line saying who went berserk.

import { h } from '../../lib/ui.js';

/** @typedef {import('../../lib/types.js').GameState} GameState */

/** The moves `seat` has made (the first mover is seat 1 in an arena's games). */
const movesOf = (/** @type {GameState} */ s, /** @type {1 | 2} */ seat) => (seat === 1 ? Math.ceil(s.moves.length / 2) : Math.floor(s.moves.length / 2));

/** The berserk button and who went berserk, for the actions under the board. */
export function berserkControls(/** @type {GameState} */ s, button, act) {
  if (!s.berserk) return [];
  const out = [];
  const names = s.seats.map((seat, i) => (s.you === i + 1 ? 'You' : seat.name || `Player ${i + 1}`));
  s.berserk.forEach((went, i) => {
    if (went) out.push(h('span', { class: 'note berserk-note', 'data-seat': String(i + 1) }, `⚔ ${names[i]} went berserk: half the clock, no increment.`));
  });
  const you = s.you;
  if (s.status === 'live' && you && !s.berserk[you - 1] && movesOf(s, you) === 0) {
    out.push(button('Berserk', () => act({ type: 'berserk' }, 'Going berserk was'), '', {
      id: 'berserk', title: 'Halve your clock and give up the increment: one point more if you win with 7 moves of yours or more',
    }));
  }
  return out;
}
