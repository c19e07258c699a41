// @ts-check
// A board one plays on: the page's board (#board) drawn from a position with the move being
// entered on it, the prompt under it (#prompt), the supply as colour buttons (#supply), the
// name of the ring pointed at (#hover), the typed move (#typed, #move-text) and "Cancel"
// (#cancel). The game, lesson, puzzle and analysis pages each hold one; the page says what a
// finished move does (sends it, tries it, plays it on the tree) and, where it has its own
// rules, when a click or a colour is its own business (a premove, the position editor).

import { BoardView } from './board.js';
import { MoveInput, moveMarks } from './moves.js';
import { supplyView } from './panels.js';
import { COLOUR_NAMES, hostCoord } from './position.js';
import { flag, pref } from './prefs.js';
import { $, fill, say } from './ui.js';

/**
 * What a move being entered offers (MoveInput and PremoveInput both give it).
 * @typedef {object} Offer
 * @property {string} phase
 * @property {Set<string>} targets
 * @property {string[]} selected
 * @property {string} [colour]
 */

/**
 * A move being entered: a MoveInput, or a PremoveInput of the game page.
 * @typedef {object} Entry
 * @property {() => Offer} offer
 * @property {() => string} prompt
 * @property {string | null} at
 * @property {string | null} colour
 */

/**
 * The answer of a click or a colour to the move being entered.
 * @typedef {{ok: boolean, message?: string, submit?: string}} Step
 */

/** Nothing offered: no move is being entered. */
const NOTHING = { targets: new Set(), selected: [], phase: '' };

/**
 * Where the mover's marbles come from: the supply, or their captures once it is empty.
 * @param {number[]} supply
 * @returns {'supply' | 'captures'}
 */
export const handOf = (supply) => (supply.every((n) => n === 0) ? 'captures' : 'supply');

/**
 * The ring pointed at, in words: "d4 (host E5) · empty ring", host first with host notation.
 * @param {import('./position.js').Position} pos
 * @param {import('./position.js').Place} p
 * @param {string} notation
 */
export function placeWords(pos, p, notation) {
  const host = hostCoord(pos, p);
  const what = p.marble ? `${COLOUR_NAMES[p.marble]} marble` : 'empty ring';
  return notation === 'host' ? `${host} (official ${p.coord}) · ${what}` : `${p.coord} (host ${host}) · ${what}`;
}

export class PlayableBoard {
  /**
   * @param {object} o
   * @param {(text: string) => void} o.onMove a move entered in full, by pointing or typing
   * @param {() => void} o.redraw draws the page's board again (after a step of the move being
   *   entered)
   * @param {(coord: string) => boolean} [o.onClick] sees a click on a place first: true when
   *   the page took it (then the move being entered does not)
   * @param {(colour: string) => boolean} [o.onColour] the same for a colour of the supply
   * @param {() => string | null} [o.why] why no move may be entered now (null: one may);
   *   said on a click or a typed move while there is a reason
   * @param {(() => import('./position.js').Position | null) | false} [o.hover] the position
   *   whose rings #hover names (default: the one drawn); false: the page has no #hover
   * @param {boolean} [o.hoverOfficial] name the ring pointed at officially first, whatever
   *   the notation chosen
   */
  constructor({ onMove, redraw, onClick, onColour, why, hover, hoverOfficial = false }) {
    this.onMove = onMove;
    this.redraw = redraw;
    this.onClick = onClick || (() => false);
    this.onColour = onColour || (() => false);
    this.why = why || (() => (this.input ? null : 'No move can be entered now.'));
    /** @type {MoveInput | null} the move being entered, while one may be */
    this.input = null;
    /** @type {import('./position.js').Position | null} the position drawn */
    this.pos = null;
    const shown = hover === false ? null : hover || (() => this.pos);
    this.board = new BoardView($('board'), {
      onClick: (coord) => this.click(coord),
      onHover: shown ? (place) => this.hover(shown(), place, hoverOfficial) : undefined,
    });
  }

  /**
   * A new position to enter a move in: `legal` its legal moves (official notation), or null
   * when no move may be entered there.
   * @param {import('./position.js').Position} pos
   * @param {string[] | null} legal
   */
  setMoves(pos, legal) {
    this.pos = pos;
    this.input = legal ? new MoveInput(legal, pos) : null;
  }

  /** Forgets the move being entered. */
  reset() {
    if (this.input) this.input.reset();
  }

  /** @param {string} coord */
  click(coord) {
    if (this.onClick(coord)) return;
    const why = this.why();
    if (why) {
      say(why, 'error');
      return;
    }
    if (this.input) this.handle(this.input.click(coord));
  }

  /** @param {string} colour */
  chooseColour(colour) {
    if (this.onColour(colour)) return;
    if (!this.input || !this.pos) return;
    this.handle(this.input.chooseColour(colour, handOf(this.pos.supply)));
  }

  /**
   * What a click or a colour did: refused in words, a move entered in full, or one step more
   * (drawn again).
   * @param {Step} r
   */
  handle(r) {
    if (!r.ok) say(r.message || '', 'error');
    else say('');
    if (r.submit) this.onMove(r.submit);
    else this.redraw();
  }

  /**
   * Draws `pos` with the move being entered on it.
   * @param {object} o
   * @param {import('./position.js').Position} [o.pos] the position to draw (default: the
   *   position of the moves)
   * @param {Entry | null} [o.entry] the move being entered (default: this.input), null for none
   * @param {string | null} [o.last] the last move, marked
   * @param {number} [o.turn] how the board is turned
   * @param {object | null} [o.pending] a move shown before it is sent (BoardView.render)
   * @param {{counts: number[], from: 'supply' | 'captures', enabled: boolean}} [o.supply] the
   *   supply's buttons (default: the mover's marbles in `pos`, enabled while a move is entered)
   */
  draw(o = {}) {
    const pos = o.pos || this.pos;
    if (!pos) return;
    const entry = o.entry === undefined ? this.input : o.entry;
    const offer = entry ? entry.offer() : NOTHING;
    this.board.render(pos, {
      targets: offer.targets,
      selected: offer.selected,
      phase: offer.phase,
      last: moveMarks(o.last || null),
      notation: pref('notation'),
      coords: flag('coords'),
      letters: flag('letters'),
      interactive: Boolean(entry),
      preview: offer.phase === 'remove' ? { at: entry.at, colour: entry.colour } : null,
      pending: o.pending || null,
      turn: o.turn || 0,
    });
    $('prompt').textContent = entry ? entry.prompt() : '';
    const from = o.supply ? o.supply.from : handOf(pos.supply);
    const counts = o.supply ? o.supply.counts : from === 'captures' ? pos.captures[pos.toMove - 1] : pos.supply;
    const enabled = o.supply ? o.supply.enabled : Boolean(entry);
    fill($('supply'), supplyView(counts, from, entry ? offer.colour || null : null, (c) => this.chooseColour(c), enabled));
  }

  /**
   * #hover: the ring pointed at, in words.
   * @param {import('./position.js').Position | null} pos
   * @param {import('./position.js').Place | null} place
   * @param {boolean} official
   */
  hover(pos, place, official) {
    const el = $('hover');
    const p = place && pos && pos.byCoord.get(place.coord);
    if (!place) {
      el.textContent = '';
      return;
    }
    if (!p) return;
    el.textContent = placeWords(pos, p, official ? 'official' : pref('notation'));
  }

  /**
   * The typed move (#typed, #move-text): checked, then handed to `send` (default: `onMove`).
   * `refused()` says why none may be sent now, itself, and returns true (default: the reason
   * of `why`).
   * @param {() => boolean} [refused]
   * @param {(text: string) => void} [send]
   */
  bindTyped(refused, send) {
    const field = $('move-text', HTMLInputElement);
    $('typed').addEventListener('submit', (e) => {
      e.preventDefault();
      const text = field.value.trim();
      if (!text) {
        say('Type a move first, such as Wd4,d1 or x d1Gd3.', 'error');
        return;
      }
      if (refused ? refused() : this.refusedNow()) return;
      field.value = '';
      (send || this.onMove)(text);
    });
  }

  /** Says why no move may be entered now, if so; true then. */
  refusedNow() {
    const why = this.why();
    if (why) say(why, 'error');
    return Boolean(why);
  }

  /**
   * "Cancel" (#cancel): forgets the move being entered, then `after()` (default: draws again).
   * @param {() => void} [after]
   */
  bindCancel(after) {
    $('cancel').addEventListener('click', () => {
      this.reset();
      say('');
      if (after) after();
      else this.redraw();
    });
  }
}
