// @ts-check
// The puzzle trainer, /puzzles and /puzzles/{id} (docs/learning.md, "Puzzle trainer"): the
// board of a position cut from a real game, "Player 1 to move and win in 2"; the solver plays
// on the board, the server checks each move against the proven solution and answers with the
// defence; a wrong move is shown refuted, with "Retry" (unrated) and "Next"; a solved puzzle
// shows the rating change. A guest's puzzle rating lives in this browser (localStorage) and is
// sent with each attempt; an account's is kept by the server.

import { api } from '../lib/api.js';
import { siteHeader } from '../lib/account.js';
import { capturesView } from '../lib/panels.js';
import { parsePosition } from '../lib/position.js';
import { PlayableBoard } from '../lib/playable.js';
import { $, fill, h, say } from '../lib/ui.js';

const GUEST_KEY = 'zertz.puzzles.rating';

const page = {
  account: null, // the logged-in account, null for a guest
  puzzle: null, // the puzzle as GET /api/puzzles/{id} gives it
  line: [], // the moves so far: the solver's and the server's replies, in turn
  pos: null, // the parsed position shown
  last: null, // the last move shown (marked on the board)
  state: 'loading', // solving, waiting, wrong, solved, empty
  answer: null, // the last answer of the server
};

/** The board, with the move being entered (none when no move may be entered). */
let board = null;

// ---- the guest's rating ----

function guestRating() {
  try {
    const r = JSON.parse(localStorage.getItem(GUEST_KEY) || 'null');
    if (r && Number.isFinite(r.rating)) return r;
  } catch {
    // unreadable: start again
  }
  return null;
}

function saveGuestRating(r) {
  try {
    localStorage.setItem(GUEST_KEY, JSON.stringify({ rating: r.rating, deviation: r.deviation, volatility: r.volatility }));
  } catch {
    // private mode: the rating lasts as long as the page
  }
}

function showYourRating(r) {
  const box = $('your-rating');
  if (!r) {
    box.textContent = page.account ? 'No rated puzzle yet: 1500 to start.' : 'No rated puzzle yet in this browser: 1500 to start.';
    return;
  }
  const where = page.account ? '' : ' (kept in this browser; log in to keep it on your account)';
  box.textContent = `${Math.round(r.rating)}${r.provisional ?? r.deviation > 110 ? ' (provisional)' : ''}${where}`;
  box.dataset.rating = String(Math.round(r.rating));
}

// ---- drawing ----

const playerName = (n) => `Player ${n}`;

function task() {
  const p = page.puzzle;
  if (!p) return '';
  const n = p.turns;
  return `${playerName(p.to_move)} to move and win in ${n}`;
}

function renderBoard() {
  if (!page.pos) return;
  board.draw({
    entry: page.state === 'solving' ? board.input : null,
    last: page.last,
    turn: page.puzzle && page.puzzle.to_move === 2 ? 180 : 0,
  });
  const el = $('board');
  el.dataset.position = page.pos.text;
  el.dataset.state = page.state;
  const mover = page.pos.toMove;
  const card = (i) => h('div', { class: `player${mover === i + 1 ? ' to-move' : ''}`, 'data-seat': i + 1 },
    h('div', { class: 'who' }, h('span', { class: 'name' }, playerName(i + 1)),
      page.puzzle && page.puzzle.to_move === i + 1 ? h('span', { class: 'tag' }, 'you') : null),
    capturesView(page.pos.captures[i], page.pos.rules));
  fill($('counts'), h('div', { class: 'players' }, card(0), card(1)));
}

function renderLine() {
  const items = page.line.map((m, k) => h('li', { class: k % 2 ? 'reply' : 'mine' },
    h('span', { class: 'no' }, k % 2 ? '…' : `${k / 2 + 1}.`), ' ', m));
  fill($('line'), items);
}

function renderInfo() {
  const p = page.puzzle;
  $('task').textContent = task();
  $('task').dataset.puzzle = p.id;
  $('puzzle-rating').textContent = `Puzzle rating ${p.rating}${p.attempts ? ` · tried ${p.attempts} times, solved ${p.solved}` : ''}`;
  $('puzzle-themes').textContent = p.themes.length ? `Themes: ${p.themes.join(', ')}` : '';
  const s = p.source;
  let from;
  if (s.archive === 'server') {
    from = ['From ', h('a', { href: `/game/${encodeURIComponent(s.game)}`, id: 'source-link' }, `game ${s.game}`), `, move ${s.move_number}.`];
  } else {
    // The game itself on the analysis board, at the puzzle's move, when the server's explorer
    // holds the archive; the page shows the position alone when it does not.
    const q = new URLSearchParams({ archive: s.game, turn: String(s.move_number - 1), position: p.position });
    from = [`From the BoardSpace game ${s.game}, move ${s.move_number}. `,
      h('a', { href: `/analysis?${q}`, id: 'source-link' }, 'Open the game at this move on the analysis board')];
  }
  fill($('puzzle-source'), from);
}

function renderActions() {
  const over = page.state === 'wrong' || page.state === 'solved';
  $('retry').hidden = !over;
  $('solution').hidden = page.state !== 'wrong';
}

function render() {
  renderBoard();
  renderLine();
  renderActions();
}

function verdict(kind, ...children) {
  const box = $('verdict');
  box.className = `puzzle-verdict ${kind}`;
  box.dataset.result = kind;
  fill(box, children);
}

function ratingLine(r) {
  if (!r) return null;
  if (!r.rated) return h('p', { class: 'note', id: 'rating-change' }, 'Unrated: only your first try at a puzzle counts.');
  const sign = r.change >= 0 ? '+' : '−';
  return h('p', { id: 'rating-change', 'data-change': String(r.change) },
    `Your puzzle rating: ${Math.round(r.before.rating)} → ${Math.round(r.after.rating)} (${sign}${Math.abs(r.change)}).`);
}

function sourceLine(s) {
  if (!s) return null;
  return h('p', { class: 'note' }, s.found ? `In the game, the player found it: ${s.played}.` : `In the game, the player missed it and played ${s.played}.`);
}

// ---- loading ----

function start(puzzle) {
  page.puzzle = puzzle;
  page.line = [];
  page.last = null;
  page.answer = null;
  setPosition(puzzle.position, puzzle.legal);
  page.state = 'solving';
  verdict('solving', h('p', {}, `Find the move. ${puzzle.turns > 1 ? 'The server plays the defence after each of your moves.' : 'One move wins.'}`));
  renderInfo();
  const theme = $('theme', HTMLSelectElement).value;
  history.replaceState(null, '', `/puzzles/${encodeURIComponent(puzzle.id)}${theme ? `?theme=${encodeURIComponent(theme)}` : ''}`);
  say('');
  render();
}

function setPosition(text, legal) {
  page.pos = parsePosition(text);
  board.setMoves(page.pos, legal);
}

async function loadNext() {
  const q = new URLSearchParams();
  const theme = $('theme', HTMLSelectElement).value;
  if (theme) q.set('theme', theme);
  if (page.puzzle) q.set('after', page.puzzle.id);
  const g = page.account ? null : guestRating();
  if (g) {
    q.set('rating', String(g.rating));
    q.set('deviation', String(g.deviation));
    q.set('volatility', String(g.volatility));
  }
  try {
    start(await api('GET', `/api/puzzles/next?${q}`));
  } catch (e) {
    page.state = 'empty';
    $('task').textContent = 'No puzzle';
    verdict('empty', h('p', {}, e.message));
    renderActions();
  }
}

async function loadOne(id) {
  try {
    start(await api('GET', `/api/puzzles/${encodeURIComponent(id)}`));
  } catch (e) {
    say(`${e.message}. Here is another puzzle.`, 'error');
    await loadNext();
  }
}

async function loadThemes() {
  try {
    const o = await api('GET', '/api/puzzles');
    const select = $('theme');
    for (const [name, n] of Object.entries(o.themes)) {
      if (n > 0) select.append(h('option', { value: name }, `${name} (${n})`));
    }
    if (o.rating) showYourRating(o.rating);
  } catch {
    // the filter is a convenience
  }
}

// ---- moving ----

/** A click while no move may be entered: said only while the reply is awaited. */
function onBoardClick() {
  if (page.state === 'solving' && board.input) return false;
  if (page.state === 'waiting') say('Wait for the reply.', 'error');
  return true;
}

async function play(move) {
  const p = page.puzzle;
  page.state = 'waiting';
  renderBoard();
  const body = { moves: page.line, move };
  const g = page.account ? null : guestRating();
  if (g) body.rating = g;
  let a;
  try {
    a = await api('POST', `/api/puzzles/${encodeURIComponent(p.id)}/move`, body);
  } catch (e) {
    // An illegal move costs nothing: the rules' reason, and the same turn again.
    say(e.message, 'error');
    page.state = 'solving';
    board.reset();
    renderBoard();
    return;
  }
  page.answer = a;
  if (a.result === 'right') {
    page.line.push(a.move, a.reply);
    page.last = a.reply;
    setPosition(a.position, a.legal);
    page.state = 'solving';
    verdict('right', h('p', {}, `Right: ${a.move}. The reply: ${a.reply}. Your move.`));
  } else if (a.result === 'also-wins') {
    page.state = 'solving';
    board.reset();
    verdict('also', h('p', {}, a.why));
  } else if (a.result === 'solved') {
    page.line.push(a.move);
    page.last = a.move;
    setPosition(a.after_move, null);
    page.state = 'solved';
    keepRating(a.rating);
    verdict('solved', h('p', { class: 'good' }, `Solved: ${a.move} wins.`), ratingLine(a.rating), sourceLine(a.source));
  } else {
    page.line.push(a.move);
    if (a.refutation) page.line.push(a.refutation);
    page.last = a.refutation || a.move;
    setPosition(a.refuted_position || a.after_move, null);
    page.state = 'wrong';
    keepRating(a.rating);
    // What the game's player did is said with the solution, when asked: it may be the answer.
    verdict('wrong', h('p', { class: 'bad' }, a.why), ratingLine(a.rating));
  }
  render();
}

function keepRating(r) {
  if (!r) return;
  if (!page.account && r.rated) saveGuestRating(r.after);
  showYourRating(r.after);
}

function showSolution() {
  const a = page.answer;
  if (!a || !a.solution) return;
  const box = $('verdict');
  box.append(h('p', { id: 'solution-text' }, `The solution's move there was ${a.solution}.`));
  const source = sourceLine(a.source);
  if (source) box.append(source);
  $('solution').hidden = true;
}

// ---- start ----

async function begin() {
  const asked = siteHeader('puzzles');
  board = new PlayableBoard({ onMove: play, redraw: renderBoard, onClick: onBoardClick, hover: false });
  $('retry').addEventListener('click', () => page.puzzle && start(page.puzzle));
  $('next').addEventListener('click', loadNext);
  $('solution').addEventListener('click', showSolution);
  $('theme').addEventListener('change', loadNext);
  page.account = await asked;
  if (!page.account) showYourRating(guestRating());
  await loadThemes();
  const q = new URLSearchParams(location.search);
  if (q.get('theme')) $('theme', HTMLSelectElement).value = q.get('theme');
  const id = /^\/puzzles\/([^/]+)/.exec(location.pathname);
  if (id) await loadOne(decodeURIComponent(id[1]));
  else await loadNext();
}

begin();
