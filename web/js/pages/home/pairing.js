// @ts-check
// Quick pairing on the home page: a button per speed asks the server for a game of that pool
// (GET /api/pairing/ws, docs/accounts.md) and waits while the page stays open; the server pairs
// the player with the waiting player nearest in rating (guests with guests) and starts the game
// for both at once, and this page then goes to it. Cancel, or leaving the page, withdraws the
// request.

import { saveSeatToken, setPlayerName } from '../../lib/api.js';
import { fill, h } from '../../lib/ui.js';

/** The speeds, with the clock the server gives a quick-paired game of each. */
const SPEEDS = [
  { key: 'blitz', name: 'Blitz', clock: '5 min + 3 s' },
  { key: 'rapid', name: 'Rapid', clock: '10 min + 10 s' },
  { key: 'classical', name: 'Classical', clock: '30 min + 20 s' },
  { key: 'correspondence', name: 'Correspondence', clock: '3 days a move' },
];

/**
 * Fills `box` with the quick-pairing buttons. `who()` says who asks: {account} for a logged-in
 * player, else {name} (the guest's name, which must not be empty).
 */
export function quickPairing(box, who) {
  let socket = null;
  const status = h('p', { class: 'note', id: 'pairing-status', 'aria-live': 'polite' });
  const rules = h('select', { id: 'pairing-rules', 'aria-label': 'Rule set' },
    h('option', { value: 'standard' }, 'Standard rules'),
    h('option', { value: 'blitz' }, 'Blitz rules'));
  const cancel = h('button', { type: 'button', id: 'pairing-cancel', hidden: true, onclick: () => stop('Request withdrawn.') }, 'Cancel');
  const buttons = SPEEDS.map((s) => h('button', {
    type: 'button',
    class: 'tile',
    'data-speed': s.key,
    onclick: () => ask(s),
  }, h('strong', {}, s.name), h('span', { class: 'note' }, s.clock)));

  function stop(text) {
    if (socket) {
      socket.onclose = null;
      socket.close();
      socket = null;
    }
    cancel.hidden = true;
    for (const b of buttons) b.disabled = false;
    status.textContent = text || '';
  }

  function ask(speed) {
    const asker = who();
    if (!asker.account && !asker.name) {
      status.textContent = 'Give your name first (or sign in).';
      return;
    }
    if (!asker.account) setPlayerName(asker.name);
    stop('');
    const pool = `${rules.value}-${speed.key}`;
    const q = new URLSearchParams({ pool });
    if (!asker.account) q.set('name', asker.name);
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${scheme}://${location.host}/api/pairing/ws?${q}`);
    for (const b of buttons) b.disabled = true;
    cancel.hidden = false;
    status.textContent = `Looking for an opponent: ${speed.name.toLowerCase()}, ${rules.selectedOptions[0].textContent.toLowerCase()}…`;
    socket.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === 'waiting') {
        const rated = msg.rated ? 'rated' : 'casual';
        const range = msg.rated ? `, accepting ±${msg.gap}` : '';
        status.textContent = `Looking for an opponent (${rated}): ${Math.floor(msg.waited_ms / 1000)} s${range}…`;
      } else if (msg.type === 'paired') {
        if (msg.token && !asker.account) saveSeatToken(msg.game, msg.token);
        socket.onclose = null;
        status.textContent = 'Paired: the game starts.';
        location.href = msg.url;
      }
    };
    socket.onclose = (e) => {
      socket = null;
      // A refused upgrade closes at once without a reason the page can read.
      stop(e.reason || 'No game could be asked for now (too many requests, or already waiting in another page).');
    };
  }

  fill(box,
    h('div', { class: 'row' }, h('label', {}, 'Rules ', rules)),
    h('div', { class: 'tiles' }, ...buttons),
    h('div', { class: 'row' }, cancel),
    status);
}
