// @ts-check
// The engine panel: on request, the server's engine analyses the position on the board over
// the analysis WebSocket (/api/analysis/ws, one search per tab on the server's study slots):
// the evaluation, the depth and the 3 best lines, updated as the search deepens. When the
// player moves on, a new `analyse` replaces the running search; switching the engine off
// stops it. While the slots are busy the server says where the tab waits, and so does the page.

import { fill, h } from '../../lib/ui.js';

const LINES = 3;

export class EnginePanel {
  /** `el`: the panel; `analysis`: the board (main.js). */
  constructor(el, analysis) {
    this.el = el;
    this.analysis = analysis;
    this.on = false;
    this.socket = null;
    this.position = null; // the position asked for
    this.state = { kind: 'off' }; // off, connecting, queued {place}, lines {msg}, done {reason}, error {text}
    this.lines = null; // the last lines received for `position`
    analysis.listen(({ info }) => this.follow(info));
    this.render();
  }

  /** The board moved on: the search follows (a new analyse replaces the old one). */
  follow(info) {
    if (info.position === this.position) return;
    this.position = info.position;
    this.lines = null;
    if (!this.on) return;
    if (info.over) {
      this.send({ type: 'stop' });
      this.state = { kind: 'over' };
      this.render();
      return;
    }
    this.ask();
  }

  toggle(on) {
    this.on = on;
    if (on) {
      this.position = this.analysis.info ? this.analysis.info.position : null;
      this.ask();
    } else {
      this.send({ type: 'stop' });
      this.lines = null;
      this.state = { kind: 'off' };
      this.render();
    }
  }

  /** Sends an analyse for the current position, opening the socket first when needed. */
  ask() {
    const info = this.analysis.info;
    if (!info) return;
    if (info.over) {
      this.state = { kind: 'over' };
      this.render();
      return;
    }
    this.lines = null;
    this.state = { kind: 'connecting' };
    this.render();
    const message = { type: 'analyse', position: info.position, lines: LINES };
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.send(message);
      return;
    }
    if (this.socket && this.socket.readyState === WebSocket.CONNECTING) return; // sent on open
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/analysis/ws`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      if (this.on && this.analysis.info) this.send({ type: 'analyse', position: this.analysis.info.position, lines: LINES });
    });
    socket.addEventListener('message', (e) => this.receive(e.data));
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.on) {
        this.state = { kind: 'error', text: 'The connection to the engine was lost. Switch it off and on to try again.' };
        this.render();
      }
    });
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (!this.on) return;
    // Lines of a position the board has left are dropped.
    if (msg.position && msg.position !== this.position) return;
    if (msg.type === 'queued') this.state = { kind: 'queued', place: msg.place };
    else if (msg.type === 'lines') {
      this.lines = msg;
      this.state = { kind: 'lines' };
    } else if (msg.type === 'done') this.state = { kind: 'done', reason: msg.reason };
    else if (msg.type === 'error') this.state = { kind: 'error', text: msg.error };
    else return;
    this.render();
  }

  render() {
    const toggle = h('input', { type: 'checkbox', id: 'engine-toggle', role: 'switch' });
    toggle.checked = this.on;
    toggle.addEventListener('change', () => this.toggle(toggle.checked));
    const l = this.lines;
    const head = h('div', { class: 'engine-head' },
      h('label', { class: 'engine-switch' }, toggle, ' Engine'),
      l && l.lines.length ? h('b', { id: 'engine-eval', class: 'engine-eval' }, l.lines[0].text) : null,
      l ? h('span', { id: 'engine-depth', class: 'note', 'data-depth': l.depth }, `depth ${l.depth} · ${kilo(l.nodes)} nodes · ${kilo(l.nps)}/s`) : null);
    const st = this.state;
    const words = {
      off: 'Switch the engine on to see its evaluation and best lines.',
      connecting: 'Asking the engine…',
      over: 'The game is over in this position.',
      lines: null,
    };
    let status = words[st.kind] ?? null;
    if (st.kind === 'queued') status = `The engine is busy: queued, place ${st.place}. The search starts when a slot is free.`;
    if (st.kind === 'done') status = st.reason === 'stopped' ? 'Stopped.' : st.reason === 'over' ? 'The game is over in this position.' : `Search finished (${st.reason === 'time' ? 'time budget used' : 'full depth'}).`;
    if (st.kind === 'error') status = st.text;
    const rows = l ? l.lines.map((line) => h('li', { class: 'engine-line', 'data-move': line.move },
      h('span', { class: 'score' }, line.text),
      h('button', { type: 'button', class: 'link-button', title: 'Play this move', onclick: () => this.analysis.play(line.move) }, line.move),
      h('span', { class: 'pv' }, line.pv.length > 1 ? ` then ${line.pv.slice(1).join(' · ')}` : ''),
      h('span', { class: 'win-chance', title: 'The win chance of the player to move' }, ` ${Math.round(100 * line.win_chance)}%`))) : [];
    fill(this.el, head,
      status ? h('p', { id: 'engine-status', class: `note engine-${st.kind}`, 'data-state': st.kind }, status) : h('p', { id: 'engine-status', class: 'sr-only', 'data-state': st.kind }, 'Searching'),
      h('ol', { id: 'engine-lines', class: 'engine-lines best' }, rows));
  }
}

/** 12345 → "12k", 1234567 → "1.2M". */
function kilo(n = 0) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${Math.round(n / 1e3)}k`;
  return String(n);
}
