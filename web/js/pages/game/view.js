// @ts-check
// Drawing the game page from its state (state.js): the status, the board with the move being
// entered or shown before it is sent, the players and their clocks, the move list, the match,
// the engine's view of a finished game, the settings. Nothing here changes the state.

import { rememberedName } from '../../lib/api.js';
import { showTurn } from '../../lib/feel.js';
import { parseMove } from '../../lib/moves.js';
import { moveList, playerCard, plyLabel, seatName } from '../../lib/panels.js';
import { hostMoveText, parsePosition } from '../../lib/position.js';
import { boardTurn, flag, pref } from '../../lib/prefs.js';
import { deltaTag, poolName, ratingText } from '../../lib/ratings.js';
import { $, copy, describeSettings, engineName, fill, h, personTag, say } from '../../lib/ui.js';
import { button, canMove, renderActions, sendMove, show } from './actions.js';
import { tick } from './clock.js';
import { designStatus, designing, renderDesign } from './design.js';
import { premoveAllowed } from './premove.js';
import { accountSeats, gameRating, hand, id, movesShown, myTurn, page, shownTurn } from './state.js';

/**
 * The player who moved first in game `s`: turns alternate (a pass after an accepted bribe is a
 * turn), so it follows from the player to move and the number of turns.
 * @param {import('../../lib/types.js').GameState} s
 */
const firstMover = (s) => (s.moves.length % 2 === 0 ? s.to_move : 3 - s.to_move);

/** Draws the whole page from the state. */
export function render() {
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
  const list = moveList(s.moves, shownTurn(), show, movesShown(), firstMover(s));
  const scroller = h('div', { class: 'move-scroll', id: 'move-scroll' }, list);
  fill($('moves'), h('h3', {}, `Moves (${s.moves.length})`), scroller);
  // Follow the last move inside the list, or the one looked at (without scrolling the page).
  if (page.viewTurn === null) scroller.scrollTop = scroller.scrollHeight;
  else keepInView(scroller, scroller.querySelector('li.current'));
  renderAnalysis();
  renderInfo();
  renderChatViewer();
}

/** The status line, in words. */
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
export function renderInput() {
  const s = page.state;
  if (designing(s)) {
    $('prompt').textContent = renderDesign(page.board.board, s, flag('coords'));
    renderConfirm();
    return;
  }
  const looking = page.viewTurn !== null && page.history;
  // The board: the live position, or one from the history.
  const live = !looking && canMove() && !page.pending;
  const pre = !looking && !live && page.premoveInput && premoveAllowed() ? page.premoveInput : null;
  const entry = live ? page.board.input : pre;
  const pos = looking ? parsePosition(page.history.positions[page.viewTurn]) : page.pos;
  const lastText = looking ? page.history.moves[page.viewTurn - 1] : s.moves[s.moves.length - 1];
  const shown = !looking && (page.pending || page.premove);
  const mv = shown ? parseMove(shown) : null;
  let pending = null;
  if (mv && mv.kind === 'place') pending = { kind: 'place', colour: mv.colour, at: mv.at, remove: mv.remove, premove: !page.pending };
  else if (mv && mv.kind === 'capture') pending = { kind: 'capture', path: mv.path };
  // The supply (or the mover's captures when it is empty), as the game stands.
  const from = hand();
  const counts = from === 'captures' ? s.captures[(s.you || s.to_move) - 1] : s.supply;
  page.board.draw({ pos, entry, last: lastText, pending, turn: boardTurn(s.you), supply: { counts, from, enabled: s.status === 'live' } });
  $('board').dataset.turn = String(shownTurn());
  $('board').classList.toggle('looking', Boolean(looking));
  renderConfirm();
}

/** The bar under the board: the move waiting for "Confirm", or the premove waiting for the turn. */
function renderConfirm() {
  const bar = $('confirm-bar');
  if (page.pending) {
    fill(bar, h('span', {}, 'Play ', h('code', { id: 'pending-move' }, notationOf(page.pending)), '?'),
      h('button', { type: 'button', class: 'primary', id: 'confirm-move', onclick: () => sendMove(page.pending) }, 'Confirm'),
      h('button', { type: 'button', id: 'cancel-move', onclick: () => { page.pending = null; page.board.reset(); say(''); render(); } }, 'Cancel'));
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

/** Scrolls `box` (not the page) so that `item` is visible in it. */
function keepInView(box, item) {
  if (!item) return;
  const b = box.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top + 4;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom + 4;
}

/** Beside an account's name: its rating in the game's pool, or after a rated game its change. */
/** @param {number} i */
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

/** The game's settings, rating and position string (#info). */
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
  const input = h('input', { readonly: true, value: posText, class: 'link', id: 'position-string', 'aria-label': 'Position string' });
  // An invited game's clocks start with the first move (they stand still until then).
  const still = s.status === 'live' && s.clock && s.clock.kind !== 'unlimited' && !s.moves.length && !s.clocks.some((c) => c.running);
  fill($('info'),
    h('p', {}, describeSettings(s.board, s.rules, s.clock_text, rules)),
    still ? h('p', { class: 'note', id: 'clock-note' }, 'The clocks start with the first move.') : null,
    rating,
    h('div', { class: 'row' }, input, button('Copy position', () => copy(posText, input))));
}

/** The match the game belongs to (#match). */
export function renderMatch() {
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

/** What the engine thinks of the position shown, once the game is over (#analysis). */
export function renderAnalysis() {
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
  const lead = turn === 0 ? 'At the start' : `After ${plyLabel(turn, firstMover(s))} ${s.moves[turn - 1]}`;
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
export const spectatorName = () => rememberedName().trim() || 'Guest';

/** An address that names no game: said plainly, with the ways on. */
export function noSuchGame() {
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
