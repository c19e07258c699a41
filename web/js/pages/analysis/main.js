// @ts-check
// The analysis board, /analysis (and a shared study, /study/{id}): any position, moves played
// freely by pointing or typing and kept as a tree of variations, with the panels around it
// (engine, explorer, review, study, import and export, the position editor). This module holds
// the board and the tree and tells the panels where the player is; each panel is a module of
// its own. The address always says what is shown (docs/study.md):
//
//   /analysis?position=P&line=m1;m2   a position and the moves played from it (&bribes=on
//                                     and &repetition=forbidden when the tree's rules say so)
//   /analysis?game=ID&line=…          a game of this server (&turn=n from the game page)
//   /analysis?review=ID               a review of an imported record
//   /analysis?archive=FILE&turn=n     a BoardSpace game the explorer holds, after n moves
//                                     (&position=P: shown instead when it holds none)
//   /analysis?study=ID&chapter=n      a study's chapter (also /study/ID?chapter=n)

import { api, gameHistory } from '../../lib/api.js';
import { siteHeader } from '../../lib/account.js';
import { capturesView } from '../../lib/panels.js';
import { hostMoveText, parsePosition } from '../../lib/position.js';
import { onPref, optionsPanel, pref } from '../../lib/prefs.js';
import { PlayableBoard } from '../../lib/playable.js';
import { $, capitalised, copy, fill, h, say } from '../../lib/ui.js';
import { parseMove } from '../../lib/moves.js';
import { Tree, bribeOf } from './tree.js';
import { treeView } from './treeview.js';
import * as positions from './positions.js';
import { Editor } from './editor.js';
import { EnginePanel } from './engine.js';
import { ExplorerPanel, explorerGameTree, explorerGameWords } from './explorer.js';
import { IoPanel } from './io.js';
import { ReviewPanel } from './review.js';
import { StudyPanel } from './study.js';


/** The start of a standard game, when the address names nothing. */
export const STANDARD_START = '37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1';

const page = {
  tree: new Tree(STANDARD_START),
  current: null,
  info: null, // GET /api/position of the current node
  pos: null, // the current position, parsed
  source: { kind: 'position' }, // where the tree came from: position, game, review, study
  readOnly: null, // why moves cannot be added (someone else's study), or null
  intercept: null, // a mode that takes the moves played (guess the move): async (text) → handled
  hideAfter: null, // a node after which the move list shows nothing (guess the move)
  flipped: false,
  editing: false,
  asked: 0, // the last node change: an older answer arriving late is dropped
  heading: null, // the node being gone to, while its position is asked (keys pressed quickly add up)
  preview: null, // a move shown on the board in the position before it ({position, move}), or null
};
page.current = page.tree.root;

const listeners = new Set();
/** The board, with the move being entered. */
let board;

/**
 * What the panels use: where the player is, and the ways to move, play and load. `listen(fn)`
 * calls fn({node, info, tree}) at every change of node or tree.
 */
export const analysis = {
  get tree() { return page.tree; },
  get current() { return page.current; },
  get info() { return page.info; },
  get source() { return page.source; },
  get readOnly() { return page.readOnly; },
  set readOnly(why) { page.readOnly = why; renderTools(); },
  set intercept(fn) { page.intercept = fn; },
  set hideAfter(node) { page.hideAfter = node; renderTree(); },
  listen: (fn) => listeners.add(fn),
  goTo: (node) => goTo(node),
  play: (text) => playMove(text),
  load: (tree, source, line = []) => load(tree, source, line),
  say,
  /**
   * Shows `move` on the board, played in `position` (a review's better move, in the position
   * before the move it replaces); null: the current position again.
   * @param {{position: string, move: string} | null} what
   */
  preview: (what) => { page.preview = what; renderBoard(); },
  /** Draws the move list again (a review's marks arrived). */
  redraw: () => renderTree(),
};

// ---- the tree and the current node ----

/** Fills in the positions along the way to `node` that are not known yet, in one request. */
async function ensurePositions(node) {
  const path = node.path();
  const k = path.findIndex((n) => !n.position);
  if (k < 0) return;
  // Whether a bribe may be offered depends on the bribes before it (three each at most): a line
  // holding one is replayed from the start.
  const from = path.slice(1).some((n) => bribeOf(n.move)) ? 1 : k;
  const got = await positions.replay(path[from - 1].position, path.slice(from).map((n) => n.move), page.tree.headers);
  path.slice(from).forEach((n, i) => { n.position = got[i + 1]; });
}

/**
 * Plays the step `text` after `node` on the server: a move from the node's position alone, a
 * bribe by replaying the line to it under the tree's rules. Resolves to {move, position, said}.
 */
async function stepAfter(node, text) {
  const b = bribeOf(text);
  if (!b) return positions.play(node.position, text);
  await ensurePositions(node);
  const got = await positions.replay(page.tree.start, [...node.line(), b.text], page.tree.headers);
  const said = b.accepted
    ? `bribe of ${b.marbles} (white/grey/black) accepted: the marbles change hands and the turn passes`
    : `bribe of ${b.marbles} (white/grey/black) rejected: the same player moves`;
  return { move: b.text, position: got[got.length - 1], said };
}

/** Goes to `node`: its position asked of the server, the board and every panel told. */
async function goTo(node) {
  const ask = (page.asked += 1);
  page.heading = node;
  try {
    await ensurePositions(node);
    const info = await positions.describe(node.position);
    if (ask !== page.asked) return;
    page.current = node;
    page.preview = null;
    page.info = info;
    page.pos = parsePosition(info.position);
    board.setMoves(page.pos, info.legal);
  } catch (e) {
    if (ask === page.asked) {
      page.heading = null;
      say(`Cannot show this position: ${e.message}`, 'error');
    }
    return;
  }
  page.heading = null;
  render();
  syncAddress();
  for (const fn of listeners) fn({ node: page.current, info: page.info, tree: page.tree });
}

/** Plays a move (any notation the server reads) after the current node: a new branch if new. */
async function playMove(text) {
  if (page.intercept && (await page.intercept(text))) return;
  if (page.readOnly) {
    say(page.readOnly, 'error');
    return;
  }
  const node = page.current;
  try {
    // A move already in the tree (the official text) needs no request.
    const known = node.child(bribeOf(text) ? bribeOf(text).text : text);
    if (known && known.position) {
      await goTo(known);
      return;
    }
    const r = await stepAfter(node, text);
    const child = page.tree.add(node, r.move, r.position);
    // The server's sentence of the move ("White marble on d4, ring a1 removed").
    const said = r.said || '';
    say(said && capitalised(said, names()), 'info');
    await goTo(child);
  } catch (e) {
    say(e.message, 'error');
    board.reset();
    renderBoard();
  }
}

/**
 * Shows a new tree: `source` says where it came from (for the address); `line` the moves to
 * follow from its start (played when the tree does not hold them yet).
 */
async function load(tree, source, line = []) {
  page.tree = tree;
  page.source = source;
  page.current = tree.root;
  page.hideAfter = null;
  page.asked += 1;
  let node = tree.root;
  const { node: reached, rest } = tree.follow(line);
  node = reached;
  if (rest.length) {
    try {
      await ensurePositions(node);
      for (const m of rest) {
        const r = await stepAfter(node, m);
        node = tree.add(node, r.move, r.position);
      }
    } catch (e) {
      say(`The line of the address stops before ${rest.join(' ')}: ${e.message}`, 'error');
    }
  }
  await goTo(node);
}

// ---- the address ----

/** Writes what is shown into the address (history.replaceState), so a link opens the same board. */
function syncAddress() {
  const q = new URLSearchParams();
  const s = page.source;
  if (s.kind === 'game') q.set('game', s.id);
  else if (s.kind === 'review') q.set('review', s.id);
  else if (s.kind === 'study') {
    if (!location.pathname.startsWith('/study/')) q.set('study', s.id);
    q.set('chapter', String(s.chapter));
  } else {
    q.set('position', page.tree.start);
    // The rules a position string does not hold (bribes, no repetition), so the line replays.
    for (const [name, value] of positions.ruleHeaders(page.tree.headers)) q.set(name.toLowerCase(), value);
  }
  const line = page.current.line();
  if (line.length) q.set('line', line.join(';'));
  const path = s.kind === 'study' && location.pathname.startsWith('/study/') ? location.pathname : '/analysis';
  history.replaceState(null, '', `${path}?${q}`);
}

/** Opens what the address names. */
async function fromAddress() {
  const q = new URLSearchParams(location.search);
  const line = (q.get('line') || '').split(';').map((m) => m.trim()).filter(Boolean);
  const study = /^\/study\/([^/]+)/.exec(location.pathname);
  if (study || q.get('study')) {
    const id = study ? decodeURIComponent(study[1]) : q.get('study');
    await studyPanel.open(id, Number(q.get('chapter') || 0), line);
    return;
  }
  if (q.get('review')) {
    await reviewPanel.openReview(q.get('review'), line);
    return;
  }
  if (q.get('archive')) {
    const name = q.get('archive');
    try {
      const g = await api('GET', `/api/explorer/games?${new URLSearchParams({ name })}`);
      const { tree, moves } = await explorerGameTree(g);
      const turn = Math.max(0, Math.min(Number(q.get('turn')) || 0, moves.length));
      // The board keeps the game's tree; the address becomes its start and line.
      await load(tree, { kind: 'position' }, line.length ? line : moves.slice(0, turn));
      say(`Opened the BoardSpace game ${name}: ${explorerGameWords(g)}.`, 'ok');
      return;
    } catch (e) {
      const why = e.status === 404 ? 'this server\'s explorer does not hold it (`zertz explorer import` adds the archive)' : e.message;
      say(`Cannot open the BoardSpace game ${name}: ${why}.${q.get('position') ? ' The position alone is shown.' : ''}`, 'error');
      if (!q.get('position')) {
        await load(new Tree(STANDARD_START), { kind: 'position' });
        return;
      }
    }
  }
  if (q.get('game')) {
    const id = q.get('game');
    try {
      const g = await gameHistory(id);
      const headers = Object.fromEntries(g.headers || []);
      const tree = Tree.fromLine(g.positions[0], g.moves, g.positions, headers);
      const turn = q.get('turn');
      const start = line.length || turn === null ? line : g.moves.slice(0, Math.max(0, Math.min(Number(turn) || 0, g.moves.length)));
      await load(tree, { kind: 'game', id, result: g.result }, start);
    } catch (e) {
      say(`Cannot open the game ${id}: ${e.message}`, 'error');
      await load(new Tree(STANDARD_START), { kind: 'position' });
    }
    return;
  }
  const start = q.get('position') || STANDARD_START;
  try {
    await positions.describe(start);
  } catch (e) {
    say(`The position of the address cannot be read: ${e.message}`, 'error');
    await load(new Tree(STANDARD_START), { kind: 'position' });
    return;
  }
  const rules = Object.fromEntries(['Bribes', 'Repetition'].filter((n) => q.get(n.toLowerCase())).map((n) => [n, q.get(n.toLowerCase())]));
  await load(new Tree(start, rules), { kind: 'position' }, line);
}

// ---- drawing ----

/** The players' names, from the tree's headers. */
export function names() {
  /** @type {Record<string, string>} */
  const hd = page.tree.headers || {};
  return [hd.Player1 || 'Player 1', hd.Player2 || 'Player 2'];
}

function renderBoard() {
  if (page.editing || !page.pos) return;
  const el = $('board');
  const shown = page.preview && parseMove(page.preview.move);
  if (shown && shown.kind !== 'pass') {
    // Drawn as a move waiting to be played: the board does not take moves meanwhile.
    board.draw({ pos: parsePosition(page.preview.position), entry: null, pending: shown, turn: page.flipped ? 180 : 0 });
    el.dataset.preview = shown.text;
  } else {
    board.draw({ entry: page.info.over ? null : board.input, last: page.current.move, turn: page.flipped ? 180 : 0 });
    delete el.dataset.preview;
  }
  el.dataset.position = page.info.position;
  el.dataset.ply = String(page.current.ply);
}

function renderStatus() {
  const [a, b] = names();
  const status = $('status');
  const info = page.info;
  if (info.over) {
    status.textContent = info.result ? capitalised(info.result, [a, b]) : 'The game is over.';
  } else {
    status.textContent = `${info.to_move === 1 ? a : b} to move`;
  }
  status.dataset.toMove = String(info.to_move);
  status.className = `status ${info.over ? 'finished' : 'live'}`;
  const s = page.source;
  const what = s.kind === 'game' ? h('a', { href: `/game/${encodeURIComponent(s.id)}` }, `game ${s.id}`)
    : s.kind === 'study' ? `study “${s.name || s.id}”, chapter ${s.chapter + 1}`
      : s.kind === 'review' ? 'a reviewed record'
        : null;
  fill($('source'), what ? ['Analysing ', what] : '');
}

function renderCounts() {
  const [a, b] = names();
  const rules = page.pos.rules;
  const card = (i, name) => h('div', { class: `player${page.info.to_move === i + 1 && !page.info.over ? ' to-move' : ''}`, 'data-seat': i + 1 },
    h('div', { class: 'who' }, h('span', { class: 'seat' }, i === 0 ? '1st' : '2nd'), h('span', { class: 'name' }, name),
      page.info.to_move === i + 1 && !page.info.over ? h('span', { class: 'tag turn' }, 'to move') : null),
    capturesView(page.pos.captures[i], rules));
  fill($('counts'), h('div', { class: 'players' }, card(1, b), card(0, a)));
}

/** The move as the list shows it: host notation when chosen (in the position before it). */
function moveText(node) {
  if (pref('notation') !== 'host' || !node.parent || !node.parent.position) return node.move;
  return hostMoveText(parsePosition(node.parent.position), node.move);
}

function renderTree() {
  const box = $('tree-box');
  const keep = box.scrollTop;
  const first = parsePosition(page.tree.start).toMove;
  // In "guess the move", the moves after the one to guess stay hidden.
  fill(box, treeView(page.tree, page.current, { first, onPick: goTo, texts: moveText, stopAt: page.hideAfter }));
  box.scrollTop = keep;
  const here = box.querySelector('.mv.current');
  if (here) {
    const b = box.getBoundingClientRect();
    const r = here.getBoundingClientRect();
    if (r.top < b.top) box.scrollTop -= b.top - r.top + 4;
    else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom + 4;
  }
}

function renderTools() {
  const node = page.current;
  const ro = Boolean(page.readOnly) || Boolean(page.hideAfter);
  $('promote', HTMLButtonElement).disabled = ro || !node.parent || node.mainLine;
  $('delete', HTMLButtonElement).disabled = ro || !node.parent;
  const c = $('comment', HTMLTextAreaElement);
  c.disabled = ro;
  if (document.activeElement !== c) c.value = node.comment || '';
}

function render() {
  if (!page.info) return;
  renderBoard();
  renderStatus();
  renderCounts();
  renderTree();
  renderTools();
  $('position-string', HTMLInputElement).value = page.info.position;
}

// ---- input ----

/** A click in the position editor is the editor's. */
function onBoardClick(coord) {
  if (!page.editing) return false;
  editor.click(coord);
  return true;
}

/** Why no move may be played on the board now, or null. */
function whyNot() {
  if (board.input && !page.info.over) return null;
  return page.info && page.info.over ? 'The game is over in this position: no move can be played.' : 'The board is still loading.';
}

/** ← → ↑ ↓ Home End over the tree. */
function onKey(e) {
  const t = e.target;
  // The move field lets the arrows through while it is empty: type a move, then step back.
  const emptyField = t && t.id === 'move-text' && !t.value;
  if (!emptyField && (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement)) return;
  const node = page.heading || page.current;
  let to = null;
  if (e.key === 'ArrowLeft') to = node.parent;
  else if (e.key === 'ArrowRight') to = page.hideAfter === node ? null : node.children[0];
  else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
    if (node.parent) {
      const sib = node.parent.children;
      to = sib[(sib.indexOf(node) + (e.key === 'ArrowUp' ? sib.length - 1 : 1)) % sib.length];
    }
  } else if (e.key === 'Home') to = page.tree.root;
  else if (e.key === 'End') {
    to = node;
    while (to.children[0] && to !== page.hideAfter) to = to.children[0];
  } else if (e.key === 'Escape') {
    board.reset();
    say('');
    renderBoard();
    return;
  } else return;
  e.preventDefault();
  if (to && to !== node) goTo(to);
}

function setup() {
  // A typed move goes to the server as it is (any notation it reads), even at the game's end:
  // the server says why it cannot be played.
  board.bindTyped(() => false);
  board.bindCancel(renderBoard);
  $('promote').addEventListener('click', () => {
    if (page.tree.promote(page.current)) render();
  });
  $('delete').addEventListener('click', () => {
    const parent = page.tree.remove(page.current);
    if (parent) goTo(parent);
  });
  $('comment').addEventListener('input', () => {
    if (page.readOnly) return;
    page.current.comment = $('comment', HTMLTextAreaElement).value;
    renderTree();
  });
  $('flip').addEventListener('click', () => {
    page.flipped = !page.flipped;
    if (page.editing) editor.render();
    else renderBoard();
  });
  $('edit-toggle').addEventListener('click', () => {
    if (page.editing) editor.close();
    else editor.open(page.info.position);
  });
  $('copy-position').addEventListener('click', () => copy($('position-string', HTMLInputElement).value, $('position-string', HTMLInputElement)));
  $('copy-link').addEventListener('click', async () => {
    if (await copy(location.href)) say('The link to this board is copied.', 'ok');
    else say(`Copy this link: ${location.href}`, 'info');
  });
  $('options').append(optionsPanel(['notation', 'coords', 'letters', 'theme']));
  onPref(() => render());
  document.addEventListener('keydown', onKey);
}

// ---- the panels ----

let editor;
let studyPanel;
let reviewPanel;

async function start() {
  const account = siteHeader('analysis');
  board = new PlayableBoard({ onMove: playMove, redraw: renderBoard, onClick: onBoardClick, why: whyNot });
  editor = new Editor($('editor'), {
    board: board.board,
    flipped: () => page.flipped,
    onOpen: () => {
      page.editing = true;
      $('prompt').textContent = 'Setting up a position: click the places to change them.';
      say('');
      $('edit-toggle').textContent = 'Back to the analysis';
      document.body.classList.add('editing');
    },
    onClose: (position) => {
      page.editing = false;
      $('edit-toggle').textContent = 'Set up a position';
      document.body.classList.remove('editing');
      if (position) load(new Tree(position), { kind: 'position' });
      else render();
    },
  });
  new EnginePanel($('engine'), analysis);
  new ExplorerPanel($('explorer'), analysis);
  new IoPanel($('io'), analysis);
  reviewPanel = new ReviewPanel($('review'), $('graph'), analysis);
  studyPanel = new StudyPanel($('study'), analysis, account);
  setup();
  await fromAddress();
  window.zertzAnalysis = analysis; // for the browser tests: the tree as the page holds it
}

// The server is asked for nothing before the header is up: a page error shows in words.
start().catch((e) => say(`The analysis board cannot start: ${e.message}`, 'error'));

