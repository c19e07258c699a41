// @ts-check
// The site's public room, /room (docs/web.md, "The public room"): everyone online talks (the
// chat over GET /api/room/ws, as a game's room: guests who do not play send the preset phrases,
// told so before they type; a line is reported to the operator), sees the games being played
// and the open challenges (refreshed every few seconds), and challenges from the home page.
// Nobody mutes for everyone here: a reader ignores an account for themselves, in this browser.

import { api } from '../lib/api.js';
import { siteHeader } from '../lib/account.js';
import { ChatPanel } from '../lib/chat.js';
import { RoomSocket } from '../lib/socket.js';
import { $, fill, h, say, showConnection } from '../lib/ui.js';

/** How often the games and challenges are read again. */
const REFRESH_MS = 5000;

/** One game as a line: its players and a link to watch (or play). */
const gameLine = (g) => h('li', { 'data-game': g.id },
  h('a', { href: `/game/${encodeURIComponent(g.id)}` }, (g.names || []).map((n) => n || '…').join(' – ') || 'a game'),
  ` · ${g.board} rings, ${g.rules}${g.turns ? ` · ${g.turns} turns` : ''}`);

async function refreshGames() {
  try {
    const [live, open] = await Promise.all([
      api('GET', '/api/games?status=live&limit=10'),
      api('GET', '/api/games?status=open&lobby=true&limit=10'),
    ]);
    fill($('room-live'), live.games.length ? h('ul', { class: 'room-games' }, live.games.map(gameLine)) : h('p', { class: 'empty' }, 'No game is being played.'));
    fill($('room-open'), open.games.length ? h('ul', { class: 'room-games' }, open.games.map(gameLine)) : h('p', { class: 'empty' }, 'No open challenge right now.'));
  } catch (e) {
    say(`Cannot read the games: ${e.message}`, 'error');
  }
}

async function start() {
  const account = await siteHeader('room');
  const name = account ? undefined : (localStorage.getItem('zertz.name') || undefined);
  /** @type {RoomSocket | null} */
  let socket = null;
  const chat = new ChatPanel({ send: (message) => (socket ? socket.send(message) : false), id: 'chat', ignore: true });
  chat.setViewer({ player: false, guest: !account, name: account ? account.name : (name || 'Guest') });
  fill($('room-chat'), chat.el);
  socket = new RoomSocket({
    name,
    onRoom: (msg) => chat.receive(msg),
    onStatus: (status) => {
      showConnection(status);
      chat.connection(status);
    },
  });
  socket.start();
  /** @type {any} */ (window).zertzRoom = socket;
  refreshGames();
  setInterval(() => {
    if (document.visibilityState === 'visible') refreshGames();
  }, REFRESH_MS);
}

start();
