// @ts-check
// The match page, /match/{id}: the players, the score, every game with its result, and the
// game being played now, kept up to date by the match's WebSocket (which reconnects by itself).
// An invitation link (#join=…) offers the invited place: a guest gives a name first, an account
// plays under its own. Beside it, the match room's chat (web/js/chat.js).

import { api, matchToken, rememberedName, saveMatchToken } from '../lib/api.js';
import { joinForm, siteHeader } from '../lib/account.js';
import { MatchSocket } from '../lib/socket.js';
import { ChatPanel } from '../lib/chat.js';
import { $, copy, engineName, fill, h, say, describeSettings, personTag, showConnection } from '../lib/ui.js';

/** @typedef {import('../lib/types.js').MatchState} MatchState */

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const mpath = `/api/matches/${encodeURIComponent(id)}`;
let token = matchToken(id);
let socket = null;
let account = null; // the logged-in account, null for a guest
let invite = null; // the invitation's token from the link, until the place is taken
let form = null; // the join form, kept from one drawing to the next so a name being typed stays
const chat = new ChatPanel({ send: (message) => (socket ? socket.send(message) : false) });

/** A guest spectator's name in the chat: the one this browser remembers ("Guest" if none). */
const spectatorName = () => rememberedName().trim() || 'Guest';

/** Tells the chat who reads it: a participant of the match, or a spectator. */
function chatViewer(m) {
  const mine = m.you !== null && m.you !== undefined ? m.players[m.you] : null;
  if (mine) chat.setViewer({ player: true, guest: mine.guest, name: mine.name });
  else if (account) chat.setViewer({ player: false, guest: false, name: account.name });
  else chat.setViewer({ player: false, guest: true, name: spectatorName() });
}

const name = (m, i) => (m.players[i].kind === 'engine' ? engineName(m.players[i].level) : m.players[i].name || 'waiting for a player…');

/** @param {MatchState} m */
function render(m) {
  const [board, rules] = m.start.split(' ');
  const rulesText = [m.repetition === 'forbidden' ? 'no repetition' : null, m.bribes ? 'bribes' : null].filter(Boolean);
  $('title').textContent = `Match: ${name(m, 0)} – ${name(m, 1)}`;
  const items = [
    h('p', {}, `Best of ${m.best_of} · ${describeSettings(board, rules, m.clock_text, rulesText)}`),
    h('p', { class: 'score', id: 'match-score', 'data-score': `${m.score[0]}-${m.score[1]}` },
      personTag(m.players[0], 'waiting for a player…'), ' ', h('b', {}, `${m.score[0]} – ${m.score[1]}`), ' ',
      personTag(m.players[1], 'waiting for a player…')),
  ];
  if (m.winner !== null && m.winner !== undefined) {
    items.push(h('p', { class: 'result-box', id: 'match-winner' }, `${name(m, m.winner)} wins the match ${m.score[m.winner]}–${m.score[1 - m.winner]}.`));
  }
  if (m.bribes_left) items.push(h('p', { class: 'note' }, `Bribes left: ${name(m, 0)} ${m.bribes_left[0]}, ${name(m, 1)} ${m.bribes_left[1]}.`));
  if (m.status === 'open') {
    if (m.you === null || m.you === undefined) {
      if (!form) {
        form = joinForm(account, {
          id: 'join-match',
          text: invite ? 'You are invited to play this match.' : 'This match waits for an opponent.',
          button: 'Join this match',
          onJoin: join,
        });
      }
      items.push(form);
    } else {
      const invite = localStorage.getItem(`zertz.invite.match.${id}`);
      if (invite) {
        const input = h('input', { readonly: true, value: invite, class: 'link', id: 'invite-link' });
        items.push(h('p', {}, 'Waiting for your opponent. Send this link:'), h('div', { class: 'row' }, input, h('button', { type: 'button', onclick: () => copy(invite, input) }, 'Copy link')));
      } else items.push(h('p', {}, 'Waiting for an opponent from the lobby.'));
    }
  }
  if (m.current_game) {
    const mine = m.you !== null && m.you !== undefined;
    items.push(h('p', {}, h('a', { class: 'button primary', id: 'current-game', href: `/game/${encodeURIComponent(m.current_game)}` },
      mine ? `Play game ${m.games.length} →` : `Watch game ${m.games.length} →`)));
  }
  const rows = m.games.map((g, k) => h('tr', {},
    h('td', {}, String(k + 1)),
    h('td', {}, `${name(m, g.first)} first`),
    h('td', {}, g.result ? (g.winner === null || g.winner === undefined ? `${g.result} (replayed)` : `${name(m, g.winner)} won`) : 'being played'),
    h('td', {}, h('a', { href: `/game/${encodeURIComponent(g.id)}` }, g.result ? 'view' : 'open'))));
  if (rows.length) {
    items.push(h('h2', {}, 'Games'), h('table', { class: 'list' },
      h('thead', {}, h('tr', {}, ['Game', 'First', 'Result', ''].map((t) => h('th', {}, t)))), h('tbody', {}, rows)));
  }
  fill($('match-view'), items);
  chatViewer(m);
}

/**
 * Reads the match over HTTP (which says in words why it cannot be read), forgetting a token
 * that holds no place in it.
 */
async function load() {
  try {
    /** @type {MatchState} */
    let m;
    try {
      m = await api('GET', mpath, undefined, token || undefined);
    } catch (e) {
      if (e.status !== 403) throw e;
      token = null;
      saveMatchToken(id, null);
      m = await api('GET', mpath);
    }
    render(m);
    return m;
  } catch (e) {
    say(e.status === 404 ? `There is no match ${id}.` : `Cannot read the match: ${e.message}`, 'error');
    return null;
  }
}

/**
 * Takes the match's open place, or with the link's invitation its invited place, as the guest
 * `name` (undefined for an account), then follows the match as that participant.
 */
async function join(name) {
  const body = {};
  if (name !== undefined) body.name = name;
  if (invite) body.token = invite;
  try {
    const r = await api('POST', `${mpath}/join`, body);
    token = r.token;
    // A guest's place lives in this browser; an account's follows the account (the cookie).
    if (!account) saveMatchToken(id, r.token);
    if (invite) {
      invite = null;
      history.replaceState(null, '', location.pathname);
    }
    form = null;
    say('You joined the match.', 'ok');
  } catch (e) {
    say(`Cannot join the match: ${e.message}`, 'error');
    return;
  }
  await follow();
}

/**
 * Shows the match, then follows it on its socket, which sends the whole match on every change
 * (again after a drop, so nothing is missed), and the match room's chat. A new token (after
 * joining) means a new socket, whose states say which participant this is. A finished match
 * changes no more, but its room stays open for its chat.
 */
async function follow() {
  if (socket) socket.close();
  socket = null;
  const m = await load();
  if (!m) return;
  const s = new MatchSocket(id, token, {
    onMatch: (now) => {
      if (socket !== s) return; // a message the socket before had already received
      render(now);
    },
    onStatus: (status) => {
      showConnection(status);
      chat.connection(status);
    },
    onRoom: (msg) => {
      if (socket === s) chat.receive(msg);
    },
    // A guest who watches speaks under the name this browser remembers.
    name: account || token ? undefined : spectatorName(),
  });
  socket = s;
  window.zertzMatchSocket = s;
  s.start();
}

async function start() {
  $('chat-slot').replaceWith(chat.el);
  account = await siteHeader('match');
  const m = /(?:^#|&)join=([^&]+)/.exec(location.hash);
  if (m) {
    const link = decodeURIComponent(m[1]);
    // An invitation takes its place once; the place then plays with a token of its own (this
    // browser's for a guest, the session's for an account), and the link no longer acts for
    // it. A link this browser already used is dropped; one nobody used waits for the join
    // form; one used by someone else says so.
    const mine = token ? await api('GET', mpath, undefined, token).catch(() => null) : null;
    const seen = mine || (await api('GET', mpath).catch(() => null));
    const here = seen && seen.you !== null && seen.you !== undefined;
    if (seen && !here && seen.status === 'open') invite = link;
    else {
      if (seen && !here) say('This invitation can no longer be used: its place is taken, or the match is over.', 'error');
      history.replaceState(null, '', location.pathname);
    }
  }
  await follow();
}

start();
