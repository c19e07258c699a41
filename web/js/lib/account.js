// @ts-check
// Who is logged in, for every page: the header's account links (sign in and create an account,
// or the name, the account page and sign out), and what stands wherever a page asks who plays:
// "Playing as NAME" for an account, a name field for a guest. The session cookie is HttpOnly,
// so only the server can say who is logged in: the page asks GET /api/me once.

import { api, rememberedName, setPlayerName } from './api.js';
import { fill, h, header, profileHref, say } from './ui.js';
import { themeButton } from './prefs.js';

let asked = null;

/** The logged-in account ({name}) or null for a guest; asked once per page load. */
export function me() {
  // The server answers {name: null} for a guest. A server that cannot be reached counts as
  // "not logged in": the page works as a guest's.
  if (!asked) {
    asked = api('GET', '/api/me').then(
      (/** @type {{name: string | null}} */ r) => (r && r.name ? { name: r.name } : null),
      () => null,
    );
  }
  return asked;
}

/**
 * Where to go after signing in, from a `?next=` value: a path of this site only (a link
 * elsewhere must not be able to send the player to another site), never back to the forms.
 */
export function safeNext(raw) {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  try {
    const url = new URL(raw, location.origin);
    if (url.origin !== location.origin || ['/login', '/signup'].includes(url.pathname)) return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}

/** The `next` of the sign-in links: this page (its invitation included), or the forms' own. */
function nextHere() {
  if (['/login', '/signup'].includes(location.pathname)) {
    return safeNext(new URLSearchParams(location.search).get('next'));
  }
  return location.pathname + location.search + location.hash;
}

/** The sign-in page, coming back here afterwards. */
export const signInHref = () => `/login?next=${encodeURIComponent(nextHere())}`;
const signUpHref = () => `/signup?next=${encodeURIComponent(nextHere())}`;

async function signOut() {
  try {
    await api('DELETE', '/api/session');
    location.reload();
  } catch (e) {
    say(`Cannot sign out: ${e.message}`, 'error');
  }
}

function accountLinks(account) {
  if (!account) {
    return [h('a', { href: signInHref(), id: 'sign-in' }, 'Sign in'), h('a', { href: signUpHref(), id: 'sign-up' }, 'Create account')];
  }
  return [
    h('a', { href: profileHref(account.name), id: 'account-name', class: 'me' }, account.name),
    h('a', { href: '/account', id: 'account-page' }, 'Account'),
    h('button', { type: 'button', id: 'sign-out', onclick: signOut }, 'Sign out'),
  ];
}

/**
 * Puts the site header at the top of the page and fills its account part once the server has
 * answered (`data-state` is then `in` or `out`). Returns the promise of the account.
 */
export function siteHeader(here) {
  const el = header(here);
  el.querySelector('nav').after(themeButton());
  document.body.prepend(el);
  const box = /** @type {HTMLElement} */ (el.querySelector('.account'));
  return me().then((account) => {
    fill(box, accountLinks(account));
    box.dataset.state = account ? 'in' : 'out';
    return account;
  });
}

/** "Playing as NAME", NAME linking to the account's profile. */
export function playingAs(account, id) {
  return h('p', { class: 'playing-as', id }, 'Playing as ', h('a', { href: profileHref(account.name) }, account.name));
}

/**
 * Who plays, where a page asks: for an account "Playing as NAME" (no name is sent, the server
 * uses the account's); for a guest a name field, prefilled with the name this browser
 * remembers. Returns {el, name()}: name() is undefined for an account, the trimmed field for a
 * guest.
 */
export function whoPlays(account, { id = 'name', value = rememberedName() } = {}) {
  if (account) return { el: playingAs(account, `${id}-as`), name: () => undefined };
  const input = h('input', { id, name: 'name', maxlength: 40, required: true, value, autocomplete: 'nickname' });
  return {
    el: h('label', { class: 'your-name' }, 'Your name ', input),
    name: () => input.value.trim(),
  };
}

/**
 * A form to take a seat or a place: who plays (above), and a button. `onJoin(name)` joins
 * (name undefined for an account); a guest who gave no name is asked for one first. A guest is
 * offered to sign in instead (and comes back here, invitation and all).
 */
export function joinForm(account, { id, text, button, onJoin }) {
  const who = whoPlays(account, { id: `${id}-name` });
  const submit = h('button', { type: 'submit', class: 'primary', id }, button);
  const form = h('form', { class: 'join-form', id: `${id}-form`, autocomplete: 'off' },
    text ? h('p', {}, text) : null,
    h('div', { class: 'row' }, who.el, submit),
    account ? null : h('p', { class: 'note' }, 'Or ', h('a', { href: signInHref(), class: 'join-sign-in' }, 'sign in'), ' to play with your account.'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = who.name();
    if (name === '') {
      say('Give your name first.', 'error');
      return;
    }
    if (name) setPlayerName(name);
    submit.disabled = true;
    try {
      await onJoin(name);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
