// The game page, /game/{id}: follows the game over its WebSocket, draws it, and lets a player
// move by pointing or typing. The server's state is the truth: the page shows the last state
// it received and changes nothing on its own; a refused action leaves the state as it was and
// says why.

import { api, ApiError, gameHistory, matchToken, rememberedName, saveSeatToken, seatToken, setting, saveSetting } from './api.js';
import { joinForm, siteHeader } from './account.js';
import { BoardView } from './board.js';
import { MoveInput, moveMarks } from './moves.js';
import { playerCard, supplyView, tickClock, moveList, seatName } from './panels.js';
import { COLOUR_NAMES, hostCoord, parsePosition } from './position.js';
import { GameSocket } from './socket.js';
import { ChatPanel } from './chat.js';
import { deltaTag, poolName, ratingText } from './ratings.js';
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
  notation: setting('notation', 'official'),
  letters: setting('letters', 'false') === 'true',
  chat: null, // the game room's chat panel
  people: new Map(), // account name → its profile (GET /api/players/{name}), null while asked
  ended: new Map(), // account name → this game's row among its finished games (false: none)
  peopleKey: '', // the status and names the profiles were read for
};

let board;

// ---- state ----

/** Takes a state from the server (socket or HTTP answer); older versions are ignored. */
function apply(state) {
  const old = page.state;
  if (old && state.version < old.version) return;
  const moved = !old || state.version !== old.version;
  page.state = state;
  page.receivedAt = performance.now();
  if (!old) window.zertzShownAt = page.receivedAt; // time to the first state, for the tests
  if (moved) {
    page.pos = parsePosition(state.position);
    page.input = new MoveInput(state.legal_moves, page.pos);
    page.confirmResign = false;
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
  if (moved && state.status === 'finished' && (!old || old.status !== 'finished')) analyse();
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

const sendMove = (text) => act({ type: 'move', move: text }, `The move ${text} was`);

/** Reads the state again over HTTP (after an error, or when a clock runs out). */
async function refresh() {
  try {
    apply(await api('GET', path(), undefined, page.token));
  } catch (e) {
    say(`Cannot read the game: ${e.message}`, 'error');
  }
}

function onBoardClick(coord) {
  const why = whyNot();
  if (why) {
    say(why, 'error');
    return;
  }
  handle(page.input.click(coord));
}

function onColour(colour) {
  const why = whyNot();
  if (why) {
    say(why, 'error');
    return;
  }
  handle(page.input.chooseColour(colour, hand()));
}

function handle(r) {
  if (!r.ok) say(r.message, 'error');
  else say('');
  if (r.submit) sendMove(r.submit);
  else renderInput();
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
  if (s.pending_bribe) return `${seatName(s, s.pending_bribe.by - 1)} offers a bribe to pass.`;
  if (s.you === s.to_move) return 'Your turn.';
  if (s.you) return `${mover} is to move.`;
  return `Watching: ${mover} is to move.`;
}

/** The parts a click changes: the board, the prompt, the supply. */
function renderInput() {
  const s = page.state;
  const looking = page.viewTurn !== null && page.history;
  // The board: the live position, or one from the history.
  const live = !looking && canMove();
  const offer = live ? page.input.offer() : { targets: new Set(), selected: [], phase: '' };
  const pos = looking ? parsePosition(page.history.positions[page.viewTurn]) : page.pos;
  const lastText = looking ? page.history.moves[page.viewTurn - 1] : s.moves[s.moves.length - 1];
  board.render(pos, {
    targets: offer.targets,
    selected: offer.selected,
    phase: offer.phase,
    last: moveMarks(lastText),
    notation: page.notation,
    letters: page.letters,
    interactive: live,
    preview: offer.phase === 'remove' ? { at: page.input.at, colour: page.input.colour } : null,
  });
  $('board').dataset.turn = String(shownTurn());
  $('board').classList.toggle('looking', Boolean(looking));
  $('prompt').textContent = live ? page.input.prompt() : '';
  // Supply (or the mover's captures when it is empty).
  const from = hand();
  const counts = from === 'captures' ? s.captures[(s.you || s.to_move) - 1] : s.supply;
  fill($('supply'), supplyView(counts, from, live ? offer.colour || null : null, onColour, s.status === 'live'));
}

function render() {
  const s = page.state;
  if (!s) return;
  const looking = page.viewTurn !== null && page.history;
  const status = $('status');
  status.textContent = statusText();
  if (s.status === 'finished' && s.result) status.append(h('span', { class: 'why' }, s.result.text));
  status.className = `status ${s.status}${s.status === 'live' && s.you === s.to_move ? ' your-turn' : ''}`;
  status.dataset.status = s.status;
  status.dataset.version = String(s.version);

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

  // Players: the viewer at the bottom, the opponent on top.
  const order = s.you === 2 ? [0, 1] : [1, 0];
  const cards = order.map((i) => ({ i, ...playerCard(s, i, ratingBeside(i)) }));
  page.clocks = cards.map((c) => ({ el: c.clock, i: c.i }));
  fill($('players'), cards.map((c) => c.el));
  tick();

  renderActions();
  renderMatch();
  fill($('moves'), h('h3', {}, `Moves (${s.moves.length})`), moveList(s.moves, shownTurn(), show));
  // Follow the last move inside the list (without scrolling the page).
  if (page.viewTurn === null) $('moves').scrollTop = $('moves').scrollHeight;
  renderAnalysis();
  renderInfo();
  renderChatViewer();
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
  fill($('info'),
    h('p', {}, describeSettings(s.board, s.rules, s.clock_text, rules)),
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
 * Reads the invitation of the link's `#join=…`. A link this browser already used (a reload
 * before the address was cleaned) gives the seat back; one nobody used waits for the join form.
 */
async function readInvitation(token) {
  let st;
  try {
    st = await api('GET', path(), undefined, token);
  } catch (e) {
    if (e.status !== 403) return; // the game itself cannot be read: said when it is loaded
    say('This invitation link holds no seat of the game.', 'error');
    history.replaceState(null, '', location.pathname);
    return;
  }
  const taken = st.you && st.seats[st.you - 1].name !== null && st.seats[st.you - 1].name !== undefined;
  if (taken) {
    if (!page.account) saveSeatToken(id, token);
    page.token = token;
    history.replaceState(null, '', location.pathname);
  } else if (st.status === 'open') page.invite = token;
  else {
    say('This invitation can no longer be used: the game is over.', 'error');
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
    onState: (state) => apply(state),
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
  el.textContent = page.notation === 'host'
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
    say('');
    render();
  });
  const notation = $('notation');
  notation.value = page.notation;
  notation.addEventListener('change', () => {
    page.notation = notation.value;
    saveSetting('notation', page.notation);
    render();
  });
  const letters = $('letters');
  letters.checked = page.letters;
  letters.addEventListener('change', () => {
    page.letters = letters.checked;
    saveSetting('letters', page.letters);
    render();
  });
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (!page.state) return;
    if (e.key === 'Escape') {
      page.input.reset();
      say('');
      render();
    } else if (e.key === 'ArrowLeft') show(shownTurn() - 1);
    else if (e.key === 'ArrowRight') show(shownTurn() + 1);
  });
}

async function start() {
  const account = siteHeader('game');
  board = new BoardView($('board'), { onClick: onBoardClick, onHover: hover });
  setupControls();
  page.chat = new ChatPanel({ send: (message) => (page.socket ? page.socket.send(message) : false) });
  $('match').after(page.chat.el);
  if (!id) {
    say('No game given in the address.', 'error');
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
    say(e.status === 404 ? `There is no game ${id}.` : `Cannot load the game: ${e.message}`, 'error');
    return;
  }
  restartSocket();
  setInterval(tick, 200);
  analyse();
}

start();
