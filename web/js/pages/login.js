// @ts-check
// The account pages, one file for three addresses: /login (sign in), /signup (create an
// account) and /account (change the password). Every refusal is shown in the server's words
// (a wrong password, a name taken, a rule broken, too many failed tries and how long to wait);
// after signing in or up the page goes back where the player came from (`?next=`, a path of
// this site only).

import { api } from '../lib/api.js';
import { safeNext, siteHeader } from '../lib/account.js';
import { $, say } from '../lib/ui.js';

const next = safeNext(new URLSearchParams(location.search).get('next'));
const mode = { '/login': 'login', '/signup': 'signup', '/account': 'account' }[location.pathname] || 'login';

/** Sends a form's request with its button disabled; `done(answer)` on success. */
function onSubmit(form, button, send, done) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const request = send();
    if (!request) return;
    button.disabled = true;
    say('');
    try {
      done(await request);
    } catch (err) {
      say(err.message, 'error');
    } finally {
      button.disabled = false;
    }
  });
}

function showLogin() {
  document.title = 'ZÈRTZ · sign in';
  $('title').textContent = 'Sign in';
  $('to-signup', HTMLAnchorElement).href = `/signup?next=${encodeURIComponent(next)}`;
  $('login').hidden = false;
  onSubmit($('login-form'), $('login-button'),
    () => api('POST', '/api/session', { name: $('login-name', HTMLInputElement).value.trim(), password: $('login-password', HTMLInputElement).value }),
    () => location.assign(next));
  $('login-name').focus();
}

function showSignup() {
  document.title = 'ZÈRTZ · create an account';
  $('title').textContent = 'Create an account';
  $('to-login', HTMLAnchorElement).href = `/login?next=${encodeURIComponent(next)}`;
  $('signup').hidden = false;
  onSubmit($('signup-form'), $('signup-button'), () => {
    if ($('signup-password', HTMLInputElement).value !== $('signup-again', HTMLInputElement).value) {
      say('The two passwords differ: type the same one twice.', 'error');
      return null;
    }
    return api('POST', '/api/accounts', { name: $('signup-name', HTMLInputElement).value.trim(), password: $('signup-password', HTMLInputElement).value });
  }, () => location.assign(next));
  $('signup-name').focus();
}

function showAccount(account) {
  document.title = 'ZÈRTZ · your account';
  $('title').textContent = 'Your account';
  $('account-who').textContent = `Signed in as ${account.name}.`;
  $('account').hidden = false;
  onSubmit($('password-form'), $('password-button'), () => {
    if ($('new-password', HTMLInputElement).value !== $('new-again', HTMLInputElement).value) {
      say('The two new passwords differ: type the same one twice.', 'error');
      return null;
    }
    return api('POST', '/api/me/password', { old: $('old-password', HTMLInputElement).value, new: $('new-password', HTMLInputElement).value });
  }, () => {
    $('password-form', HTMLFormElement).reset();
    say('Password changed. Your other sessions have ended; this one goes on.', 'ok');
  });
}

async function start() {
  const account = await siteHeader(mode === 'account' ? 'account' : mode);
  if (mode === 'account') {
    if (account) showAccount(account);
    else $('signed-out').hidden = false;
  } else if (account) {
    // Already signed in: nothing to fill, only the way on.
    $('title').textContent = mode === 'login' ? 'Sign in' : 'Create an account';
    $('signed-in-name').textContent = account.name;
    $('continue', HTMLAnchorElement).href = next;
    $('signed-in').hidden = false;
  } else if (mode === 'signup') showSignup();
  else showLogin();
}

start();
