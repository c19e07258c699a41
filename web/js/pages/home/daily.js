// @ts-check
// The home page's puzzle of the day (GET /api/puzzles/daily: the same puzzle for everyone on a
// UTC day): a small board and "Player 1 to move and win in 2", the whole card a link to the
// puzzle on /puzzles/{id}. Nothing is shown when the server has no puzzles. And the public
// room's latest lines, with the way in.

import { api } from '../../lib/api.js';
import { BoardView } from '../../lib/board.js';
import { parsePosition } from '../../lib/position.js';

export async function showDaily() {
  const section = document.getElementById('daily-puzzle');
  if (!section) return;
  let p;
  try {
    p = await api('GET', '/api/puzzles/daily');
  } catch {
    return; // no puzzles on this server: the section stays hidden
  }
  const board = new BoardView(document.getElementById('daily-board'));
  board.render(parsePosition(p.position), { coords: false, turn: p.to_move === 2 ? 180 : 0 });
  const link = /** @type {HTMLAnchorElement} */ (document.getElementById('daily-link'));
  link.href = `/puzzles/${encodeURIComponent(p.id)}`;
  link.dataset.puzzle = p.id;
  document.getElementById('daily-text').textContent = `Player ${p.to_move} to move and win in ${p.turns} · ${p.date}`;
  section.hidden = false;
}

/** The home page's panel of the public room: its latest lines (GET /api/room), as text. */
export async function showRoom() {
  const list = document.getElementById('room-lines');
  if (!list) return;
  try {
    const r = await api('GET', '/api/room');
    if (!r.lines.length) return;
    list.replaceChildren(...r.lines.map((/** @type {{name: string, text: string}} */ l) => {
      const li = document.createElement('li');
      const who = document.createElement('b');
      who.textContent = l.name;
      li.append(who, ` ${l.text}`);
      return li;
    }));
  } catch {
    // the panel keeps its placeholder
  }
}
