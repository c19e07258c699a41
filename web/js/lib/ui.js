// @ts-check
// Small DOM helpers shared by the pages: finding and building elements, the header, messages in
// words.

/**
 * The element of the page with the id `id`. `kind` (HTMLInputElement, …) says what it is, for
 * the type checker only: nothing is checked when the page runs.
 * @template {Element} [T=HTMLElement]
 * @param {string} id
 * @param {abstract new (...args: any[]) => T} [kind]
 * @returns {T}
 */
export const $ = (id, kind) => /** @type {T} */ (/** @type {unknown} */ (document.getElementById(id)));

/**
 * Creates an element: h('button', {class: 'x', onclick}, 'text', child…). Attributes that are
 * null, undefined or false are left out; `on…` functions become listeners; children are nodes
 * or text (arrays are flattened; null, undefined and false are skipped).
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {HTMLElement & Record<string, any>}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    // Through the CSS object model: the Content-Security-Policy refuses style attributes.
    else if (k === 'style') el.style.cssText = v;
    else if (k === 'html') el.innerHTML = v;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * Replaces the children of `el`.
 * @param {Element} el
 * @param {...any} children as for h()
 */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * The site header with its navigation; `here` names the current page. Its `.account` part is
 * filled by account.js once the server has said who is logged in.
 */
export function header(here) {
  const link = (href, text, key) => h('a', { href, class: here === key ? 'here' : null }, text);
  // On a phone the links and the account fold behind "Menu", so the header is one row.
  const toggle = h('button', {
    type: 'button', class: 'menu-toggle', id: 'menu-toggle', 'aria-expanded': 'false', 'aria-controls': 'site-menu',
    onclick: () => {
      const open = bar.classList.toggle('menu-open');
      toggle.setAttribute('aria-expanded', String(open));
    },
  }, 'Menu');
  const bar = h('header', { class: 'site' },
    h('a', { href: '/', class: 'brand' }, 'ZÈRTZ'),
    toggle,
    h('div', { class: 'site-menu', id: 'site-menu' },
      h('nav', {}, link('/', 'Play', 'home'), link('/lobby', 'Lobby', 'lobby'), link('/room', 'Room', 'room'), link('/players', 'Players', 'players'), link('/tournaments', 'Tournaments', 'tournaments'), link('/archive', 'Archive', 'archive'), link('/analysis', 'Analysis', 'analysis'), link('/puzzles', 'Puzzles', 'puzzles'), link('/learn', 'Learn', 'learn'), link('/rules', 'Rules', 'rules')),
      h('div', { class: 'account', id: 'account-nav' })));
  return bar;
}

/** The address of an account's profile page. */
export const profileHref = (name) => `/@/${encodeURIComponent(name)}`;

/** The mark after a guest's name: they have no account, the name is whatever they typed. */
export function guestMark() {
  return h('span', { class: 'tag guest', title: 'A guest: no account, the name is the one they typed' }, 'guest');
}

/** An engine seat's name: "Engine level 10". */
export const engineName = (level) => `Engine level ${level}`;

/** The published rating of an engine seat, shown beside its name: " (2720)"; '' if unknown. */
export function engineRating(p) {
  return p && p.rating !== null && p.rating !== undefined
    ? h('span', { class: 'rating engine-rating', title: "The engine level's published rating (games against the engine are unrated)" }, ` (${p.rating})`)
    : '';
}

/**
 * A player's name as shown in lists: an account's name links to its profile, a guest's carries
 * the guest mark, an engine shows its level. `p` is a seat of a game's state or a player of a
 * match (kind, level, name, guest); `empty` is what shows for a seat nobody took yet.
 */
export function personTag(p, empty = '—') {
  if (!p) return h('span', { class: 'person' }, empty);
  if (p.kind === 'engine') return h('span', { class: 'person engine' }, engineName(p.level), engineRating(p));
  if (!p.name) return h('span', { class: 'person empty' }, empty);
  if (p.guest) return h('span', { class: 'person guest' }, h('span', { class: 'person-name' }, p.name), ' ', guestMark());
  return h('span', { class: 'person account' }, h('a', { class: 'person-name', href: profileHref(p.name) }, p.name));
}

/**
 * `text` with a capital first letter, as a sentence begins, unless it begins with one of
 * `names`: a player's name is shown as written (an account called "bob" stays "bob").
 * @param {string} text
 * @param {Array<string | null | undefined>} [names]
 */
export function capitalised(text, names = []) {
  if (!text || names.some((n) => n && text.startsWith(n))) return text;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * Shows `text` in the page's message line (kind: 'error', 'info' or 'ok').
 * @param {string} text
 * @param {string} [kind]
 */
export function say(text, kind = 'info') {
  let el = document.getElementById('message');
  if (!el) return;
  el.textContent = text || '';
  el.className = `message ${text ? kind : ''}`;
}

/** Shows in the page's #connection line whether its socket is connected ('open') or not. */
export function showConnection(status) {
  // Marked on the page too: the clocks say they may be behind while it is down.
  document.body.dataset.connection = status === 'open' ? 'open' : 'offline';
  const el = document.getElementById('connection');
  if (!el) return;
  el.hidden = status === 'open';
  el.textContent = status === 'open' ? '' : 'Offline: reconnecting… The clocks shown may be behind.';
}

/** Copies text, falling back to selecting it in `input` when the clipboard is refused. */
export async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
    }
    return false;
  }
}

/** A short description of a game's settings: "37 rings, standard, 5 min + 5 s a move". */
export function describeSettings(board, rules, clockText, extra = []) {
  const parts = [`${board} rings`, rules.startsWith('custom') ? 'custom rules' : rules, clockText, ...extra];
  return parts.filter(Boolean).join(' · ');
}
