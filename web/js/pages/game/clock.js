// @ts-check
// The clocks between two states: ticked from the time the state arrived, the player warned of
// low time once a turn, the countdown before an absent opponent's game may be claimed, and the
// server asked again when a clock seems to have run out.

import { play, tell } from '../../lib/feel.js';
import { tickClock } from '../../lib/panels.js';
import { claimIn, refresh, renderActions } from './actions.js';
import { page } from './state.js';

/** Shows the clocks as of now (every 200 ms, and at each drawing). */
export function tick() {
  const s = page.state;
  if (!s) return;
  const elapsed = performance.now() - page.receivedAt;
  let out = false;
  for (const c of page.clocks) out = tickClock(c.el, s, c.i, elapsed) || out;
  // Low time on the player's own running clock: heard and said once a turn.
  const own = s.you && page.clocks.find((c) => c.i === s.you - 1);
  if (own && s.status === 'live' && s.clocks[s.you - 1].running && own.el.classList.contains('low') && page.lowWarned !== s.version) {
    page.lowWarned = s.version;
    play('lowtime');
    tell(`Low time: ${own.el.querySelector('.main').textContent} left on your clock.`, 'warn');
  }
  // The countdown before an absent opponent's game may be claimed, once a second.
  const left = claimIn();
  const second = left === null ? null : Math.max(0, Math.ceil(left / 1000));
  if (second !== page.claimSecond) {
    page.claimSecond = second;
    renderActions();
  }
  // A clock at zero (or a period used up): ask the server what it really shows.
  if (out && s.status === 'live' && performance.now() - page.refreshedAt > 2000) {
    page.refreshedAt = performance.now();
    refresh();
  }
}
