// A game's WebSocket (docs/server.md, "WebSocket"), kept open: after a drop it reconnects by
// itself with `since` = the last version it saw, and the server sends what was missed. An
// event that skips a version makes it reconnect the same way.

export class GameSocket {
  /**
   * `onState(state, event)` gets every state in order (event null for a sync or presence);
   * `onStatus('open' | 'reconnecting')` tells the page whether it is connected.
   */
  constructor(gameId, token, { onState, onStatus }) {
    this.gameId = gameId;
    this.token = token;
    this.onState = onState;
    this.onStatus = onStatus || (() => {});
    this.version = null;
    this.ws = null;
    this.closed = false;
    this.delay = 250;
  }

  /** Connects, asking for the events after `version` (null: a full state). */
  start(version) {
    this.version = version;
    this.connect();
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = new URLSearchParams();
    if (this.token) q.set('token', this.token);
    if (this.version !== null) q.set('since', String(this.version));
    return `${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws?${q}`;
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 250;
      this.onStatus('open');
    };
    ws.onmessage = (m) => this.receive(m.data);
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.onStatus('reconnecting');
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 4000);
    };
    ws.onerror = () => ws.close();
  }

  /** Drops the connection and reconnects at once (used when an event was missed). */
  resync() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.connect();
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    switch (msg.type) {
      case 'sync':
        this.version = msg.version;
        this.onState(msg.state, null);
        break;
      case 'catchup':
        for (const e of msg.events || []) this.version = e.version;
        this.version = msg.version;
        this.onState(msg.state, (msg.events || []).map((e) => e.event).pop() || null);
        break;
      case 'event':
        if (this.version !== null && msg.version !== this.version + 1) {
          this.resync();
          return;
        }
        this.version = msg.version;
        this.onState(msg.state, msg.event);
        break;
      case 'presence':
        this.onState(msg.state, null);
        break;
      default:
        break;
    }
  }

  /** Closes for good. */
  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
