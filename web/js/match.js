// The match page, /match/{id}: the players, the score, every game with its result, and the
// game being played now. An invitation link (#join=…) takes the open place.

import { api, matchToken, playerName, saveMatchToken } from './api.js';
import { copy, fill, h, header, say, describeSettings } from './ui.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const $ = (name) => document.getElementById(name);
const mpath = `/api/matches/${encodeURIComponent(id)}`;
let token = matchToken(id);

const name = (m, i) => (m.players[i].kind === 'engine' ? `Engine (level ${m.players[i].level})` : m.players[i].name || 'waiting for a player…');

function render(m) {
  const [board, rules] = m.start.split(' ');
  const rulesText = [m.repetition === 'forbidden' ? 'no repetition' : null, m.bribes ? 'bribes' : null].filter(Boolean);
  $('title').textContent = `Match: ${name(m, 0)} – ${name(m, 1)}`;
  const items = [
    h('p', {}, `Best of ${m.best_of} · ${describeSettings(board, rules, m.clock_text, rulesText)}`),
    h('p', { class: 'score', id: 'match-score', 'data-score': `${m.score[0]}-${m.score[1]}` },
      `${name(m, 0)} `, h('b', {}, `${m.score[0]} – ${m.score[1]}`), ` ${name(m, 1)}`),
  ];
  if (m.winner !== null && m.winner !== undefined) {
    items.push(h('p', { class: 'result-box', id: 'match-winner' }, `${name(m, m.winner)} wins the match ${m.score[m.winner]}–${m.score[1 - m.winner]}.`));
  }
  if (m.bribes_left) items.push(h('p', { class: 'note' }, `Bribes left: ${name(m, 0)} ${m.bribes_left[0]}, ${name(m, 1)} ${m.bribes_left[1]}.`));
  if (m.status === 'open') {
    if (m.you === null || m.you === undefined) {
      items.push(h('p', {}, h('button', { type: 'button', class: 'primary', id: 'join-match', onclick: () => join() }, 'Join this match')));
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
}

async function load() {
  try {
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

async function join(invite) {
  try {
    const r = await api('POST', `${mpath}/join`, { name: playerName(), token: invite });
    token = r.token;
    saveMatchToken(id, r.token);
    say('You joined the match.', 'ok');
  } catch (e) {
    say(`Cannot join the match: ${e.message}`, 'error');
  }
  await load();
}

async function start() {
  document.body.prepend(header('match'));
  const m = /(?:^#|&)join=([^&]+)/.exec(location.hash);
  if (m) {
    const invite = decodeURIComponent(m[1]);
    history.replaceState(null, '', location.pathname);
    // An invited place holds the link's token before anyone takes it: take it unless this
    // browser already did (a reload before the address was cleaned).
    const mine = await api('GET', mpath, undefined, invite).catch(() => null);
    const taken = mine && mine.you !== null && mine.you !== undefined && mine.players[mine.you].name !== null;
    if (taken) {
      token = invite;
      saveMatchToken(id, invite);
    } else await join(invite);
  }
  await load();
  const timer = setInterval(async () => {
    const now = await load();
    if (now && now.status === 'finished') clearInterval(timer);
  }, 2500);
}

start();
