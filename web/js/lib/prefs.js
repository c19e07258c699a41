// @ts-check
// What a player sets once and this browser remembers (localStorage, `zertz.ui.*`): the theme
// (following the system's light or dark unless chosen), how the board is turned, which
// coordinates show, letters on the marbles (for colour-blind players), animations, sound, and
// whether a move waits for "Confirm". Every page applies the theme when it loads; the game and
// archive pages show the board options.

import { setting, saveSetting } from './api.js';
import { h } from './ui.js';

const DEFAULTS = {
  theme: 'auto', // auto (the system's), light, dark
  view: 'auto', // auto (from the player's side: turned round for the second player), 0, 90, 180, 270
  notation: 'official', // official, host
  coords: 'true',
  letters: 'false',
  animations: 'true',
  sound: 'true',
  confirm: 'auto', // auto (on for a touch screen), on, off
};

/** The value of a preference (a string, as stored). */
export const pref = (key) => setting(key, DEFAULTS[key]);
/** A yes-or-no preference. */
export const flag = (key) => pref(key) === 'true';

const listeners = new Set();

/** Changes a preference, remembers it and tells whoever listens. */
export function setPref(key, value) {
  saveSetting(key, value);
  if (key === 'theme') applyTheme();
  for (const l of listeners) l(key, String(value));
}

/** Calls `fn(key, value)` on every change of a preference. */
export const onPref = (fn) => listeners.add(fn);

/** The theme in force: 'light' or 'dark'. */
export function theme() {
  const t = pref('theme');
  if (t === 'light' || t === 'dark') return t;
  return window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Marks the page with the theme chosen (`data-theme` on <html>; 'auto' lets CSS follow the system). */
export function applyTheme() {
  document.documentElement.dataset.theme = pref('theme');
  document.documentElement.dataset.shown = theme();
}

/** True on a screen used with a finger. */
export const touchScreen = () => Boolean(window.matchMedia && matchMedia('(pointer: coarse)').matches);

/** Whether a move waits for "Confirm" before it is sent. */
export function confirmMoves() {
  const c = pref('confirm');
  return c === 'on' || (c === 'auto' && touchScreen());
}

/** True when the system asks for less motion. */
export const reducedMotion = () => Boolean(window.matchMedia && matchMedia('(prefers-reduced-motion: reduce)').matches);

/** The turn of the board for the viewer: `seat` is 1, 2 or null (a spectator). */
export function boardTurn(seat) {
  const v = pref('view');
  if (v === 'auto') return seat === 2 ? 180 : 0;
  return Number(v) || 0;
}

/** The button in the site header that goes through the themes. */
export function themeButton() {
  const names = { auto: 'auto', light: 'light', dark: 'dark' };
  const b = h('button', { type: 'button', id: 'theme-switch', class: 'theme-switch' });
  const show = () => {
    const t = pref('theme');
    b.textContent = t === 'dark' ? '☾ dark' : t === 'light' ? '☀ light' : '◐ auto';
    b.title = `Theme: ${names[t] || t} (click to change)`;
    b.dataset.theme = t;
  };
  b.addEventListener('click', () => {
    const order = ['auto', 'dark', 'light'];
    setPref('theme', order[(order.indexOf(pref('theme')) + 1) % order.length]);
    show();
  });
  onPref((key) => key === 'theme' && show());
  show();
  return b;
}

/**
 * The board options as a form: `which` lists the ones to show (view, notation, coords, letters,
 * theme, animations, sound, confirm). Each control has the id of its preference.
 */
export function optionsPanel(which) {
  const select = (key, label, options) => {
    const s = h('select', { id: `opt-${key}` }, options.map(([v, t]) => h('option', { value: v }, t)));
    s.value = pref(key);
    s.addEventListener('change', () => setPref(key, s.value));
    onPref((k, v) => { if (k === key && s.value !== v) s.value = v; });
    return h('label', {}, `${label} `, s);
  };
  const box = (key, label, title) => {
    const c = h('input', { type: 'checkbox', id: `opt-${key}` });
    c.checked = flag(key);
    c.addEventListener('change', () => setPref(key, c.checked));
    onPref((k, v) => { if (k === key) c.checked = v === 'true'; });
    return h('label', { title }, c, ` ${label}`);
  };
  const all = {
    view: () => select('view', 'Board', [['auto', 'from my side'], ['0', 'a1 at the bottom left'], ['180', 'turned round'], ['90', "a quarter turn (the host's view)"], ['270', 'three quarters turned']]),
    notation: () => select('notation', 'Coordinates', [['official', 'official (d4)'], ['host', 'host (C3)']]),
    coords: () => box('coords', 'coordinates on the board'),
    letters: () => box('letters', 'letters on marbles (W, G, B)', 'For colour-blind players: every marble carries its letter (grey ones are also hatched)'),
    theme: () => select('theme', 'Theme', [['auto', 'as the system'], ['light', 'light'], ['dark', 'dark']]),
    animations: () => box('animations', 'animations', 'Moves, captures and isolations are animated (never when the system asks for reduced motion)'),
    sound: () => box('sound', 'sound'),
    confirm: () => select('confirm', 'Confirm moves', [['auto', 'on a touch screen'], ['on', 'always'], ['off', 'never']]),
  };
  return h('div', { class: 'options' }, which.map((k) => all[k]()));
}

// Every page that loads this module follows the theme chosen, and the system's when it changes.
applyTheme();
if (window.matchMedia) matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);
