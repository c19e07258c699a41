// @ts-check
// The lobby: open games and matches anyone may accept, and the games being played to watch.
// Refreshed every few seconds. A guest accepts under the name in the field at the top; an
// account under its own. Rated games and matches are marked. Open games and open matches come
// in pages (next, previous), so that many seeks never push the others out of reach;
// invitations waiting for their friend are not listed at all.

import { api, saveMatchToken, saveSeatToken, setPlayerName } from '../lib/api.js';
import { siteHeader, whoPlays } from '../lib/account.js';
import { $, fill, h, say, describeSettings, personTag } from '../lib/ui.js';
import { poolName } from '../lib/ratings.js';


let account = null; // the logged-in account, null for a guest
let who = null; // {el, name()}: who accepts

const PAGE = 20; // open games (or matches) a page

/** Where a paged list is: the cursor (`before`) of each page down to the one shown, and the
 * cursor of the page after it, if there may be one. `id` prefixes its buttons' ids. */
function paging(id) {
  return { id, pages: [null], next: null };
}
const gamePages = paging('open');
const matchPages = paging('match');

/** `path` (with its query) for the page of `p` shown. */
function paged(path, p) {
  const before = p.pages[p.pages.length - 1];
  return `${path}&limit=${PAGE}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
}

/** The body of a join: the guest's name (none for an account); null when a guest gave none. */
function joinBody() {
  const name = who.name();
  if (name === undefined) return {};
  if (!name) {
    say('Give your name first (at the top of the page).', 'error');
    return null;
  }
  setPlayerName(name);
  return { name };
}

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
  const body = joinBody();
  if (!body) return;
  try {
    const r = await api('POST', `/api/games/${encodeURIComponent(id)}/join`, body);
    // A guest's seat lives in this browser; an account's follows the account (the cookie).
    if (!account) saveSeatToken(id, r.token);
    location.href = `/game/${encodeURIComponent(id)}`;
  } catch (e) {
    say(`Cannot accept the game: ${e.message}`, 'error');
    refresh();
  }
}

async function acceptMatch(id) {
  const body = joinBody();
  if (!body) return;
  try {
    const r = await api('POST', `/api/matches/${encodeURIComponent(id)}/join`, body);
    if (!account) saveMatchToken(id, r.token);
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

const seat = (s, i) => personTag(s.seats[i]);

/** "rated" and the pool, for a rated game or match (its listing or state says so). */
function ratedTag(g) {
  if (!g || !g.rated) return null;
  return [' ', h('span', { class: 'tag rated', title: `Rated: counts in ${poolName(g.pool)}` }, 'rated')];
}

async function refresh() {
  try {
    const [open, live, matches] = await Promise.all([
      api('GET', paged('/api/games?status=open&lobby=true', gamePages)),
      api('GET', '/api/games?status=live&limit=30'),
      api('GET', paged('/api/matches?status=open&lobby=true', matchPages)),
    ]);
    const openStates = await states(open.games.filter((g) => g.open && !g.match_id).map((g) => g.id));
    fill($('open-games'), table(['Player', 'Game', ''], openStates.map((s) => {
      const creator = s.seats.findIndex((seat) => seat.name);
      const side = creator === 0 ? 'moves first' : 'moves second';
      return h('tr', { 'data-game': s.id },
        h('td', {}, seat(s, creator < 0 ? 0 : creator), ` (${side})`),
        h('td', {}, describeSettings(s.board, s.rules, s.clock_text, houseRules(s)), ratedTag(s)),
        h('td', {}, h('button', { type: 'button', class: 'primary', onclick: () => acceptGame(s.id) }, 'Accept')));
    }), gamePages.pages.length > 1 ? 'No more open games.' : 'No open game right now.'));
    gamePages.next = open.next;
    fill($('open-pages'), pager(gamePages));

    const openMatches = matches.matches.filter((m) => m.open !== false);
    fill($('open-matches'), table(['Player', 'Match', ''], openMatches.map((m) => {
      const [board, rules] = m.start.split(' ');
      return h('tr', { 'data-match': m.id },
        h('td', {}, personTag(m.players[0])),
        h('td', {}, `Best of ${m.best_of} · ${describeSettings(board, rules, m.clock_text, houseRules(m))}`, ratedTag(m)),
        h('td', {}, h('button', { type: 'button', class: 'primary', onclick: () => acceptMatch(m.id) }, 'Accept')));
    }), matchPages.pages.length > 1 ? 'No more open matches.' : 'No open match right now.'));
    matchPages.next = matches.next;
    fill($('match-pages'), pager(matchPages));

    const liveStates = await states(live.games.map((g) => g.id));
    fill($('live-games'), table(['Players', 'Game', 'Moves', ''], liveStates.map((s) => h('tr', { 'data-game': s.id },
      h('td', {}, seat(s, 0), ' – ', seat(s, 1)),
      h('td', {}, describeSettings(s.board, s.rules, s.clock_text, houseRules(s)), ratedTag(s)),
      h('td', {}, String(s.moves.length)),
      // (Read with the session cookie, a game of the logged-in player's says `you`.)
      h('td', {}, h('a', { class: 'button', href: `/game/${encodeURIComponent(s.id)}` }, s.you ? 'Play' : 'Watch')))), 'No game is being played.'));
    say('');
  } catch (e) {
    say(`Cannot read the lobby: ${e.message}`, 'error');
  }
}

/** Previous and next under a paged list, with the page's number. */
function pager(p) {
  if (p.pages.length === 1 && !p.next) return [];
  const go = (change) => {
    change();
    refresh();
  };
  return h('div', { class: 'row pager' },
    h('button', { type: 'button', id: `${p.id}-previous`, disabled: p.pages.length === 1, onclick: () => go(() => p.pages.pop()) }, '← Newer'),
    h('span', { id: `${p.id}-page` }, `Page ${p.pages.length}`),
    h('button', { type: 'button', id: `${p.id}-next`, disabled: !p.next, onclick: () => go(() => p.pages.push(p.next)) }, 'Older →'));
}

async function start() {
  // Who accepts is known before the first Accept button shows.
  account = await siteHeader('lobby');
  who = whoPlays(account);
  fill($('who'), who.el);
  refresh();
  setInterval(refresh, 4000);
}

start();
