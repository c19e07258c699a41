// The archive: finished games to replay move by move, their records (project format and
// BoardSpace SGF) to download, the position string to copy, and any record or SGF file to view.
// The server replays every record (POST /api/import), so the positions are the rules library's.
// A game of this server shows its room's chat beside the moves, grouped by the move it was said
// after (GET /api/games/{id}/chat).

import { api, gameHistory } from './api.js';
import { BoardView, marbleIcon } from './board.js';
import { moveMarks } from './moves.js';
import { moveList } from './panels.js';
import { COLOURS, COLOUR_NAMES, hostCoord, parsePosition } from './position.js';
import { siteHeader } from './account.js';
import { chatLog } from './chat.js';
import { copy, engineName, fill, h, say, describeSettings, personTag } from './ui.js';

const $ = (name) => document.getElementById(name);
const view = { moves: [], positions: [], turn: 0, pos: null, names: ['Player 1', 'Player 2'], chat: null };

/** Marble counts as icons: "○ 2 ◍ 0 ● 1". */
function set(label, counts) {
  return h('span', { class: 'set' }, `${label}: `, COLOURS.flatMap((c, k) => [h('span', { html: marbleIcon(c, 15) }), ` ${counts[k]} `]));
}
let board;

function show(turn) {
  view.turn = Math.max(0, Math.min(turn, view.moves.length));
  view.pos = parsePosition(view.positions[view.turn]);
  board.render(view.pos, { last: moveMarks(view.moves[view.turn - 1]) });
  $('replay-board').dataset.turn = String(view.turn);
  $('slider').max = String(view.moves.length);
  $('slider').value = String(view.turn);
  $('turn').textContent = view.turn ? `after move ${view.turn} of ${view.moves.length}: ${view.moves[view.turn - 1]}` : `start (${view.moves.length} moves)`;
  $('position-string').value = view.positions[view.turn];
  fill($('counts'), set('Supply', view.pos.supply), set(view.names[0], view.pos.captures[0]), set(view.names[1], view.pos.captures[1]),
    h('span', {}, `${view.names[view.pos.toMove - 1]} to move`));
  fill($('replay-moves'), h('h3', {}, 'Moves'), moveList(view.moves, view.turn, show));
  const box = $('replay-chat');
  box.hidden = !view.chat;
  if (view.chat) {
    fill(box, h('h3', {}, `Chat (${view.chat.length})`), chatLog(view.chat, view.moves, { onTurn: show, current: view.turn }));
    const here = box.querySelector('.chat-turn.current');
    if (here) box.scrollTop += here.getBoundingClientRect().top - box.getBoundingClientRect().top - 36;
  }
}

function open(title, data, exports, names = ['Player 1', 'Player 2'], chat = null) {
  view.names = names;
  view.chat = chat;
  view.moves = data.moves;
  view.positions = data.positions;
  $('viewer').hidden = false;
  $('viewer-title').textContent = title;
  fill($('exports'), exports);
  show(data.moves.length);
  $('viewer').scrollIntoView({ block: 'start' });
}

async function openGame(id) {
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
        h('a', { class: 'button', href: `/game/${g}` }, 'Game page and analysis')),
    ], names, chat);
    history.replaceState(null, '', `#game=${g}`);
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
    const headers = Object.fromEntries(data.headers || []);
    const players = [headers.Player1, headers.Player2].filter(Boolean).join(' – ');
    const names = [headers.Player1 || 'Player 1', headers.Player2 || 'Player 2'];
    open(`Imported: ${players || 'a game'}${data.result ? ` (${data.result})` : ''}`, data, [h('p', { class: 'note' }, `${data.moves.length} moves, read back by the server.`)], names);
    say('');
  } catch (e) {
    say(`The file cannot be read: ${e.message}`, 'error');
  }
}

async function listFinished() {
  try {
    const list = await api('GET', '/api/games?status=finished&limit=100');
    const states = await Promise.all(list.games.map((g) => api('GET', `/api/games/${encodeURIComponent(g.id)}`).catch(() => null)));
    const rows = states.filter(Boolean).map((s) => {
      return h('tr', { 'data-game': s.id },
        h('td', {}, personTag(s.seats[0], 'Player 1'), ' – ', personTag(s.seats[1], 'Player 2')),
        h('td', {}, s.result ? s.result.token : ''),
        h('td', {}, describeSettings(s.board, s.rules, s.clock_text)),
        h('td', {}, String(s.moves.length)),
        h('td', {}, h('button', { type: 'button', onclick: () => openGame(s.id) }, 'Replay')));
    });
    fill($('finished'), rows.length
      ? h('table', { class: 'list' }, h('thead', {}, h('tr', {}, ['Players', 'Result', 'Game', 'Moves', ''].map((t) => h('th', {}, t)))), h('tbody', {}, rows))
      : h('p', { class: 'empty' }, 'No finished game yet.'));
  } catch (e) {
    say(`Cannot list the games: ${e.message}`, 'error');
  }
}

function start() {
  siteHeader('archive');
  board = new BoardView($('replay-board'), {
    onHover: (p) => {
      const q = p && view.pos && view.pos.byCoord.get(p.coord);
      $('hover').textContent = q ? `${q.coord} (host ${hostCoord(view.pos, q)}) · ${q.marble ? `${COLOUR_NAMES[q.marble]} marble` : 'empty ring'}` : '';
    },
  });
  $('first').onclick = () => show(0);
  $('prev').onclick = () => show(view.turn - 1);
  $('next').onclick = () => show(view.turn + 1);
  $('last').onclick = () => show(view.moves.length);
  $('slider').oninput = () => show(Number($('slider').value));
  $('copy-position').onclick = () => copy($('position-string').value, $('position-string'));
  document.addEventListener('keydown', (e) => {
    if ($('viewer').hidden || e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === 'ArrowLeft') show(view.turn - 1);
    if (e.key === 'ArrowRight') show(view.turn + 1);
  });
  $('import-file').onchange = async () => {
    const file = $('import-file').files[0];
    if (!file) return;
    if (file.size > 250 * 1024) {
      say('That file is too large for a game record (over 250 KB).', 'error');
      return;
    }
    const text = await file.text();
    $('import-text').value = text;
    importText(text);
  };
  $('import-button').onclick = () => importText($('import-text').value);
  const m = /#game=([^&]+)/.exec(location.hash);
  if (m) openGame(decodeURIComponent(m[1]));
  listFinished();
}

start();
