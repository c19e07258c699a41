// The board in SVG: rings on the hexagonal grid, marbles (white, grey, black: told apart by
// lightness, outline and hatching, and by letters if asked), coordinates along the edges,
// cut-off groups shaded, the last move marked, and the places a move may use highlighted.
// It draws what it is given and reports clicks and hovers; it knows no rules.

import { groups, hostCoord, hostRow, columnLetter } from './position.js';

const S = 60; // distance between the centres of neighbouring rings
const DX = (S * Math.sqrt(3)) / 2;
const DY = S / 2;
const RING = 0.46 * S;
const HOLE = 0.16 * S;
const MARBLE = 0.34 * S;
const NS = 'http://www.w3.org/2000/svg';

const cx = (x) => x * DX;
const cy = (y) => -y * DY;
const f = (n) => n.toFixed(1);

const DEFS = `<defs>
  <radialGradient id="m-W" cx="0.35" cy="0.3" r="0.8"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#d8d6cf"/></radialGradient>
  <radialGradient id="m-G" cx="0.35" cy="0.3" r="0.8"><stop offset="0" stop-color="#b4b4b4"/><stop offset="1" stop-color="#7b7b7b"/></radialGradient>
  <radialGradient id="m-B" cx="0.35" cy="0.3" r="0.8"><stop offset="0" stop-color="#5a5a5a"/><stop offset="1" stop-color="#0e0e0e"/></radialGradient>
  <pattern id="hatch" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
    <line x1="0" y1="0" x2="0" y2="7" stroke="#4a4a4a" stroke-width="2.2" stroke-opacity="0.55"/></pattern>
  <marker id="arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse">
    <path d="M0,0 L10,5 L0,10 z" fill="#1d5fd0"/></marker>
</defs>`;

/** SVG for one marble of colour `c` at (x, y). */
export function marbleSvg(c, x, y, r = MARBLE, letter = false) {
  const stroke = c === 'B' ? '#000' : '#222';
  let s = `<circle class="marble marble-${c}" cx="${f(x)}" cy="${f(y)}" r="${f(r)}" fill="url(#m-${c})" stroke="${stroke}" stroke-width="${c === 'W' ? 2.6 : 1.8}"/>`;
  if (c === 'G') s += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r - 1)}" fill="url(#hatch)" pointer-events="none"/>`;
  if (c === 'B') s += `<circle cx="${f(x - r * 0.33)}" cy="${f(y - r * 0.36)}" r="${f(r * 0.2)}" fill="#fff" fill-opacity="0.45" pointer-events="none"/>`;
  if (letter) {
    s += `<text x="${f(x)}" y="${f(y + r * 0.36)}" text-anchor="middle" font-size="${f(r)}" font-weight="700" fill="${c === 'B' ? '#fff' : '#111'}" pointer-events="none">${c}</text>`;
  }
  return s;
}

/** A small standalone SVG of one marble, for the supply and the captures. */
export function marbleIcon(c, size = 22) {
  return `<svg class="marble-icon" width="${size}" height="${size}" viewBox="-13 -13 26 26" aria-hidden="true">${DEFS}${marbleSvg(c, 0, 0, 11)}</svg>`;
}

export class BoardView {
  /**
   * `parent`: the element to draw into. `onClick(coord)`, `onHover(place | null)`.
   */
  constructor(parent, { onClick, onHover } = {}) {
    this.svg = document.createElementNS(NS, 'svg');
    this.svg.classList.add('board');
    this.svg.setAttribute('role', 'img');
    parent.append(this.svg);
    this.svg.addEventListener('click', (e) => {
      const g = e.target.closest('[data-coord]');
      if (g && onClick) onClick(g.dataset.coord);
    });
    this.svg.addEventListener('keydown', (e) => {
      const g = e.target.closest('[data-coord]');
      if (g && onClick && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        onClick(g.dataset.coord);
      }
    });
    const hover = (e) => {
      const g = e.target.closest && e.target.closest('[data-coord]');
      if (onHover) onHover(g && this.pos ? this.pos.byCoord.get(g.dataset.coord) : null);
    };
    this.svg.addEventListener('pointerover', hover);
    this.svg.addEventListener('focusin', hover);
    this.svg.addEventListener('pointerleave', () => onHover && onHover(null));
  }

  /**
   * Draws `pos` (from parsePosition). Options: targets (Set of coords to offer), selected
   * (coords), phase ('remove' marks targets as rings to take away), last (moveMarks),
   * notation ('official' or 'host'), letters (letters on marbles), interactive.
   */
  render(pos, opts = {}) {
    this.pos = pos;
    const { targets = new Set(), selected = [], phase = '', last = null, notation = 'official', letters = false, interactive = false, preview = null } = opts;
    const xs = pos.places.map((p) => cx(p.x));
    const ys = pos.places.map((p) => cy(p.y));
    const padX = S * 0.95;
    const padY = S * 1.3;
    const minX = Math.min(...xs) - padX;
    const maxX = Math.max(...xs) + padX;
    const minY = Math.min(...ys) - S * 0.75;
    const maxY = Math.max(...ys) + padY;
    this.svg.setAttribute('viewBox', `${f(minX)} ${f(minY)} ${f(maxX - minX)} ${f(maxY - minY)}`);
    this.svg.setAttribute('aria-label', `ZÈRTZ board, ${pos.board} places`);
    this.svg.classList.toggle('interactive', interactive);

    const out = [DEFS];
    // Cut-off groups: every group but the largest is shaded.
    const parts = groups(pos);
    if (parts.length > 1) {
      out.push('<g class="cut-off">');
      for (const group of parts.slice(1)) {
        for (const p of group) out.push(`<circle cx="${f(cx(p.x))}" cy="${f(cy(p.y))}" r="${f(S * 0.6)}"/>`);
      }
      out.push('</g>');
    }
    // Places of the last move whose rings are gone: a dashed ghost.
    const ghosts = [];
    if (last && last.removed) ghosts.push(last.removed);
    if (last && last.isolated) ghosts.push(...last.isolated);
    for (const c of ghosts) {
      const p = pos.byCoord.get(c);
      if (p && !p.ring) out.push(`<circle class="ghost" cx="${f(cx(p.x))}" cy="${f(cy(p.y))}" r="${f(RING)}"/>`);
    }
    // Rings and marbles.
    const sel = new Set(selected);
    for (const p of pos.places) {
      if (!p.ring) continue;
      const x = cx(p.x);
      const y = cy(p.y);
      const official = p.coord;
      const host = hostCoord(pos, p);
      const name = notation === 'host' ? `${host} (${official})` : `${official} (host ${host})`;
      const cls = ['place'];
      if (targets.has(p.coord)) cls.push(phase === 'remove' ? 'target remove' : 'target');
      if (sel.has(p.coord)) cls.push('selected');
      const tab = interactive && targets.has(p.coord) ? ' tabindex="0"' : '';
      out.push(`<g class="${cls.join(' ')}" data-coord="${p.coord}" data-host="${host}"${tab}><title>${name}</title>`);
      out.push(`<circle class="ring" cx="${f(x)}" cy="${f(y)}" r="${f(RING)}"/>`);
      out.push(`<circle class="hole" cx="${f(x)}" cy="${f(y)}" r="${f(HOLE)}"/>`);
      if (p.marble) out.push(marbleSvg(p.marble, x, y, MARBLE, letters));
      else if (preview && preview.at === p.coord) out.push(`<g class="preview">${marbleSvg(preview.colour, x, y, MARBLE, letters)}</g>`);
      out.push(`<circle class="hl" cx="${f(x)}" cy="${f(y)}" r="${f(RING + 1)}"/>`);
      out.push('</g>');
    }
    // The last move.
    if (last && last.placed) {
      const p = pos.byCoord.get(last.placed);
      if (p && p.ring) out.push(`<circle class="last" cx="${f(cx(p.x))}" cy="${f(cy(p.y))}" r="${f(MARBLE + 5)}"/>`);
    }
    if (last && last.path) {
      const pts = last.path.map((c) => pos.byCoord.get(c)).filter(Boolean);
      if (pts.length > 1) {
        out.push(`<polyline class="last-path" marker-end="url(#arrow)" points="${pts.map((p) => `${f(cx(p.x))},${f(cy(p.y))}`).join(' ')}"/>`);
      }
      const end = pts[pts.length - 1];
      if (end) out.push(`<circle class="last" cx="${f(cx(end.x))}" cy="${f(cy(end.y))}" r="${f(MARBLE + 5)}"/>`);
    }
    // The chain being entered.
    if (selected.length > 1) {
      const pts = selected.map((c) => pos.byCoord.get(c)).filter(Boolean);
      out.push(`<polyline class="entry-path" points="${pts.map((p) => `${f(cx(p.x))},${f(cy(p.y))}`).join(' ')}"/>`);
    }
    out.push(this.labels(pos, notation));
    this.svg.innerHTML = out.join('');
  }

  /** Coordinates along the edges of the board's frame. */
  labels(pos, notation) {
    const out = ['<g class="labels">'];
    const columns = new Map();
    for (const p of pos.places) {
      const c = columns.get(p.x) || { min: p, max: p };
      if (p.y < c.min.y) c.min = p;
      if (p.y > c.max.y) c.max = p;
      columns.set(p.x, c);
    }
    if (notation === 'host') {
      // Host rows are the columns, lettered from the right; numbers count rings from the top.
      for (const [x, c] of columns) {
        out.push(`<text class="column" x="${f(cx(x))}" y="${f(cy(c.min.y - 2.25))}">${hostRow(pos, x)}</text>`);
      }
    } else {
      for (const [x, c] of columns) {
        out.push(`<text class="column" x="${f(cx(x))}" y="${f(cy(c.min.y - 2.25))}">${columnLetter(x)}</text>`);
      }
      // Row numbers beside the leftmost and rightmost place of each row.
      const rows = new Map();
      for (const p of pos.places) {
        const r = rows.get(p.row) || { left: p, right: p };
        if (p.x < r.left.x) r.left = p;
        if (p.x > r.right.x) r.right = p;
        rows.set(p.row, r);
      }
      // Straight out to the side on an upright edge, up and out on a slanted one.
      const at = (p, side) => {
        const upright = !pos.byCell.has(`${p.x + side},${p.y + 1}`) && !pos.byCell.has(`${p.x + side},${p.y - 1}`);
        return upright ? [p.x + side * 0.78, p.y] : [p.x + side * 0.75, p.y + 0.75];
      };
      for (const [row, r] of rows) {
        for (const [x, y] of [at(r.left, -1), at(r.right, 1)]) {
          out.push(`<text x="${f(cx(x))}" y="${f(cy(y) + 6)}">${row}</text>`);
        }
      }
    }
    out.push('</g>');
    return out.join('');
  }
}
