// @ts-check
// Moving by pointing. The server sends the legal moves in official notation (rules.md 6):
//   placement  Wd4,d1   Wd4 (no free ring)   Bd7,b2 x Wa1Wa2 (isolation taken after it)
//   capture    x d1Gd3Wd5 (start, then colour jumped + landing for each jump)
// This module reads them and walks a player through one: colour, ring, ring to remove; or
// marble, then each landing of the chain. Only what some legal move allows is accepted; any
// other click is refused with a sentence saying why.

import { COLOUR_NAMES, freeRings } from './position.js';

/** @typedef {import('./position.js').Position} Position */

/**
 * A step of a move's animation (BoardView.animate).
 * @typedef {{kind: 'place', at: string, colour: string}
 *   | {kind: 'remove', at: string}
 *   | {kind: 'isolate', places: {at: string, colour: string}[]}
 *   | {kind: 'jump', from: string, to: string, colour: string, taken: string}} AnimationStep
 */

const COORD = '[a-z]\\d+';
const PLACE_RE = new RegExp(`^([WGB])(${COORD})(?:,(${COORD}))?(?:\\s*x\\s*((?:[WGB]${COORD})+))?$`);
const CAPTURE_RE = new RegExp(`^x\\s*(${COORD})((?:[WGB]${COORD})+)$`);
const STEP_RE = new RegExp(`([WGB])(${COORD})`, 'g');

/** One move of the server's list, taken apart; null for text this page does not know. */
export function parseMove(text) {
  const t = text.trim();
  if (t === '-') return { kind: 'pass', text: t };
  let m = PLACE_RE.exec(t);
  if (m) {
    const isolated = m[4] ? [...m[4].matchAll(STEP_RE)].map((s) => ({ colour: s[1], at: s[2] })) : [];
    return { kind: 'place', text: t, colour: m[1], at: m[2], remove: m[3] || null, isolated };
  }
  m = CAPTURE_RE.exec(t);
  if (m) {
    const jumps = [...m[2].matchAll(STEP_RE)].map((s) => ({ colour: s[1], to: s[2] }));
    return { kind: 'capture', text: t, from: m[1], jumps, path: [m[1], ...jumps.map((j) => j.to)] };
  }
  return null;
}

/** The places a move touches, for marking the last move: {to, from, removed, path}. */
export function moveMarks(text) {
  const mv = parseMove(text || '');
  if (!mv || mv.kind === 'pass') return null;
  if (mv.kind === 'place') return { placed: mv.at, removed: mv.remove, isolated: mv.isolated.map((i) => i.at) };
  return { path: mv.path };
}

const list = (coords) => {
  const a = [...coords].sort();
  if (a.length <= 1) return a.join('');
  return `${a.slice(0, -1).join(', ')} or ${a[a.length - 1]}`;
};

/**
 * The state of a move being entered. `legal` are the server's legal moves, `pos` the parsed
 * position, `hand` the colours the player may place ('supply' or 'captures' tells which).
 */
export class MoveInput {
  constructor(legal, pos) {
    this.moves = legal.map(parseMove).filter(Boolean);
    this.pos = pos;
    this.captures = this.moves.filter((m) => m.kind === 'capture');
    this.placements = this.moves.filter((m) => m.kind === 'place');
    this.reset();
  }

  reset() {
    this.colour = null;
    this.at = null;
    this.path = [];
  }

  /** True when this turn must be a capture. */
  get mustCapture() {
    return this.captures.length > 0;
  }

  /** Colours that some legal placement uses. */
  colours() {
    return new Set(this.placements.map((m) => m.colour));
  }

  /** Capture chains that follow the path entered so far. */
  chains() {
    return this.captures.filter((m) => this.path.every((c, i) => m.path[i] === c));
  }

  /** What to show: the phase, the places to offer, the places selected, the chosen colour. */
  offer() {
    if (this.mustCapture) {
      if (!this.path.length) {
        return { phase: 'capture-start', targets: new Set(this.captures.map((m) => m.from)), selected: [] };
      }
      const next = new Set(this.chains().filter((m) => m.path.length > this.path.length).map((m) => m.path[this.path.length]));
      return { phase: 'capture-next', targets: next, selected: [...this.path] };
    }
    if (!this.colour) return { phase: 'colour', targets: new Set(), selected: [] };
    const mine = this.placements.filter((m) => m.colour === this.colour);
    if (!this.at) return { phase: 'ring', targets: new Set(mine.map((m) => m.at)), selected: [], colour: this.colour };
    const removals = new Set(mine.filter((m) => m.at === this.at && m.remove).map((m) => m.remove));
    return { phase: 'remove', targets: removals, selected: [this.at], colour: this.colour };
  }

  /** A prompt for the current phase. */
  prompt() {
    const o = this.offer();
    switch (o.phase) {
      case 'capture-start':
        return `A capture is compulsory: click a marble that can jump (${list(o.targets)}).`;
      case 'capture-next':
        return `Jump on: click where the marble lands (${list(o.targets)}).`;
      case 'colour':
        return 'Choose a marble colour, then click an empty ring.';
      case 'ring':
        return `Place the ${COLOUR_NAMES[this.colour]} marble: click an empty ring.`;
      case 'remove':
        return `Now remove a free ring (${list(o.targets)}).`;
      default:
        return '';
    }
  }

  /** Picks a colour. Returns {ok, message}. */
  chooseColour(colour, hand) {
    if (this.mustCapture) {
      return { ok: false, message: `You cannot place a marble now: a capture is compulsory. Click a marble that can jump (${list(this.offer().targets)}).` };
    }
    if (!this.colours().has(colour)) {
      const name = COLOUR_NAMES[colour];
      const message = hand === 'captures'
        ? `The supply is empty, so you place one of your own captured marbles, and you hold no ${name} one.`
        : `There is no ${name} marble left in the supply.`;
      return { ok: false, message };
    }
    this.colour = colour;
    if (this.at && !this.placements.some((m) => m.colour === colour && m.at === this.at)) this.at = null;
    return this.finishPlacement();
  }

  finishPlacement() {
    if (!this.at) return { ok: true };
    const mine = this.placements.filter((m) => m.colour === this.colour && m.at === this.at);
    if (mine.length === 1 && !mine[0].remove) return { ok: true, submit: mine[0].text };
    return { ok: true };
  }

  /** A click on the place `coord`. Returns {ok, message?, submit?} (submit: the move text). */
  click(coord) {
    const p = this.pos.byCoord.get(coord);
    if (!p || !p.ring) return { ok: false, message: `There is no ring at ${coord} any more.` };
    return this.mustCapture ? this.clickCapture(p) : this.clickPlacement(p);
  }

  clickCapture(p) {
    const o = this.offer();
    if (!this.path.length) {
      if (o.targets.has(p.coord)) {
        this.path = [p.coord];
        return { ok: true };
      }
      const why = p.marble
        ? `The ${COLOUR_NAMES[p.marble]} marble on ${p.coord} cannot jump.`
        : `${p.coord} is an empty ring, and a capture is compulsory this turn.`;
      return { ok: false, message: `${why} Click a marble that can jump: ${list(o.targets)}.` };
    }
    if (this.path.length === 1 && p.coord === this.path[0]) {
      this.reset();
      return { ok: true };
    }
    if (o.targets.has(p.coord)) {
      this.path.push(p.coord);
      const chains = this.chains();
      const done = chains.find((m) => m.path.length === this.path.length);
      if (done && chains.length === 1) return { ok: true, submit: done.text };
      return { ok: true };
    }
    if (this.path.length === 1 && this.captures.some((m) => m.from === p.coord)) {
      this.path = [p.coord];
      return { ok: true };
    }
    const here = this.path[this.path.length - 1];
    const lead = this.path.length === 1
      ? `The marble on ${here} can jump only to ${list(o.targets)}`
      : `The chain must go on: from ${here} the marble can jump only to ${list(o.targets)}`;
    return { ok: false, message: `${lead} (over a marble, onto the empty ring straight beyond it), not to ${p.coord}.` };
  }

  clickPlacement(p) {
    const o = this.offer();
    if (o.phase === 'colour') {
      if (p.marble) return { ok: false, message: `${p.coord} already holds a marble. Choose a colour, then click an empty ring.` };
      return { ok: false, message: `First choose the colour of the marble to place (${[...this.colours()].map((c) => COLOUR_NAMES[c]).join(', ')}), then click ${p.coord}.` };
    }
    if (o.phase === 'ring') {
      if (o.targets.has(p.coord)) {
        this.at = p.coord;
        return this.finishPlacement();
      }
      if (p.marble) return { ok: false, message: `${p.coord} already holds a marble: place on an empty ring.` };
      return { ok: false, message: `The ${COLOUR_NAMES[this.colour]} marble cannot go on ${p.coord}.` };
    }
    // Removing a ring.
    if (p.coord === this.at) {
      this.at = null;
      return { ok: true };
    }
    if (o.targets.has(p.coord)) {
      const mv = this.placements.find((m) => m.colour === this.colour && m.at === this.at && m.remove === p.coord);
      return { ok: true, submit: mv.text };
    }
    if (p.marble) {
      return { ok: false, message: `${p.coord} holds a marble: only an empty, free ring can be removed (${list(o.targets)}).` };
    }
    return {
      ok: false,
      message: `The ring at ${p.coord} is not free: a ring can be removed only if it is empty and two neighbouring places side by side have no ring, so it slides out without moving others. Free rings: ${list(o.targets)}.`,
    };
  }
}

/**
 * The animation of a move played in `pos` (the position before it), as steps for
 * BoardView.animate: the marble placed, the ring removed, the rings isolated; or each jump of a
 * capture with the marble it takes. None for a pass or a text this page does not know.
 * @param {Position} pos
 * @param {string | null} text
 * @returns {AnimationStep[]}
 */
export function moveSteps(pos, text) {
  const mv = parseMove(text || '');
  if (!mv || mv.kind === 'pass') return [];
  if (mv.kind === 'place') {
    /** @type {AnimationStep[]} */
    const steps = [{ kind: 'place', at: mv.at, colour: mv.colour }];
    if (mv.remove) steps.push({ kind: 'remove', at: mv.remove });
    if (mv.isolated.length) steps.push({ kind: 'isolate', places: mv.isolated.map((i) => ({ at: i.at, colour: i.colour })) });
    return steps;
  }
  const from = pos.byCoord.get(mv.from);
  const colour = from && from.marble;
  if (!colour) return [];
  return mv.jumps.map((j, k) => ({ kind: 'jump', from: mv.path[k], to: j.to, colour, taken: j.colour }));
}

/**
 * A premove: one placement entered while the opponent thinks, in the position before their
 * move, to be played as soon as it is the player's turn. `colours` are the colours the player
 * could place now. The rings offered follow the geometry of the position (an empty ring, then a
 * free one); whether it is still legal after the opponent's move is known only then (see
 * premoveFate).
 */
export class PremoveInput {
  constructor(pos, colours) {
    this.pos = pos;
    this.available = new Set(colours);
    this.reset();
  }

  reset() {
    this.colour = null;
    this.at = null;
  }

  offer() {
    if (!this.colour) return { phase: 'colour', targets: new Set(), selected: [] };
    if (!this.at) {
      return { phase: 'ring', targets: new Set(this.pos.places.filter((p) => p.ring && !p.marble).map((p) => p.coord)), selected: [], colour: this.colour };
    }
    return { phase: 'remove', targets: new Set(freeRings(this.pos, this.at)), selected: [this.at], colour: this.colour };
  }

  prompt() {
    const o = this.offer();
    if (o.phase === 'ring') return `Premove: place the ${COLOUR_NAMES[this.colour]} marble on an empty ring; it is played as soon as it is your turn.`;
    if (o.phase === 'remove') return `Premove: now a free ring to remove (${list(o.targets)}).`;
    return '';
  }

  chooseColour(colour) {
    if (!this.available.has(colour)) return { ok: false, message: `You have no ${COLOUR_NAMES[colour]} marble to place.` };
    this.colour = colour;
    return this.finish();
  }

  finish() {
    if (!this.colour || !this.at) return { ok: true };
    if (!freeRings(this.pos, this.at).length) return { ok: true, done: `${this.colour}${this.at}` };
    return { ok: true };
  }

  click(coord) {
    const p = this.pos.byCoord.get(coord);
    const o = this.offer();
    if (!p || !p.ring) return { ok: false, message: `There is no ring at ${coord} any more.` };
    if (o.phase === 'colour') return null; // the page says whose turn it is
    if (o.phase === 'ring') {
      if (p.marble) return { ok: false, message: `${coord} already holds a marble: a premove places on an empty ring.` };
      this.at = coord;
      return this.finish();
    }
    if (coord === this.at) {
      this.at = null;
      return { ok: true };
    }
    if (!o.targets.has(coord)) return { ok: false, message: `The ring at ${coord} is not free now: free rings are ${list(o.targets)}.` };
    return { ok: true, done: `${this.colour}${this.at},${coord}` };
  }
}

/**
 * What becomes of a premove once it is the player's turn: {play: the legal move to send} (the
 * server's text, with any isolation it makes), or {why: the reason it was dropped, in words}.
 */
export function premoveFate(text, legal, pos) {
  const same = legal.filter((m) => m === text || m.split(' x ')[0].trim() === text);
  if (same.length === 1) return { play: same[0] };
  const mv = parseMove(text);
  if (mv && mv.kind === 'place') {
    const at = pos.byCoord.get(mv.at);
    if (!at || !at.ring) return { why: `the ring ${mv.at} is gone` };
    if (at.marble) return { why: `${mv.at} now holds a marble` };
  }
  if (legal.some((m) => m.startsWith('x'))) return { why: 'a capture is compulsory now' };
  if (mv && mv.kind === 'place') {
    if (mv.remove) {
      const r = pos.byCoord.get(mv.remove);
      if (!r || !r.ring) return { why: `the ring ${mv.remove} is gone` };
      if (r.marble) return { why: `${mv.remove} now holds a marble` };
      if (!legal.some((m) => m.startsWith(`${mv.colour}`))) return { why: `there is no ${COLOUR_NAMES[mv.colour]} marble left to place` };
      return { why: `the ring ${mv.remove} cannot be removed now` };
    }
    if (!legal.some((m) => m.startsWith(`${mv.colour}`))) return { why: `there is no ${COLOUR_NAMES[mv.colour]} marble left to place` };
  }
  return { why: 'it is not a legal move any more' };
}
