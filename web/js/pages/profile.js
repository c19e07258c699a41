// @ts-check
// A player's profile, /@/{name} (GET /api/players/{name}): whether they are online and since
// when they have an account, a card per rating pool with the rating, its deviation, the games
// and the graph of the rating after each rated game, the results (won, lost, drawn, and how
// the games ended), the games they play now, their saved studies (each a link to /study/{id}),
// and their finished games page by page, filtered by result, opponent, board and pool, each with
// its rating change when it was rated.

import { api } from '../lib/api.js';
import { siteHeader } from '../lib/account.js';
import { pagedGameList, shortMoment } from '../lib/gamelist.js';
import { $, fill, h, profileHref, say } from '../lib/ui.js';
import { POOLS, deltaTag, howItEnded, outcomeWord, poolName, ratingGraph, ratingText } from '../lib/ratings.js';

const name = decodeURIComponent(location.pathname.split('/')[2] || '');
const apiPath = (tail = '') => `/api/players/${encodeURIComponent(name)}${tail}`;
const longDate = (ms) => new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });

function head(p) {
  document.title = `ZÈRTZ · ${p.name}`;
  $('profile-name').textContent = p.name;
  fill($('profile-meta'),
    h('span', { class: `online-mark ${p.online ? 'on' : 'off'}`, id: 'online-mark', title: p.online ? 'Active in the last minutes' : 'Not active in the last minutes' },
      p.online ? 'online' : 'offline'),
    ` · member since ${longDate(p.created_ms)}`);
}

/** One card per pool the player has a rating in, in the order of the pools. */
function ratingCards(ratings) {
  const order = (key) => POOLS.findIndex((p) => p.key === key);
  const sorted = [...ratings].sort((a, b) => order(a.pool) - order(b.pool));
  if (!sorted.length) return h('p', { class: 'empty', id: 'no-ratings' }, 'No rated game yet.');
  return sorted.map((r) => h('div', { class: 'panel rating-card', 'data-pool': r.pool },
    h('h3', {}, r.pool_name),
    h('p', { class: 'rating-line' },
      h('span', { class: 'rating-value', title: r.provisional ? 'Provisional: the deviation is still above 110' : `Rating ± deviation: ${r.rating} ± ${r.deviation}` }, ratingText(r)),
      ' ', r.provisional ? h('span', { class: 'tag provisional', title: 'A provisional rating: too few rated games to be sure of it' }, 'provisional') : null),
    h('p', { class: 'note' }, `± ${r.deviation} · ${r.games} rated game${r.games === 1 ? '' : 's'} · last ${longDate(r.last_game_ms)}`),
    ratingGraph(r.graph)));
}

/** Won, lost, drawn with a bar, and how the games ended, in words. */
function resultsView(r) {
  if (!r.games) return h('p', { class: 'empty' }, 'No finished game yet.');
  const part = (n, cls) => (n ? h('span', { class: cls, style: `width:${(100 * n) / r.games}%` }) : null);
  const rank = { win: 0, loss: 1, draw: 2 };
  const reasons = [...r.by_reason].sort((a, b) => rank[a[0]] - rank[b[0]] || b[2] - a[2]);
  return [
    h('p', { id: 'results-line' }, `${r.games} finished game${r.games === 1 ? '' : 's'}: ${r.won} won, ${r.lost} lost, ${r.drawn} drawn.`),
    h('div', { class: 'results-bar', 'aria-hidden': 'true' }, part(r.won, 'won'), part(r.drawn, 'drawn'), part(r.lost, 'lost')),
    h('ul', { class: 'by-reason', id: 'by-reason' }, reasons.map(([outcome, reason, n]) => h('li', { class: outcome },
      `${outcomeWord(outcome)} ${howItEnded(outcome, reason)}: `, h('b', {}, String(n))))),
  ];
}

/** The games being played now, each a link, with the opponent when its state can be read. */
async function playingView(playing) {
  if (!playing.length) {
    fill($('playing'), h('p', { class: 'empty' }, 'No game being played.'));
    return;
  }
  const states = await Promise.all(playing.slice(0, 20).map((g) => api('GET', `/api/games/${encodeURIComponent(g.id)}`).catch(() => null)));
  fill($('playing'), h('ul', { class: 'playing' }, playing.map((g, k) => {
    const s = states[k];
    const other = s && g.seat ? s.seats[2 - g.seat] : null;
    const against = other ? (other.kind === 'engine' ? `Engine level ${other.level}` : other.name) : null;
    return h('li', { 'data-game': g.id },
      h('a', { href: `/game/${encodeURIComponent(g.id)}` }, against ? `Game against ${against}` : `Game ${g.id}`),
      g.pool ? ` · ${poolName(g.pool)}` : '',
      g.rated ? [' ', h('span', { class: 'tag rated' }, 'rated')] : '');
  })));
}

/** The player's saved studies (GET /api/players/{name}/studies), the last saved first. */
async function studiesView() {
  let studies;
  try {
    studies = await api('GET', apiPath('/studies'));
  } catch (e) {
    fill($('studies'), h('p', { class: 'error', id: 'studies-error' }, `Cannot list the studies: ${e.message}`));
    return;
  }
  fill($('studies'), studies.length
    ? h('ul', { class: 'studies', id: 'study-list' }, studies.map((s) => h('li', { 'data-study': s.id },
      // The name is the player's own text: shown as text, never as HTML.
      h('a', { href: `/study/${encodeURIComponent(s.id)}` }, s.name),
      h('span', { class: 'note' }, ` · ${s.chapters} chapter${s.chapters === 1 ? '' : 's'} · saved ${shortMoment(s.updated)}`))))
    : h('p', { class: 'empty', id: 'no-studies' }, 'No saved study.'));
}

// ---- finished games ----

function gameRow(g) {
  const opponent = g.rated
    ? h('a', { href: profileHref(g.opponent_name) }, g.opponent_name)
    : h('span', {}, g.opponent_name);
  const change = g.rated && g.rating_after !== null && g.rating_before !== null
    ? h('span', { class: 'rating-change', title: `${Math.round(g.rating_before)} before the game` }, `${Math.round(g.rating_after)} `, deltaTag(g.rating_before, g.rating_after))
    : h('span', { class: 'note' }, 'unrated');
  const game = encodeURIComponent(g.game_id);
  return h('tr', { 'data-game': g.game_id, class: g.outcome },
    h('td', {}, shortMoment(g.ended_ms)),
    h('td', {}, h('span', { class: `outcome ${g.outcome}` }, outcomeWord(g.outcome)), ` ${howItEnded(g.outcome, g.reason)}`),
    h('td', {}, opponent),
    h('td', {}, g.board === 'custom' ? 'custom board' : `${g.board} rings`, g.pool ? ` · ${poolName(g.pool)}` : ''),
    h('td', {}, change),
    h('td', { class: 'links' },
      h('a', { href: `/game/${game}`, class: 'game-link' }, 'Game'), ' ',
      h('a', { href: `/archive#game=${game}`, class: 'replay-link' }, 'Replay')));
}

/** The finished games' list (`gamelist.js`), filtered by result, opponent, board and pool. */
function setupGames() {
  const pool = $('filter-pool');
  for (const p of POOLS) pool.append(h('option', { value: p.key }, p.name));
  pagedGameList({
    filters: ['result', 'opponent', 'board', 'pool'],
    live: ['result', 'board', 'pool'],
    form: 'game-filters',
    path: (q) => apiPath(`/games?${q}`),
    rows: (games) => games.map(gameRow),
    into: 'games',
    tableClass: 'list games-list',
    headings: ['Ended', 'Result', 'Opponent', 'Game', 'Rating', ''],
    errorId: 'games-error',
    emptyId: 'no-games',
    empty: 'No finished game yet.',
    noMatch: 'No finished game matches these filters.',
  });
}

async function start() {
  siteHeader('players');
  if (!name) {
    say('No player given in the address.', 'error');
    return;
  }
  $('profile-name').textContent = name;
  let p;
  try {
    p = await api('GET', apiPath());
  } catch (e) {
    $('profile-name').textContent = 'No such player';
    document.title = 'ZÈRTZ · no such player';
    say(e.status === 404 ? `There is no player named ${name}.` : `Cannot read the profile: ${e.message}`, 'error');
    return;
  }
  head(p);
  fill($('rating-cards'), ratingCards(p.ratings));
  fill($('results'), resultsView(p.results));
  $('profile').hidden = false;
  setupGames();
  playingView(p.playing);
  studiesView();
}

start();
