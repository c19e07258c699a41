// @ts-check
// Who this browser is in the game, and the game's socket: the seat token checked with the
// server (a logged-in player needs none), an invitation link read, the join form and its seat
// taken, and the WebSocket that brings every state and the room's chat.

import { ApiError, api, matchToken, saveSeatToken, seatToken } from '../../lib/api.js';
import { joinForm } from '../../lib/account.js';
import { GameSocket } from '../../lib/socket.js';
import { say, showConnection } from '../../lib/ui.js';
import { apply, id, page, path } from './state.js';
import { refresh, sendKept } from './actions.js';
import { spectatorName } from './view.js';

/** @typedef {import('../../lib/types.js').GameState} GameState */

/**
 * The seat token of this browser for the game, checked with the server; and the state. A
 * logged-in player with no token still gets their seat: the server reads it from the session.
 */
/** @returns {Promise<{token: string | null, state: GameState}>} */
export async function seatAndState() {
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

/**
 * Reads the invitation of the link's `#join=…`. An invitation takes its seat once; the seat then
 * plays with a token of its own (kept by this browser for a guest, by the session for an
 * account), and the link no longer acts for it. So a link this browser already used (a reload,
 * or a visit from the history) is just dropped; one nobody used waits for the join form; one
 * used by someone else, or of a game that went on without it, says so.
 */
/** @param {string} link */
export async function readInvitation(link) {
  const mine = seatToken(id);
  let st = mine ? await api('GET', path(), undefined, mine).catch(() => null) : null;
  if (!st) {
    try {
      st = await api('GET', path());
    } catch {
      return; // the game itself cannot be read: said when it is loaded
    }
  }
  if (st.you) history.replaceState(null, '', location.pathname);
  else if (st.status === 'open') page.invite = link;
  else {
    say('This invitation can no longer be used: its seat is taken, or the game is over.', 'error');
    history.replaceState(null, '', location.pathname);
  }
}

/**
 * The form that takes the free seat: an open game's, or with the link's invitation the invited
 * one. A guest types a name first; an account plays under its own.
 */
export function theJoinForm() {
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

/** @param {string | undefined} name */
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

/** Opens the game's socket (again, after joining: the seat's token changed). */
export function restartSocket() {
  if (page.socket) page.socket.close();
  // A guest who watches speaks in the chat under the name this browser remembers; a seat's
  // name comes from the seat, an account's from the session.
  const name = page.account || page.token ? undefined : spectatorName();
  page.socket = new GameSocket(id, page.token, {
    onState: (state, event) => apply(state, event),
    onStatus: (status) => {
      showConnection(status);
      page.chat.connection(status);
      if (status === 'open') sendKept();
    },
    onRoom: (msg) => page.chat.receive(msg),
    name,
  });
  page.socket.start(page.state ? page.state.version : null);
  window.zertzSocket = page.socket;
}
