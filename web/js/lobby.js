// The lobby: open games and matches anyone may accept, and the games being played to watch.
// Refreshed every few seconds.

import { api, playerName, saveMatchToken, saveSeatToken } from './api.js';
import { fill, h, header, say, describeSettings } from './ui.js';

const $ = (id) => document.getElementById(id);

function houseRules(x) {
  const r = [];
  if (x.repetition === 'forbidden') r.push('no repetition');
  if (x.bribes) r.push('bribes');
  return r;
}

function table(headings, rows, empty) {
  if (!rows.length) return h('p', { class: 'empty' }, empty);
  return h('table', { class: 'list' },
    h('thead', {}, h('tr', {}, headings.map((t) => h('th', {}, t)))),
    h('tbody', {}, rows));
}

async function acceptGame(id) {
  try {
    const r = await api('POST', `/api/games/${encodeURIComponent(id)}/join`, { name: playerName() });
    saveSeatToken(id, r.token);
    location.href = `/game/${encodeURIComponent(id)}`;
  } catch (e) {
    say(`Cannot accept the game: ${e.message}`, 'error');
    refresh();
  }
}

async function acceptMatch(id) {
  try {
    const r = await api('POST', `/api/matches/${encodeURIComponent(id)}/join`, { name: playerName() });
    saveMatchToken(id, r.token);
    const game = r.match && r.match.current_game;
    location.href = game ? `/game/${encodeURIComponent(game)}` : `/match/${encodeURIComponent(id)}`;
  } catch (e) {
    say(`Cannot accept the match: ${e.message}`, 'error');
    refresh();
  }
}

/** The states of some games (for names and clocks), skipping any that fail. */
async function states(ids) {
  const all = await Promise.all(ids.map((id) => api('GET', `/api/games/${encodeURIComponent(id)}`).catch(() => null)));
  return all.filter(Boolean);
}

const who = (s, i) => (s.seats[i].kind === 'engine' ? `Engine (level ${s.seats[i].level})` : s.seats[i].name || '—');

async function refresh() {
  try {
    const [open, live, matches] = await Promise.all([
      api('GET', '/api/games?status=open&limit=30'),
      api('GET', '/api/games?status=live&limit=30'),
      api('GET', '/api/matches?status=open&limit=30'),
    ]);
    const openStates = await states(open.games.filter((g) => g.open && !g.match_id).map((g) => g.id));
    fill($('open-games'), table(['Player', 'Game', ''], openStates.map((s) => {
      const creator = s.seats.findIndex((seat) => seat.name);
      const side = creator === 0 ? 'moves first' : 'moves second';
      return h('tr', { 'data-game': s.id },
        h('td', {}, `${who(s, creator < 0 ? 0 : creator)} (${side})`),
        h('td', {}, describeSettings(s.board, s.rules, s.clock_text, houseRules(s))),
        h('td', {}, h('button', { type: 'button', class: 'primary', onclick: () => acceptGame(s.id) }, 'Accept')));
    }), 'No open game right now.'));

    const openMatches = matches.matches.filter((m) => m.open !== false);
    fill($('open-matches'), table(['Player', 'Match', ''], openMatches.map((m) => {
      const [board, rules] = m.start.split(' ');
      return h('tr', { 'data-match': m.id },
        h('td', {}, m.players[0].name || '—'),
        h('td', {}, `Best of ${m.best_of} · ${describeSettings(board, rules, m.clock_text, houseRules(m))}`),
        h('td', {}, h('button', { type: 'button', class: 'primary', onclick: () => acceptMatch(m.id) }, 'Accept')));
    }), 'No open match right now.'));

    const liveStates = await states(live.games.map((g) => g.id));
    fill($('live-games'), table(['Players', 'Game', 'Moves', ''], liveStates.map((s) => h('tr', { 'data-game': s.id },
      h('td', {}, `${who(s, 0)} – ${who(s, 1)}`),
      h('td', {}, describeSettings(s.board, s.rules, s.clock_text, houseRules(s))),
      h('td', {}, String(s.moves.length)),
      h('td', {}, h('a', { class: 'button', href: `/game/${encodeURIComponent(s.id)}` }, 'Watch')))), 'No game is being played.'));
    say('');
  } catch (e) {
    say(`Cannot read the lobby: ${e.message}`, 'error');
  }
}

document.body.prepend(header('lobby'));
refresh();
setInterval(refresh, 4000);
