// @ts-check
// The board in SVG: rings on the hexagonal grid, marbles (white, grey, black: told apart by
// lightness, outline and hatching, and by letters if asked), coordinates around the board,
// cut-off groups shaded, the last move marked, a move waiting to be confirmed (or a premove)
// shown, and the places a move may use highlighted. The board can be turned (a half turn for
// the second player, a quarter turn for the host's view). It draws what it is given, plays the
// short animations it is asked for, and reports clicks and hovers; it knows no rules.

import { groups, hostCoord, hostRow, columnLetter } from './position.js';

/** @typedef {import('./position.js').Place} Place */
/** @typedef {import('./position.js').Position} Position */

const S = 60; // distance between the centres of neighbouring rings
const DX = (S * Math.sqrt(3)) / 2;
const DY = S / 2;
const RING = 0.46 * S;
const HOLE = 0.16 * S;
const MARBLE = 0.34 * S;
const NS = 'http://www.w3.org/2000/svg';

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

/**
 * Puts the gradients, the hatching and the arrowhead in the page once, in a hidden SVG that every
 * board and marble icon refers to: an id names one element of a page, so a copy in each icon
 * would repeat them. style.css keeps it out of the layout (not with `display: none`, under
 * which gradients are not drawn).
 */
function defineOnce() {
  if (document.getElementById('board-defs')) return;
  const holder = document.createElementNS(NS, 'svg');
  holder.id = 'board-defs';
  holder.setAttribute('aria-hidden', 'true');
  holder.setAttribute('width', '0');
  holder.setAttribute('height', '0');
  holder.innerHTML = DEFS;
  document.body.prepend(holder);
}

/** SVG for one marble of colour `c` at (x, y). */
export function marbleSvg(c, x, y, r = MARBLE, letter = false) {
  const stroke = c === 'B' ? '#000' : '#222';
  let s = `<circle class="marble marble-${c}" cx="${f(x)}" cy="${f(y)}" r="${f(r)}" fill="url(#m-${c})" stroke="${stroke}" stroke-width="${c === 'W' ? 2.6 : 1.8}"/>`;
  if (c === 'G') s += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r - 1)}" fill="url(#hatch)" pointer-events="none"/>`;
  if (c === 'B') s += `<circle cx="${f(x - r * 0.33)}" cy="${f(y - r * 0.36)}" r="${f(r * 0.2)}" fill="#fff" fill-opacity="0.45" pointer-events="none"/>`;
  if (letter) {
    s += `<text class="marble-letter" x="${f(x)}" y="${f(y + r * 0.36)}" text-anchor="middle" font-size="${f(r)}" font-weight="700" fill="${c === 'B' ? '#fff' : '#111'}" pointer-events="none">${c}</text>`;
  }
  return s;
}

/** A small standalone SVG of one marble, for the supply and the captures. */
export function marbleIcon(c, size = 22, letter = false) {
  defineOnce();
  return `<svg class="marble-icon" width="${size}" height="${size}" viewBox="-13 -13 26 26" aria-hidden="true">${marbleSvg(c, 0, 0, 11, letter)}</svg>`;
}

/** The place halfway between two places two steps apart (the marble a jump goes over). */
export function between(pos, a, b) {
  const p = pos.byCoord.get(a);
  const q = pos.byCoord.get(b);
  if (!p || !q) return null;
  return pos.byCell.get(`${(p.x + q.x) / 2},${(p.y + q.y) / 2}`) || null;
}

/** The turns the board can be drawn at: degrees counter-clockwise. */
export const TURNS = [0, 90, 180, 270];

export class BoardView {
  /**
   * `parent`: the element to draw into. `onClick(coord)`, `onHover(place | null)`.
   * @param {HTMLElement} parent
   * @param {{onClick?: (coord: string) => void, onHover?: (place: Place | null) => void}} [handlers]
   */
  constructor(parent, { onClick, onHover } = {}) {
    this.parent = parent;
    this.svg = document.createElementNS(NS, 'svg');
    this.svg.classList.add('board');
    this.svg.setAttribute('role', 'img');
    // Named from the start: a board not drawn yet is still an image with a name.
    this.svg.setAttribute('aria-label', 'ZÈRTZ board');
    // The board itself (drawn again at every change) and, above it, the animations' layer.
    this.content = document.createElementNS(NS, 'g');
    this.content.classList.add('content');
    this.fx = document.createElementNS(NS, 'g');
    this.fx.classList.add('fx');
    this.svg.append(this.content, this.fx);
    parent.append(this.svg);
    this.drawn = '';
    this.hidden = new Set(); // places whose marble an animation is standing in for
    this.running = null; // the animation being played: {anims, resolve, timer}
    this.turn = 0;
    /** The place (its group in the drawing) an event happened on, if any. */
    const placeOf = (/** @type {Event} */ e) => /** @type {SVGElement | null} */ (/** @type {Element} */ (e.target).closest('[data-coord]'));
    this.svg.addEventListener('click', (e) => {
      const g = placeOf(e);
      if (g && onClick) onClick(g.dataset.coord);
    });
    this.svg.addEventListener('keydown', (e) => {
      const g = placeOf(e);
      if (g && onClick && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        onClick(g.dataset.coord);
      }
    });
    const hover = (/** @type {Event} */ e) => {
      const g = /** @type {Element} */ (e.target).closest && placeOf(e);
      if (onHover) onHover(g && this.pos ? this.pos.byCoord.get(g.dataset.coord) : null);
    };
    this.svg.addEventListener('pointerover', hover);
    this.svg.addEventListener('focusin', hover);
    this.svg.addEventListener('pointerleave', () => onHover && onHover(null));
  }

  /** Screen point of grid cell (x, y), the board turned by `this.turn`. */
  at(x, y) {
    const bx = x * DX;
    const by = -y * DY;
    switch (this.turn) {
      case 90: return [by, -bx];
      case 180: return [-bx, -by];
      case 270: return [-by, bx];
      default: return [bx, by];
    }
  }

  /** Screen point of a place. */
  xy(p) {
    return this.at(p.x, p.y);
  }

  /**
   * Draws `pos` (from parsePosition). Options: targets (Set of coords to offer), selected
   * (coords), phase ('remove' marks targets as rings to take away), last (moveMarks),
   * notation ('official' or 'host'), coords (false: no coordinates), letters (letters on
   * marbles), interactive, preview (the marble being placed), pending (a move shown before it
   * is sent: {kind: 'place', colour, at, remove} or {kind: 'capture', path}, with `premove`
   * when it waits for the player's turn), turn (0, 90, 180 or 270 degrees counter-clockwise),
   * absent (places whose ring is gone are drawn too, as outlines one can click: the editor).
   */
  render(pos, opts = {}) {
    const {
      targets = new Set(), selected = [], phase = '', last = null, notation = 'official', coords = true,
      letters = false, interactive = false, preview = null, pending = null, turn = 0, absent = false,
    } = opts;
    if (this.pos && this.pos.text !== pos.text) this.stop();
    this.pos = pos;
    this.turn = TURNS.includes(turn) ? turn : 0;
    this.letters = letters;
    const out = [];
    const labels = coords ? this.labels(pos, notation) : { svg: '', points: [] };
    // The frame: every ring, and every label, with a margin.
    const pts = pos.places.map((p) => this.xy(p));
    const ring = RING + 8;
    const label = 16;
    const minX = Math.min(...pts.map(([x]) => x - ring), ...labels.points.map(([x]) => x - label));
    const maxX = Math.max(...pts.map(([x]) => x + ring), ...labels.points.map(([x]) => x + label));
    const minY = Math.min(...pts.map(([, y]) => y - ring), ...labels.points.map(([, y]) => y - label));
    const maxY = Math.max(...pts.map(([, y]) => y + ring), ...labels.points.map(([, y]) => y + label));
    const box = `${f(minX)} ${f(minY)} ${f(maxX - minX)} ${f(maxY - minY)}`;

    // Cut-off groups: every group but the largest is shaded.
    const parts = groups(pos);
    if (parts.length > 1) {
      out.push('<g class="cut-off">');
      for (const group of parts.slice(1)) {
        for (const p of group) {
          const [x, y] = this.xy(p);
          out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(S * 0.6)}"/>`);
        }
      }
      out.push('</g>');
    }
    // Places of the last move whose rings are gone: a dashed ghost.
    const ghosts = [];
    if (last && last.removed) ghosts.push(last.removed);
    if (last && last.isolated) ghosts.push(...last.isolated);
    for (const c of ghosts) {
      const p = pos.byCoord.get(c);
      if (p && !p.ring) {
        const [x, y] = this.xy(p);
        out.push(`<circle class="ghost" cx="${f(x)}" cy="${f(y)}" r="${f(RING)}"/>`);
      }
    }
    // A move shown before it is played: the ring it removes, the marbles it takes.
    const gone = new Set();
    const taken = new Set();
    let landing = null;
    if (pending && pending.kind === 'place' && pending.remove) gone.add(pending.remove);
    if (pending && pending.kind === 'capture') {
      for (let k = 1; k < pending.path.length; k += 1) {
        const over = between(pos, pending.path[k - 1], pending.path[k]);
        if (over) taken.add(over.coord);
      }
      landing = pending.path[pending.path.length - 1];
    }
    // Rings and marbles.
    const sel = new Set(selected);
    for (const p of pos.places) {
      if (!p.ring && absent) {
        // The position editor puts rings back: a place whose ring is gone stays clickable.
        const [x, y] = this.xy(p);
        out.push(`<g class="place absent${targets.has(p.coord) ? ' target' : ''}" data-coord="${p.coord}"><title>${p.coord}: no ring</title><circle class="absent-ring" cx="${f(x)}" cy="${f(y)}" r="${f(RING)}"/></g>`);
      }
      if (!p.ring) continue;
      const [x, y] = this.xy(p);
      const official = p.coord;
      const host = hostCoord(pos, p);
      const name = notation === 'host' ? `${host} (${official})` : `${official} (host ${host})`;
      const cls = ['place'];
      if (targets.has(p.coord)) cls.push(phase === 'remove' ? 'target remove' : 'target');
      if (sel.has(p.coord)) cls.push('selected');
      if (gone.has(p.coord)) cls.push('pending-remove');
      if (taken.has(p.coord)) cls.push('pending-taken');
      const tab = interactive && targets.has(p.coord) ? ' tabindex="0"' : '';
      out.push(`<g class="${cls.join(' ')}" data-coord="${p.coord}" data-host="${host}"${tab}><title>${name}</title>`);
      out.push(`<circle class="ring" cx="${f(x)}" cy="${f(y)}" r="${f(RING)}"/>`);
      out.push(`<circle class="hole" cx="${f(x)}" cy="${f(y)}" r="${f(HOLE)}"/>`);
      const moving = pending && pending.kind === 'capture' && p.coord === pending.path[0];
      if (p.marble) {
        const hide = this.hidden.has(p.coord) ? ' anim-hidden' : '';
        out.push(`<g class="marble-g${moving ? ' pending-from' : ''}${hide}">${marbleSvg(p.marble, x, y, MARBLE, letters)}</g>`);
      } else if (preview && preview.at === p.coord) {
        out.push(`<g class="preview">${marbleSvg(preview.colour, x, y, MARBLE, letters)}</g>`);
      } else if (pending && pending.kind === 'place' && pending.at === p.coord) {
        out.push(`<g class="pending-marble${pending.premove ? ' premove' : ''}">${marbleSvg(pending.colour, x, y, MARBLE, letters)}</g>`);
      } else if (landing === p.coord) {
        const from = pos.byCoord.get(pending.path[0]);
        if (from && from.marble) out.push(`<g class="pending-marble">${marbleSvg(from.marble, x, y, MARBLE, letters)}</g>`);
      }
      out.push(`<circle class="hl" cx="${f(x)}" cy="${f(y)}" r="${f(RING + 1)}"/>`);
      out.push('</g>');
    }
    // The last move.
    if (last && last.placed) {
      const p = pos.byCoord.get(last.placed);
      if (p && p.ring) {
        const [x, y] = this.xy(p);
        out.push(`<circle class="last" cx="${f(x)}" cy="${f(y)}" r="${f(MARBLE + 5)}"/>`);
      }
    }
    if (last && last.path) {
      const path = last.path.map((c) => pos.byCoord.get(c)).filter(Boolean);
      if (path.length > 1) {
        out.push(`<polyline class="last-path" marker-end="url(#arrow)" points="${path.map((p) => this.xy(p).map(f).join(',')).join(' ')}"/>`);
      }
      const end = path[path.length - 1];
      if (end) {
        const [x, y] = this.xy(end);
        out.push(`<circle class="last" cx="${f(x)}" cy="${f(y)}" r="${f(MARBLE + 5)}"/>`);
      }
    }
    // The chain being entered, or the capture waiting to be confirmed.
    const chain = pending && pending.kind === 'capture' ? pending.path : selected.length > 1 ? selected : null;
    if (chain) {
      const path = chain.map((c) => pos.byCoord.get(c)).filter(Boolean);
      out.push(`<polyline class="entry-path" points="${path.map((p) => this.xy(p).map(f).join(',')).join(' ')}"/>`);
    }
    out.push(labels.svg);
    defineOnce();
    const text = out.join('');
    this.svg.setAttribute('viewBox', box);
    this.svg.setAttribute('aria-label', `ZÈRTZ board, ${pos.board} places`);
    this.svg.classList.toggle('interactive', interactive);
    this.svg.dataset.turn = String(this.turn);
    // Drawing the same board again would only cost time (and restart hover states).
    if (text !== this.drawn) {
      this.content.innerHTML = text;
      this.drawn = text;
    }
  }

  /**
   * Coordinates around the board, as {svg, points} (points: where labels are, so that the
   * frame leaves room for them). Official: column letters under the columns and row numbers
   * beside the first and last place of each row. Host: the host's row letter at both ends of
   * each column, and every ring's host coordinate on it (they change as rings leave).
   */
  labels(pos, notation) {
    const out = ['<g class="labels">'];
    const points = [];
    const text = (x, y, t, cls = '') => {
      const [sx, sy] = this.at(x, y);
      points.push([sx, sy]);
      out.push(`<text${cls ? ` class="${cls}"` : ''} x="${f(sx)}" y="${f(sy)}">${t}</text>`);
    };
    const columns = new Map();
    for (const p of pos.places) {
      const c = columns.get(p.x) || { min: p, max: p };
      if (p.y < c.min.y) c.min = p;
      if (p.y > c.max.y) c.max = p;
      columns.set(p.x, c);
    }
    if (notation === 'host') {
      for (const [x, c] of columns) {
        text(x, c.min.y - 1.95, hostRow(pos, x), 'column');
        text(x, c.max.y + 1.95, hostRow(pos, x), 'column top');
      }
      for (const p of pos.places) {
        if (!p.ring) continue;
        const [x, y] = this.xy(p);
        out.push(`<text class="host-label" x="${f(x + RING * 0.72)}" y="${f(y + RING * 0.8)}">${hostCoord(pos, p)}</text>`);
      }
    } else {
      for (const [x, c] of columns) text(x, c.min.y - 1.95, columnLetter(x), 'column');
      // Row numbers beside the leftmost and rightmost place of each row.
      const rows = new Map();
      for (const p of pos.places) {
        const r = rows.get(p.row) || { left: p, right: p };
        if (p.x < r.left.x) r.left = p;
        if (p.x > r.right.x) r.right = p;
        rows.set(p.row, r);
      }
      // Straight out to the side on an upright edge, up and out on a slanted one.
      const beside = (p, side) => {
        const upright = !pos.byCell.has(`${p.x + side},${p.y + 1}`) && !pos.byCell.has(`${p.x + side},${p.y - 1}`);
        return upright ? [p.x + side * 0.78, p.y] : [p.x + side * 0.75, p.y + 0.75];
      };
      for (const [row, r] of rows) {
        for (const [x, y] of [beside(r.left, -1), beside(r.right, 1)]) text(x, y, row, 'row');
      }
    }
    out.push('</g>');
    return { svg: out.join(''), points };
  }

  /** Stops the animation being played (its end shows at once). */
  stop() {
    const r = this.running;
    if (!r) return;
    this.running = null;
    clearTimeout(r.timer);
    for (const a of r.anims) a.cancel();
    this.fx.replaceChildren();
    this.unhide();
    this.parent.removeAttribute('data-animating');
    r.resolve(false);
  }

  unhide() {
    for (const c of this.hidden) {
      const g = this.content.querySelector(`[data-coord="${c}"] .marble-g`);
      if (g) g.classList.remove('anim-hidden');
    }
    this.hidden.clear();
    this.drawn = ''; // the next drawing must not keep a hidden marble
  }

  hide(coord) {
    this.hidden.add(coord);
    const g = this.content.querySelector(`[data-coord="${coord}"] .marble-g`);
    if (g) g.classList.add('anim-hidden');
  }

  /** A copy of a ring (with a marble, or none) in the animations' layer, at a place. */
  ghostRing(p, marble) {
    const [x, y] = this.xy(p);
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('class', 'fx-ring');
    g.innerHTML = `<circle class="ring" cx="${f(x)}" cy="${f(y)}" r="${f(RING)}"/><circle class="hole" cx="${f(x)}" cy="${f(y)}" r="${f(HOLE)}"/>${marble ? marbleSvg(marble, x, y, MARBLE, this.letters) : ''}`;
    this.fx.append(g);
    return g;
  }

  /** A copy of a marble centred on (0, 0), to be moved with transforms. */
  ghostMarble(colour) {
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('class', 'fx-marble');
    g.innerHTML = marbleSvg(colour, 0, 0, MARBLE, this.letters);
    this.fx.append(g);
    return g;
  }

  /**
   * Plays `steps` over the board as last drawn (the position after them), one after the other,
   * `ms` each: {kind: 'place', at, colour} (the marble comes down), {kind: 'remove', at} (the
   * ring slides away from the board), {kind: 'isolate', places: [{at, colour}]} (the rings and
   * their marbles fade out), {kind: 'jump', from, to, colour, taken} (a jump of a chain: the
   * marble hops, the one jumped fades). Resolves to true when played to the end, false when
   * stopped (by a new position or another animation).
   */
  animate(steps, ms = 260) {
    this.stop();
    const pos = this.pos;
    const anims = [];
    const add = (el, frames, delay, duration = ms, easing = 'ease-out') => {
      anims.push(el.animate(frames, { duration, delay, fill: 'both', easing }));
    };
    // The middle of the board, for the direction a removed ring slides to.
    const pts = pos.places.map((p) => this.xy(p));
    const mid = [pts.reduce((a, [x]) => a + x, 0) / pts.length, pts.reduce((a, [, y]) => a + y, 0) / pts.length];
    let t = 0;
    for (let k = 0; k < steps.length; k += 1) {
      const s = steps[k];
      if (s.kind === 'place') {
        const p = pos.byCoord.get(s.at);
        if (!p) continue;
        const [x, y] = this.xy(p);
        const g = this.ghostMarble(s.colour);
        this.hide(s.at);
        add(g, [
          { transform: `translate(${f(x)}px, ${f(y - 26)}px) scale(1.3)`, opacity: 0 },
          { transform: `translate(${f(x)}px, ${f(y)}px) scale(1)`, opacity: 1 },
        ], t);
        t += ms;
      } else if (s.kind === 'remove') {
        const p = pos.byCoord.get(s.at);
        if (!p) continue;
        const [x, y] = this.xy(p);
        let dx = x - mid[0];
        let dy = y - mid[1];
        const n = Math.hypot(dx, dy) || 1;
        dx = (dx / n) * S;
        dy = (dy / n) * S;
        const g = this.ghostRing(p, null);
        add(g, [
          { transform: 'translate(0px, 0px)', opacity: 1 },
          { transform: `translate(${f(dx)}px, ${f(dy)}px)`, opacity: 0 },
        ], t, ms, 'ease-in');
        t += ms;
      } else if (s.kind === 'isolate') {
        for (const q of s.places) {
          const p = pos.byCoord.get(q.at);
          if (!p) continue;
          const g = this.ghostRing(p, q.colour);
          g.classList.add('fx-isolated');
          add(g, [{ opacity: 1, transform: 'scale(1)' }, { opacity: 0, transform: 'scale(0.55)' }], t, ms, 'ease-in');
        }
        t += ms;
      } else if (s.kind === 'jump') {
        // The whole chain at once: the marble hops from place to place, each marble jumped
        // fading as it passes.
        const chain = [s];
        while (k + 1 < steps.length && steps[k + 1].kind === 'jump') chain.push(steps[(k += 1)]);
        const spots = [chain[0].from, ...chain.map((j) => j.to)].map((c) => pos.byCoord.get(c));
        if (spots.some((p) => !p)) continue;
        const xy = spots.map((p) => this.xy(p));
        const last = chain[chain.length - 1].to;
        this.hide(last);
        const mover = this.ghostMarble(chain[0].colour);
        const frames = [];
        chain.forEach((j, i) => {
          const [x0, y0] = xy[i];
          const [x1, y1] = xy[i + 1];
          frames.push({ offset: i / chain.length, transform: `translate(${f(x0)}px, ${f(y0)}px) scale(1)` });
          frames.push({ offset: (i + 0.5) / chain.length, transform: `translate(${f((x0 + x1) / 2)}px, ${f((y0 + y1) / 2)}px) scale(1.35)` });
          const over = between(pos, j.from, j.to);
          if (over && j.taken) {
            const g = this.ghostMarble(j.taken);
            const [ox, oy] = this.xy(over);
            add(g, [
              { transform: `translate(${f(ox)}px, ${f(oy)}px) scale(1)`, opacity: 1 },
              { transform: `translate(${f(ox)}px, ${f(oy)}px) scale(0.4)`, opacity: 0 },
            ], t + (i + 0.5) * ms, ms / 2, 'ease-in');
          }
        });
        const [xe, ye] = xy[xy.length - 1];
        frames.push({ offset: 1, transform: `translate(${f(xe)}px, ${f(ye)}px) scale(1)` });
        add(mover, frames, t, ms * chain.length, 'linear');
        t += ms * chain.length;
      }
    }
    if (!anims.length) return Promise.resolve(true);
    this.parent.dataset.animating = 'true';
    this.parent.dataset.animationMs = String(t);
    return new Promise((resolve) => {
      const run = { anims, resolve, timer: null };
      this.running = run;
      const done = () => {
        if (this.running !== run) return;
        this.running = null;
        clearTimeout(run.timer);
        for (const a of anims) a.cancel();
        this.fx.replaceChildren();
        this.unhide();
        this.parent.removeAttribute('data-animating');
        resolve(true);
      };
      // Done when every part has played (a part stopped early makes its promise fail); and at
      // the latest a few seconds on, should the page's timeline stand still (a hidden tab).
      Promise.all(anims.map((a) => a.finished)).then(done, () => {});
      run.timer = setTimeout(done, t + 5000);
    });
  }
}
