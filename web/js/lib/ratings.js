// @ts-check
// Ratings as the pages show them: the pools and their names, the pool a game's settings fall
// in (for showing a player's rating beside their name: the server decides what is rated), how
// games ended in words, rating changes, and the rating graph drawn as plain SVG.

import { h } from './ui.js';

/** Every pool, as the server names them: Standard rules first, fastest first. */
export const POOLS = ['standard', 'blitz'].flatMap((rules) => ['blitz', 'rapid', 'classical', 'correspondence'].map((speed) => ({
  key: `${rules}-${speed}`,
  name: `${rules === 'blitz' ? 'Blitz' : 'Standard'} rules, ${speed}`,
})));

/** A pool's name for people ("Standard rules, rapid"), from its key. */
export function poolName(key) {
  const pool = POOLS.find((p) => p.key === key);
  return pool ? pool.name : key || '';
}

/** Turns a player is expected to make, and the speed limits (docs/web.md, "Ratings"). */
const TURNS = 20;
const BLITZ_BELOW_MS = 8 * 60000;
const RAPID_BELOW_MS = 25 * 60000;

/** The speed of a clock (null: no clock, hence no pool). */
export function speedOf(clock) {
  if (!clock || clock.kind === 'unlimited') return null;
  if (clock.kind === 'correspondence') return 'correspondence';
  const expected = {
    sudden_death: () => clock.total_ms,
    fischer: () => clock.base_ms + TURNS * clock.increment_ms,
    periods: () => clock.main_ms + TURNS * clock.period_ms,
    per_move_reserve: () => TURNS * clock.per_move_ms + clock.reserve_ms,
  }[clock.kind];
  if (!expected) return null;
  const ms = expected();
  if (ms < BLITZ_BELOW_MS) return 'blitz';
  return ms < RAPID_BELOW_MS ? 'rapid' : 'classical';
}

/**
 * The pool of a game on `board` under `rules` with `clock`, or null. Only the 37-ring board
 * with the standard or Blitz rule set and a clock has one. (A game set up from a position or
 * continued from a record has none either, which the settings shown here do not tell: the
 * server's answer wins wherever it is known.)
 */
export function poolOf(board, rules, clock) {
  if (String(board) !== '37' || !['standard', 'blitz'].includes(rules)) return null;
  const speed = speedOf(clock);
  return speed ? `${rules}-${speed}` : null;
}

/** Why a game with these settings cannot be rated, in words; null when it can. */
export function whyUnrated({ engine, board, rules, clock, houseRules = false }) {
  if (engine) return 'games against the engine are unrated: its levels have fixed ratings';
  if (String(board) !== '37') return 'only games on the 37-ring board are rated';
  if (!['standard', 'blitz'].includes(rules)) return 'only the standard and Blitz rule sets are rated';
  if (houseRules) return 'rated games follow the official rules, without house rules';
  if (!speedOf(clock)) return 'rated games need a clock';
  return null;
}

/** Why a leaderboard may be empty, in words. */
export const PROVISIONAL_NOTE = 'ratings are provisional (marked ?) until their deviation falls to 110, '
  + 'which takes a dozen rated games or more, and only players with a rated game in the pool in the last 90 days are listed';

/** A rating as text: "1512", or "1512?" while provisional. */
export const ratingText = (r) => `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;

/** A rating change: "+12", "−8" (a real minus sign) or "±0". */
export function delta(before, after) {
  const d = Math.round(after) - Math.round(before);
  if (d > 0) return `+${d}`;
  if (d < 0) return `\u2212${-d}`;
  return '±0';
}

/** The span of a rating change, coloured by its sign. */
export function deltaTag(before, after) {
  const text = delta(before, after);
  const cls = text.startsWith('+') ? 'up' : text.startsWith('±') ? 'same' : 'down';
  return h('span', { class: `delta ${cls}` }, text);
}

/** How a game ended, from the side of `outcome` (win, loss, draw): "by captures", "on time"… */
export function howItEnded(outcome, reason) {
  switch (reason) {
    case 'captures': return 'by captures';
    case 'isolation': return 'by isolation';
    case 'no_legal_move': return outcome === 'win' ? 'as the opponent had no legal move' : 'with no legal move left';
    case 'resignation': return 'by resignation';
    case 'time': return 'on time';
    case 'abandonment': return outcome === 'win' ? 'by abandonment (the opponent left)' : 'by abandonment (left the game)';
    case 'repetition': return 'by repetition';
    case 'agreement': return 'by agreement';
    default: return reason ? `(${reason})` : '';
  }
}

/** "Won", "Lost" or "Drawn". */
export const outcomeWord = (outcome) => ({ win: 'Won', loss: 'Lost', draw: 'Drawn' }[outcome] || outcome);

// ---- the rating graph ----

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element: svg('circle', {cx: 1}, child…); text children become text nodes. */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const day = (ms) => new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
const moment = (ms) => new Date(ms).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** A step for about three to five labels between `lo` and `hi`. */
function labelStep(lo, hi) {
  for (const step of [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]) {
    if ((hi - lo) / step <= 4) return step;
  }
  return 1000;
}

/**
 * The rating graph of one pool: the rating after each rated game (oldest first, evenly
 * spaced), its deviation as a shaded band, the rating axis with a few labels, the dates of the
 * first and the last game under it, and the latest point marked (with its value). Plain SVG,
 * scaled by its viewBox.
 */
export function ratingGraph(points, { width = 320, height = 150 } = {}) {
  const pad = { left: 38, right: 14, top: 12, bottom: 22 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const n = points.length;
  const last = points[n - 1];
  const root = svg('svg', {
    class: 'rating-graph',
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': n ? `Rating after each of ${n} rated games, now ${Math.round(last.rating)}` : 'No rated game yet',
  });
  if (!n) return root;
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (hi - lo < 40) {
    const mid = (hi + lo) / 2;
    lo = mid - 20;
    hi = mid + 20;
  }
  const step = labelStep(lo, hi);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const x = (i) => pad.left + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (r) => pad.top + ((hi - Math.max(lo, Math.min(hi, r))) / (hi - lo)) * plotH;
  const f = (v) => v.toFixed(1);

  const grid = svg('g', { class: 'grid' });
  for (let r = lo; r <= hi; r += step) {
    grid.append(
      svg('line', { x1: pad.left, x2: width - pad.right, y1: f(y(r)), y2: f(y(r)) }),
      svg('text', { x: pad.left - 4, y: f(y(r) + 3.5), class: 'y-label' }, String(r)));
  }
  const axes = svg('g', { class: 'axes' },
    svg('line', { x1: pad.left, x2: pad.left, y1: pad.top, y2: pad.top + plotH }),
    svg('line', { x1: pad.left, x2: width - pad.right, y1: pad.top + plotH, y2: pad.top + plotH }));
  const dates = svg('g', { class: 'x-labels' },
    svg('text', { x: f(x(0)), y: height - 6, class: n === 1 ? 'middle' : 'start' }, day(points[0].at_ms)));
  if (n > 1) dates.append(svg('text', { x: f(x(n - 1)), y: height - 6, class: 'end' }, day(last.at_ms)));

  // The deviation: the band the rating lies in with some 95% confidence (±2 RD) is too wide
  // to read at the start; one deviation either side is shown.
  const upper = points.map((p, i) => `${f(x(i))},${f(y(p.rating + p.deviation))}`);
  const lower = points.map((p, i) => `${f(x(i))},${f(y(p.rating - p.deviation))}`).reverse();
  const band = n > 1 ? svg('polygon', { class: 'band', points: [...upper, ...lower].join(' ') }) : null;
  const line = n > 1 ? svg('polyline', { class: 'line', points: points.map((p, i) => `${f(x(i))},${f(y(p.rating))}`).join(' ') }) : null;
  const title = (p, k) => `${Math.round(p.rating)} ± ${Math.round(p.deviation)} after rated game ${k + 1} (${moment(p.at_ms)})`;
  const dots = n <= 60
    ? svg('g', { class: 'points' }, points.slice(0, -1).map((p, k) => svg('circle', { cx: f(x(k)), cy: f(y(p.rating)), r: 2.2 }, svg('title', {}, title(p, k)))))
    : null;
  const lx = x(n - 1);
  const ly = y(last.rating);
  const latest = svg('circle', { class: 'latest', cx: f(lx), cy: f(ly), r: 4.5, 'data-rating': Math.round(last.rating) }, svg('title', {}, title(last, n - 1)));
  const value = svg('text', { class: 'latest-label', x: f(Math.min(lx, width - pad.right - 2)), y: f(ly < pad.top + 14 ? ly + 15 : ly - 8) }, String(Math.round(last.rating)));
  root.append(...[grid, axes, dates, band, line, dots, latest, value].filter(Boolean));
  return root;
}
