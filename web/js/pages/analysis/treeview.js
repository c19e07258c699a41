// @ts-check
// The move list of the analysis board, drawn as lichess draws one: the main line flowing in
// numbered moves, each variation under the move it replaces in an indented block (variations
// of variations in parentheses inside it), comments in the flow, a review's marks (?!, ?, ??)
// after the moves. Every text is set with textContent: comments are the players' own words.

import { h } from '../../lib/ui.js';
import { mover, moveNumber } from '../../lib/panels.js';
import { isTurn } from './tree.js';

/** The symbol of a review's mark (best and good moves carry none). */
export const MARK_SYMBOLS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// The move list counts turns, not nodes: a rejected bribe is none (its proposer moves next).
// Turns are numbered as on the game page and in records (lib/panels.js, `plyLabel`).

/**
 * The move list of `tree` with `current` marked. `first`: the player to move at the start;
 * `onPick(node)` when a move is clicked; `texts(node)` the move as shown (host notation);
 * `stopAt`: a node after which nothing shows (the move to guess stays hidden).
 */
export function treeView(tree, current, { first = 1, onPick, texts = (n) => n.move, stopAt = null }) {
  // `turn`: the turn the node plays (or, for a rejected bribe, the turn its proposer plays next).
  const moveEl = (node, ply, turn, numbered) => {
    const who = mover(turn, first);
    const parts = [];
    if (who === 1) parts.push(h('span', { class: 'no' }, `${moveNumber(turn, first)}.`));
    else if (numbered) parts.push(h('span', { class: 'no' }, `${moveNumber(turn, first)}…`));
    const mark = node.mark && MARK_SYMBOLS[node.mark.mark];
    const b = h('button', {
      type: 'button',
      class: `mv${node === current ? ' current' : ''}${node.mark ? ` mark-${node.mark.mark}` : ''}${isTurn(node.move) ? '' : ' event'}`,
      'data-ply': ply,
      'data-move': node.move,
      'data-line': node.line().join(';'),
      title: node.mark && node.mark.best && node.mark.best !== node.move ? `better: ${node.mark.best}` : null,
      onclick: () => onPick(node),
    }, texts(node), mark ? h('span', { class: 'mark' }, mark) : null);
    parts.push(b);
    return parts;
  };
  // `ply0`: the depth of `first0` in the tree; `turns0`: the turns played before it.
  const line = (first0, ply0, turns0, box, nested) => {
    let numbered = true;
    let ply = ply0;
    let turns = turns0;
    for (let x = first0; x; x = x === stopAt ? null : x.children[0], ply += 1) {
      const before = turns;
      box.append(...moveEl(x, ply, turns + 1, numbered));
      numbered = false;
      if (isTurn(x.move)) turns += 1;
      else numbered = true; // the proposer's move after a rejected bribe carries its number again
      if (x.comment) {
        box.append(h('span', { class: 'comment' }, x.comment));
        numbered = true;
      }
      const alternatives = x.parent.children[0] === x ? x.parent.children.slice(1) : [];
      if (alternatives.length) {
        if (nested) {
          for (const alt of alternatives) {
            const v = h('span', { class: 'variation nested' }, '(');
            line(alt, ply, before, v, true);
            v.append(')');
            box.append(v);
          }
        } else {
          const block = h('div', { class: 'variations' });
          for (const alt of alternatives) {
            const v = h('div', { class: 'variation' });
            line(alt, ply, before, v, true);
            block.append(v);
          }
          box.append(block);
        }
        numbered = true;
      }
    }
  };
  const main = h('div', { class: 'tree-line main' });
  const start = h('button', { type: 'button', class: `mv start${tree.root === current ? ' current' : ''}`, 'data-ply': 0, 'data-line': '', onclick: () => onPick(tree.root) }, 'start');
  main.append(start);
  if (tree.root.comment) main.append(h('span', { class: 'comment' }, tree.root.comment));
  if (tree.root.children.length && stopAt !== tree.root) line(tree.root.children[0], 1, 0, main, false);
  return h('div', { class: 'tree-moves', id: 'tree-moves' }, main);
}
