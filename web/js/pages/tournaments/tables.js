// @ts-check
// The tables of an event's page: the standings with their tie-breaks, the crosstable (each
// player's opponent, first move and result round by round), each round's boards with links to
// their games, and the podium once it is over. Pure builders: an event in, elements out.

import { h, profileHref } from '../../lib/ui.js';
import { pointsText, pointsWords, resultText } from './words.js';

/** @typedef {import('../../lib/types.js').Tournament} Tournament */
/** @typedef {import('../../lib/types.js').TournamentBoard} TournamentBoard */

const nameLink = (name) => h('a', { href: profileHref(name) }, name);

/** A knockout's places: the round each player went out in, those still in first. */
function placesTable(t) {
  const rounds = t.rounds || 1;
  const stage = (r) => (r === rounds ? 'the final' : r === rounds - 1 ? 'a semifinal' : r === rounds - 2 ? 'a quarterfinal' : `round ${r}`);
  return h('table', { class: 'list standings', id: 'standings-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Place'), h('th', {}, 'Player'), h('th', {}, 'Out in'), h('th', {}, 'Matches won'))),
    h('tbody', {}, t.standings.lines.map((l) => h('tr', { 'data-name': l.name },
      h('td', { class: 'rank' }, l.rank ? String(l.rank) : ''),
      h('td', {}, nameLink(l.name), l.withdrawn ? ' ' : '', l.withdrawn ? h('span', { class: 'tag withdrawn', title: 'Withdrew: the next opponent goes through' }, 'withdrawn') : ''),
      h('td', {}, l.out_in ? stage(l.out_in) : l.rank === 1 ? 'won it' : 'still in'),
      h('td', {}, String(l.wins))))));
}

/** The standings after the last complete round: rank, player, points and the tie-breaks. */
export function standingsTable(t) {
  const lines = t.standings.lines;
  if (t.format === 'knockout') return placesTable(t);
  if (!lines.length) return h('p', { class: 'empty' }, 'No round is complete yet.');
  return h('table', { class: 'list standings', id: 'standings-table' },
    h('caption', { class: 'note' }, `After round ${t.standings.after_round}`),
    h('thead', {}, h('tr', {},
      h('th', {}, 'Rank'), h('th', {}, 'Player'), h('th', {}, 'Points'),
      h('th', { title: 'Buchholz, cut 1: the opponents\u2019 points, the lowest left out' }, 'Buchholz c1'),
      h('th', { title: 'Sonneborn-Berger: the points of the opponents beaten, and half of those drawn with' }, 'S-B'),
      h('th', {}, 'Wins'))),
    h('tbody', {}, lines.map((l) => h('tr', { 'data-name': l.name },
      h('td', { class: 'rank' }, String(l.rank)),
      h('td', {}, nameLink(l.name), l.withdrawn ? ' ' : '', l.withdrawn ? h('span', { class: 'tag withdrawn', title: 'Withdrew: paired no more, results stand' }, 'withdrawn') : ''),
      h('td', { class: 'points' }, pointsText(l.points)),
      h('td', {}, pointsText(l.buchholz_cut1)),
      h('td', {}, pointsText(l.sonneborn_berger)),
      h('td', {}, String(l.wins))))));
}

/**
 * What a board means for `name`: the opponent, whether `name` moved first, and the score in
 * crosstable form ('1', '½', '0', '+', '-', or '' while it is played); null if `name` is not on
 * it.
 * @param {TournamentBoard} b
 * @param {string} name
 */
export function seen(b, name) {
  const first = b.white === name;
  if (!first && b.black !== name) return null;
  const r = b.result;
  let score = '';
  if (r === 'bye') score = '+';
  else if (r === 'half-bye') score = '½';
  else if (r === 'zero-bye') score = '0';
  else if (r === 'rest') score = '';
  else if (r === '1/2-1/2') score = '½';
  else if (r === '1-0' || r === '0-1') score = (r === '1-0') === first ? '1' : '0';
  else if (r === '+-' || r === '-+') score = (r === '+-') === first ? '+' : '-';
  else if (r === '--') score = '-';
  return { opponent: first ? b.black : b.white, first, score, result: r };
}

/** The crosstable: a line per player (in the standings' order), a cell per round. */
export function crosstable(t) {
  const number = new Map(t.entries.map((e) => [e.name, e.number]));
  const order = t.standings.lines.length
    ? t.standings.lines.map((l) => l.name)
    : t.entries.filter((e) => e.number !== null).sort((a, b) => (a.number ?? 0) - (b.number ?? 0)).map((e) => e.name);
  if (!t.pairings.length || !order.length) return h('p', { class: 'empty' }, 'No round has been paired yet.');
  const cell = (name, round) => {
    for (const b of round.boards) {
      const s = seen(b, name);
      if (!s) continue;
      if (!s.opponent) {
        const [text, title] = {
          rest: ['rest', 'Rests this round: no points'],
          'half-bye': ['bye ½', 'Sat this round out, as asked: half a point'],
          'zero-bye': ['bye 0', 'Sat this round out, as asked: no points'],
        }[s.result || ''] || ['bye', 'The pairing\u2019s bye: a win\u2019s points'];
        return h('td', { class: 'cross', title }, text);
      }
      const colour = s.first ? 'w' : 'b';
      const title = `${s.first ? 'Moved first' : 'Moved second'} against ${s.opponent}${s.score ? '' : ', playing now'}`;
      return h('td', { class: 'cross', title }, `${number.get(s.opponent) ?? '?'}${colour} ${s.score || '…'}`.trim());
    }
    return h('td', { class: 'cross', title: 'Not paired this round (withdrawn)' }, '–');
  };
  return h('div', {},
    h('table', { class: 'list crosstable', id: 'crosstable-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'No.'), h('th', {}, 'Player'),
        t.pairings.map((r) => h('th', {}, `R${r.round}`)))),
      h('tbody', {}, order.map((name) => h('tr', { 'data-name': name },
        h('td', { class: 'rank' }, String(number.get(name) ?? '')),
        h('td', {}, nameLink(name)),
        t.pairings.map((r) => cell(name, r)))))),
    h('p', { class: 'hint' }, 'Each round: the opponent\u2019s number, w if the player moved first and b if second, then the score (+ and - a forfeit).'));
}

/** Each round's boards, the latest first: who moves first, the result, the game. */
export function roundsList(t, me) {
  return [...t.pairings].reverse().map((r) => h('div', { class: 'round', 'data-round': String(r.round) },
    h('h3', {}, `Round ${r.round}`),
    h('table', { class: 'list boards' },
      h('thead', {}, h('tr', {}, h('th', {}, t.format === 'knockout' ? 'Slot' : 'Board'), h('th', {}, 'Moves first'), h('th', {}, 'Result'), h('th', {}, 'Moves second'), h('th', {}, t.format === 'knockout' ? 'Match' : 'Game'))),
      h('tbody', {}, r.boards.map((b) => {
        const mine = me && (b.white === me || b.black === me);
        const link = b.url
          ? h('a', { href: b.url, class: 'game-link' }, b.result ? 'replay' : mine ? 'play' : 'watch')
          : '';
        return h('tr', { class: mine ? 'mine' : null, 'data-board': String(b.board) },
          h('td', { class: 'rank' }, String(b.board)),
          h('td', {}, nameLink(b.white)),
          h('td', { class: 'result' }, resultText(b.result) || (b.black ? 'playing' : '')),
          h('td', {}, b.black ? nameLink(b.black) : ''),
          h('td', {}, link));
      })))));
}

/** The first three of the final standings (a knockout's: its winner, finalist and both semifinal losers). */
export function podium(t) {
  const places = ['First', 'Second', 'Third'];
  const knockout = t.format === 'knockout';
  const top = knockout ? t.standings.lines.filter((l) => l.rank && l.rank <= 3) : t.standings.lines.slice(0, 3);
  const thirdPlace = t.settings && t.settings.third_place;
  const word = (l) => (l.rank === 1 ? 'won the final' : l.rank === 2 ? 'lost the final' : thirdPlace && l.rank === 3 ? 'won the match for third place' : 'lost a semifinal');
  return h('div', { class: 'podium', id: 'podium-places' },
    h('h2', {}, 'Podium'),
    h('ol', {}, top.map((l, i) => {
      const place = knockout ? (l.rank ?? 3) : i + 1;
      return h('li', { class: `place place-${place}`, 'data-name': l.name },
        h('span', { class: 'place-name' }, places[place - 1]), ' ', nameLink(l.name), ' ',
        h('span', { class: 'note' }, knockout ? word(l) : pointsWords(l.points)));
    })));
}
