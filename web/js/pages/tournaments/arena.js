// @ts-check
// An arena on its page: the table (rank, player marked ×2 while two wins in a row double the
// next game, each game's points with berserk and doubled ones marked, the points), the games
// under way with links to watch them, and the time left. Pure builders: an event in, elements out.

import { h, profileHref } from '../../lib/ui.js';
import { countdown } from './words.js';

/** @typedef {import('../../lib/types.js').Tournament} Tournament */
/** @typedef {import('../../lib/types.js').StandingLine} StandingLine */

/** One game of a score sheet: its points, marked when doubled or berserk. */
function sheetCell(/** @type {NonNullable<StandingLine['sheet']>[number]} */ g) {
  const marks = [g.doubled ? 'counted double (on fire)' : null, g.berserk ? 'berserk' : null].filter(Boolean);
  const words = `${g.outcome}, ${g.points} point${g.points === 1 ? '' : 's'}${marks.length ? `, ${marks.join(', ')}` : ''}`;
  return h('span', { class: `sheet-game ${g.outcome}${g.doubled ? ' doubled' : ''}${g.berserk ? ' berserk' : ''}`, title: words, 'aria-label': words },
    String(g.points), g.berserk ? h('span', { 'aria-hidden': 'true' }, '⚔') : null);
}

/** The arena's table, best first. */
export function arenaTable(/** @type {Tournament} */ t) {
  const lines = t.standings.lines;
  if (!lines.length) return h('p', { class: 'empty' }, 'Nobody has played yet.');
  return h('table', { class: 'list standings arena-table', id: 'standings-table' },
    h('caption', { class: 'note' }, '2 points a win, 1 a draw; after two wins in a row (×2) each game counts double until one is not won; a berserk win (⚔) of 7 moves or more: one point more'),
    h('thead', {}, h('tr', {}, h('th', {}, 'Rank'), h('th', {}, 'Player'), h('th', {}, 'Points of each game'), h('th', {}, 'Points'))),
    h('tbody', {}, lines.map((l) => h('tr', { 'data-name': l.name, 'data-points': String(l.points ?? 0) },
      h('td', { class: 'rank' }, String(l.rank)),
      h('td', {},
        h('a', { href: profileHref(l.name) }, l.name),
        l.on_fire ? ' ' : null,
        l.on_fire ? h('span', { class: 'tag on-fire', title: 'Two wins in a row: the next game counts double' }, '×2') : null,
        l.playing ? ' ' : null,
        l.playing ? h('span', { class: 'tag playing' }, 'playing') : null,
        l.away ? ' ' : null,
        l.away ? h('span', { class: 'tag withdrawn', title: 'Left the arena: paired again when they come back' }, 'away') : null),
      h('td', { class: 'sheet' }, (l.sheet || []).map(sheetCell)),
      h('td', { class: 'points' }, String(l.points ?? 0))))));
}

/** The games being played now, each with a link to watch it. */
export function gamesUnderWay(/** @type {Tournament} */ t) {
  const boards = t.pairings.flatMap((r) => r.boards).filter((b) => b.black && !b.result && b.url);
  if (!boards.length) return h('p', { class: 'empty' }, 'No game is being played.');
  return h('ul', { class: 'arena-games', id: 'arena-games' }, boards.map((b) => h('li', {},
    h('a', { href: b.url || '#' }, `${b.white} – ${b.black}`))));
}

/** "Ends in 12:04", "Time is up: the games under way finish", for a running arena. */
export function arenaClock(/** @type {Tournament} */ t, now = Date.now()) {
  if (!t.ends_ms) return '';
  if (t.status === 'finished') return 'Over';
  if (t.ends_ms <= now) return 'Time is up: the games under way finish and count';
  return `Ends in ${countdown(t.ends_ms, now)}`;
}
