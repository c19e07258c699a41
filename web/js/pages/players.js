// @ts-check
// The leaderboard, /players (GET /api/leaderboard): a tab per rating pool and its top 100 (rank,
// name linking to the profile, rating, games): the established players, then the provisional
// ones, marked ?. The pool shown is in the address (`?pool=`); without one, the first pool that
// has players.

import { api } from '../lib/api.js';
import { siteHeader } from '../lib/account.js';
import { $, fill, h, profileHref, say } from '../lib/ui.js';
import { POOLS, PROVISIONAL_NOTE, poolName, ratingText } from '../lib/ratings.js';

let shown = null; // the pool shown

function tabs() {
  fill($('pool-tabs'), POOLS.map((p) => h('button', {
    type: 'button',
    role: 'tab',
    class: `tab${p.key === shown ? ' here' : ''}`,
    'data-pool': p.key,
    'aria-selected': p.key === shown ? 'true' : 'false',
    onclick: () => choose(p.key),
  }, p.name)));
}

async function choose(key) {
  shown = key;
  history.replaceState(null, '', `/players?pool=${encodeURIComponent(key)}`);
  tabs();
  $('pool-title').textContent = poolName(key);
  const box = $('leaders');
  box.dataset.pool = key;
  delete box.dataset.loaded;
  let board;
  try {
    board = await api('GET', `/api/leaderboard?pool=${encodeURIComponent(key)}`);
  } catch (e) {
    say(`Cannot read the leaderboard: ${e.message}`, 'error');
    return;
  }
  if (shown !== key) return; // another tab was chosen meanwhile
  say('');
  const players = board.pools[0] ? board.pools[0].players : [];
  fill(box, players.length
    ? h('table', { class: 'list leaderboard' },
      h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Rating', 'Games'].map((t) => h('th', {}, t)))),
      h('tbody', {}, players.map((p) => h('tr', { 'data-name': p.name },
        h('td', { class: 'rank' }, String(p.rank)),
        h('td', {}, h('a', { href: profileHref(p.name) }, p.name)),
        h('td', { title: p.provisional ? `provisional, ± ${p.deviation}` : `± ${p.deviation}` }, ratingText(p)),
        h('td', {}, String(p.games))))))
    : h('p', { class: 'empty', id: 'no-leaders' }, 'Nobody has played a rated game in this pool in the last 90 days.'));
  if (players.some((p) => p.provisional)) box.append(h('p', { class: 'note', id: 'provisional-note' }, `${PROVISIONAL_NOTE[0].toUpperCase()}${PROVISIONAL_NOTE.slice(1)}.`));
  box.dataset.loaded = String(players.length);
}

async function start() {
  siteHeader('players');
  $('find-player').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = $('find-name', HTMLInputElement).value.trim();
    if (name) location.href = profileHref(name);
  });
  const asked = new URLSearchParams(location.search).get('pool');
  if (POOLS.some((p) => p.key === asked)) {
    choose(asked);
    return;
  }
  // No pool asked: the first with players (each pool's top 10 says which have any).
  let first = POOLS[0].key;
  try {
    const all = await api('GET', '/api/leaderboard');
    const some = all.pools.find((p) => p.players.length);
    if (some) first = some.pool;
  } catch {
    // shown as the chosen pool's error below
  }
  choose(first);
}

start();
