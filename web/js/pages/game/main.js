// @ts-check
// The game page, /game/{id}: follows the game over its WebSocket, draws it, and lets a player
// move by pointing or typing. The server's state is the truth: the page shows the last state
// it received and changes nothing on its own; a refused action leaves the state as it was and
// says why.
//
// This module starts the page; the others of this folder are its parts: state.js (the state
// and each new one applied), view.js (drawing), speech.js (what happened, in sentences),
// actions.js (moves and the game's actions), premove.js, clock.js, controls.js (the typed
// move, the options, the keys) and connection.js (the seat, the invitation, the socket).

import { siteHeader } from '../../lib/account.js';
import { ChatPanel } from '../../lib/chat.js';
import { PlayableBoard } from '../../lib/playable.js';
import { parsePosition } from '../../lib/position.js';
import { $, say, showConnection } from '../../lib/ui.js';
import { analyse, entered, onBoardClick, onColour, refresh, sendKept, whyNot } from './actions.js';
import { tick } from './clock.js';
import { readInvitation, restartSocket, seatAndState } from './connection.js';
import { setupControls } from './controls.js';
import { apply, id, page } from './state.js';
import { noSuchGame, renderInput } from './view.js';

/** The position on the board: the game's, or the one looked back at. */
const shownPosition = () => (page.viewTurn !== null && page.history ? parsePosition(page.history.positions[page.viewTurn]) : page.pos);

async function start() {
  const account = siteHeader('game');
  page.board = new PlayableBoard({
    onMove: entered,
    redraw: renderInput,
    onClick: onBoardClick,
    onColour,
    why: whyNot,
    hover: shownPosition,
  });
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
  // The browser knows first when the network goes and comes back: said at once, and a move
  // kept meanwhile is sent.
  window.addEventListener('offline', () => showConnection('reconnecting'));
  window.addEventListener('online', () => (page.outbox ? sendKept() : refresh()));
  setInterval(tick, 200);
  analyse();
}

start();
