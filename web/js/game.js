// The game page, /game/{id}: follows the game over its WebSocket, draws it, and lets a player
// move by pointing or typing. The server's state is the truth: the page shows the last state
// it received and changes nothing on its own; a refused action leaves the state as it was and
// says why.

import { api, ApiError, gameHistory, matchToken, rememberedName, saveSeatToken, seatToken } from './api.js';
import { joinForm, siteHeader } from './account.js';
import { BoardView } from './board.js';
import { MoveInput, PremoveInput, moveMarks, moveSteps, parseMove, premoveFate } from './moves.js';
import { playerCard, supplyView, tickClock, moveList, seatName } from './panels.js';
import { COLOUR_NAMES, hostCoord, hostMoveText, parsePosition } from './position.js';
import { GameSocket } from './socket.js';
import { withLegalMoves } from './legal.js';
import { designButtons, designClick, designStatus, designing, renderDesign } from './design.js';
import { ChatPanel } from './chat.js';
import { deltaTag, poolName, ratingText } from './ratings.js';
import { boardTurn, confirmMoves, flag, onPref, optionsPanel, pref, setPref } from './prefs.js';
import { askToNotify, countColours, marblesText, notify, play, record, showTurn, tell, whyStill } from './feel.js';
import { engineName, fill, h, say, copy, describeSettings, personTag, showConnection } from './ui.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const $ = (name) => document.getElementById(name);
const path = (tail = '') => `/api/games/${encodeURIComponent(id)}${tail}`;

const page = {
  state: null,
  receivedAt: 0,
  token: null,
  account: null, // the logged-in account ({name}), null for a guest
  invite: null, // the invitation's token from the link's #join=…, until the seat is taken
  joinForm: null, // kept from one drawing to the next, so a name being typed stays
  socket: null,
  pos: null,
  input: null,
  viewTurn: null, // null: following the game; n: showing the position after n turns
  history: null,
  match: null,
  busy: false,
  confirmResign: false,
  clocks: [],
  refreshedAt: 0,
  analysis: new Map(),
  pending: null, // a move entered and shown, waiting for "Confirm" (its text)
  premove: null, // a placement entered while the opponent thinks, sent on the player's turn
  premoveInput: null, // the premove being entered (PremoveInput)
  before: [], // the position string before each move, as far as known (for host notation)
  hostTexts: [], // the moves in host notation, as far as known
  beforeAsked: false, // the game's history has been asked for, to write the moves in host notation
  lastBribe: null, // the last bribe proposed (its answer does not repeat the marbles)
  saidVersion: 0, // the last event told in words
  lowWarned: null, // the turn (version) whose low time was already warned of
  myTurn: false,
  missing: false, // no such game
  chat: null, // the game room's chat panel
  people: new Map(), // account name → its profile (GET /api/players/{name}), null while asked
  ended: new Map(), // account name → this game's row among its finished games (false: none)
  peopleKey: '', // the status and names the profiles were read for
};

let board;

/** How long each step of an animation takes (a marble placed, a ring removed, a jump…). */
const STEP_MS = 260;

// ---- state ----

/**
 * Takes a state from the server (socket or HTTP answer); older versions are ignored. `event` is
 * the event that made it, when the socket says (an HTTP answer does not).
 */
function apply(state, event = null) {
  withLegalMoves(state);
  const old = page.state;
  if (old && state.version < old.version) return;
  const moved = !old || state.version !== old.version;
  const before = page.pos;
  page.state = state;
  page.receivedAt = performance.now();
  if (!old) window.zertzShownAt = page.receivedAt; // time to the first state, for the tests
  if (state.pending_bribe) page.lastBribe = state.pending_bribe;
  if (moved) {
    page.pos = parsePosition(state.position);
    page.input = new MoveInput(state.legal_moves, page.pos);
    page.premoveInput = null;
    page.pending = null;
    page.confirmResign = false;
    learnPositions(old, state);
    // Looking back while the game changed under the history (a move, a takeback): read it again.
    const h = page.history;
    if (h && (h.moves.length !== state.moves.length || h.moves.some((m, k) => m !== state.moves[k]))) {
      page.history = null;
      if (page.viewTurn !== null) setTimeout(() => show(page.viewTurn), 0);
    }
    if (state.match_game && (!old || old.result !== state.result || old.next_game !== state.next_game)) loadMatch();
  }
  // A rematch (or the match's next game) keeps the seat tokens, so this browser keeps its seat.
  // (An account needs none: its seats follow it.)
  if (state.next_game && page.token && state.you && !page.account && !seatToken(state.next_game)) saveSeatToken(state.next_game, page.token);
  render();
  readPeople();
  if (old && moved) react(old, state, before);
  else if (old && state.seats.some((seat, i) => seat.connected !== old.seats[i].connected)) presence(old, state);
  if (event && state.version > page.saidVersion) {
    page.saidVersion = state.version;
    announce(event, state);
  }
  if (moved && state.status === 'finished' && (!old || old.status !== 'finished')) analyse();
  if (moved) playPremove();
}

// ---- what happened, shown and said ----

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

/** A sentence for a move played in `pos` by seat n: what it placed, removed, isolated, took. */
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

/** What changed from one state to the next: the move animated, said and heard; the end. */
function react(old, s, before) {
  const n = old.moves.length;
  const appended = s.moves.length === n + 1 && old.moves.every((m, k) => m === s.moves[k]);
  if (appended && s.moves[n] !== '-') moveFeedback(s.moves[n], old.to_move, s, before);
  if (s.moves.length < n && page.premove) dropPremove('moves were taken back');
  if (s.status === 'finished' && old.status !== 'finished') {
    play('end');
    const text = s.result ? s.result.text : 'the game is over';
    tell(`${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!]$/.test(text) ? '' : '.'}`, 'end');
    if (page.premove) dropPremove('the game is over');
  }
  presence(old, s);
  const mine = myTurn(s);
  if (mine && !myTurn(old)) {
    const last = s.moves[s.moves.length - 1];
    notify('ZÈRTZ: your turn', last && appended ? `${seatName(s, old.to_move - 1)} played ${last}.` : 'It is your turn.', `zertz-${id}`);
  }
}

/** The last move: animated (unless the player or the system asked for stillness), said, heard. */
function moveFeedback(text, n, s, before) {
  const server = serverSentence(s);
  tell(server || moveSentence(s, n, text, before), 'move');
  const mv = parseMove(text);
  const isolating = mv && mv.kind === 'place' && mv.isolated.length;
  play(mv && mv.kind === 'capture' ? 'capture' : isolating ? 'isolation' : 'move');
  const steps = before ? moveSteps(before, text) : [];
  const still = page.viewTurn !== null ? 'looking-back' : whyStill();
  record.animated.push({ move: text, steps: steps.map((x) => (x.kind === 'isolate' ? `isolate ${x.places.length}` : x.kind)), ms: STEP_MS, skipped: still });
  if (!still && steps.length) board.animate(steps, STEP_MS);
}

/** A player who left or came back. */
function presence(old, s) {
  if (s.status !== 'live' || old.status !== 'live') return;
  s.seats.forEach((seat, i) => {
    const was = old.seats[i];
    if (seat.kind !== 'human' || was.connected === seat.connected || s.you === i + 1) return;
    const name = seatName(s, i);
    if (seat.connected) tell(`${name} is back.`);
    else if (s.you) {
      const left = seat.away_claim_in_ms;
      tell(left === null || left === undefined
        ? `${name} has left the game.`
        : `${name} has left the game: if they are not back in ${Math.ceil(left / 1000)} s, you may claim the win.`, 'warn');
    } else tell(`${name} has lost the connection.`);
  });
}

/** The sentence for an event that is not a move (a request, an answer, a player joining). */
function announce(event, s) {
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

/** True when the viewer has something to do now: move, or answer a bribe. */
function myTurn(s) {
  if (!s || s.status !== 'live' || !s.you) return false;
  if (s.pending_bribe) return s.pending_bribe.by !== s.you;
  return s.to_move === s.you;
}

// ---- host notation of the moves ----

/** Keeps the position before each move, to write the moves in host notation. */
function learnPositions(old, s) {
  const n = s.moves.length;
  let same = 0;
  if (old) while (same < Math.min(n, old.moves.length) && old.moves[same] === s.moves[same]) same += 1;
  page.before.length = Math.min(page.before.length, same);
  page.hostTexts.length = Math.min(page.hostTexts.length, same);
  if (old && n === old.moves.length + 1 && same === old.moves.length && page.before.length === same) page.before[same] = old.position;
  if (pref('notation') === 'host') learnHistory();
}

/** Reads the whole history once when the moves cannot all be written in host notation yet. */
async function learnHistory() {
  const s = page.state;
  if (!s || page.before.length >= s.moves.length || page.beforeAsked) return;
  page.beforeAsked = true;
  try {
    const hist = await gameHistory(id);
    const now = page.state;
    if (hist.moves.length === now.moves.length && hist.moves.every((m, k) => m === now.moves[k])) {
      page.before = hist.positions.slice(0, now.moves.length);
      page.history = hist;
      render();
    }
  } catch {
    // the moves stay in official notation
  } finally {
    page.beforeAsked = false;
  }
}

/** The moves as the list shows them: host notation where the position is known, if chosen. */
function movesShown() {
  const s = page.state;
  if (pref('notation') !== 'host') return s.moves;
  return s.moves.map((m, k) => {
    if (!page.hostTexts[k] && page.before[k]) page.hostTexts[k] = hostMoveText(parsePosition(page.before[k]), m);
    return page.hostTexts[k] || m;
  });
}

// ---- ratings ----

/** The seats held by accounts: [{seat, i}]. */
const accountSeats = (s) => s.seats.map((seat, i) => ({ seat, i })).filter(({ seat }) => seat.kind === 'human' && seat.name && !seat.guest);

/**
 * Reads the profile of each account playing (its ratings), again when the game starts or ends;
 * once a rated game has ended, this game's row among each account's finished games (its rating
 * change).
 */
function readPeople() {
  const s = page.state;
  const seats = accountSeats(s);
  const key = `${s.status}:${seats.map(({ seat }) => seat.name).join(',')}`;
  if (key === page.peopleKey) return;
  page.peopleKey = key;
  const redraw = () => {
    if (page.state) render();
  };
  for (const { seat, i } of seats) {
    const name = seat.name;
    page.people.set(name, page.people.get(name) || null);
    api('GET', `/api/players/${encodeURIComponent(name)}`).then((p) => { page.people.set(name, p); redraw(); }, () => {});
    if (s.status === 'finished' && s.rated && !page.ended.get(name)) {
      const other = s.seats[1 - i];
      const q = new URLSearchParams({ limit: '100' });
      if (other.kind === 'human' && other.name && !other.guest) q.set('opponent', other.name);
      api('GET', `/api/players/${encodeURIComponent(name)}/games?${q}`).then((r) => {
        page.ended.set(name, r.games.find((g) => g.game_id === id) || false);
        redraw();
      }, () => {});
    }
  }
}

/** The game's pool and whether it is rated, as its state says. */
function gameRating() {
  const s = page.state;
  return { pool: s.pool || null, rated: Boolean(s.rated) };
}

/** Beside an account's name: its rating in the game's pool, or after a rated game its change. */
function ratingBeside(i) {
  const s = page.state;
  const seat = s.seats[i];
  if (seat.kind !== 'human' || !seat.name || seat.guest) return null;
  const { pool } = gameRating();
  const row = page.ended.get(seat.name);
  if (row && row.rated && row.rating_after !== null) {
    return h('span', { class: 'rating', title: `Rating in ${poolName(row.pool)}: ${Math.round(row.rating_before)} before this game` },
      ` (${Math.round(row.rating_after)} `, deltaTag(row.rating_before, row.rating_after), ')');
  }
  const p = page.people.get(seat.name);
  const r = p && pool && p.ratings.find((x) => x.pool === pool);
  if (!p || !pool) return null;
  return r
    ? h('span', { class: 'rating', title: `Rating in ${poolName(pool)}${r.provisional ? ' (provisional)' : ''}: ${r.rating} ± ${r.deviation}, ${r.games} rated games` }, ` (${ratingText(r)})`)
    : h('span', { class: 'rating', title: `No rated game yet in ${poolName(pool)}` }, ' (new)');
}

/** Why the viewer cannot move now, in words; null when they can. */
function whyNot() {
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

const canMove = () => whyNot() === null;

// ---- actions ----

async function act(action, what) {
  if (page.busy) return;
  page.busy = true;
  render();
  try {
    const res = await api('POST', path('/action'), action, page.token);
    apply(res.state);
    say('');
  } catch (e) {
    say(`${what} refused by the server: ${e.message}`, 'error');
    await refresh();
  } finally {
    page.busy = false;
    if (page.input) page.input.reset();
    render();
  }
}

const sendMove = (text) => {
  page.pending = null;
  askToNotify(); // once, on the player's first move: may the page tell them of their turn?
  return act({ type: 'move', move: text }, `The move ${text} was`);
};

/** Reads the state again over HTTP (after an error, or when a clock runs out). */
async function refresh() {
  try {
    apply(await api('GET', path(), undefined, page.token));
  } catch (e) {
    say(`Cannot read the game: ${e.message}`, 'error');
  }
}

function onBoardClick(coord) {
  if (designing(page.state)) {
    const { action, what, why } = designClick(page.state, coord);
    if (why) say(why, 'error');
    else act(action, what);
    return;
  }
  if (page.pending) {
    say(`Confirm the move ${page.pending} or cancel it first.`, 'error');
    return;
  }
  const why = whyNot();
  if (why) {
    const r = page.premoveInput && premoveAllowed() ? page.premoveInput.click(coord) : null;
    if (r) handlePremove(r);
    else say(premoveAllowed() ? `${why} To premove, choose a colour first: the move is played as soon as it is your turn.` : why, 'error');
    return;
  }
  handle(page.input.click(coord));
}

function onColour(colour) {
  if (page.pending) {
    say(`Confirm the move ${page.pending} or cancel it first.`, 'error');
    return;
  }
  const why = whyNot();
  if (why) {
    if (!premoveAllowed()) {
      say(why, 'error');
      return;
    }
    if (!page.premoveInput) page.premoveInput = new PremoveInput(page.pos, premoveColours());
    handlePremove(page.premoveInput.chooseColour(colour));
    return;
  }
  handle(page.input.chooseColour(colour, hand()));
}

function handle(r) {
  if (!r.ok) say(r.message, 'error');
  else say('');
  if (r.submit && confirmMoves()) {
    // Shown on the board first; sent on "Confirm".
    page.pending = r.submit;
    render();
  } else if (r.submit) sendMove(r.submit);
  else renderInput();
}

// ---- premoves ----

/** A premove may be entered: a player of a live game, while the opponent is to move. */
function premoveAllowed() {
  const s = page.state;
  return Boolean(s && s.status === 'live' && s.you && s.to_move !== s.you && !s.pending_bribe && page.viewTurn === null);
}

/** The colours the player could place now (from the supply, or their captures when it is empty). */
function premoveColours() {
  const s = page.state;
  const counts = hand() === 'captures' ? s.captures[s.you - 1] : s.supply;
  return ['W', 'G', 'B'].filter((c, k) => counts[k] > 0);
}

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

function dropPremove(why) {
  const text = page.premove;
  page.premove = null;
  page.premoveInput = null;
  if (text && why) tell(`Your premove ${text} was dropped: ${why}.`, 'warn');
  render();
}

/** On the player's turn, the premove is played if it is still legal, or dropped with a word. */
function playPremove() {
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

/** Where the mover's marbles come from: the supply, or their captures when it is empty. */
function hand() {
  const s = page.state;
  return s.supply.every((n) => n === 0) ? 'captures' : 'supply';
}

// ---- looking back ----

async function show(turn) {
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
  if (page.input) page.input.reset();
  render();
  analyse();
}

function shownTurn() {
  return page.viewTurn === null ? page.state.moves.length : page.viewTurn;
}

// ---- analysis (finished games) ----

let analysisTimer = null;
function analyse() {
  const s = page.state;
  if (!s || s.status !== 'finished' || !s.moves.length) return;
  clearTimeout(analysisTimer);
  analysisTimer = setTimeout(async () => {
    const turn = page.viewTurn === null ? s.moves.length - 1 : page.viewTurn;
    if (page.analysis.has(turn)) return renderAnalysis();
    page.analysis.set(turn, { pending: true });
    renderAnalysis();
    try {
      page.analysis.set(turn, await api('GET', path(`/analysis?turn=${turn}`)));
    } catch (e) {
      page.analysis.set(turn, { error: e.message });
    }
    renderAnalysis();
  }, 250);
}

function renderAnalysis() {
  const s = page.state;
  const box = $('analysis');
  if (!s || s.status !== 'finished' || !s.moves.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const turn = page.viewTurn === null ? s.moves.length - 1 : page.viewTurn;
  const a = page.analysis.get(turn);
  const played = s.moves[turn];
  const lead = turn === 0 ? 'At the start' : `After move ${turn}`;
  const body = [];
  if (!a || a.pending) body.push(h('p', {}, 'The engine is thinking…'));
  else if (a.error) body.push(h('p', { class: 'error' }, `No analysis: ${a.error}`));
  else if (a.over) body.push(h('p', {}, 'The game is over in this position.'));
  else {
    body.push(h('p', {}, `${lead}, ${seatName(s, a.to_move - 1)} to move. Engine's score for them: `, h('b', {}, a.score), ` (depth ${a.depth}).`));
    body.push(h('ol', { class: 'best' }, a.best.map((b) => h('li', {},
      h('code', {}, b.move), ` ${b.score}`, b.line.length > 1 ? h('span', { class: 'line' }, ` — ${b.line.slice(1).join('  ')}`) : ''))));
    if (played) {
      const same = a.best.find((b) => b.move === played);
      body.push(h('p', {}, 'Played: ', h('code', {}, played), same ? ` (${same.score}, among the engine's choices)` : ' (not among the engine\'s top moves)'));
    }
  }
  fill(box, h('h3', {}, 'What the engine thinks'), body, h('p', { class: 'hint' }, 'Click a move in the list to see another position.'));
}

// ---- match ----

async function loadMatch() {
  const s = page.state;
  if (!s || !s.match_game) return;
  const [mid] = s.match_game;
  try {
    page.match = await api('GET', `/api/matches/${encodeURIComponent(mid)}`, undefined, matchToken(mid) || undefined);
  } catch {
    page.match = await api('GET', `/api/matches/${encodeURIComponent(mid)}`).catch(() => null);
  }
  renderMatch();
  // The match counts a finished game a moment after the game's last event: look again until
  // it has (no event of this game will say so).
  const entry = page.match && page.match.games.find((g) => g.id === id);
  if (s.status === 'finished' && entry && !entry.result && (page.matchTries = (page.matchTries || 0) + 1) < 20) {
    setTimeout(loadMatch, 500);
  }
}

function renderMatch() {
  const s = page.state;
  const box = $('match');
  if (!s || !s.match_game) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const [mid, number] = s.match_game;
  const m = page.match;
  const items = [h('h3', {}, 'Match')];
  if (m) {
    const name = (i) => (m.players[i].kind === 'engine' ? engineName(m.players[i].level) : m.players[i].name || '?');
    items.push(h('p', { class: 'score', 'data-score': `${m.score[0]}-${m.score[1]}` },
      personTag(m.players[0], '?'), ' ', h('b', {}, `${m.score[0]} – ${m.score[1]}`), ' ', personTag(m.players[1], '?')));
    items.push(h('p', {}, `Best of ${m.best_of}, game ${number}.`));
    if (m.winner !== null && m.winner !== undefined) items.push(h('p', { class: 'match-over' }, `${name(m.winner)} wins the match.`));
  }
  if (s.next_game) {
    items.push(h('p', {}, h('a', { class: 'button primary', id: 'next-game', href: `/game/${encodeURIComponent(s.next_game)}` }, 'Next game of the match →')));
  }
  items.push(h('p', {}, h('a', { href: `/match/${encodeURIComponent(mid)}` }, 'The match page')));
  fill(box, items);
}

// ---- drawing ----

function statusText() {
  const s = page.state;
  if (s.status === 'open') return 'Waiting for a second player to join.';
  if (s.status === 'finished') {
    const r = s.result;
    if (!r) return 'The game is over.';
    if (r.winner) return s.you === r.winner ? 'You win!' : `${seatName(s, r.winner - 1)} wins.`;
    return r.token === '*' ? 'The game was called off.' : 'Drawn.';
  }
  const mover = seatName(s, s.to_move - 1);
  const design = designStatus(s, (n) => seatName(s, n - 1));
  if (design) return design;
  if (s.pending_bribe) return `${seatName(s, s.pending_bribe.by - 1)} offers a bribe to pass.`;
  if (s.you === s.to_move) return 'Your turn.';
  if (s.you) return `${mover} is to move.`;
  return `Watching: ${mover} is to move.`;
}

/** The parts a click changes: the board, the prompt, the supply, the move waiting to be confirmed. */
function renderInput() {
  const s = page.state;
  if (designing(s)) {
    $('prompt').textContent = renderDesign(board, s, flag('coords'));
    renderConfirm();
    return;
  }
  const looking = page.viewTurn !== null && page.history;
  // The board: the live position, or one from the history.
  const live = !looking && canMove() && !page.pending;
  const pre = !looking && !live && page.premoveInput && premoveAllowed() ? page.premoveInput : null;
  const entry = live ? page.input : pre;
  const offer = entry ? entry.offer() : { targets: new Set(), selected: [], phase: '' };
  const pos = looking ? parsePosition(page.history.positions[page.viewTurn]) : page.pos;
  const lastText = looking ? page.history.moves[page.viewTurn - 1] : s.moves[s.moves.length - 1];
  const shown = !looking && (page.pending || page.premove);
  let pending = shown ? parseMove(shown) : null;
  if (pending && pending.kind === 'place') pending = { kind: 'place', colour: pending.colour, at: pending.at, remove: pending.remove, premove: !page.pending };
  else if (pending && pending.kind === 'capture') pending = { kind: 'capture', path: pending.path };
  else pending = null;
  board.render(pos, {
    targets: offer.targets,
    selected: offer.selected,
    phase: offer.phase,
    last: moveMarks(lastText),
    notation: pref('notation'),
    coords: flag('coords'),
    letters: flag('letters'),
    interactive: Boolean(entry),
    preview: offer.phase === 'remove' ? { at: entry.at, colour: entry.colour } : null,
    pending,
    turn: boardTurn(s.you),
  });
  $('board').dataset.turn = String(shownTurn());
  $('board').classList.toggle('looking', Boolean(looking));
  $('prompt').textContent = entry ? entry.prompt() : '';
  renderConfirm();
  // Supply (or the mover's captures when it is empty).
  const from = hand();
  const counts = from === 'captures' ? s.captures[(s.you || s.to_move) - 1] : s.supply;
  fill($('supply'), supplyView(counts, from, entry ? offer.colour || null : null, onColour, s.status === 'live'));
}

/** The bar under the board: the move waiting for "Confirm", or the premove waiting for the turn. */
function renderConfirm() {
  const bar = $('confirm-bar');
  if (page.pending) {
    fill(bar, h('span', {}, 'Play ', h('code', { id: 'pending-move' }, notationOf(page.pending)), '?'),
      h('button', { type: 'button', class: 'primary', id: 'confirm-move', onclick: () => sendMove(page.pending) }, 'Confirm'),
      h('button', { type: 'button', id: 'cancel-move', onclick: () => { page.pending = null; page.input.reset(); say(''); render(); } }, 'Cancel'));
    bar.hidden = false;
    bar.dataset.kind = 'confirm';
  } else if (page.premove) {
    fill(bar, h('span', {}, 'Premove ', h('code', { id: 'premove' }, notationOf(page.premove)), ': played as soon as it is your turn.'),
      h('button', { type: 'button', id: 'cancel-premove', onclick: () => { page.premove = null; say(''); render(); } }, 'Cancel premove'));
    bar.hidden = false;
    bar.dataset.kind = 'premove';
  } else {
    bar.hidden = true;
    bar.replaceChildren();
    delete bar.dataset.kind;
  }
}

/** A move of this position in the notation chosen. */
function notationOf(text) {
  return pref('notation') === 'host' && page.pos ? hostMoveText(page.pos, text) : text;
}

function render() {
  const s = page.state;
  if (!s) return;
  const looking = page.viewTurn !== null && page.history;
  const status = $('status');
  status.textContent = statusText();
  if (s.status === 'finished' && s.result) status.append(h('span', { class: 'why' }, s.result.text));
  const mine = myTurn(s);
  status.className = `status ${s.status}${mine ? ' your-turn' : ''}`;
  status.dataset.status = s.status;
  status.dataset.version = String(s.version);
  document.body.classList.toggle('my-turn', mine);
  showTurn(mine, `${seatName(s, 0)} – ${seatName(s, 1)} · ZÈRTZ`);

  renderInput();

  // Banner when looking back.
  const banner = $('lookback');
  if (looking) {
    fill(banner, `Looking at the position after move ${page.viewTurn} of ${s.moves.length}. `,
      h('button', { type: 'button', onclick: () => show(page.viewTurn - 1), disabled: page.viewTurn === 0 }, '◀'),
      h('button', { type: 'button', onclick: () => show(page.viewTurn + 1) }, '▶'),
      h('button', { type: 'button', class: 'primary', id: 'back-to-game', onclick: () => show(s.moves.length) }, 'Back to the game'));
    banner.hidden = false;
  } else banner.hidden = true;

  // Only a player types moves.
  $('typed').hidden = !(s.you && s.status !== 'finished');

  // Players: the viewer at the bottom, the opponent on top.
  const order = s.you === 2 ? [0, 1] : [1, 0];
  const cards = order.map((i) => ({ i, ...playerCard(s, i, ratingBeside(i)) }));
  page.clocks = cards.map((c) => ({ el: c.clock, i: c.i }));
  fill($('players'), cards.map((c) => c.el));
  tick();

  renderActions();
  renderMatch();
  // The heading stays above the list, which scrolls on its own.
  const list = moveList(s.moves, shownTurn(), show, movesShown());
  const scroller = h('div', { class: 'move-scroll', id: 'move-scroll' }, list);
  fill($('moves'), h('h3', {}, `Moves (${s.moves.length})`), scroller);
  // Follow the last move inside the list, or the one looked at (without scrolling the page).
  if (page.viewTurn === null) scroller.scrollTop = scroller.scrollHeight;
  else keepInView(scroller, scroller.querySelector('li.current'));
  renderAnalysis();
  renderInfo();
  renderChatViewer();
}

/** Scrolls `box` (not the page) so that `item` is visible in it. */
function keepInView(box, item) {
  if (!item) return;
  const b = box.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top + 4;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom + 4;
}

/** Tells the chat who reads it: a player of the game (by their seat), or a spectator. */
function renderChatViewer() {
  const s = page.state;
  if (!page.chat || !s) return;
  const seat = s.you ? s.seats[s.you - 1] : null;
  if (seat) page.chat.setViewer({ player: true, guest: seat.guest, name: seat.name });
  else if (page.account) page.chat.setViewer({ player: false, guest: false, name: page.account.name });
  else page.chat.setViewer({ player: false, guest: true, name: spectatorName() });
}

/** A guest spectator's name in the chat: the one this browser remembers ("Guest" if none). */
const spectatorName = () => rememberedName().trim() || 'Guest';

function button(text, onclick, cls = '', attrs = {}) {
  return h('button', { type: 'button', class: cls, onclick, disabled: page.busy, ...attrs }, text);
}

function renderActions() {
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
function claimIn() {
  const s = page.state;
  if (!s || s.status !== 'live' || !s.you) return null;
  const away = s.seats[2 - s.you];
  if (away.kind !== 'human' || away.connected || away.away_claim_in_ms === null || away.away_claim_in_ms === undefined) return null;
  return away.away_claim_in_ms - (performance.now() - page.receivedAt);
}

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

function bribeWords(text) {
  const n = text.split('/').map(Number);
  const parts = ['white', 'grey', 'black'].map((c, k) => (n[k] ? `${n[k]} ${c}` : null)).filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing';
}

function renderInfo() {
  const s = page.state;
  const rules = [];
  if (s.repetition === 'forbidden') rules.push('no repetition');
  if (s.bribes) rules.push('bribes');
  const { pool, rated } = gameRating();
  if (!rated && !s.casual) rules.push('unrated, no takebacks');
  let rating = null;
  if (rated) {
    // After the game, each account's rating change.
    const changes = accountSeats(s).map(({ seat }) => ({ name: seat.name, row: page.ended.get(seat.name) }))
      .filter((c) => c.row && c.row.rated && c.row.rating_after !== null);
    rating = h('p', { id: 'game-rating', class: 'rated-game' }, h('span', { class: 'tag rated' }, 'rated'), ` ${poolName(pool)}`,
      changes.length ? ': ' : '',
      ...changes.flatMap((c, k) => [k ? ', ' : '', `${c.name} ${Math.round(c.row.rating_before)} → ${Math.round(c.row.rating_after)} `, deltaTag(c.row.rating_before, c.row.rating_after)]));
  }
  const posText = page.viewTurn !== null && page.history ? page.history.positions[page.viewTurn] : s.position;
  const input = h('input', { readonly: true, value: posText, class: 'link', id: 'position-string' });
  // An invited game's clocks start with the first move (they stand still until then).
  const still = s.status === 'live' && s.clock && s.clock.kind !== 'unlimited' && !s.moves.length && !s.clocks.some((c) => c.running);
  fill($('info'),
    h('p', {}, describeSettings(s.board, s.rules, s.clock_text, rules)),
    still ? h('p', { class: 'note', id: 'clock-note' }, 'The clocks start with the first move.') : null,
    rating,
    h('div', { class: 'row' }, input, button('Copy position', () => copy(posText, input))));
}

// ---- clocks ----

function tick() {
  const s = page.state;
  if (!s) return;
  const elapsed = performance.now() - page.receivedAt;
  let out = false;
  for (const c of page.clocks) out = tickClock(c.el, s, c.i, elapsed) || out;
  // Low time on the player's own running clock: heard and said once a turn.
  const own = s.you && page.clocks.find((c) => c.i === s.you - 1);
  if (own && s.status === 'live' && s.clocks[s.you - 1].running && own.el.classList.contains('low') && page.lowWarned !== s.version) {
    page.lowWarned = s.version;
    play('lowtime');
    tell(`Low time: ${own.el.querySelector('.main').textContent} left on your clock.`, 'warn');
  }
  // The countdown before an absent opponent's game may be claimed, once a second.
  const left = claimIn();
  const second = left === null ? null : Math.max(0, Math.ceil(left / 1000));
  if (second !== page.claimSecond) {
    page.claimSecond = second;
    renderActions();
  }
  // A clock at zero (or a period used up): ask the server what it really shows.
  if (out && s.status === 'live' && performance.now() - page.refreshedAt > 2000) {
    page.refreshedAt = performance.now();
    refresh();
  }
}

// ---- joining ----

/**
 * The form that takes the free seat: an open game's, or with the link's invitation the invited
 * one. A guest types a name first; an account plays under its own.
 */
function theJoinForm() {
  if (!page.joinForm) {
    page.joinForm = joinForm(page.account, {
      id: 'join',
      text: page.invite ? 'You are invited to play this game.' : 'This game waits for an opponent.',
      button: 'Join this game',
      onJoin: joinSeat,
    });
  }
  return page.joinForm;
}

async function joinSeat(name) {
  const body = {};
  if (name !== undefined) body.name = name;
  if (page.invite) body.token = page.invite;
  try {
    const r = await api('POST', path('/join'), body);
    page.token = r.token;
    // A guest's seat lives in this browser; an account's follows the account (the cookie).
    if (!page.account) saveSeatToken(id, r.token);
    if (page.invite) {
      page.invite = null;
      history.replaceState(null, '', location.pathname);
    }
    page.joinForm = null;
    restartSocket();
    await refresh();
    say('You joined the game.', 'ok');
  } catch (e) {
    say(`Cannot join: ${e.message}`, 'error');
  }
}

/**
 * Reads the invitation of the link's `#join=…`. An invitation takes its seat once; the seat then
 * plays with a token of its own (kept by this browser for a guest, by the session for an
 * account), and the link no longer acts for it. So a link this browser already used (a reload,
 * or a visit from the history) is just dropped; one nobody used waits for the join form; one
 * used by someone else, or of a game that went on without it, says so.
 */
async function readInvitation(link) {
  const mine = seatToken(id);
  let st = mine ? await api('GET', path(), undefined, mine).catch(() => null) : null;
  if (!st) {
    try {
      st = await api('GET', path());
    } catch {
      return; // the game itself cannot be read: said when it is loaded
    }
  }
  if (st.you) history.replaceState(null, '', location.pathname);
  else if (st.status === 'open') page.invite = link;
  else {
    say('This invitation can no longer be used: its seat is taken, or the game is over.', 'error');
    history.replaceState(null, '', location.pathname);
  }
}

/**
 * The seat token of this browser for the game, checked with the server; and the state. A
 * logged-in player with no token still gets their seat: the server reads it from the session.
 */
async function seatAndState() {
  const stored = page.token || seatToken(id);
  if (stored) {
    try {
      return { token: stored, state: await api('GET', path(), undefined, stored) };
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 403) throw e;
      saveSeatToken(id, null);
    }
  }
  const state = await api('GET', path());
  if (state.match_game && !state.you) {
    const t = matchToken(state.match_game[0]);
    if (t) {
      const mine = await api('GET', path(), undefined, t).catch(() => null);
      if (mine && mine.you) {
        saveSeatToken(id, t);
        return { token: t, state: mine };
      }
    }
  }
  return { token: null, state };
}

function restartSocket() {
  if (page.socket) page.socket.close();
  // A guest who watches speaks in the chat under the name this browser remembers; a seat's
  // name comes from the seat, an account's from the session.
  const name = page.account || page.token ? undefined : spectatorName();
  page.socket = new GameSocket(id, page.token, {
    onState: (state, event) => apply(state, event),
    onStatus: (status) => {
      showConnection(status);
      page.chat.connection(status);
    },
    onRoom: (msg) => page.chat.receive(msg),
    name,
  });
  page.socket.start(page.state ? page.state.version : null);
  window.zertzSocket = page.socket;
}

// ---- start ----

function hover(place) {
  const el = $('hover');
  if (!place) {
    el.textContent = '';
    return;
  }
  const pos = page.viewTurn !== null && page.history ? parsePosition(page.history.positions[page.viewTurn]) : page.pos;
  const p = pos && pos.byCoord.get(place.coord);
  if (!p) return;
  const host = hostCoord(pos, p);
  const what = p.marble ? `${COLOUR_NAMES[p.marble]} marble` : 'empty ring';
  el.textContent = pref('notation') === 'host'
    ? `${host} (official ${p.coord}) · ${what}`
    : `${p.coord} (host ${host}) · ${what}`;
}

function setupControls() {
  const form = $('typed');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('move-text').value.trim();
    if (!text) {
      say('Type a move first, such as Wd4,d1 or x d1Gd3.', 'error');
      return;
    }
    const why = whyNot();
    if (why) {
      say(why, 'error');
      return;
    }
    $('move-text').value = '';
    sendMove(text);
  });
  $('cancel').addEventListener('click', () => {
    if (page.input) page.input.reset();
    page.premoveInput = null;
    page.pending = null;
    say('');
    render();
  });
  $('options').append(optionsPanel(['view', 'notation', 'coords', 'letters', 'theme', 'animations', 'sound', 'confirm']));
  onPref((key) => {
    if (key === 'notation') learnHistory();
    if (key === 'sound') soundButton();
    if (key === 'confirm' && !confirmMoves() && page.pending) page.pending = null;
    render();
  });
  $('sound-toggle').addEventListener('click', () => setPref('sound', !flag('sound')));
  soundButton();
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (!page.state) return;
    if (e.key === 'Escape') {
      // Forgets the move being entered, the move waiting for "Confirm", or else the premove.
      if (page.pending) page.pending = null;
      else if (!page.premoveInput && page.premove) page.premove = null;
      page.input.reset();
      page.premoveInput = null;
      say('');
      render();
    } else if (e.key === 'ArrowLeft') show(shownTurn() - 1);
    else if (e.key === 'ArrowRight') show(shownTurn() + 1);
  });
}

/** The sound switch beside the status: on or muted (remembered). */
function soundButton() {
  const b = $('sound-toggle');
  const on = flag('sound');
  // A loudspeaker, with waves when on and a cross when muted (our own markup, no server text).
  const waves = on
    ? '<path d="M15 8.5a4.5 4.5 0 0 1 0 7M17.5 6a8 8 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>'
    : '<path d="M15.5 9.5l5 5M20.5 9.5l-5 5" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>';
  b.innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" fill="currentColor"/>${waves}</svg>`;
  b.title = on ? 'Sound on: click to mute' : 'Sound muted: click to turn it on';
  b.setAttribute('aria-label', b.title);
  b.setAttribute('aria-pressed', on ? 'false' : 'true');
  b.dataset.sound = on ? 'on' : 'off';
}

/** An address that names no game: said plainly, with the ways on. */
function noSuchGame() {
  page.missing = true;
  const status = $('status');
  status.textContent = 'No such game';
  status.className = 'status missing';
  status.dataset.status = 'missing';
  document.title = 'No such game · ZÈRTZ';
  document.body.classList.add('no-game');
  fill($('message'), id ? `There is no game “${id}” on this server. ` : 'No game is named in the address. ',
    'The link may be mistyped, or the game was never created here. ',
    h('a', { href: '/' }, 'Start a game'), ', ', h('a', { href: '/lobby' }, 'watch one in the lobby'), ' or ',
    h('a', { href: '/archive' }, 'look in the archive'), '.');
  $('message').className = 'message error';
}

async function start() {
  const account = siteHeader('game');
  board = new BoardView($('board'), { onClick: onBoardClick, onHover: hover });
  setupControls();
  page.chat = new ChatPanel({ send: (message) => (page.socket ? page.socket.send(message) : false) });
  $('match').after(page.chat.el);
  if (!id) {
    noSuchGame();
    return;
  }
  page.account = await account;
  const join = /(?:^#|&)join=([^&]+)/.exec(location.hash);
  if (join) await readInvitation(decodeURIComponent(join[1]));
  try {
    const { token, state } = await seatAndState();
    page.token = token;
    apply(state);
  } catch (e) {
    if (e.status === 404) noSuchGame();
    else say(`Cannot load the game: ${e.message}`, 'error');
    return;
  }
  restartSocket();
  setInterval(tick, 200);
  analyse();
}

start();
