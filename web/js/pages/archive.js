// @ts-check
// The archive: finished games to replay move by move, their records (project format and
// BoardSpace SGF) to download, the position string to copy, and any record or SGF file to view.
// The server replays every record (POST /api/import), so the positions are the rules library's.
// A game of this server shows its room's chat beside the moves, grouped by the move it was said
// after (GET /api/games/{id}/chat).

import { api, gameHistory } from '../lib/api.js';
import { BoardView, marbleIcon } from '../lib/board.js';
import { pagedGameList, shortMoment } from '../lib/gamelist.js';
import { moveMarks } from '../lib/moves.js';
import { moveList } from '../lib/panels.js';
import { COLOURS, COLOUR_NAMES, hostCoord, hostMoveText, parsePosition } from '../lib/position.js';
import { siteHeader } from '../lib/account.js';
import { chatLog } from '../lib/chat.js';
import { flag, onPref, optionsPanel, pref } from '../lib/prefs.js';
import { $, capitalised, copy, engineName, fill, h, say, describeSettings, personTag } from '../lib/ui.js';

const view = { moves: [], positions: [], turn: 0, pos: null, names: ['Player 1', 'Player 2'], chat: null, ending: null, host: null };

/** Marble counts as icons: "○ 2 ◍ 0 ● 1". */
function set(label, counts) {
  return h('span', { class: 'set' }, `${label}: `, COLOURS.flatMap((c, k) => [h('span', { html: marbleIcon(c, 15, flag('letters')) }), ` ${counts[k]} `]));
}
let board;

/** The moves in host notation (each in the position it was played in), made once per game. */
function hostMoves() {
  if (!view.host) view.host = view.moves.map((m, k) => hostMoveText(parsePosition(view.positions[k]), m));
  return view.host;
}

function show(turn) {
  view.turn = Math.max(0, Math.min(turn, view.moves.length));
  view.pos = parsePosition(view.positions[view.turn]);
  const host = pref('notation') === 'host';
  board.render(view.pos, {
    last: moveMarks(view.moves[view.turn - 1]),
    notation: pref('notation'),
    coords: flag('coords'),
    letters: flag('letters'),
    turn: pref('view') === 'auto' ? 0 : Number(pref('view')) || 0,
  });
  const texts = host ? hostMoves() : view.moves;
  $('replay-board').dataset.turn = String(view.turn);
  $('slider', HTMLInputElement).max = String(view.moves.length);
  $('slider', HTMLInputElement).value = String(view.turn);
  $('turn').textContent = view.turn ? `after move ${view.turn} of ${view.moves.length}: ${texts[view.turn - 1]}` : `start (${view.moves.length} moves)`;
  $('position-string', HTMLInputElement).value = view.positions[view.turn];
  // "Analyse" opens the analysis board at the position shown: a game of this server by its id,
  // an imported record by its start and moves.
  const analyse = $('analyse-here', HTMLAnchorElement);
  if (analyse) analyse.href = analysisHref(view.turn);
  // After the last move: how the game ended, not who would move next.
  const end = view.turn === view.moves.length && view.ending;
  fill($('counts'), set('Supply', view.pos.supply), set(view.names[0], view.pos.captures[0]), set(view.names[1], view.pos.captures[1]),
    end ? h('span', { class: 'ending', id: 'replay-ending' }, view.ending) : h('span', { id: 'replay-to-move' }, `${view.names[view.pos.toMove - 1]} to move`));
  const scroller = h('div', { class: 'move-scroll', id: 'replay-scroll' }, moveList(view.moves, view.turn, show, texts, parsePosition(view.positions[0]).toMove));
  const keep = $('replay-scroll') ? $('replay-scroll').scrollTop : 0;
  fill($('replay-moves'), h('h3', {}, `Moves (${view.moves.length})`), scroller);
  // The list keeps the current move in sight, scrolling itself rather than the page.
  scroller.scrollTop = keep;
  const here = scroller.querySelector('li.current');
  if (here) {
    const b = scroller.getBoundingClientRect();
    const r = here.getBoundingClientRect();
    if (r.top < b.top) scroller.scrollTop -= b.top - r.top + 4;
    else if (r.bottom > b.bottom) scroller.scrollTop += r.bottom - b.bottom + 4;
  }
  const box = $('replay-chat');
  box.hidden = !view.chat;
  if (view.chat) {
    fill(box, h('h3', {}, `Chat (${view.chat.length})`), chatLog(view.chat, view.moves, { onTurn: show, current: view.turn, first: parsePosition(view.positions[0]).toMove }));
    const current = box.querySelector('.chat-turn.current');
    if (current) box.scrollTop += current.getBoundingClientRect().top - box.getBoundingClientRect().top - 36;
  }
}

/** The analysis board's address for the game in the viewer, at turn `turn`. */
function analysisHref(turn) {
  const q = new URLSearchParams();
  if (view.game) {
    q.set('game', view.game);
    q.set('turn', String(turn));
  } else {
    q.set('position', view.positions[0]);
    if (turn) q.set('line', view.moves.slice(0, turn).join(';'));
  }
  return `/analysis?${q}`;
}

/** The "Analyse" button of the viewer (its address follows the position shown). */
const analyseButton = () => h('a', { class: 'button primary', id: 'analyse-here', href: '/analysis' }, 'Analyse');

/**
 * Shows a game in the viewer. `ending` says how it ended (shown after the last move), or null
 * for a game that was not finished.
 */
function open(title, data, exports, names = ['Player 1', 'Player 2'], chat = null, ending = null) {
  view.names = names;
  view.chat = chat;
  view.ending = ending;
  view.host = null;
  view.moves = data.moves;
  view.positions = data.positions;
  $('viewer').hidden = false;
  $('viewer-title').textContent = title;
  fill($('exports'), exports);
  show(data.moves.length);
  $('viewer').scrollIntoView({ block: 'start' });
}

async function openGame(id) {
  view.game = id;
  try {
    const [data, state, chat] = await Promise.all([
      gameHistory(id),
      api('GET', `/api/games/${encodeURIComponent(id)}`),
      // The chat is shown when it can be read; the replay does not depend on it.
      api('GET', `/api/games/${encodeURIComponent(id)}/chat`).then((c) => c.lines, () => null),
    ]);
    const g = encodeURIComponent(id);
    const names = state.seats.map((s, i) => (s.kind === 'engine' ? engineName(s.level) : s.name || `Player ${i + 1}`));
    open(`${names[0]} – ${names[1]}: ${state.result ? state.result.text : ''}`, data, [
      h('p', {}, describeSettings(state.board, state.rules, state.clock_text)),
      h('p', { class: 'row' },
        h('a', { class: 'button', href: `/api/games/${g}/record`, download: `zertz-${id}.txt`, id: 'export-record', onclick: download }, 'Record'),
        h('a', { class: 'button', href: `/api/games/${g}/sgf`, download: `zertz-${id}.sgf`, id: 'export-sgf', onclick: download }, 'SGF (BoardSpace)'),
        h('a', { class: 'button', href: `/game/${g}` }, 'Game page'),
        analyseButton()),
    ], names, chat, endingOf(state));
    history.replaceState(null, '', `${location.pathname}${location.search}#game=${g}`);
  } catch (e) {
    say(`Cannot open the game: ${e.message}`, 'error');
  }
}

/** Downloads a record through fetch, so a refusal (an SGF of a Blitz game) is said in words. */
async function download(e) {
  e.preventDefault();
  const a = e.currentTarget;
  try {
    const res = await fetch(a.href);
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = JSON.parse(text).error;
      } catch {
        // plain text
      }
      say(`No ${a.textContent} for this game: ${message}`, 'error');
      return;
    }
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = h('a', { href: url, download: a.getAttribute('download') });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    say(`${a.textContent} downloaded.`, 'ok');
  } catch (err) {
    say(`Cannot download: ${err.message}`, 'error');
  }
}

async function importText(text) {
  if (!text.trim()) {
    say('Choose a file or paste a record first.', 'error');
    return;
  }
  try {
    const data = await api('POST', '/api/import', { text });
    view.game = null;
    const headers = Object.fromEntries(data.headers || []);
    const players = [headers.Player1, headers.Player2].filter(Boolean).join(' – ');
    const names = [headers.Player1 || 'Player 1', headers.Player2 || 'Player 2'];
    open(`Imported: ${players || 'a game'}${data.result ? ` (${data.result})` : ''}`, data, [h('p', { class: 'note' }, `${data.moves.length} moves, read back by the server.`), h('p', { class: 'row' }, analyseButton())], names, null, importedEnding(data, headers, names));
    say('');
  } catch (e) {
    say(`The file cannot be read: ${e.message}`, 'error');
  }
}

/** How a game of this server ended, in a sentence (the server's), or null if it goes on. */
function endingOf(state) {
  if (state.status !== 'finished' || !state.result) return null;
  const t = state.result.text || '';
  return t ? `${capitalised(t, state.seats.map((s) => s.name))}${/[.!]$/.test(t) ? '' : '.'}` : 'The game is over.';
}

/** How an imported game ended: its result and termination headers, in words. */
function importedEnding(data, headers, names) {
  const token = data.result || headers.Result;
  const why = headers.Termination ? ` (${headers.Termination})` : '';
  if (token === '1-0') return `${names[0]} won${why}.`;
  if (token === '0-1') return `${names[1]} won${why}.`;
  if (token === '1/2-1/2') return `Drawn${why}.`;
  return `The record ends here${why}.`;
}

// ---- the finished games, page by page, with filters ----

/** The result in words: who won, or how it ended. */
function resultWords(token, seats) {
  const name = (i) => (seats[i].kind === 'engine' ? engineName(seats[i].level) : seats[i].name || `Player ${i + 1}`);
  if (token === '1-0') return `${name(0)} won`;
  if (token === '0-1') return `${name(1)} won`;
  if (token === '1/2-1/2') return 'drawn';
  return token === '*' ? 'called off' : '';
}

/**
 * A game's row, from its listing (names, board, rules, result, turns) and, when it could be read,
 * its state (a guest's mark, an account's link, the result in a sentence).
 */
function gameRow(g, s) {
  const ended = g.updated_ms;
  const seats = s ? s.seats : g.seats.map((seat, i) => ({ ...seat, name: g.names ? g.names[i] : null }));
  const board = g.board || (s && s.board) || g.start.split(' ')[0];
  const rules = g.rules || (s && s.rules) || g.start.split(' ')[1];
  const turns = typeof g.turns === 'number' ? g.turns : s ? s.moves.length : 0;
  const token = g.result || (s && s.result ? s.result.token : '');
  return h('tr', { 'data-game': g.id },
    h('td', { class: 'date' }, h('time', { datetime: ended ? new Date(ended).toISOString() : null }, shortMoment(ended))),
    h('td', {}, personTag(seats[0], 'Player 1'), ' – ', personTag(seats[1], 'Player 2')),
    h('td', {}, board === 'custom' ? 'custom board' : `${board} rings`, ` · ${rules.startsWith('custom') ? 'custom rules' : rules}`,
      g.repetition === 'forbidden' ? ' · no repetition' : '', g.bribes ? ' · bribes' : ''),
    h('td', { class: 'result', title: s && s.result ? s.result.text : '' }, h('b', {}, token), ` ${resultWords(token, seats)}`),
    h('td', { class: 'length' }, `${turns} move${turns === 1 ? '' : 's'}`),
    h('td', { class: 'row' }, h('button', { type: 'button', class: 'replay-game', onclick: () => openGame(g.id) }, 'Replay'),
      h('a', { class: 'button analyse-game', href: `/analysis?game=${encodeURIComponent(g.id)}` }, 'Analyse')));
}

/** The finished games' list (`gamelist.js`), each row with the game's state when it can be read. */
function setupList() {
  pagedGameList({
    filters: ['player', 'board', 'rules', 'result'],
    live: ['board', 'rules', 'result'],
    form: 'archive-filters',
    path: (q) => {
      q.set('status', 'finished');
      return `/api/games?${q}`;
    },
    // The states give the names and the length of each game.
    rows: async (games) => {
      const states = await Promise.all(games.map((g) => api('GET', `/api/games/${encodeURIComponent(g.id)}`).catch(() => null)));
      return games.map((g, k) => gameRow(g, states[k]));
    },
    into: 'finished',
    tableClass: 'list archive-list',
    headings: ['Date', 'Players', 'Board', 'Result', 'Length', ''],
    errorId: 'finished-error',
    emptyId: 'no-finished',
    empty: 'No finished game yet.',
    noMatch: 'No finished game matches this search.',
    pageNumber: 'page-number',
  });
}

function start() {
  siteHeader('archive');
  board = new BoardView($('replay-board'), {
    onHover: (p) => {
      const q = p && view.pos && view.pos.byCoord.get(p.coord);
      const what = q && (q.marble ? `${COLOUR_NAMES[q.marble]} marble` : 'empty ring');
      $('hover').textContent = !q ? '' : pref('notation') === 'host'
        ? `${hostCoord(view.pos, q)} (official ${q.coord}) · ${what}`
        : `${q.coord} (host ${hostCoord(view.pos, q)}) · ${what}`;
    },
  });
  $('replay-options').append(optionsPanel(['view', 'notation', 'coords', 'letters']));
  onPref(() => {
    if (view.positions.length) show(view.turn);
  });
  $('first').onclick = () => show(0);
  $('prev').onclick = () => show(view.turn - 1);
  $('next').onclick = () => show(view.turn + 1);
  $('last').onclick = () => show(view.moves.length);
  $('slider').oninput = () => show(Number($('slider', HTMLInputElement).value));
  $('copy-position').onclick = () => copy($('position-string', HTMLInputElement).value, $('position-string', HTMLInputElement));
  document.addEventListener('keydown', (e) => {
    if ($('viewer').hidden || e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === 'ArrowLeft') show(view.turn - 1);
    if (e.key === 'ArrowRight') show(view.turn + 1);
  });
  $('import-file').onchange = async () => {
    const file = $('import-file', HTMLInputElement).files[0];
    if (!file) return;
    if (file.size > 250 * 1024) {
      say('That file is too large for a game record (over 250 KB).', 'error');
      return;
    }
    const text = await file.text();
    $('import-text', HTMLTextAreaElement).value = text;
    importText(text);
  };
  $('import-button').onclick = () => importText($('import-text', HTMLTextAreaElement).value);
  // #game=ID opens a game, also when the address changes on this page.
  const fromHash = () => {
    const m = /#game=([^&]+)/.exec(location.hash);
    if (m && decodeURIComponent(m[1]) !== view.game) openGame(decodeURIComponent(m[1]));
  };
  addEventListener('hashchange', fromHash);
  fromHash();
  setupList();
}

start();
