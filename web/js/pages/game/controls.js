// @ts-check
// The controls around the board: the typed move and "Cancel", the board options, the sound
// switch, and the keys (Escape forgets the move being entered, the arrows step through the
// moves).

import { flag, confirmMoves, onPref, optionsPanel, setPref } from '../../lib/prefs.js';
import { $, say } from '../../lib/ui.js';
import { sendMove, show } from './actions.js';
import { learnHistory, page, shownTurn } from './state.js';
import { render } from './view.js';

/** Puts the controls to work (once, at the start). */
export function setupControls() {
  // A typed move is sent as typed (the server reads either notation), never held for "Confirm".
  page.board.bindTyped(undefined, sendMove);
  page.board.bindCancel(() => {
    page.premoveInput = null;
    page.pending = null;
    render();
  });
  $('options').append(optionsPanel(['view', 'notation', 'coords', 'letters', 'theme', 'animations', 'sound', 'confirm']));
  onPref((key) => {
    if (key === 'notation') learnHistory();
    if (key === 'sound') soundButton();
    if (key === 'confirm' && !confirmMoves() && page.pending) page.pending = null;
    render();
  });
  $('sound-toggle').addEventListener('click', () => setPref('sound', !flag('sound')));
  soundButton();
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (!page.state) return;
    if (e.key === 'Escape') {
      // Forgets the move being entered, the move waiting for "Confirm", or else the premove.
      if (page.pending) page.pending = null;
      else if (!page.premoveInput && page.premove) page.premove = null;
      page.board.reset();
      page.premoveInput = null;
      say('');
      render();
    } else if (e.key === 'ArrowLeft') show(shownTurn() - 1);
    else if (e.key === 'ArrowRight') show(shownTurn() + 1);
  });
}

/** The sound switch beside the status: on or muted (remembered). */
function soundButton() {
  const b = $('sound-toggle');
  const on = flag('sound');
  // A loudspeaker, with waves when on and a cross when muted (our own markup, no server text).
  const waves = on
    ? '<path d="M15 8.5a4.5 4.5 0 0 1 0 7M17.5 6a8 8 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>'
    : '<path d="M15.5 9.5l5 5M20.5 9.5l-5 5" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>';
  b.innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" fill="currentColor"/>${waves}</svg>`;
  b.title = on ? 'Sound on: click to mute' : 'Sound muted: click to turn it on';
  b.setAttribute('aria-label', b.title);
  b.setAttribute('aria-pressed', on ? 'false' : 'true');
  b.dataset.sound = on ? 'on' : 'off';
}
