// @ts-check
// The game room's chat, beside the board of a game and on a match's page: the lines as the
// server sends them on the page's WebSocket (`chat_history`, then each `chat`), a field to say
// something (Enter sends), the preset phrases as buttons, the server's refusal under the field,
// a report button per line, a mute button on watchers' lines for the game's players (the
// opponent is never muted: a player hides their lines for themselves, "ignore"), and for
// players a switch that hides the spectators' lines (remembered in this browser). Every
// text from the server is put in as text, never as markup. Also, for a finished game, its chat
// read back and grouped by the move it was said after (chatLog).

import { setting, saveSetting } from './api.js';
import { signInHref } from './account.js';
import { fill, guestMark, h } from './ui.js';
import { plyLabel } from './panels.js';

/** @typedef {import('./types.js').ChatLine} ChatLine */

/** What a guest who only watches may say (the server's list): offered to everyone as buttons. */
export const PRESETS = ['Hello!', 'Good luck!', 'Have fun!', 'Well played!', 'Nice move!', 'Good game!', 'Thank you!', 'Oops!', 'Bye!'];

/** The longest line the server takes, in characters. */
export const MAX_CHARS = 500;

const clockTime = (ms) => new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const when = (line) => {
  const moment = new Date(line.at_ms).toLocaleString();
  if (line.turn === undefined || line.turn === null) return moment;
  return `${moment} · ${line.turn ? `after move ${line.turn}` : 'before the first move'}`;
};

/** The name part of a line: the name, the guest mark, "watching" for a spectator. */
function who(line) {
  return h('span', { class: 'chat-who' },
    h('span', { class: 'chat-name' }, line.name),
    line.guest ? [' ', guestMark()] : null,
    line.kind === 'spectator' ? [' ', h('span', { class: 'tag watching', title: 'Watching the game, not playing it' }, 'watching')] : null);
}

/** The text of a line, and the move it was played as, if it was. */
function said(line) {
  return [
    h('span', { class: 'chat-text' }, line.text),
    line.played ? h('span', { class: 'chat-played', title: 'The room read this line as a move and played it' }, `played ${line.played}`) : null,
  ];
}

export class ChatPanel {
  /**
   * A chat panel; `send(message)` sends an object on the page's socket and returns false when
   * the socket is not open. `id` prefixes the ids of the panel's parts.
   */
  constructor({ send, id = 'chat', ignore = false }) {
    this.send = send;
    // The public room: each reader may ignore accounts for themselves (remembered here).
    this.canIgnore = ignore;
    /** @type {Set<string>} */
    this.ignored = new Set();
    try {
      this.ignored = new Set(JSON.parse(setting('chatIgnored', '[]') || '[]'));
    } catch {
      // unreadable: nobody ignored
    }
    this.lines = new Map(); // seq → line
    this.pending = []; // what was sent and waits for its ack or refusal, in order
    this.reported = new Set();
    this.muted = new Set();
    this.viewer = null; // who reads the panel: set by setViewer
    this.hideSpectators = setting('chatHideSpectators', 'false') === 'true';

    this.list = h('ol', { class: 'chat-lines', id: `${id}-lines`, 'aria-live': 'polite' });
    this.list.addEventListener('scroll', () => {
      if (this.atBottom()) this.more.hidden = true;
    });
    this.more = h('button', { type: 'button', class: 'chat-more', hidden: true, onclick: () => this.scrollDown() }, 'New lines below ↓');
    this.toggle = h('input', { type: 'checkbox', id: `${id}-hide-spectators` });
    this.toggle.checked = this.hideSpectators;
    this.toggle.addEventListener('change', () => {
      this.hideSpectators = this.toggle.checked;
      saveSetting('chatHideSpectators', this.hideSpectators);
      this.applyHide();
    });
    this.toggleLabel = h('label', { class: 'chat-toggle', hidden: true, title: 'Only in this browser: the spectators still see each other' },
      this.toggle, ' hide spectators');
    this.input = h('input', {
      id: `${id}-input`, maxlength: MAX_CHARS, autocomplete: 'off', spellcheck: 'true',
      placeholder: 'Say something…', title: 'Enter sends', 'aria-label': 'Chat message',
    });
    this.error = h('div', { class: 'chat-error', id: `${id}-error`, role: 'alert' });
    this.hint = h('p', { class: 'hint chat-hint', hidden: true });
    const form = h('form', { class: 'chat-form', id: `${id}-form`, autocomplete: 'off' },
      this.input, h('button', { type: 'submit', id: `${id}-send` }, 'Send'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.say(this.input.value, true);
    });
    const presets = h('div', { class: 'chat-presets', id: `${id}-presets` },
      PRESETS.map((p) => h('button', { type: 'button', class: 'preset', 'data-preset': p, onclick: () => this.say(p, false) }, p)));
    this.el = h('section', { class: 'panel chat', id },
      h('div', { class: 'chat-head' }, h('h3', {}, 'Chat'), this.toggleLabel),
      h('div', { class: 'chat-scroll' }, this.list, this.more),
      form, this.error, presets, this.hint);
    this.applyHide();
    this.render();
  }

  /**
   * Who reads the panel: `player` (plays this game or match: may mute, may hide the
   * spectators), `guest` (no account), `name` (their name in the room). A guest who only
   * watches is told that only the preset phrases may be sent.
   */
  setViewer({ player, guest, name }) {
    const old = this.viewer;
    this.viewer = { player: Boolean(player), guest: Boolean(guest), name: name || '' };
    const v = this.viewer;
    if (old && old.player === v.player && old.guest === v.guest && old.name === v.name) return;
    this.toggleLabel.hidden = !this.viewer.player;
    this.applyHide();
    const presetsOnly = this.viewer.guest && !this.viewer.player;
    this.hint.hidden = !presetsOnly;
    if (presetsOnly) {
      fill(this.hint, 'Guests who watch may send only the phrases above. ',
        h('a', { href: signInHref() }, 'Sign in'), ' to chat freely.');
    }
    this.render();
  }

  applyHide() {
    this.list.classList.toggle('hide-spectators', Boolean(this.viewer && this.viewer.player && this.hideSpectators));
  }

  /** Sends a line; `typed`: it comes from the field (kept there if refused). */
  say(raw, typed) {
    const text = raw.trim();
    if (!text) {
      this.showError('Type something first.');
      return;
    }
    if ([...text].length > MAX_CHARS) {
      this.showError(`A message is at most ${MAX_CHARS} characters.`);
      return;
    }
    this.request({ type: 'chat', text }, { kind: 'chat', text, typed });
  }

  /** Sends `message`, remembering what it was until the server answers. */
  request(message, what) {
    if (!this.send(message)) {
      this.showError('Not connected: nothing was sent. Try again in a moment.');
      return;
    }
    this.pending.push(what);
  }

  showError(text) {
    this.error.textContent = text || '';
    this.error.classList.toggle('shown', Boolean(text));
  }

  /** The socket's status: answers to what was sent before a drop will never come. */
  connection(status) {
    if (status !== 'open' && this.pending.length) {
      this.pending = [];
      this.showError('The connection was lost: what was being sent may not have arrived.');
    }
  }

  /**
   * A message of the room (chat_history, chat) or an answer (ack, refused).
   * @param {import('./types.js').RoomMessage} msg
   */
  receive(msg) {
    switch (msg.type) {
      case 'chat_history': {
        // Sent again after each reconnection: the latest lines, merged with those shown.
        const first = this.lines.size === 0;
        for (const line of msg.lines || []) this.lines.set(line.seq, line);
        // Who is muted in this room, so that a player can unmute them after a reload.
        if (Array.isArray(msg.muted)) this.muted = new Set(msg.muted);
        this.render(first);
        break;
      }
      case 'chat':
        this.add(msg.line);
        break;
      case 'ack':
        this.answered(null);
        break;
      case 'refused':
        this.answered(msg.error || `refused (${msg.status})`);
        break;
      default:
        break;
    }
  }

  answered(error) {
    const what = this.pending.shift();
    if (error) {
      this.showError(error);
      return;
    }
    this.showError('');
    if (!what) return;
    if (what.kind === 'chat' && what.typed && this.input.value.trim() === what.text) this.input.value = '';
    if (what.kind === 'report') this.reported.add(what.seq);
    if (what.kind === 'mute') this.muted.add(what.name);
    if (what.kind === 'unmute') this.muted.delete(what.name);
    if (what.kind !== 'chat') this.render();
  }

  atBottom() {
    const l = this.list;
    return l.scrollHeight - l.scrollTop - l.clientHeight < 24;
  }

  scrollDown() {
    this.list.scrollTop = this.list.scrollHeight;
    this.more.hidden = true;
  }

  /** A new line: shown at the end; followed unless the reader scrolled up. */
  add(line) {
    if (this.lines.has(line.seq)) return;
    const stick = this.atBottom();
    this.lines.set(line.seq, line);
    const empty = this.list.querySelector('.empty');
    if (empty) empty.remove();
    this.list.append(this.item(line));
    if (stick || (this.viewer && line.name === this.viewer.name)) this.scrollDown();
    else if (!(line.kind === 'spectator' && this.list.classList.contains('hide-spectators'))) this.more.hidden = false;
  }

  /** Ignores (or shows again) `name`'s lines, in this browser only. */
  ignore(name, on) {
    if (on) this.ignored.add(name);
    else this.ignored.delete(name);
    saveSetting('chatIgnored', JSON.stringify([...this.ignored]));
    this.render();
  }

  /** Draws every line again (after the history, a report, a mute). */
  render(follow = false) {
    const stick = follow || this.atBottom();
    const top = this.list.scrollTop;
    const lines = [...this.lines.values()].sort((a, b) => a.seq - b.seq);
    fill(this.list, lines.length ? lines.map((l) => this.item(l)) : h('li', { class: 'empty' }, 'Nobody has said anything yet.'));
    if (stick) this.scrollDown();
    else this.list.scrollTop = top;
  }

  /** One line with its tools. */
  item(line) {
    const v = this.viewer || { player: false, guest: true, name: '' };
    const mine = line.kind !== 'room' && line.name === v.name && line.guest === v.guest;
    const tools = [];
    if (line.kind !== 'room' && !mine) {
      tools.push(this.reported.has(line.seq)
        ? h('span', { class: 'chat-reported' }, 'reported')
        : h('button', {
          type: 'button', class: 'chat-report', title: "Report this line to the site's operator",
          onclick: () => this.request({ type: 'report', seq: line.seq }, { kind: 'report', seq: line.seq }),
        }, 'report'));
      // A reader may hide an account's lines for themselves: in the public and event rooms
      // anyone's, in a game's or a match's room the opponent's (nobody mutes a player).
      const player = line.seat !== null && line.seat !== undefined;
      if ((this.canIgnore || (v.player && player)) && !line.guest) {
        const ignored = this.ignored.has(line.name);
        tools.push(h('button', {
          type: 'button', class: 'chat-ignore', 'data-name': line.name,
          title: ignored ? `Show ${line.name}'s lines again` : `Hide ${line.name}'s lines, for you only`,
          onclick: () => this.ignore(line.name, !ignored),
        }, ignored ? 'show' : 'ignore'));
      }
      // The game's players may mute a watcher's account (by its name) in their room.
      if (v.player && !line.guest && !player) {
        const muted = this.muted.has(line.name);
        const kind = muted ? 'unmute' : 'mute';
        tools.push(h('button', {
          type: 'button', class: `chat-${kind}`, 'data-name': line.name,
          title: muted ? `Let ${line.name} talk in this room again` : `Silence ${line.name} in this room`,
          onclick: () => this.request({ type: kind, name: line.name }, { kind, name: line.name }),
        }, kind));
      }
    }
    const ignored = !mine && this.ignored.has(line.name) && (this.canIgnore || (line.seat !== null && line.seat !== undefined));
    return h('li', {
      class: `chat-line kind-${line.kind}${mine ? ' mine' : ''}${line.played ? ' played' : ''}${ignored ? ' ignored' : ''}`,
      'data-seq': line.seq,
      'data-kind': line.kind,
      title: when(line),
    },
    h('span', { class: 'chat-time' }, clockTime(line.at_ms)), ' ',
    who(line), ' ', said(line),
    tools.length ? h('span', { class: 'chat-tools' }, tools) : null);
  }
}

/**
 * The chat of a finished game, grouped by the move it was said after: "Before the first move",
 * then "After 6… Wd4,a1" for each move something was said after (numbered in pairs, as the
 * move list, player `first` to move at the start). `onTurn(n)` shows the position after n turns
 * (the heading is a button); `current` is the turn shown, whose group is marked.
 * @param {ChatLine[]} lines
 * @param {string[]} moves
 * @param {{onTurn?: (turn: number) => void, current?: number, first?: number}} [options]
 */
export function chatLog(lines, moves, { onTurn, current, first = 1 } = {}) {
  if (!lines.length) return h('p', { class: 'empty' }, 'Nobody said anything in this game.');
  const groups = new Map();
  for (const line of [...lines].sort((a, b) => a.seq - b.seq)) {
    const turn = Math.max(0, Math.min(line.turn || 0, moves.length));
    if (!groups.has(turn)) groups.set(turn, []);
    groups.get(turn).push(line);
  }
  return h('div', { class: 'chat-log' }, [...groups.entries()].map(([turn, group]) => {
    const title = turn === 0 ? 'Before the first move' : `After ${plyLabel(turn, first)} ${moves[turn - 1]}`;
    return h('section', { class: `chat-turn${turn === current ? ' current' : ''}`, 'data-turn': turn },
      h('h4', {}, onTurn ? h('button', { type: 'button', class: 'chat-turn-go', onclick: () => onTurn(turn), title: 'Show this position' }, title) : title),
      h('ol', { class: 'chat-lines' }, group.map((line) => h('li', {
        class: `chat-line kind-${line.kind}${line.played ? ' played' : ''}`, 'data-seq': line.seq, title: when(line),
      }, h('span', { class: 'chat-time' }, clockTime(line.at_ms)), ' ', who(line), ' ', said(line)))));
  }));
}
