// @ts-check
// Premoves: one placement entered while the opponent thinks, shown on the board, and played
// when the turn comes if it is still legal (with whatever isolation it makes), or dropped with
// a sentence saying why. Captures cannot be premoved: which exist depends on the opponent's
// move.

import { tell } from '../../lib/feel.js';
import { PremoveInput, premoveFate } from '../../lib/moves.js';
import { say } from '../../lib/ui.js';
import { sendMove } from './actions.js';
import { hand, page } from './state.js';
import { render } from './view.js';

/** A premove may be entered: a player of a live game, while the opponent is to move. */
export function premoveAllowed() {
  const s = page.state;
  return Boolean(s && s.status === 'live' && s.you && s.to_move !== s.you && !s.pending_bribe && page.viewTurn === null);
}

/** The colours the player could place now (from the supply, or their captures when it is empty). */
function premoveColours() {
  const s = page.state;
  const counts = hand() === 'captures' ? s.captures[s.you - 1] : s.supply;
  return ['W', 'G', 'B'].filter((c, k) => counts[k] > 0);
}

/**
 * What a click or a colour did to the premove being entered.
 * @param {{ok: boolean, message?: string, done?: string}} r
 */
function handlePremove(r) {
  if (!r.ok) say(r.message, 'error');
  else say('');
  if (r.done) {
    page.premove = r.done;
    page.premoveInput = null;
    tell(`Premove ${r.done}: it is played as soon as it is your turn, if it is still legal.`, 'request');
  }
  render();
}

/** Forgets the premove, saying `why` when there was one. */
export function dropPremove(why) {
  const text = page.premove;
  page.premove = null;
  page.premoveInput = null;
  if (text && why) tell(`Your premove ${text} was dropped: ${why}.`, 'warn');
  render();
}

/** On the player's turn, the premove is played if it is still legal, or dropped with a word. */
export function playPremove() {
  const s = page.state;
  if (!page.premove || !s || s.status !== 'live' || s.to_move !== s.you || s.pending_bribe || page.busy) return;
  const text = page.premove;
  const fate = premoveFate(text, s.legal_moves, page.pos);
  if (fate.why) {
    dropPremove(fate.why);
    return;
  }
  page.premove = null;
  tell(`Your premove ${text} is played.`, 'request');
  sendMove(fate.play);
}

/**
 * A click on a place while the player may not move (`why`): a step of the premove being
 * entered, if one may be; else `why` is said.
 * @param {string} coord
 * @param {string} why
 */
export function premoveClick(coord, why) {
  const r = page.premoveInput && premoveAllowed() ? page.premoveInput.click(coord) : null;
  if (r) handlePremove(r);
  else say(premoveAllowed() ? `${why} To premove, choose a colour first: the move is played as soon as it is your turn.` : why, 'error');
}

/**
 * A colour chosen while the player may not move (`why`): the start of a premove, if one may
 * be entered; else `why` is said.
 * @param {string} colour
 * @param {string} why
 */
export function premoveColour(colour, why) {
  if (!premoveAllowed()) {
    say(why, 'error');
    return;
  }
  if (!page.premoveInput) page.premoveInput = new PremoveInput(page.pos, premoveColours());
  handlePremove(page.premoveInput.chooseColour(colour));
}
