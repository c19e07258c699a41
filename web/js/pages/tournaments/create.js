// @ts-check
// The form that creates an event (POST /api/tournaments), for a logged-in player: its name, the
// format (Swiss with its rounds, round robin single or double, the death-match knockout and
// who begins its matches, the arena with its minutes and berserk), the games' board, rules and
// clock, rated or casual, the most players, when it starts and the time for a first move. The server checks everything
// again and its refusal, in its words, is shown under the form.

import { api } from '../../lib/api.js';
import { signInHref } from '../../lib/account.js';
import { h, say } from '../../lib/ui.js';

/** The clocks offered, as the API's clock objects (every one takes a rated pool). */
export const EVENT_CLOCKS = {
  'fischer-3-2': { text: 'Blitz: 3 min + 2 s a move', clock: { kind: 'fischer', base_ms: 180000, increment_ms: 2000 } },
  'fischer-5-3': { text: 'Blitz: 5 min + 3 s a move', clock: { kind: 'fischer', base_ms: 300000, increment_ms: 3000 } },
  'fischer-10-10': { text: 'Rapid: 10 min + 10 s a move', clock: { kind: 'fischer', base_ms: 600000, increment_ms: 10000 } },
  'fischer-30-20': { text: 'Classical: 30 min + 20 s a move', clock: { kind: 'fischer', base_ms: 1800000, increment_ms: 20000 } },
  reserve: { text: 'Death match: 1 min a move + 3 min reserve', clock: { kind: 'per_move_reserve', per_move_ms: 60000, reserve_ms: 180000, step_ms: 15000 } },
};

/** When the event starts, as offered: minutes from now, or when the organiser says. */
const STARTS = [
  { key: 'manual', text: 'When I start it' },
  { key: '5', text: 'In 5 minutes' },
  { key: '15', text: 'In 15 minutes' },
  { key: '60', text: 'In an hour' },
];

const field = (label, control, note) => h('label', {}, label, ' ', control, note ? h('span', { class: 'note' }, note) : null);

/** The body of the request, from the form's fields. */
export function eventBody(/** @type {HTMLFormElement} */ form, now = Date.now()) {
  const v = new FormData(form);
  const format = String(v.get('format'));
  /** @type {Record<string, any>} */
  const body = {
    name: String(v.get('name') || '').trim(),
    format,
    board: String(v.get('board')),
    rules: String(v.get('rules')),
    clock: EVENT_CLOCKS[String(v.get('clock'))].clock,
    rated: v.get('rated') === 'on',
    max_players: Number(v.get('max_players')),
    first_move_s: Number(v.get('first_move_s')),
  };
  const rounds = String(v.get('rounds') || '').trim();
  if (rounds && format !== 'knockout' && format !== 'arena') body.rounds = Number(rounds);
  if (format === 'arena') {
    body.minutes = Number(v.get('minutes'));
    body.berserk = v.get('berserk') === 'on';
  }
  if (format === 'round_robin') body.double = v.get('double') === 'on';
  if (format === 'knockout') {
    body.first_mover = String(v.get('first_mover') || 'lower');
    body.third_place = v.get('third_place') === 'on';
  }
  // Who may enter: each limit only when given.
  for (const key of ['min_rating', 'max_rating', 'min_account_days']) {
    const value = String(v.get(key) || '').trim();
    if (value) body[key] = Number(value);
  }
  const when = String(v.get('start'));
  if (when !== 'manual') body.start_ms = now + Number(when) * 60000;
  return body;
}

/** The form (an account), or a link to sign in first (a guest). */
export function createBox(account) {
  if (!account) {
    return h('p', {}, h('a', { href: signInHref(), id: 'sign-in-to-create' }, 'Sign in'), ' to create a tournament.');
  }
  const rounds = h('input', { id: 'event-rounds', name: 'rounds', type: 'number', min: 1, max: 30, value: 5 });
  const double = h('input', { id: 'event-double', name: 'double', type: 'checkbox' });
  const doubleLabel = h('label', { id: 'event-double-label', hidden: true }, double, ' Double (every pair meets twice, first move swapped)');
  const roundsNote = h('span', { class: 'note', id: 'event-rounds-note' }, '');
  const format = h('select', { id: 'event-format', name: 'format' },
    h('option', { value: 'swiss' }, 'Swiss (FIDE Dutch system)'),
    h('option', { value: 'round_robin' }, 'Round robin'),
    h('option', { value: 'knockout' }, 'Death-match knockout (best-of-3 matches)'),
    h('option', { value: 'arena' }, 'Arena (play as many games as you can in the time)'));
  const minutes = h('label', { id: 'event-minutes-label', hidden: true }, 'Lasts ',
    h('select', { id: 'event-minutes', name: 'minutes' },
      [15, 30, 45, 60, 90, 120].map((n) => h('option', { value: n, selected: n === 45 }, `${n} minutes`))),
    h('span', { class: 'note' }, 'a free player is paired at once; 2 points a win, 1 a draw, double after two wins in a row'));
  const berserk = h('label', { id: 'event-berserk-label', hidden: true },
    h('input', { id: 'event-berserk', name: 'berserk', type: 'checkbox', checked: true }),
    ' Berserk allowed (half your clock, no increment, one point more for a win of 7 moves or more)');
  const firstMover = h('label', { id: 'event-first-mover-label', hidden: true }, 'Who begins game 1 of a match is chosen by the ',
    h('select', { id: 'event-first-mover', name: 'first_mover' },
      h('option', { value: 'lower' }, 'lower seed (the one called into the death match)'),
      h('option', { value: 'higher' }, 'higher seed')),
    h('span', { class: 'note' }, 'then the first move alternates; no repetition; in the final, three bribes each'));
  const thirdPlace = h('label', { id: 'event-third-place-label', hidden: true },
    h('input', { id: 'event-third-place', name: 'third_place', type: 'checkbox' }),
    ' A match for third place between the semifinal losers (beside the final, with its bribes)');
  const roundsLabel = h('label', {}, 'Rounds ', rounds, ' ', roundsNote);
  const rated = /** @type {HTMLInputElement} */ (h('input', { id: 'event-rated', name: 'rated', type: 'checkbox', checked: true }));
  const ratedNote = h('span', { class: 'note', id: 'event-rated-note' });
  const explain = () => {
    const rr = format.value === 'round_robin';
    const ko = format.value === 'knockout';
    const arena = format.value === 'arena';
    doubleLabel.hidden = !rr;
    firstMover.hidden = !ko;
    thirdPlace.hidden = !ko;
    minutes.hidden = !arena;
    berserk.hidden = !arena;
    roundsLabel.hidden = ko || arena;
    rounds.required = !rr && !ko && !arena;
    // The host's death matches were played on its clock: offered first for a knockout.
    const clock = /** @type {HTMLSelectElement | null} */ (document.getElementById('event-clock'));
    if (clock && ko && clock.value === 'fischer-5-3') clock.value = 'reserve';
    if (rr && rounds.value === '5') rounds.value = '';
    if (!rr && !rounds.value) rounds.value = '5';
    roundsNote.textContent = rr ? 'empty: the whole cycle, everybody meets everybody' : '1 to 30, fewer than the players';
    // A rating compares games under the official rules; the death matches follow the host's.
    if (ko && !rated.disabled) rated.checked = false;
    if (!ko && rated.disabled) rated.checked = true;
    rated.disabled = ko;
    ratedNote.textContent = ko ? 'a knockout plays under the host\u2019s house rules (no repetition; bribes in the final): casual' : '';
  };
  format.addEventListener('change', explain);
  const form = h('form', { class: 'new-game new-event', id: 'new-event', autocomplete: 'off' },
    h('fieldset', {}, h('legend', {}, 'The event'),
      field('Name', h('input', { id: 'event-name-field', name: 'name', required: true, maxlength: 80, placeholder: 'Sunday Swiss' })),
      field('Format', format),
      roundsLabel,
      doubleLabel,
      firstMover,
      thirdPlace,
      minutes,
      berserk,
      field('Most players', h('input', { id: 'event-max', name: 'max_players', type: 'number', min: 2, max: 256, value: 64 })),
      field('Starts', h('select', { id: 'event-start', name: 'start' }, STARTS.map((s) => h('option', { value: s.key }, s.text)))),
      field('First move within', h('select', { id: 'event-first-move', name: 'first_move_s' },
        [30, 60, 120, 300].map((n) => h('option', { value: n, selected: n === 60 }, n < 120 ? `${n} seconds` : `${n / 60} minutes`))),
      'or the game is lost by forfeit')),
    h('fieldset', {}, h('legend', {}, 'Who may enter'),
      h('label', {}, 'Rating from ', h('input', { id: 'event-min-rating', name: 'min_rating', type: 'number', min: 0, max: 4000, step: 50, class: 'short', placeholder: 'any' }),
        ' to ', h('input', { id: 'event-max-rating', name: 'max_rating', type: 'number', min: 0, max: 4000, step: 50, class: 'short', placeholder: 'any' }),
        h('span', { class: 'note' }, 'in the games\u2019 pool, 1500 for a player new to it')),
      h('label', {}, 'Accounts at least ', h('input', { id: 'event-min-days', name: 'min_account_days', type: 'number', min: 0, max: 3650, class: 'short', placeholder: '0' }), ' days old')),
    h('fieldset', {}, h('legend', {}, 'The games'),
      field('Board', h('select', { id: 'event-board', name: 'board' },
        h('option', { value: '37' }, '37 rings'), h('option', { value: '48' }, '48 rings'), h('option', { value: '61' }, '61 rings'))),
      field('Rules', h('select', { id: 'event-rules', name: 'rules' },
        h('option', { value: 'standard' }, 'Standard'), h('option', { value: 'blitz' }, 'Blitz'))),
      field('Clock', h('select', { id: 'event-clock', name: 'clock' },
        Object.entries(EVENT_CLOCKS).map(([key, c]) => h('option', { value: key, selected: key === 'fischer-5-3' }, c.text)))),
      h('label', {}, rated, ' Rated (37 rings, standard or Blitz rules) ', ratedNote)),
    h('button', { type: 'submit', class: 'primary', id: 'create-event' }, 'Create the tournament'));
  explain();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector('#create-event'));
    button.disabled = true;
    try {
      const t = await api('POST', '/api/tournaments', eventBody(/** @type {HTMLFormElement} */ (form)));
      location.href = `/tournament/${encodeURIComponent(t.id)}`;
    } catch (err) {
      say(`The tournament was not created: ${err.message}`, 'error');
      button.disabled = false;
    }
  });
  return h('details', { id: 'create-details' }, h('summary', {}, 'New tournament'), form);
}
