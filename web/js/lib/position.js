// @ts-check
// The position string (see crates/zertz/src/position/text.rs) read into places with their
// official and host coordinates, and the groups of rings. No drawing, no rules beyond geometry:
// what is legal comes from the server.
//
//   37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1
//
// Geometry (rules.md section 2): column x (a = 0) has an offset first[x]; ring `row` of column
// x sits at height y = 2*(row-1) + first[x]; the six neighbours of (x, y) are (x, y±2) and
// (x±1, y±1).

/** Marble colours, in the order of every count the server sends (white, grey, black). */
export const COLOURS = ['W', 'G', 'B'];
export const COLOUR_NAMES = { W: 'white', G: 'grey', B: 'black' };

const STD = [3, 2, 1, 0, 1, 2, 3];
/** Height of row 1 of each column, per official board. */
const FIRST = {
  37: STD,
  40: [...STD, 4],
  43: [...STD, 4],
  44: [...STD, 4],
  48: [...STD, 4],
  61: [4, 3, 2, 1, 0, 1, 2, 3, 4],
};

/** Winning sets per rule set: [white, grey, black, each]. */
const WIN = { standard: [4, 5, 6, 3], blitz: [3, 4, 5, 2] };
const START = { standard: [6, 8, 10], blitz: [5, 7, 9] };

/** The letter of column x. */
export const columnLetter = (x) => String.fromCharCode(97 + x);

/** Reads `custom:W/G/B:w/g/b/each`, `standard` or `blitz` into start supply and win counts. */
export function ruleNumbers(rules) {
  if (WIN[rules]) return { start: START[rules], win: WIN[rules] };
  const m = /^custom:(\d+)\/(\d+)\/(\d+):(\d+)\/(\d+)\/(\d+)\/(\d+)$/.exec(rules || '');
  if (!m) return { start: START.standard, win: WIN.standard };
  const n = m.slice(1).map(Number);
  return { start: n.slice(0, 3), win: n.slice(3) };
}

function counts(text) {
  return text.split('/').map(Number);
}

/**
 * A place of the board: its column x (a = 0), row and height y on the grid, its official
 * coordinate, whether its ring is still there and the marble on it.
 * @typedef {object} Place
 * @property {number} x
 * @property {number} row
 * @property {number} y
 * @property {string} coord
 * @property {boolean} ring
 * @property {string | null} marble `W`, `G` or `B`
 */

/**
 * A position string read: the places by coordinate and by grid cell (`x,y`), the supply and
 * each player's captures (white/grey/black), the player to move.
 * @typedef {object} Position
 * @property {string} text
 * @property {string} board
 * @property {string} rules
 * @property {number} columns
 * @property {Place[]} places
 * @property {Map<string, Place>} byCoord
 * @property {Map<string, Place>} byCell
 * @property {number[]} supply
 * @property {number[][]} captures
 * @property {number} toMove
 */

/**
 * Parses a position string.
 * @param {string} text
 * @returns {Position}
 */
export function parsePosition(text) {
  const f = text.trim().split(/\s+/);
  if (f.length !== 7) throw new Error(`not a position string: ${text}`);
  const [board, rules, cells, supply, c1, c2, toMove] = f;
  const columns = cells.split('/');
  const first = board === 'custom' ? columns.map((_, x) => 1 + (x % 2)) : FIRST[board];
  if (!first) throw new Error(`unknown board ${board}`);
  const places = [];
  columns.forEach((column, x) => {
    [...column].forEach((ch, i) => {
      if (ch === '_') return;
      const row = i + 1;
      places.push({
        x,
        row,
        y: 2 * (row - 1) + first[x],
        coord: columnLetter(x) + row,
        ring: ch !== '-',
        marble: 'WGB'.includes(ch) ? ch : null,
      });
    });
  });
  const byCoord = new Map(places.map((p) => [p.coord, p]));
  const byCell = new Map(places.map((p) => [`${p.x},${p.y}`, p]));
  return {
    text,
    board,
    rules,
    columns: columns.length,
    places,
    byCoord,
    byCell,
    supply: counts(supply),
    captures: [counts(c1), counts(c2)],
    toMove: Number(toMove),
  };
}

/** The places next to a place (whether or not their rings are still there). */
export function neighbours(pos, p) {
  const cells = [
    [p.x, p.y + 2], [p.x, p.y - 2], [p.x + 1, p.y + 1],
    [p.x + 1, p.y - 1], [p.x - 1, p.y + 1], [p.x - 1, p.y - 1],
  ];
  return cells.map(([x, y]) => pos.byCell.get(`${x},${y}`)).filter(Boolean);
}

/**
 * The host coordinate of a place (rules.md 7.1): the board turned a quarter turn
 * counter-clockwise, rows lettered from the top (the last column is row A), rings numbered
 * from the left among those still there. Null for a place without a ring.
 */
export function hostCoord(pos, p) {
  if (!p.ring) return null;
  const letter = String.fromCharCode(65 + pos.columns - 1 - p.x);
  const above = pos.places.filter((q) => q.x === p.x && q.ring && q.row > p.row).length;
  return letter + (above + 1);
}

/** The host row letter of column x. */
export function hostRow(pos, x) {
  return String.fromCharCode(65 + pos.columns - 1 - x);
}

/** Groups of rings that touch each other, largest first. */
export function groups(pos) {
  const seen = new Set();
  const out = [];
  for (const start of pos.places) {
    if (!start.ring || seen.has(start)) continue;
    const group = [];
    const todo = [start];
    seen.add(start);
    while (todo.length) {
      const p = todo.pop();
      group.push(p);
      for (const q of neighbours(pos, p)) {
        if (q.ring && !seen.has(q)) {
          seen.add(q);
          todo.push(q);
        }
      }
    }
    out.push(group);
  }
  return out.sort((a, b) => b.length - a.length);
}

/** Marbles on the board, white/grey/black. */
export function onBoard(pos) {
  const n = [0, 0, 0];
  for (const p of pos.places) if (p.marble) n['WGB'.indexOf(p.marble)] += 1;
  return n;
}

/**
 * The rings that could be removed in `pos` once a marble stands on `filled` (if given): empty
 * rings with two neighbouring places side by side that have no ring (rules.md 3). Used only
 * for a premove, entered before the position it will be played in exists; the server checks
 * it again when it is sent.
 */
export function freeRings(pos, filled = null) {
  // The six directions in turn around a place, so that neighbours in the list touch.
  const around = [[0, 2], [1, 1], [1, -1], [0, -2], [-1, -1], [-1, 1]];
  const out = [];
  for (const p of pos.places) {
    if (!p.ring || p.marble || p.coord === filled) continue;
    const open = around.map(([dx, dy]) => {
      const q = pos.byCell.get(`${p.x + dx},${p.y + dy}`);
      return !q || !q.ring;
    });
    if (open.some((o, k) => o && open[(k + 1) % 6])) out.push(p.coord);
  }
  return out;
}

/**
 * A move of the server's list (official notation) written in host notation, in the position
 * `pos` it was played in: `W C3 A1`, `W C3`, `C3xC5xE5` (docs/formats.md); `pass` for a bribed
 * pass. The text as it is when it cannot be read.
 */
export function hostMoveText(pos, text) {
  const t = (text || '').trim();
  if (t === '-') return 'pass';
  const host = (c) => {
    const p = pos.byCoord.get(c);
    return (p && hostCoord(pos, p)) || '?';
  };
  let m = /^([WGB])([a-z]\d+)(?:,([a-z]\d+))?(?:\s*x\s*(?:[WGB][a-z]\d+)+)?$/.exec(t);
  if (m) return [m[1], host(m[2]), m[3] ? host(m[3]) : null].filter(Boolean).join(' ');
  m = /^x\s*([a-z]\d+)((?:[WGB][a-z]\d+)+)$/.exec(t);
  if (m) return [m[1], ...[...m[2].matchAll(/[WGB]([a-z]\d+)/g)].map((s) => s[1])].map(host).join('x');
  return t;
}
