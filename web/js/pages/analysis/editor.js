// @ts-check
// Setting up a position by hand: put and take marbles, take away and put back rings, set both
// players' captures and the player to move; the supply is whatever of the rule set's marbles is
// left. The page draws what is being set up; whether it can be played is the rules library's
// to say (POST /api/position/setup), and its sentence is shown as it comes.

import { api } from '../../lib/api.js';
import { marbleIcon } from '../../lib/board.js';
import { COLOURS, COLOUR_NAMES, onBoard, parsePosition, ruleNumbers } from '../../lib/position.js';
import { flag, pref } from '../../lib/prefs.js';
import { fill, h } from '../../lib/ui.js';

/** The height of each column of the official boards (rules.md 2), for an empty board. */
const COLUMNS = {
  37: [4, 5, 6, 7, 6, 5, 4],
  40: [4, 5, 6, 7, 6, 5, 4, 3],
  43: [5, 6, 7, 7, 6, 5, 4, 3],
  44: [4, 5, 6, 7, 7, 6, 5, 4],
  48: [5, 6, 7, 8, 7, 6, 5, 4],
  61: [5, 6, 7, 8, 9, 8, 7, 6, 5],
};

/** The position string of an empty official board under `rules`. */
export function emptyBoard(board, rules) {
  const supply = ruleNumbers(rules).start.join('/');
  return `${board} ${rules} ${COLUMNS[board].map((n) => '.'.repeat(n)).join('/')} ${supply} 0/0/0 0/0/0 1`;
}

const TOOLS = [
  ['W', 'white marble'],
  ['G', 'grey marble'],
  ['B', 'black marble'],
  ['empty', 'take a marble off'],
  ['ring', 'take away or put back a ring'],
];

export class Editor {
  /** `el`: the editor's panel; `board`: the page's BoardView; onOpen(), onClose(position | null). */
  constructor(el, { board, flipped, onOpen, onClose }) {
    this.el = el;
    this.board = board;
    this.flipped = flipped;
    this.onOpen = onOpen;
    this.onClose = onClose;
    this.tool = 'W';
    this.error = '';
  }

  /** Starts from the position string `text` (the one on the board). */
  open(text) {
    const pos = parsePosition(text);
    this.base = pos; // the places of the board, whatever happens to their rings
    this.rules = pos.rules;
    this.removed = new Set(pos.places.filter((p) => !p.ring).map((p) => p.coord));
    this.marbles = new Map(pos.places.filter((p) => p.marble).map((p) => [p.coord, p.marble]));
    this.captures = pos.captures.map((c) => [...c]);
    this.toMove = pos.toMove;
    this.error = '';
    this.el.hidden = false;
    this.onOpen();
    this.render();
  }

  close(position = null) {
    this.el.hidden = true;
    this.onClose(position);
  }

  /** The supply left: the rule set's marbles less those on the board and captured. */
  supply() {
    const start = ruleNumbers(this.rules).start;
    const on = [0, 0, 0];
    for (const c of this.marbles.values()) on['WGB'.indexOf(c)] += 1;
    return start.map((n, k) => n - on[k] - this.captures[0][k] - this.captures[1][k]);
  }

  /** The position being set up, as a position string (for drawing; the server checks it). */
  text() {
    const columns = new Map();
    for (const p of this.base.places) {
      const col = columns.get(p.x) || [];
      col[p.row - 1] = this.removed.has(p.coord) ? '-' : this.marbles.get(p.coord) || '.';
      columns.set(p.x, col);
    }
    const cells = [...columns.keys()].sort((a, b) => a - b)
      .map((x) => Array.from(columns.get(x), (c) => c || '_').join('')).join('/');
    const supply = this.supply().map((n) => Math.max(0, n)).join('/');
    return `${this.base.board} ${this.rules} ${cells} ${supply} ${this.captures[0].join('/')} ${this.captures[1].join('/')} ${this.toMove}`;
  }

  click(coord) {
    const p = this.base.byCoord.get(coord);
    if (!p) return;
    this.error = '';
    if (this.tool === 'ring') {
      if (this.removed.has(coord)) this.removed.delete(coord);
      else {
        this.removed.add(coord);
        this.marbles.delete(coord);
      }
    } else if (this.removed.has(coord)) {
      this.error = `There is no ring at ${coord}: put it back first (the ring tool).`;
    } else if (this.tool === 'empty') this.marbles.delete(coord);
    else if (this.marbles.get(coord) === this.tool) this.marbles.delete(coord);
    else this.marbles.set(coord, this.tool);
    this.render();
  }

  /** Sends the set-up to the server; a position it refuses stays here with the reason. */
  async done() {
    const marbles = Object.fromEntries(this.marbles);
    const body = {
      board: this.base.board,
      rules: this.rules,
      removed: [...this.removed].sort(),
      marbles,
      captures: this.captures,
      to_move: this.toMove,
    };
    try {
      const r = await api('POST', '/api/position/setup', body);
      this.close(r.position);
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  render() {
    const pos = parsePosition(this.text());
    this.board.render(pos, {
      notation: pref('notation'),
      coords: flag('coords'),
      letters: flag('letters'),
      interactive: true,
      absent: true,
      turn: this.flipped() ? 180 : 0,
    });
    const tool = ([key, label]) => h('button', {
      type: 'button',
      class: `tool${this.tool === key ? ' chosen' : ''}`,
      'data-tool': key,
      'aria-pressed': this.tool === key ? 'true' : 'false',
      onclick: () => { this.tool = key; this.render(); },
    }, 'WGB'.includes(key) ? h('span', { class: 'icon', html: marbleIcon(key, 18, flag('letters')) }) : null, ` ${label}`);
    const count = (player, k) => {
      const input = h('input', { type: 'number', min: 0, max: 20, value: this.captures[player][k], id: `setup-captures-${player + 1}-${COLOURS[k]}`, 'aria-label': `${COLOUR_NAMES[COLOURS[k]]} marbles captured by player ${player + 1}` });
      input.addEventListener('change', () => {
        this.captures[player][k] = Math.max(0, Math.floor(Number(input.value) || 0));
        this.render();
      });
      return h('label', {}, COLOURS[k], input);
    };
    const boardSelect = h('select', { id: 'setup-board' }, Object.keys(COLUMNS).map((b) => h('option', { value: b, selected: b === this.base.board }, `${b} rings`)));
    const rulesSelect = h('select', { id: 'setup-rules' }, ['standard', 'blitz'].map((r) => h('option', { value: r, selected: r === this.rules }, r)));
    const toMove = h('select', { id: 'setup-to-move' }, [1, 2].map((n) => h('option', { value: n, selected: n === this.toMove }, `player ${n}`)));
    toMove.addEventListener('change', () => { this.toMove = Number(toMove.value); this.render(); });
    rulesSelect.addEventListener('change', () => { this.rules = rulesSelect.value; this.render(); });
    const empty = () => {
      this.open(emptyBoard(boardSelect.value, rulesSelect.value));
    };
    const supply = this.supply();
    const on = onBoard(pos);
    fill(this.el,
      h('h3', {}, 'Set up a position'),
      h('p', { class: 'note' }, 'Choose what a click puts on the board, then click the places. The server says whether the position can be played.'),
      h('div', { class: 'row tools' }, TOOLS.map(tool)),
      h('div', { class: 'row' }, h('label', {}, 'Board ', boardSelect), h('label', {}, 'Rules ', rulesSelect),
        h('button', { type: 'button', id: 'setup-empty', onclick: empty }, 'Empty board'),
        h('button', { type: 'button', id: 'setup-clear', onclick: () => { this.marbles.clear(); this.render(); } }, 'Take every marble off')),
      h('div', { class: 'row captures-edit' }, h('span', {}, 'Captures of player 1: '), [0, 1, 2].map((k) => count(0, k))),
      h('div', { class: 'row captures-edit' }, h('span', {}, 'Captures of player 2: '), [0, 1, 2].map((k) => count(1, k))),
      h('div', { class: 'row' }, h('label', {}, 'To move: ', toMove)),
      h('p', { id: 'setup-supply', class: supply.some((n) => n < 0) ? 'error' : 'note' },
        `On the board: ${on.map((n, k) => `${n} ${COLOUR_NAMES[COLOURS[k]]}`).join(', ')}. Supply left: `,
        supply.map((n, k) => `${n} ${COLOUR_NAMES[COLOURS[k]]}`).join(', '), '.'),
      h('p', { id: 'setup-error', class: 'error', role: 'alert' }, this.error),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'primary', id: 'setup-done', onclick: () => this.done() }, 'Analyse this position'),
        h('button', { type: 'button', id: 'setup-cancel', onclick: () => this.close(null) }, 'Cancel')));
  }
}

