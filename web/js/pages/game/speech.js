// @ts-check
// What happened, said in sentences (and heard, and animated): a move, from the change between
// two states; a player who left or came back; an event that is not a move (a request, an
// answer, a player joining), from the socket. The sentences go to #news (web/js/lib/feel.js).

import { play, record, tell, saidElsewhere, whyStill, countColours, marblesText, notify } from '../../lib/feel.js';
import { moveSteps, parseMove } from '../../lib/moves.js';
import { seatName } from '../../lib/panels.js';
import { capitalised } from '../../lib/ui.js';
import { COLOUR_NAMES, hostCoord } from '../../lib/position.js';
import { pref } from '../../lib/prefs.js';
import { dropPremove } from './premove.js';
import { id, myTurn, page } from './state.js';

/** @typedef {import('../../lib/types.js').GameState} GameState */
/** @typedef {import('../../lib/position.js').Position} Position */

/** How long each step of an animation takes (a marble placed, a ring removed, a jump…). */
const STEP_MS = 260;

/** The name of seat n (1 or 2): "You" for the viewer's own (`you`: in the middle of a sentence). */
const who = (s, n, you = 'You') => (s.you === n ? you : seatName(s, n - 1));

/** A verb after who(): "You offer" or "Ann offers". */
const does = (s, n, verb, third = `${verb}s`) => `${who(s, n)} ${s.you === n ? verb : third}`;

/** A coordinate of a position in the notation chosen. */
function coordIn(pos, c) {
  if (pref('notation') !== 'host' || !pos) return c;
  const p = pos.byCoord.get(c);
  return (p && hostCoord(pos, p)) || c;
}

/**
 * A sentence for a move played in `pos` by seat n: what it placed, removed, isolated, took.
 * @param {GameState} s
 * @param {number} n
 * @param {string} text
 * @param {Position | null} pos
 */
function moveSentence(s, n, text, pos) {
  const mv = parseMove(text);
  if (!mv) return `${does(s, n, 'play')} ${text}.`;
  if (mv.kind === 'pass') return `${does(s, n, 'pass', 'passes')} (a bribe was accepted).`;
  if (mv.kind === 'capture') {
    const taken = marblesText(countColours(mv.jumps.map((j) => j.colour)));
    const chain = mv.jumps.length > 1 ? ` in a chain of ${mv.jumps.length} jumps` : '';
    return `${does(s, n, 'capture')} ${taken}${chain} (${mv.path.map((c) => coordIn(pos, c)).join(' → ')}).`;
  }
  if (mv.isolated.length) {
    const k = mv.isolated.length;
    return `${does(s, n, 'isolate')} ${k} ring${k > 1 ? 's' : ''} and ${s.you === n ? 'take' : 'takes'} ${marblesText(countColours(mv.isolated.map((i) => i.colour)))}.`;
  }
  const removed = mv.remove ? ` and ${s.you === n ? 'remove' : 'removes'} the ring ${coordIn(pos, mv.remove)}` : '';
  return `${does(s, n, 'place')} a ${COLOUR_NAMES[mv.colour]} marble on ${coordIn(pos, mv.at)}${removed}.`;
}

/** The sentence the server gives for the last turn, when it gives one. */
function serverSentence(s) {
  const last = s.last;
  if (!last) return null;
  if (typeof last === 'string') return last;
  return last.text || last.sentence || null;
}

/**
 * What changed from one state to the next: the move animated, said and heard; the end.
 * @param {GameState} old
 * @param {GameState} s
 * @param {Position | null} before the position before the change
 */
export function react(old, s, before) {
  const n = old.moves.length;
  const appended = s.moves.length === n + 1 && old.moves.every((m, k) => m === s.moves[k]);
  if (appended && s.moves[n] !== '-') moveFeedback(s.moves[n], old.to_move, s, before);
  if (s.moves.length < n && page.premove) dropPremove('moves were taken back');
  if (s.status === 'finished' && old.status !== 'finished') {
    play('end');
    const text = s.result ? s.result.text : 'the game is over';
    // The status line says how the game ended (again after a reload too), and is read out.
    saidElsewhere(`${capitalised(text, s.seats.map((seat) => seat.name))}${/[.!]$/.test(text) ? '' : '.'}`);
    if (page.premove) dropPremove('the game is over');
  }
  presence(old, s);
  const mine = myTurn(s);
  if (mine && !myTurn(old)) {
    const last = s.moves[s.moves.length - 1];
    notify('ZÈRTZ: your turn', last && appended ? `${seatName(s, old.to_move - 1)} played ${last}.` : 'It is your turn.', `zertz-${id}`);
  }
}

/**
 * The last move: animated (unless the player or the system asked for stillness), said, heard.
 * @param {string} text the move
 * @param {number} n the mover's seat
 * @param {GameState} s
 * @param {Position | null} before
 */
function moveFeedback(text, n, s, before) {
  const server = serverSentence(s);
  tell(server || moveSentence(s, n, text, before), 'move');
  const mv = parseMove(text);
  const isolating = mv && mv.kind === 'place' && mv.isolated.length;
  play(mv && mv.kind === 'capture' ? 'capture' : isolating ? 'isolation' : 'move');
  const steps = before ? moveSteps(before, text) : [];
  const still = page.viewTurn !== null ? 'looking-back' : whyStill();
  record.animated.push({ move: text, steps: steps.map((x) => (x.kind === 'isolate' ? `isolate ${x.places.length}` : x.kind)), ms: STEP_MS, skipped: still });
  if (!still && steps.length) page.board.board.animate(steps, STEP_MS);
}

/** The seats seen connected on this page, as `game/seat`. */
const seen = new Set();

/**
 * A player who left or came back.
 * @param {GameState} old
 * @param {GameState} s
 */
export function presence(old, s) {
  // Whether each seat had been here before this change (seen connected on this page, or the
  // game already under way): a player arriving at a new game is not "back".
  const here = s.seats.map((_, i) => seen.has(`${s.id}/${i}`) || old.moves.length > 0);
  for (const state of [old, s]) state.seats.forEach((seat, i) => seat.connected && seen.add(`${state.id}/${i}`));
  if (s.status !== 'live' || old.status !== 'live') return;
  s.seats.forEach((seat, i) => {
    const was = old.seats[i];
    if (seat.kind !== 'human' || was.connected === seat.connected || s.you === i + 1) return;
    const name = seatName(s, i);
    if (seat.connected) {
      if (here[i]) tell(`${name} is back.`);
    } else if (s.you) {
      const left = seat.away_claim_in_ms;
      tell(left === null || left === undefined
        ? `${name} has left the game.`
        : `${name} has left the game: if they are not back in ${Math.ceil(left / 1000)} s, you may claim the win.`, 'warn');
    } else tell(`${name} has lost the connection.`);
  });
}

/**
 * The sentence for an event that is not a move (a request, an answer, a player joining).
 * @param {import('../../lib/types.js').GameEvent} event
 * @param {GameState} s
 */
export function announce(event, s) {
  const n = event.seat;
  const other = n === 1 ? 2 : 1;
  const bribe = (b) => marblesText(countColours(b.split('/').flatMap((k, i) => Array(Number(k) || 0).fill('WGB'[i]))));
  switch (event.type) {
    case 'joined':
      if (s.you !== n) tell(`${event.name} joins the game.`);
      break;
    case 'started': {
      const still = s.clock && s.clock.kind !== 'unlimited' && !s.clocks.some((c) => c.running);
      tell(`The game starts: ${who(s, s.to_move)} ${s.you === s.to_move ? 'move' : 'moves'} first.${still ? ' The clocks start with the first move.' : ''}`);
      break;
    }
    case 'berserk':
      tell(`${who(s, n)} ${s.you === n ? 'go' : 'goes'} berserk: half the clock, no increment.`, 'request');
      break;
    case 'draw_offered':
      tell(s.you === other ? `${who(s, n)} offers a draw: accept or decline it.` : `${does(s, n, 'offer')} a draw.`, 'request');
      break;
    case 'draw_declined':
      tell(`${does(s, n, 'decline')} the draw.`, 'request');
      break;
    case 'takeback_requested':
      tell(s.you === other
        ? `${who(s, n)} asks to take back their last move: allow or refuse it.`
        : `${does(s, n, 'ask')} to take back ${s.you === n ? 'your' : 'their'} last move.`, 'request');
      break;
    case 'takeback_declined':
      tell(`${does(s, n, 'refuse')} the takeback.`, 'request');
      break;
    case 'taken_back':
      tell(`${event.turns} turn${event.turns === 1 ? '' : 's'} taken back: ${who(s, s.to_move, 'you')} ${s.you === s.to_move ? 'are' : 'is'} to move.`, 'request');
      break;
    case 'bribe_proposed': {
      const what = bribe(event.marbles);
      if (s.you === n) tell(`You propose a bribe: ${what} to pass your turn.`, 'request');
      else if (s.you === other) tell(`${who(s, n)} offers you ${what} to pass their turn: accept or reject it.`, 'request');
      else tell(`${who(s, n)} offers ${who(s, other, 'you')} ${what} to pass their turn.`, 'request');
      break;
    }
    case 'bribe_answered': {
      const proposer = n === 1 ? 2 : 1;
      const what = page.lastBribe ? bribe(page.lastBribe.marbles) : 'the marbles';
      const engine = s.seats[n - 1].kind === 'engine';
      if (event.accepted) tell(`${does(s, n, 'accept')} the bribe: ${who(s, proposer, 'you')} ${s.you === proposer ? 'hand' : 'hands'} over ${what} and ${s.you === proposer ? 'pass' : 'passes'}.`, 'request');
      else if (engine) tell(`${who(s, n)} rejects the bribe: the engine declines bribes.`, 'request');
      else tell(`${does(s, n, 'reject')} the bribe: ${who(s, proposer, 'you')} ${s.you === proposer ? 'move' : 'moves'} on.`, 'request');
      break;
    }
    case 'rematch_offered':
      tell(s.you === n ? 'You ask for a rematch: waiting for your opponent.' : `${who(s, n)} asks for a rematch.`, 'request');
      break;
    case 'next_game':
      tell(s.match_game ? 'The next game of the match is ready.' : 'The rematch is ready.', 'request');
      break;
    default:
      break; // moves and endings are said from the state (react)
  }
}
