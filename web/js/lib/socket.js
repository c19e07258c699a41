// @ts-check
// The WebSockets of the game and match pages (docs/server.md), kept open: after a drop each
// reconnects by itself, waiting a little longer after each failed try. A game's socket asks for
// what it missed with `since` = the last version it saw, and an event that skips a version makes
// it reconnect the same way; after its first full state, each event or presence says only what
// changed, which it sets on the state it holds (web/js/legal.js). A match's socket gets the
// match's whole state when it opens and on every change, so reconnecting is all it needs. Both carry their room's chat (web/js/chat.js).

import { applyChanges } from './legal.js';

/** @typedef {import('./types.js').GameState} GameState */
/** @typedef {import('./types.js').GameEvent} GameEvent */
/** @typedef {import('./types.js').GameMessage} GameMessage */
/** @typedef {import('./types.js').MatchMessage} MatchMessage */
/** @typedef {import('./types.js').MatchState} MatchState */
/** @typedef {import('./types.js').RoomMessage} RoomMessage */
/** @typedef {'open' | 'reconnecting'} Status */

/** @template {{type: string}} M the messages this kind of socket receives */
class ReconnectingSocket {
  /** @param {(status: Status) => void} [onStatus] tells the page whether it is connected */
  constructor(onStatus) {
    this.onStatus = onStatus || (() => {});
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.delay = 250;
    /** @type {((msg: RoomMessage) => void) | undefined} the page's handler of the room's messages */
    this.onRoom = undefined;
  }

  /**
   * The address to connect to (each kind of socket has its own).
   * @returns {string}
   */
  url() {
    throw new Error('url() is not defined');
  }

  /**
   * Handles a message, read from its JSON (each kind of socket has its own).
   * @param {M} msg
   */
  receive(msg) {
    throw new Error('receive() is not defined');
  }

  /**
   * `path` on this page's host, as a WebSocket address.
   * @param {string} path
   * @param {URLSearchParams} query
   */
  static address(path, query) {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}${path}?${query}`;
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 250;
      this.onStatus('open');
    };
    ws.onmessage = (m) => {
      /** @type {M} */
      let msg;
      try {
        msg = JSON.parse(m.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.onStatus('reconnecting');
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 4000);
    };
    ws.onerror = () => ws.close();
  }

  /**
   * Sends `message` (an object, as JSON) on the connection; false when it is not open (the
   * message is not kept for later).
   * @param {object} message
   */
  send(message) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  }

  /**
   * Hands a message of the game room (`chat_history`, `chat`) or an answer to something sent
   * (`ack`, `refused`) to the page's `onRoom`, if it has one.
   * @param {M} msg
   */
  room(msg) {
    if (this.onRoom && ['chat_history', 'chat', 'ack', 'refused'].includes(msg.type)) this.onRoom(/** @type {RoomMessage} */ (/** @type {unknown} */ (msg)));
  }

  /** Drops the connection and reconnects at once. */
  resync() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.connect();
  }

  /** Closes for good. */
  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}

/** @extends {ReconnectingSocket<GameMessage>} */
export class GameSocket extends ReconnectingSocket {
  /**
   * `onState(state, event)` gets every state in order (event null for a sync or presence);
   * `onRoom(message)` the game room's chat and the answers to what was sent on the socket;
   * `name` is a guest spectator's name in the chat; `onStatus` as for any socket.
   * @param {string} gameId
   * @param {string | null} token the seat's token (none for a spectator or an account)
   * @param {object} o
   * @param {(state: GameState, event: GameEvent | null) => void} o.onState
   * @param {(status: Status) => void} [o.onStatus]
   * @param {(msg: RoomMessage) => void} [o.onRoom]
   * @param {string} [o.name]
   */
  constructor(gameId, token, { onState, onStatus, onRoom, name }) {
    super(onStatus);
    this.gameId = gameId;
    this.token = token;
    this.onState = onState;
    this.onRoom = onRoom;
    this.name = name;
    /** @type {number | null} the last version received */
    this.version = null;
    /** @type {GameState | null} the state as the messages made it */
    this.state = null;
  }

  /**
   * Connects, asking for the events after `version` (null: a full state).
   * @param {number | null} version
   */
  start(version) {
    this.version = version;
    this.connect();
  }

  url() {
    const q = new URLSearchParams();
    if (this.token) q.set('token', this.token);
    if (this.version !== null) q.set('since', String(this.version));
    if (this.name) q.set('name', this.name);
    return ReconnectingSocket.address(`/api/games/${encodeURIComponent(this.gameId)}/ws`, q);
  }

  /** @param {GameMessage} msg */
  receive(msg) {
    switch (msg.type) {
      case 'sync':
        this.version = msg.version;
        this.state = msg.state;
        this.onState(msg.state, null);
        break;
      case 'catchup':
        this.version = msg.version;
        this.state = msg.state;
        this.onState(msg.state, (msg.events || []).map((e) => e.event).pop() || null);
        break;
      case 'event':
        if (!this.state || msg.version !== this.version + 1) {
          this.resync();
          return;
        }
        this.version = msg.version;
        this.state = applyChanges(this.state, msg.changes);
        this.onState(this.state, msg.event);
        break;
      case 'presence':
        // Changes from the state at this version (one held from before is left as it is).
        if (!this.state || msg.version !== this.version) return;
        this.state = applyChanges(this.state, msg.changes);
        this.onState(this.state, null);
        break;
      default:
        this.room(msg);
        break;
    }
  }
}

/** @extends {ReconnectingSocket<MatchMessage>} */
export class MatchSocket extends ReconnectingSocket {
  /**
   * `onMatch(match)` gets the match's state (as `GET /api/matches/{id}` answers it, seen by
   * the holder of `token`) each time it changes; `onRoom` and `name` as for a game's socket;
   * `onStatus` as for any socket.
   * @param {string} matchId
   * @param {string | null} token the participant's token (none for a spectator or an account)
   * @param {object} o
   * @param {(match: MatchState) => void} o.onMatch
   * @param {(status: Status) => void} [o.onStatus]
   * @param {(msg: RoomMessage) => void} [o.onRoom]
   * @param {string} [o.name]
   */
  constructor(matchId, token, { onMatch, onStatus, onRoom, name }) {
    super(onStatus);
    this.matchId = matchId;
    this.token = token;
    this.onMatch = onMatch;
    this.onRoom = onRoom;
    this.name = name;
  }

  /** Connects. */
  start() {
    this.connect();
  }

  url() {
    const q = new URLSearchParams();
    if (this.token) q.set('token', this.token);
    if (this.name) q.set('name', this.name);
    return ReconnectingSocket.address(`/api/matches/${encodeURIComponent(this.matchId)}/ws`, q);
  }

  /** @param {MatchMessage} msg */
  receive(msg) {
    if (msg.type === 'match') this.onMatch(msg.match);
    else this.room(msg);
  }
}

/** @extends {ReconnectingSocket<RoomMessage>} */
export class RoomSocket extends ReconnectingSocket {
  /**
   * A room of no game: the site's public room (`/api/room/ws`, the default `path`) or a
   * tournament's (`/api/tournaments/{id}/chat/ws`); its chat only. `onRoom` gets the lines and
   * the answers to what was sent; `name` is a guest's name; `onStatus` as for any socket.
   * @param {object} o
   * @param {(msg: RoomMessage) => void} o.onRoom
   * @param {(status: Status) => void} [o.onStatus]
   * @param {string} [o.name]
   * @param {string} [o.path]
   */
  constructor({ onRoom, onStatus, name, path = '/api/room/ws' }) {
    super(onStatus);
    this.onRoom = onRoom;
    this.name = name;
    this.path = path;
  }

  /** Connects. */
  start() {
    this.connect();
  }

  url() {
    const q = new URLSearchParams();
    if (this.name) q.set('name', this.name);
    return ReconnectingSocket.address(this.path, q);
  }

  /** @param {RoomMessage} msg */
  receive(msg) {
    this.room(msg);
  }
}
