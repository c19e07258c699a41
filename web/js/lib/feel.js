// @ts-check
// Feedback on the game page: sounds (synthesised with Web Audio, nothing downloaded), the
// sentence that says what just happened, the page's title and icon on the player's turn, a
// browser notification when the tab is hidden, and whether an animation may be played.
//
// What was played, said, animated and notified is also kept in `window.zertzFeel`, so that the
// browser tests can check it without listening or looking at pixels.

import { flag, reducedMotion } from './prefs.js';
import { setting, saveSetting } from './api.js';
import { COLOUR_NAMES } from './position.js';

/** What the page did to tell the player of each event, newest last. */
export const record = { played: [], muted: [], said: [], animated: [], notified: [] };
window.zertzFeel = record;

// ---- sound ----

/** Each sound as notes: [frequency Hz, start s, length s, wave, loudness]. */
const SOUNDS = {
  move: [[520, 0, 0.07, 'triangle', 0.25], [390, 0.035, 0.06, 'sine', 0.12]],
  capture: [[440, 0, 0.08, 'triangle', 0.28], [660, 0.08, 0.11, 'triangle', 0.28]],
  isolation: [[784, 0, 0.09, 'triangle', 0.24], [622, 0.09, 0.09, 'triangle', 0.24], [494, 0.18, 0.18, 'triangle', 0.24]],
  lowtime: [[880, 0, 0.08, 'square', 0.09], [880, 0.16, 0.08, 'square', 0.09]],
  end: [[523, 0, 0.16, 'sine', 0.24], [659, 0.12, 0.16, 'sine', 0.24], [784, 0.24, 0.34, 'sine', 0.24]],
};

let audio = null;
function context() {
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    try {
      audio = new Ctx();
    } catch {
      return null;
    }
  }
  return audio;
}

// Browsers start sound only after a gesture: the first click or key wakes it up.
for (const type of ['pointerdown', 'keydown']) {
  addEventListener(type, () => {
    const c = context();
    if (c && c.state === 'suspended') c.resume().catch(() => {});
  }, { capture: true, passive: true });
}

/** Plays one of the sounds, unless the player muted them. Returns whether it was played. */
export function play(name) {
  if (!SOUNDS[name]) return false;
  if (!flag('sound')) {
    record.muted.push(name);
    return false;
  }
  record.played.push(name);
  const c = context();
  if (!c) return true;
  if (c.state === 'suspended') c.resume().catch(() => {});
  const t0 = c.currentTime + 0.01;
  for (const [freq, at, length, wave, loud] of SOUNDS[name]) {
    const osc = c.createOscillator();
    const gain = c.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(loud, t0 + at + 0.012);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + length);
    osc.connect(gain).connect(c.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + length + 0.02);
  }
  return true;
}

// ---- words ----

/** Shows a sentence about what just happened (in #news, read out by screen readers). */
export function tell(text, kind = 'info') {
  if (!text) return;
  record.said.push(text);
  const el = document.getElementById('news');
  if (!el) return;
  el.textContent = text;
  el.className = `news ${kind}`;
  el.hidden = false;
  el.dataset.count = String(record.said.length);
}

/**
 * Records a sentence that another line of the page says (the status line, for how a game
 * ended) and puts the news line away, so that the page does not show or read it out twice.
 */
export function saidElsewhere(text) {
  if (text) record.said.push(text);
  const el = document.getElementById('news');
  if (!el) return;
  el.textContent = '';
  el.className = 'news';
  el.hidden = true;
}

/** "1 white, 2 grey marbles" from counts by colour letter; "no marble" when empty. */
export function marblesText(counts) {
  const parts = ['W', 'G', 'B'].filter((c) => counts[c]).map((c) => `${counts[c]} ${COLOUR_NAMES[c]}`);
  if (!parts.length) return 'no marble';
  const last = counts[['W', 'G', 'B'].filter((c) => counts[c]).pop()];
  return `${parts.join(', ')} marble${last > 1 ? 's' : ''}`;
}

/** Counts by colour letter of a list of colour letters. */
export function countColours(colours) {
  const n = { W: 0, G: 0, B: 0 };
  for (const c of colours) n[c] += 1;
  return n;
}

// ---- animations ----

/** Why an animation is not played now ('off', 'hidden', 'reduced-motion'), or null. */
export function whyStill() {
  if (!flag('animations')) return 'off';
  if (document.hidden) return 'hidden';
  if (reducedMotion()) return 'reduced-motion';
  return null;
}

// ---- the player's turn ----

const ICON = '/static/favicon.svg';
// The site's icon with an orange dot: it is your turn.
const TURN_ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2f5d62"/><circle cx="16" cy="16" r="11" fill="#e9e0c9" stroke="#6e6552" stroke-width="1.5"/><circle cx="16" cy="16" r="7.5" fill="#111"/><circle cx="25" cy="7" r="6.5" fill="#ff8a00" stroke="#fff" stroke-width="1.5"/></svg>')}`;

/** The page's title and icon: marked while it is the player's turn. */
export function showTurn(mine, title) {
  const want = mine ? `● Your turn · ${title}` : title;
  if (document.title !== want) document.title = want;
  /** @type {HTMLLinkElement | null} */
  let link = document.querySelector('link[rel=icon]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  const href = mine ? TURN_ICON : ICON;
  if (link.getAttribute('href') !== href) {
    link.setAttribute('href', href);
    link.dataset.turn = mine ? 'yours' : '';
  }
}

// ---- notifications ----

/**
 * Asks once for the right to notify (the browser remembers the answer; this page asks no
 * more, even when it was dismissed). Called on a gesture of the player's: their first move.
 */
export function askToNotify() {
  if (!('Notification' in window) || Notification.permission !== 'default') return;
  if (setting('notify-asked', '') === 'true') return;
  saveSetting('notify-asked', 'true');
  try {
    const asked = Notification.requestPermission();
    if (asked && asked.catch) asked.catch(() => {});
  } catch {
    // an old browser without the promise: nothing to do
  }
}

/** A notification, only while the tab is hidden and when the player allowed them. */
export function notify(title, body, tag) {
  if (!document.hidden) return false;
  const allowed = 'Notification' in window && Notification.permission === 'granted';
  record.notified.push({ title, body, shown: allowed });
  if (!allowed) return false;
  try {
    const n = new Notification(title, { body, tag, icon: ICON });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    return false;
  }
  return true;
}
