// @ts-check
// Learn, /learn and /learn/{id} (docs/learning.md, "Lessons and the rules page"): short lessons
// in a newcomer's order, each a position and a task done on the board. The server holds the
// lessons and checks every try (POST /api/lessons/{id}/try): the page draws, takes the move by
// pointing or typing, and shows the answer's "why". Progress is kept in this browser
// (localStorage `zertz.ui.lessons.done`, and the moves that did each lesson in
// `zertz.ui.lessons.moves`) and, for an account, on the server; a guest's progress is handed to
// the account when the player logs in, each lesson with its moves, which the server checks.

import { api, setting, saveSetting } from '../lib/api.js';
import { siteHeader } from '../lib/account.js';
import { capturesView } from '../lib/panels.js';
import { parsePosition } from '../lib/position.js';
import { onPref, optionsPanel } from '../lib/prefs.js';
import { play as sound } from '../lib/feel.js';
import { PlayableBoard } from '../lib/playable.js';
import { $, fill, h, say } from '../lib/ui.js';

const DONE_KEY = 'lessons.done';
const MOVES_KEY = 'lessons.moves';

const page = {
  lessons: [], // GET /api/lessons
  account: null, // the account's name, or null for a guest
  lesson: null, // GET /api/lessons/{id}
  moves: [], // the right moves played so far in this lesson
  step: 0,
  shown: null, // the position on the board
  stepPosition: null, // where the current step starts
  seat: 1, // the learner's player number
  info: null, // GET /api/position of the shown position
  pos: null,
  last: null, // the move to mark on the board
  state: 'loading', // task, wrong, done
  hintsShown: 0,
};

/** The board, with the move being entered while a try is possible. */
let board;

// ---- progress ----

/** The lessons done in this browser. */
function localDone() {
  try {
    const v = JSON.parse(setting(DONE_KEY, '[]'));
    return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** The moves that did each lesson done in this browser, by id. */
function localMoves() {
  try {
    const v = JSON.parse(setting(MOVES_KEY, '{}'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function markLocal(id, moves) {
  const done = new Set(localDone());
  done.add(id);
  saveSetting(DONE_KEY, JSON.stringify([...done]));
  saveSetting(MOVES_KEY, JSON.stringify({ ...localMoves(), [id]: moves }));
}

const isDone = (id) => localDone().includes(id) || page.lessons.some((l) => l.id === id && l.done);

/**
 * Hands this browser's progress to the account, once logged in: the lessons it has not got yet,
 * each with the moves that did it (lessons done before the moves were kept stay in this browser).
 */
async function syncProgress() {
  if (!page.account) return;
  const moves = localMoves();
  const missing = localDone()
    .filter((id) => !page.lessons.some((l) => l.id === id && l.done))
    .filter((id) => Array.isArray(moves[id]))
    .map((id) => ({ id, moves: moves[id] }));
  if (!missing.length) return;
  try {
    const r = await api('POST', '/api/lessons/progress', { done: missing });
    for (const l of page.lessons) l.done = r.done.includes(l.id);
  } catch (e) {
    say(`Your progress could not be saved to your account: ${e.message}`, 'error');
  }
}

function renderList() {
  const here = page.lesson && page.lesson.id;
  fill($('lessons'), page.lessons.map((l) => h('li', { 'data-lesson': l.id, 'data-done': isDone(l.id) ? 'yes' : 'no', class: l.id === here ? 'current' : null },
    h('a', { href: `/learn/${l.id}`, onclick: (e) => { e.preventDefault(); open(l.id); } },
      h('span', { class: 'mark', 'aria-label': isDone(l.id) ? 'done' : 'not done yet' }, isDone(l.id) ? '✓' : '○'),
      l.title))));
  const n = page.lessons.filter((l) => isDone(l.id)).length;
  const where = page.account ? `kept with your account, ${page.account}` : 'kept in this browser; sign in to keep it with an account';
  $('progress').textContent = `${n} of ${page.lessons.length} lessons done (${where}).`;
}

// ---- the board ----

async function show(position, last = null) {
  page.shown = position;
  page.last = last;
  page.info = /** @type {import('../lib/types.js').PositionInfo} */ (await api('GET', `/api/position?position=${encodeURIComponent(position)}`));
  page.pos = parsePosition(page.info.position);
  board.setMoves(page.pos, page.state === 'task' && !page.info.over ? page.info.legal : null);
  render();
}

function render() {
  if (!page.pos) return;
  board.draw({ last: page.last });
  $('board').dataset.position = page.shown;
  const you = page.seat; // the learner is the player to move at the lesson's start
  const card = (i) => h('div', { class: `player${page.info.to_move === i + 1 && !page.info.over ? ' to-move' : ''}`, 'data-seat': i + 1 },
    h('div', { class: 'who' }, h('span', { class: 'name' }, i + 1 === you ? 'You' : 'Your opponent')),
    capturesView(page.pos.captures[i], page.pos.rules));
  fill($('counts'), h('div', { class: 'players' }, card(you === 1 ? 1 : 0), card(you - 1)));
  const head = $('lesson');
  head.dataset.state = page.state;
  head.dataset.step = String(page.step);
  head.dataset.id = page.lesson ? page.lesson.id : '';
  $('retry').hidden = page.state !== 'wrong';
  $('hint', HTMLButtonElement).disabled = page.state !== 'task';
  const next = $('next', HTMLAnchorElement);
  next.hidden = page.state !== 'done' || !page.lesson.next;
  if (page.lesson && page.lesson.next) next.href = `/learn/${page.lesson.next}`;
}

/** A click while no try is possible says why. */
function onBoardClick() {
  if (board.input) return false;
  say(page.state === 'wrong' ? 'Press “Try again” to go back to the task.' : 'This lesson is done: go on to the next one.', 'info');
  return true;
}

// ---- a lesson ----

function showWhy(text, kind) {
  const el = $('why');
  el.hidden = !text;
  el.textContent = text || '';
  el.className = `why ${kind || ''}`;
  // The answer (and the buttons under it) come into view: on a phone they are below the board.
  if (text) document.querySelector('.lesson-actions')?.scrollIntoView({ block: 'nearest' });
}

function showTask() {
  const step = page.lesson.steps[Math.min(page.step, page.lesson.steps.length - 1)];
  const many = page.lesson.steps.length > 1 ? `Step ${Math.min(page.step + 1, page.lesson.steps.length)} of ${page.lesson.steps.length}: ` : '';
  $('task').textContent = page.state === 'done' ? 'Lesson complete.' : `${many}${step.task}`;
  page.hintsShown = 0;
  $('hints').textContent = '';
}

/** Opens lesson `id` at its first step. */
async function open(id) {
  say('');
  showWhy('');
  try {
    page.lesson = await api('GET', `/api/lessons/${encodeURIComponent(id)}`);
  } catch (e) {
    say(`Cannot open the lesson: ${e.message}`, 'error');
    return;
  }
  history.replaceState(null, '', `/learn/${page.lesson.id}`);
  document.title = `${page.lesson.title} · Learn · ZÈRTZ`;
  page.moves = [];
  page.step = 0;
  page.state = 'task';
  page.seat = parsePosition(page.lesson.position).toMove;
  $('lesson-number').textContent = `Lesson ${page.lesson.number} of ${page.lesson.of}${isDone(page.lesson.id) ? ' · done before' : ''}`;
  $('lesson-title').textContent = page.lesson.title;
  $('intro').textContent = page.lesson.intro;
  showTask();
  renderList();
  page.stepPosition = page.lesson.position;
  await show(page.lesson.position);
}

/** Sends a try to the server and shows its answer. */
async function attempt(text) {
  const lesson = page.lesson;
  const input = board.input;
  board.input = null;
  let r;
  try {
    r = await api('POST', `/api/lessons/${encodeURIComponent(lesson.id)}/try`, { moves: page.moves, move: text });
  } catch (e) {
    say(e.message, 'error');
    board.input = input;
    if (input) input.reset();
    render();
    return;
  }
  if (lesson !== page.lesson) return;
  if (r.result === 'illegal') {
    showWhy(r.why, 'illegal');
    board.input = input;
    if (input) input.reset();
    render();
    return;
  }
  if (r.result === 'wrong') {
    page.state = 'wrong';
    showWhy(r.why, 'wrong');
    await show(r.position, r.move);
    return;
  }
  page.moves.push(r.move);
  page.step = r.step;
  sound(r.move.startsWith('x') ? 'capture' : 'move');
  if (r.done) {
    page.state = 'done';
    markLocal(lesson.id, [...page.moves]);
    const l = page.lessons.find((x) => x.id === lesson.id);
    if (l && r.recorded) l.done = true;
    showWhy(`Right. ${r.why}`, 'right');
    sound('end');
    showTask();
    renderList();
    await show(r.position, r.move);
    if (!lesson.next) say('That was the last lesson: you know the rules. Try a game against the engine, or the puzzles.', 'ok');
    return;
  }
  showWhy(`Right. ${r.why}${r.reply_said ? ` ${r.reply_said}` : ''}`, 'right');
  showTask();
  page.stepPosition = r.next_position;
  await show(r.next_position, r.reply || r.move);
}

function setup() {
  board.bindTyped(() => {
    if (page.state === 'task') return false;
    say(page.state === 'wrong' ? 'Press “Try again” first.' : 'This lesson is done.', 'info');
    return true;
  });
  board.bindCancel(render);
  $('hint').addEventListener('click', () => {
    const step = page.lesson && page.lesson.steps[page.step];
    if (!step) return;
    const k = Math.min(page.hintsShown, step.hints.length - 1);
    page.hintsShown = k + 1;
    $('hints').textContent = step.hints.slice(0, k + 1).join(' ');
  });
  $('retry').addEventListener('click', () => replayTo());
  $('restart').addEventListener('click', () => page.lesson && open(page.lesson.id));
  $('next').addEventListener('click', async (e) => {
    e.preventDefault();
    if (!page.lesson || !page.lesson.next) return;
    await open(page.lesson.next);
    // The button is below the board: the next lesson is read from its top, as a new page is.
    $('lesson').scrollIntoView({ block: 'start' });
  });
  $('options').append(optionsPanel(['notation', 'coords', 'letters', 'theme']));
  onPref(() => render());
}

/** Back to the current step after a wrong try: the position before it. */
async function replayTo() {
  page.state = 'task';
  showWhy('');
  say('');
  await show(page.stepPosition);
}

async function start() {
  board = new PlayableBoard({ onMove: attempt, redraw: render, onClick: onBoardClick, hoverOfficial: true });
  setup();
  const account = await siteHeader('learn');
  const list = await api('GET', '/api/lessons');
  page.lessons = list.lessons;
  page.account = account ? account.name : null;
  await syncProgress();
  renderList();
  const m = /^\/learn\/([^/]+)/.exec(location.pathname);
  const wanted = m ? decodeURIComponent(m[1]) : new URLSearchParams(location.search).get('lesson');
  const first = page.lessons.find((l) => !isDone(l.id)) || page.lessons[0];
  await open(wanted && page.lessons.some((l) => l.id === wanted) ? wanted : first.id);
  window.zertzLearn = page; // for the browser tests
}

start().catch((e) => say(`The lessons cannot start: ${e.message}`, 'error'));
