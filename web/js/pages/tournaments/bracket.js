// @ts-check
// A knockout's bracket drawn in SVG: a column per round, a box per match in its bracket slot
// (slots 2k-1 and 2k of a round feed slot k of the next), the player who moves first in game 1
// on top, the winner in bold, each box a link to its match; a walkover is a box with one name.
// Slots nobody has reached yet are empty boxes, so the whole bracket shows from round 1. A
// third-place match (board 2 of the final round) is a box of its own under the final.

/** @typedef {import('../../lib/types.js').Tournament} Tournament */
/** @typedef {import('../../lib/types.js').TournamentBoard} TournamentBoard */

const NS = 'http://www.w3.org/2000/svg';
const BOX_W = 170;
const BOX_H = 44;
const GAP_X = 36;
const GAP_Y = 14;

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {(Element | string)[]} children
 */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** The name of a board's winner, if it is decided. */
export function winnerOf(/** @type {TournamentBoard} */ b) {
  if (['1-0', '+-', 'bye'].includes(b.result || '')) return b.white;
  if (['0-1', '-+'].includes(b.result || '')) return b.black;
  return null;
}

/** The bracket of knockout `t` as an SVG element (with a title for screen readers). */
export function bracket(/** @type {Tournament} */ t) {
  const rounds = Math.max(1, t.rounds || 1);
  const slots1 = 2 ** (rounds - 1);
  const last = t.pairings.find((p) => p.round === rounds);
  const third = rounds > 1 && last ? last.boards.find((b) => b.board === 2) : undefined;
  const bracketHeight = slots1 * (BOX_H + GAP_Y) + GAP_Y;
  const height = bracketHeight + (third ? BOX_H + GAP_Y + 24 : 0);
  const width = rounds * (BOX_W + GAP_X) + GAP_X;
  const el = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'bracket', id: 'bracket-svg', role: 'img', width, height });
  const title = svg('title');
  title.textContent = `The bracket: ${rounds} round${rounds === 1 ? '' : 's'}, each box a best-of-3 match`;
  el.append(title);
  // The centre of slot k (from 1) of round r (from 1): a slot of a later round sits midway
  // between the two that feed it.
  const centre = (r, k) => {
    const span = 2 ** (r - 1);
    return GAP_Y + ((k - 1) * span + span / 2) * (BOX_H + GAP_Y) - GAP_Y / 2;
  };
  /** A box for board `b` of round `r` (slot `k`) at (x, y). */
  const drawBox = (b, r, k, x, y, label) => {
    const win = b ? winnerOf(b) : null;
    const line = (name, dy, cls) => svg('text', { x: x + 8, y: y + dy, class: `${cls}${name && name === win ? ' winner' : ''}` }, name || '');
    const box = svg('g', { class: `bracket-slot${b ? '' : ' empty'}`, 'data-round': r, 'data-slot': k },
      svg('rect', { x, y, width: BOX_W, height: BOX_H, rx: 4 }),
      line(b ? b.white : '', 18, 'first'),
      line(b ? (b.black || (b.result === 'bye' ? '(through)' : '')) : '', 36, 'second'));
    // The winner is the name in bold (a tick beside it): the pairing's "1-0" would read as
    // a game's score.
    if (win) box.append(svg('text', { x: x + BOX_W - 8, y: y + (win === b.white ? 18 : 36), class: 'bracket-result', 'text-anchor': 'end' }, '✓'));
    el.append(b && b.url ? svg('a', { href: b.url, 'aria-label': `${label}: ${b.white} against ${b.black || 'nobody'}` }, box) : box);
  };
  for (let r = 1; r <= rounds; r += 1) {
    const round = t.pairings.find((p) => p.round === r);
    const x = GAP_X / 2 + (r - 1) * (BOX_W + GAP_X);
    for (let k = 1; k <= 2 ** (rounds - r); k += 1) {
      const y = centre(r, k) - BOX_H / 2;
      const b = round && round.boards.find((x) => x.board === k);
      if (r < rounds) {
        // The line to the slot it feeds.
        const to = centre(r + 1, Math.ceil(k / 2));
        const mid = x + BOX_W + GAP_X / 2;
        el.append(svg('path', { class: 'bracket-line', d: `M${x + BOX_W},${centre(r, k)} H${mid} V${to} H${x + BOX_W + GAP_X}` }));
      }
      drawBox(b, r, k, x, y, `Round ${r}`);
    }
  }
  if (third) {
    const x = GAP_X / 2 + (rounds - 1) * (BOX_W + GAP_X);
    el.append(svg('text', { x, y: bracketHeight + 14, class: 'bracket-label' }, 'Third place'));
    drawBox(third, rounds, 2, x, bracketHeight + 22, 'Third place');
  }
  return el;
}
