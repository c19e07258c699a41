// @ts-check
// What the player does: a move (entered on the board or typed), the game's actions (resign,
// draw, takeback, abort, claim, bribe, rematch; the design of a Zertz+xx board) sent to the
// server, and looking back at an earlier position. The server's answer is the new state; a
// refusal is said in its words and the state read again.

import { ApiError, api, gameHistory } from '../../lib/api.js';
import { askToNotify } from '../../lib/feel.js';
import { seatName } from '../../lib/panels.js';
import { COLOUR_NAMES } from '../../lib/position.js';
import { confirmMoves } from '../../lib/prefs.js';
import { $, copy, fill, h, say, showConnection } from '../../lib/ui.js';
import { theJoinForm } from './connection.js';
import { berserkControls } from './berserk.js';
import { designButtons, designClick, designing } from './design.js';
import { premoveClick, premoveColour } from './premove.js';
import { apply, id, page, path } from './state.js';
import { render, renderAnalysis } from './view.js';

/** @typedef {import('../../lib/types.js').GameAction} GameAction */

/** Why the viewer cannot move now, in words; null when they can. */
export function whyNot() {
  const s = page.state;
  if (!s) return 'The game is still loading.';
  if (page.viewTurn !== null) return `You are looking back at the position after move ${page.viewTurn}. Go back to the game to move.`;
  if (s.status === 'open') return 'The game has not started: it waits for a second player.';
  if (s.status === 'finished') return `The game is over: ${s.result ? s.result.text : 'finished'}.`;
  if (!s.you) return 'You are watching this game; only its two players can move.';
  if (s.pending_bribe) {
    return s.pending_bribe.by === s.you
      ? 'Your bribe waits for the answer of your opponent.'
      : 'Your opponent offered a bribe to pass: accept or reject it first.';
  }
  if (s.to_move !== s.you) return `It is not your turn: ${seatName(s, s.to_move - 1)} is to move.`;
  if (page.busy) return 'Your last action is still being sent.';
  if (!s.legal_moves.length) return 'You have no legal move.';
  return null;
}

export const canMove = () => whyNot() === null;

/**
 * Sends an action of the player's seat; `what` names it in a refusal ("The move Wd4 was").
 * @param {GameAction} action
 * @param {string} what
 */
export async function act(action, what) {
  if (page.busy) return;
  page.busy = true;
  render();
  try {
    const res = await api('POST', path('/action'), action, page.token);
    apply(res.state);
    say('');
  } catch (e) {
    if (e instanceof ApiError && e.status === 0) {
      // Not refused: never heard. A move is kept and sent when the link is back; anything
      // else is said not sent.
      showConnection('reconnecting');
      if (action.type === 'move' && page.state) {
        page.outbox = { move: action.move, plies: page.state.moves.length, version: page.state.version };
        say(`Offline: your move ${action.move} is kept, and sent when the connection is back.`, 'error');
      } else {
        say(`Offline: ${what.replace(/ was$/, '')} not sent. Try again when the connection is back.`, 'error');
      }
    } else {
      say(`${what} refused by the server: ${e.message}`, 'error');
      await refresh();
    }
  } finally {
    page.busy = false;
    page.board.reset();
    render();
  }
}

/** @param {string} text */
export const sendMove = (text) => {
  page.pending = null;
  askToNotify(); // once, on the player's first move: may the page tell them of their turn?
  return act({ type: 'move', move: text }, `The move ${text} was`);
};

/** Reads the state again over HTTP (after an error, or when a clock runs out). */
export async function refresh() {
  try {
    apply(await api('GET', path(), undefined, page.token));
    // The server answers: the link is back (the socket says so itself when it reconnects).
    if (page.socket && page.socket.ws && page.socket.ws.readyState === WebSocket.OPEN) showConnection('open');
    return true;
  } catch (e) {
    // A server out of reach is the connection's news, not the game's.
    if (e instanceof ApiError && e.status === 0) showConnection('reconnecting');
    else say(`Cannot read the game: ${e.message}`, 'error');
    return false;
  }
}

/**
 * Once the link is back: the move kept while offline is sent, exactly once. The game is read
 * first; if it already holds the move (its answer was what got lost), nothing is sent again.
 */
export async function sendKept() {
  const kept = page.outbox;
  if (!kept || page.flushing) return;
  page.flushing = true;
  try {
    if (!(await refresh())) return;
    const s = page.state;
    if (!s || page.outbox !== kept) return;
    page.outbox = null;
    if (s.moves[kept.plies] === kept.move) {
      say(`Your move ${kept.move} had arrived.`, 'ok');
    } else if (s.version === kept.version) {
      await act({ type: 'move', move: kept.move }, `The move ${kept.move} was`);
      if (!page.outbox) say(`Back online: your move ${kept.move} was sent.`, 'ok');
    } else {
      say(`Your move ${kept.move} was not sent: the game went on meanwhile.`, 'error');
    }
  } finally {
    page.flushing = false;
  }
}

/**
 * A click on the board, before the move being entered sees it: the design of the board, a
 * move waiting for "Confirm", or a premove while the player may not move. True when taken.
 * @param {string} coord
 */
export function onBoardClick(coord) {
  if (designing(page.state)) {
    const { action, what, why } = designClick(page.state, coord);
    if (why) say(why, 'error');
    else act(action, what);
    return true;
  }
  if (page.pending) {
    say(`Confirm the move ${page.pending} or cancel it first.`, 'error');
    return true;
  }
  const why = whyNot();
  if (!why) return false;
  premoveClick(coord, why);
  return true;
}

/**
 * A colour of the supply, before the move being entered sees it (as for a click).
 * @param {string} colour
 */
export function onColour(colour) {
  if (page.pending) {
    say(`Confirm the move ${page.pending} or cancel it first.`, 'error');
    return true;
  }
  const why = whyNot();
  if (!why) return false;
  premoveColour(colour, why);
  return true;
}

/**
 * A move entered by pointing: shown on the board first and sent on "Confirm" when the player
 * asked for confirmation, sent at once otherwise.
 * @param {string} text
 */
export function entered(text) {
  if (confirmMoves()) {
    page.pending = text;
    render();
  } else sendMove(text);
}

/**
 * Shows the position after `turn` turns (the game's own when it is the last).
 * @param {number} turn
 */
export async function show(turn) {
  const s = page.state;
  if (!s) return;
  const n = Math.max(0, Math.min(turn, s.moves.length));
  page.viewTurn = n === s.moves.length ? null : n;
  if (page.viewTurn !== null && (!page.history || page.history.positions.length !== s.moves.length + 1)) {
    try {
      page.history = await gameHistory(id);
    } catch (e) {
      say(`Cannot replay the game: ${e.message}`, 'error');
      page.viewTurn = null;
    }
  }
  page.board.reset();
  render();
  analyse();
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let analysisTimer;

/** Asks the engine about the position shown, once the game is over. */
export function analyse() {
  const s = page.state;
  if (!s || s.status !== 'finished' || !s.moves.length) return;
  clearTimeout(analysisTimer);
  analysisTimer = setTimeout(async () => {
    const turn = page.viewTurn === null ? s.moves.length - 1 : page.viewTurn;
    if (page.analysis.has(turn)) return renderAnalysis();
    page.analysis.set(turn, { pending: true });
    renderAnalysis();
    try {
      page.analysis.set(turn, /** @type {import('../../lib/types.js').GameAnalysis} */ (await api('GET', path(`/analysis?turn=${turn}`))));
    } catch (e) {
      page.analysis.set(turn, { error: e.message });
    }
    renderAnalysis();
  }, 250);
}

/** A button of the actions, disabled while an action is being sent. */
export function button(text, onclick, cls = '', attrs = {}) {
  return h('button', { type: 'button', class: cls, onclick, disabled: page.busy, ...attrs }, text);
}

/** The actions the viewer may take now, under the board (#actions). */
export function renderActions() {
  const s = page.state;
  const box = $('actions');
  const you = s.you;
  const items = [];
  if (s.status === 'open') {
    if (!you) items.push(theJoinForm());
    else {
      const invite = localStorage.getItem(`zertz.invite.${id}`);
      if (invite) {
        const input = h('input', { readonly: true, value: invite, class: 'link', id: 'invite-link' });
        items.push(h('p', {}, 'Send this link to your opponent:'), input, button('Copy link', () => copy(invite, input)));
      } else items.push(h('p', {}, 'The game is listed in the lobby until someone accepts it.'));
    }
  }
  items.push(...designButtons(s, button, act));
  items.push(...berserkControls(s, button, act));
  if (s.status === 'live' && you) {
    const other = you === 1 ? 2 : 1;
    if (page.confirmResign) {
      items.push(button('Really resign?', () => act({ type: 'resign' }, 'Resigning was'), 'danger', { id: 'resign-confirm' }));
      items.push(button('No', () => { page.confirmResign = false; render(); }));
    } else items.push(button('Resign', () => { page.confirmResign = true; render(); }, '', { id: 'resign' }));
    if (s.draw_offer === other) {
      items.push(button('Accept draw', () => act({ type: 'accept_draw' }, 'Accepting the draw was'), 'primary', { id: 'accept-draw' }));
      items.push(button('Decline draw', () => act({ type: 'decline_draw' }, 'Declining the draw was')));
    } else if (s.draw_offer === you) items.push(h('span', { class: 'note' }, 'Draw offered.'));
    else items.push(button('Offer draw', () => act({ type: 'offer_draw' }, 'The draw offer was'), '', { id: 'offer-draw' }));
    if (s.casual) {
      if (s.takeback_request === other) {
        items.push(button('Allow takeback', () => act({ type: 'accept_takeback' }, 'Allowing the takeback was'), 'primary', { id: 'accept-takeback' }));
        items.push(button('Refuse takeback', () => act({ type: 'decline_takeback' }, 'Refusing the takeback was')));
      } else if (s.takeback_request === you) items.push(h('span', { class: 'note' }, 'Takeback asked.'));
      else if (s.moves.length) items.push(button('Ask takeback', () => act({ type: 'request_takeback' }, 'The takeback request was'), '', { id: 'takeback' }));
    }
    if (s.moves.length < 2) items.push(button('Abort', () => act({ type: 'abort' }, 'Aborting was'), '', { id: 'abort' }));
    const left = claimIn();
    if (left !== null) {
      items.push(left <= 0
        ? button('Claim the win', () => act({ type: 'claim_victory' }, 'The claim was'), 'primary', { id: 'claim' })
        : h('span', { class: 'note' }, `Your opponent left: you may claim the game in ${Math.ceil(left / 1000)} s.`));
    }
    items.push(...bribeControls());
  }
  if (s.status === 'finished' && you && !s.match_game) {
    if (s.next_game) items.push(h('a', { class: 'button primary', id: 'rematch-link', href: `/game/${encodeURIComponent(s.next_game)}` }, 'Go to the rematch →'));
    else if (s.rematch[you - 1]) items.push(h('span', { class: 'note' }, 'Rematch asked; waiting for the opponent.'));
    else items.push(button('Rematch', () => act({ type: 'rematch' }, 'The rematch request was'), 'primary', { id: 'rematch' }));
  }
  if (s.status === 'finished') {
    items.push(h('a', { class: 'button', href: `/archive#game=${encodeURIComponent(id)}` }, 'Replay and export'));
  }
  fill(box, items);
}

/** Ms until the viewer may claim the game from an absent opponent (null: no countdown). */
export function claimIn() {
  const s = page.state;
  if (!s || s.status !== 'live' || !s.you) return null;
  const away = s.seats[2 - s.you];
  if (away.kind !== 'human' || away.connected || away.away_claim_in_ms === null || away.away_claim_in_ms === undefined) return null;
  return away.away_claim_in_ms - (performance.now() - page.receivedAt);
}

/** The bribe: the form to propose one, or the answer to the opponent's. */
function bribeControls() {
  const s = page.state;
  if (!s.bribes) return [];
  const you = s.you;
  const b = s.pending_bribe;
  // The engine rejects every bribe at once: the page says so instead of offering the form.
  if (s.seats[2 - you].kind === 'engine') {
    return [h('p', { class: 'note', id: 'engine-bribes' }, 'The engine declines bribes: a bribe proposed to it is rejected at once.')];
  }
  if (b && b.by !== you) {
    return [h('div', { class: 'bribe' },
      h('p', {}, `Your opponent offers you ${bribeWords(b.marbles)} to pass their turn.`),
      button('Accept bribe', () => act({ type: 'answer_bribe', accept: true }, 'Accepting the bribe was'), 'primary', { id: 'accept-bribe' }),
      button('Reject bribe', () => act({ type: 'answer_bribe', accept: false }, 'Rejecting the bribe was'), '', { id: 'reject-bribe' }))];
  }
  if (b) return [h('p', { class: 'note' }, `Your bribe of ${bribeWords(b.marbles)} waits for an answer.`)];
  const left = s.bribes_left ? s.bribes_left[you - 1] : 0;
  if (s.to_move !== you || left <= 0) return [h('p', { class: 'note' }, `Bribes left: ${left}.`)];
  const field = (c) => h('input', { type: 'number', min: 0, max: 20, value: 0, 'data-bribe': c, 'aria-label': `${COLOUR_NAMES[c]} marbles` });
  const inputs = ['W', 'G', 'B'].map(field);
  const form = h('form', { class: 'bribe', id: 'bribe-form' },
    h('span', {}, `Bribe to pass (${left} left): `),
    ...inputs.flatMap((input, k) => [h('label', {}, 'WGB'[k], input)]),
    h('button', { type: 'submit', disabled: page.busy }, 'Propose'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const marbles = inputs.map((i) => Math.max(0, Number(i.value) || 0)).join('/');
    act({ type: 'propose_bribe', marbles }, `The bribe ${marbles} was`);
  });
  return [form];
}

/** @param {string} text `white/grey/black` */
function bribeWords(text) {
  const n = text.split('/').map(Number);
  const parts = ['white', 'grey', 'black'].map((c, k) => (n[k] ? `${n[k]} ${c}` : null)).filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing';
}
