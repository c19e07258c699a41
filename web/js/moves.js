// Moving by pointing. The server sends the legal moves in official notation (rules.md 6):
//   placement  Wd4,d1   Wd4 (no free ring)   Bd7,b2 x Wa1Wa2 (isolation taken after it)
//   capture    x d1Gd3Wd5 (start, then colour jumped + landing for each jump)
// This module reads them and walks a player through one: colour, ring, ring to remove; or
// marble, then each landing of the chain. Only what some legal move allows is accepted; any
// other click is refused with a sentence saying why.

import { COLOUR_NAMES } from './position.js';

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
