// @ts-check
// The panels around the board: players with their clocks and captures (with progress to each
// winning set), the supply as colour buttons, and the move list.

import { engineName, engineRating, guestMark, h, profileHref } from './ui.js';
import { marbleIcon } from './board.js';
import { COLOURS, COLOUR_NAMES, ruleNumbers } from './position.js';
import { clockShows } from './clock.js';
import { flag } from './prefs.js';

/** @typedef {import('./types.js').GameState} GameState */

/**
 * The display name of seat i (0 or 1) of a game state.
 * @param {GameState} state
 * @param {number} i
 */
export function seatName(state, i) {
  const s = state.seats[i];
  if (s.kind === 'engine') return engineName(s.level);
  return s.name || (state.status === 'open' ? 'waiting for a player…' : `Player ${i + 1}`);
}

/**
 * Captures of one player: the marbles, and progress to each winning set.
 * @param {number[]} captures white/grey/black
 * @param {string} rules the rule set
 */
export function capturesView(captures, rules) {
  const { win } = ruleNumbers(rules);
  const rows = COLOURS.map((c, k) => {
    const have = captures[k];
    return h('div', { class: 'progress', title: `${have} of ${win[k]} ${COLOUR_NAMES[c]} marbles win` },
      h('span', { class: 'icon', html: marbleIcon(c, 16, flag('letters')) }),
      h('span', { class: 'bar' }, h('span', { style: `width:${Math.min(100, (100 * have) / win[k])}%` })),
      h('span', { class: 'count' }, `${have}/${win[k]}`));
  });
  const each = Math.min(...captures);
  rows.push(h('div', { class: 'progress each', title: `${win[3]} of each colour win` },
    h('span', { class: 'icon' }, 'each'),
    h('span', { class: 'bar' }, h('span', { style: `width:${Math.min(100, (100 * each) / win[3])}%` })),
    h('span', { class: 'count' }, `${each}/${win[3]}`)));
  return h('div', { class: 'captures' }, rows);
}

/**
 * A player's card: name, whose turn, presence, clock, captures. Returns {el, clock} where
 * `clock` is the element to tick. `rating` is what shows beside an account's name (its rating
 * in the game's pool, as the page knows it), or null; an engine shows its published rating.
 * @param {GameState} state
 * @param {number} i
 * @param {Node | null} [rating]
 */
export function playerCard(state, i, rating = null) {
  const seat = state.seats[i];
  const toMove = state.status === 'live' && state.to_move === i + 1;
  const you = state.you === i + 1;
  const won = state.result && state.result.winner === i + 1;
  const clock = h('div', { class: 'clock' });
  const presence = seat.kind === 'human' && state.status === 'live' && !seat.connected
    ? h('div', { class: 'away' }, 'disconnected')
    : null;
  const el = h('div', { class: `player${toMove ? ' to-move' : ''}${you ? ' you' : ''}${won ? ' won' : ''}`, 'data-seat': i + 1 },
    h('div', { class: 'who' },
      h('span', { class: 'seat' }, i === 0 ? '1st' : '2nd'),
      // An account's name leads to its profile; a guest's is marked as such.
      h('span', { class: 'name' }, seat.kind === 'human' && seat.name && !seat.guest
        ? h('a', { href: profileHref(seat.name) }, seat.name)
        : seatName(state, i)),
      seat.kind === 'engine' ? engineRating(seat) : rating,
      seat.guest ? guestMark() : null,
      you ? h('span', { class: 'tag' }, 'you') : null,
      toMove ? h('span', { class: 'tag turn' }, 'to move') : null,
      won ? h('span', { class: 'tag win' }, 'winner') : null),
    clock,
    presence,
    capturesView(state.captures[i], state.rules));
  return { el, clock };
}

/**
 * Shows clock i of `state`, `elapsed` ms after the state arrived. Returns true if it ran out.
 * @param {HTMLElement} el
 * @param {GameState} state
 * @param {number} i
 * @param {number} elapsed
 */
export function tickClock(el, state, i, elapsed) {
  if (!state.clock || state.clock.kind === 'unlimited') {
    el.replaceChildren();
    return false;
  }
  const c = clockShows(state, i, elapsed);
  el.className = `clock${state.clocks[i].running ? ' running' : ''}${c.low ? ' low' : ''}`;
  el.title = c.low ? 'Low time' : '';
  el.replaceChildren(h('span', { class: 'main' }, c.main), c.sub ? h('span', { class: 'sub' }, c.sub) : '');
  return state.clocks[i].running && c.out;
}

/**
 * The supply as colour buttons. `hand` is 'supply' or 'captures' (when the supply is empty the
 * player places their own captures), `chosen` the colour picked, `onPick(colour)`.
 * @param {number[]} counts white/grey/black
 * @param {'supply' | 'captures'} hand
 * @param {string | null} chosen
 * @param {(colour: string) => void} onPick
 * @param {boolean} enabled
 */
export function supplyView(counts, hand, chosen, onPick, enabled) {
  const buttons = COLOURS.map((c, k) => h('button', {
    type: 'button',
    class: `colour${chosen === c ? ' chosen' : ''}`,
    'data-colour': c,
    'aria-pressed': chosen === c ? 'true' : 'false',
    disabled: !enabled,
    title: `${COLOUR_NAMES[c]}: ${counts[k]}`,
    onclick: () => onPick(c),
  }, h('span', { class: 'icon', html: marbleIcon(c, 24, flag('letters')) }), h('span', { class: 'n' }, String(counts[k])), h('span', { class: 'label' }, COLOUR_NAMES[c])));
  const title = hand === 'captures' ? 'Supply empty: place from your captures' : 'Supply';
  return h('div', { class: 'supply' }, h('h3', {}, title), h('div', { class: 'colours' }, buttons));
}

/**
 * Who makes turn `ply` (from 1) when player `first` is to move at the start.
 * @param {number} ply
 * @param {number} first
 */
export const mover = (ply, first) => ((ply + first) % 2 === 0 ? 1 : 2);

/**
 * The move number of turn `ply` when player `first` is to move at the start: as records count
 * them, 1 for the first pair of turns.
 * @param {number} ply
 * @param {number} first
 */
export const moveNumber = (ply, first) => Math.floor((ply - 1 + (first - 1)) / 2) + 1;

/**
 * A turn's number in a move list, as the analysis board and records write it: "3." before
 * player one's move, "3…" before player two's.
 * @param {number} ply
 * @param {number} first
 */
export const plyLabel = (ply, first) => `${moveNumber(ply, first)}${mover(ply, first) === 1 ? '.' : '…'}`;

/**
 * The move list. `moves` are in official notation, `texts` the same moves as shown (host
 * notation, if chosen). `shown` is the number of turns shown on the board (the last one when
 * following the game); `onPick(n)` shows the position after n turns. Turns are numbered in
 * pairs (`plyLabel`), player `first` to move at the start.
 * @param {string[]} moves
 * @param {number} shown
 * @param {(turn: number) => void} onPick
 * @param {string[]} [texts]
 * @param {number} [first]
 */
export function moveList(moves, shown, onPick, texts = moves, first = 1) {
  const items = [h('li', { class: shown === 0 ? 'current' : '', value: 0 },
    h('button', { type: 'button', 'data-turn': 0, onclick: () => onPick(0) }, 'start'))];
  moves.forEach((m, k) => {
    items.push(h('li', { class: shown === k + 1 ? 'current' : '' },
      h('span', { class: 'no' }, plyLabel(k + 1, first)),
      h('button', { type: 'button', 'data-turn': k + 1, 'data-move': m, title: texts[k] !== m ? m : null, onclick: () => onPick(k + 1) }, texts[k] || m)));
  });
  return h('ol', { class: 'moves' }, items);
}
