// Accounts in the browser: signing up, out and in (each refusal shown in the server's words),
// changing the password; a logged-in player's game against a friend who signs up from the
// invitation, then played from a third browser that holds no seat token, only the session; a
// guest asked for a name before taking an invitation, and marked as a guest.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCustom, serverAndBrowser, call, clickMove, gameId, shownVersion, waitVersion, shot } from './lib.js';

const env = serverAndBrowser();

const PASSWORD = 'marbles and rings';

/** A page in a browser context of its own (its own cookies and storage). */
async function fresh(viewport = { width: 1200, height: 850 }) {
  const context = await env.browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  return page;
}

/** Waits until the page's message line matches `re`. */
async function message(page, re) {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#message')?.textContent || ''), re.source);
  return page.textContent('#message');
}

/** Waits until the header says who is logged in ('in') or that nobody is ('out'). */
const headerSays = (page, state) => page.waitForSelector(`#account-nav[data-state=${state}]`);

/** Signs up on /signup (coming from `next`) and waits to be back there. */
async function signUp(page, name, next = '/') {
  await page.goto(`${env.server.url}/signup?next=${encodeURIComponent(next)}`);
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', PASSWORD);
  await page.fill('#signup-again', PASSWORD);
  await page.click('#signup-button');
  await arrive(page, next.split(/[?#]/)[0], `signing up as ${name}`);
}

/** Waits to be at `path`, signed in; a refusal on the way fails at once with its words. */
async function arrive(page, path, what) {
  const there = await Promise.race([
    page.waitForURL((url) => url.pathname === path).then(() => true),
    // (The loser of the race is left to time out or end with the page: never an error.)
    page.waitForFunction(() => document.querySelector('#message.error')?.textContent).then(() => false, () => true),
  ]);
  if (!there) throw new Error(`${what}: ${await page.textContent('#message')}`);
  await headerSays(page, 'in');
}

/** Signs in on /login and waits to be at `next`. */
async function signIn(page, name, password, next) {
  await page.goto(`${env.server.url}/login?next=${encodeURIComponent(next)}`);
  await page.fill('#login-name', name);
  await page.fill('#login-password', password);
  await page.click('#login-button');
  await arrive(page, next, `signing in as ${name}`);
}

const seatTokens = (page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('zertz.seat.') || k.startsWith('zertz.match.')));

test('sign up, sign out, sign in (a wrong password refused), change the password', async () => {
  const zoe = await fresh();
  await zoe.goto(`${env.server.url}/lobby`);
  await headerSays(zoe, 'out');
  await zoe.click('#sign-up');
  await zoe.waitForURL(/\/signup\?next=%2Flobby$/);

  // The server's rules, in its words.
  await zoe.fill('#signup-name', 'zo');
  await zoe.fill('#signup-password', PASSWORD);
  await zoe.fill('#signup-again', PASSWORD);
  await zoe.click('#signup-button');
  assert.match(await message(zoe, /name/), /3 to 20 characters/);
  await zoe.fill('#signup-name', 'Zoe');
  await zoe.fill('#signup-password', 'short');
  await zoe.fill('#signup-again', 'short');
  await zoe.click('#signup-button');
  assert.match(await message(zoe, /password/), /at least 8 characters/);
  await zoe.fill('#signup-password', PASSWORD);
  await zoe.fill('#signup-again', `${PASSWORD}!`);
  await zoe.click('#signup-button');
  await message(zoe, /passwords differ/);

  // Created and logged in: back on the lobby, the name in the header leads to the profile.
  await zoe.fill('#signup-again', PASSWORD);
  await zoe.click('#signup-button');
  await zoe.waitForURL(/\/lobby$/);
  await headerSays(zoe, 'in');
  assert.equal(await zoe.textContent('#account-name'), 'Zoe');
  assert.equal(await zoe.getAttribute('#account-name', 'href'), '/@/Zoe');
  assert.match(await zoe.textContent('#who'), /Playing as Zoe/);

  await zoe.click('#sign-out');
  await headerSays(zoe, 'out');
  assert.equal(await zoe.locator('#who input#name').count(), 1, 'a guest again: the name field is back');

  // The name is taken, whatever its case.
  await zoe.goto(`${env.server.url}/signup`);
  await zoe.fill('#signup-name', 'ZOE');
  await zoe.fill('#signup-password', PASSWORD);
  await zoe.fill('#signup-again', PASSWORD);
  await zoe.click('#signup-button');
  assert.match(await message(zoe, /taken/), /ZOE/);

  // A wrong password is refused; the right one signs in and goes back to `next`.
  await zoe.goto(`${env.server.url}/login?next=${encodeURIComponent('/archive')}`);
  await zoe.fill('#login-name', 'Zoe');
  await zoe.fill('#login-password', 'not the password');
  await zoe.click('#login-button');
  await message(zoe, /wrong name or password/);
  await zoe.fill('#login-password', PASSWORD);
  await zoe.click('#login-button');
  await zoe.waitForURL(/\/archive$/);
  await headerSays(zoe, 'in');

  // A `next` that leaves the site is not followed.
  await zoe.goto(`${env.server.url}/login?next=${encodeURIComponent('//example.com/x')}`);
  assert.equal(await zoe.getAttribute('#continue', 'href'), '/');

  // The password, changed on the account page: a wrong old one and a weak new one refused.
  await zoe.click('#account-page');
  await zoe.waitForURL(/\/account$/);
  await zoe.waitForSelector('#password-form');
  const change = async (old, now) => {
    await zoe.fill('#old-password', old);
    await zoe.fill('#new-password', now);
    await zoe.fill('#new-again', now);
    await zoe.click('#password-button');
  };
  await change('not the password', 'a new password');
  await message(zoe, /wrong/);
  await change(PASSWORD, 'short');
  await message(zoe, /at least 8 characters/);
  await change(PASSWORD, 'a new password');
  await message(zoe, /Password changed/);
  await shot(zoe, 'account-password-changed');

  await zoe.click('#sign-out');
  await headerSays(zoe, 'out');
  await signIn(zoe, 'Zoe', 'a new password', '/');
});

test('too many failed logins are refused with the wait, in words', async () => {
  const page = await fresh();
  await page.goto(`${env.server.url}/login`);
  await page.fill('#login-name', 'Nobody_here');
  await page.fill('#login-password', 'guessing again');
  // A few free tries, then each failure locks the name for a while (a second, then longer).
  for (let tries = 0; ; tries += 1) {
    assert.ok(tries < 10, 'locked after a few tries');
    await page.evaluate(() => { document.querySelector('#message').textContent = ''; });
    await page.click('#login-button');
    const said = await message(page, /./);
    if (/too many failed logins/.test(said)) {
      assert.match(said, /try again in \d+ s/);
      break;
    }
    assert.match(said, /wrong name or password/);
  }
});

test('a logged-in player invites a friend who signs up; a third browser plays by the session alone', async () => {
  const ann = await fresh();
  await signUp(ann, 'Ann');
  await ann.waitForSelector('#playing-as');
  assert.match(await ann.textContent('#playing-as'), /Playing as Ann/);
  assert.ok(await ann.locator('#name').isHidden(), 'no name field for an account');
  await openCustom(ann);
  await ann.check('input[name=opponent][value=invite]');
  await ann.click('#start');
  const link = await ann.inputValue('#invite-link');
  await ann.click('#go');
  await ann.waitForSelector('#status[data-status=open]');
  const id = gameId(ann);
  assert.deepEqual(await seatTokens(ann), [], 'an account keeps no seat token in the browser');

  // The friend opens the link as a guest: asked who plays, with a way to sign up first that
  // comes back to the invitation.
  const ben = await fresh();
  await ben.goto(link);
  await ben.waitForSelector('#join-form #join-name');
  await ben.click('#sign-up');
  await ben.fill('#signup-name', 'Ben');
  await ben.fill('#signup-password', PASSWORD);
  await ben.fill('#signup-again', PASSWORD);
  await ben.click('#signup-button');
  await ben.waitForURL((url) => url.pathname === `/game/${id}` && url.hash.startsWith('#join='));
  await ben.waitForSelector('#join-form #join-name-as');
  assert.match(await ben.textContent('#join-form'), /Playing as Ben/);
  assert.equal((await call(env.server, 'GET', `/api/games/${id}`)).status, 'open', 'nobody joined before the button');
  await ben.click('#join');
  await ben.waitForSelector('#status[data-status=live]');
  assert.ok(!ben.url().includes('#join'), 'the token leaves the address bar');
  assert.equal(await ben.getAttribute('#players .player.you .name a', 'href'), '/@/Ben');
  assert.equal(await ben.locator('#players .tag.guest').count(), 0, 'two accounts: no guest mark');
  await ann.waitForSelector('#status[data-status=live]');
  const state = await call(env.server, 'GET', `/api/games/${id}`);
  assert.deepEqual(state.seats.map((s) => [s.name, s.guest]), [['Ann', false], ['Ben', false]]);

  // A third browser, signed in as Ann, has no token for the game: the session gives the seat.
  const annAgain = await fresh();
  await signIn(annAgain, 'Ann', PASSWORD, `/game/${id}`);
  await annAgain.waitForSelector('#status[data-status=live]');
  assert.deepEqual(await seatTokens(annAgain), []);
  assert.match(await annAgain.textContent('#status'), /Your turn/);
  assert.match(await annAgain.textContent('#players .player.you .name'), /Ann/);
  await clickMove(annAgain, 'Wd4,a1');
  const version = await shownVersion(annAgain);
  await waitVersion(ann, version);
  await waitVersion(ben, version);
  assert.match(await ann.textContent('#moves'), /Wd4,a1/);
  assert.match(await ben.textContent('#status'), /Your turn/);
  assert.deepEqual((await call(env.server, 'GET', `/api/games/${id}`)).moves, ['Wd4,a1']);

  // Ann's home page lists the game (Ben to move) and who is online.
  await annAgain.goto(`${env.server.url}/`);
  const row = annAgain.locator(`#my-games li[data-game="${id}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /against Ben · their turn/);
  await annAgain.waitForSelector('#online[data-count]');
  const online = await annAgain.textContent('#online');
  assert.match(online, /Ann/);
  assert.match(online, /Ben/);
  await shot(annAgain, 'accounts-home');
});

test('a match against the engine follows the account to another browser', async () => {
  const cyd = await fresh();
  await signUp(cyd, 'Cyd');
  await openCustom(cyd);
  await cyd.selectOption('#level', '1');
  await cyd.check('#match');
  await cyd.click('#start');
  await cyd.waitForURL(/\/game\//);
  await cyd.waitForSelector('#status[data-status=live]');
  const game = gameId(cyd);
  const matchId = (await call(env.server, 'GET', `/api/games/${game}`)).match_game[0];

  const cydAgain = await fresh();
  await signIn(cydAgain, 'Cyd', PASSWORD, `/match/${matchId}`);
  const current = cydAgain.locator('#current-game');
  await current.waitFor();
  assert.match(await current.textContent(), /Play game 1/, 'the match page knows the account plays it');
  await current.click();
  await cydAgain.waitForSelector('#status[data-status=live]');
  assert.match(await cydAgain.textContent('#status'), /Your turn/);
  assert.deepEqual(await seatTokens(cydAgain), []);
});

test('a guest opening an invitation gives a name first and is marked as a guest', async () => {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Hugo' });
  const quinn = await fresh();
  await quinn.goto(`${env.server.url}/lobby`);
  await quinn.evaluate(() => localStorage.setItem('zertz.name', 'Quinn'));
  await quinn.goto(`${env.server.url}${g.invite_url}`);
  await quinn.waitForSelector('#join-form');
  assert.equal(await quinn.inputValue('#join-name'), 'Quinn', 'the remembered name, to change or keep');
  assert.equal((await call(env.server, 'GET', `/api/games/${g.id}`)).status, 'open', 'not joined before asking');
  await quinn.fill('#join-name', '  ');
  await quinn.click('#join');
  await message(quinn, /Give your name first/);
  await quinn.fill('#join-name', 'Quinn <b>Q</b>');
  await quinn.click('#join');
  await quinn.waitForSelector('#status[data-status=live]');
  // The name is text, never markup; both guests carry the mark.
  assert.equal(await quinn.textContent('#players .player.you .name'), 'Quinn <b>Q</b>');
  assert.equal(await quinn.locator('#players .player b').count(), 0);
  assert.equal(await quinn.locator('#players .player.you .tag.guest').count(), 1);
  assert.match(await quinn.getAttribute('#players .player.you .tag.guest', 'title'), /no account/);
  assert.equal(await quinn.locator('#players .tag.guest').count(), 2);
  assert.equal(await seatTokens(quinn).then((k) => k.length), 1, 'a guest keeps the seat token');
  const state = await call(env.server, 'GET', `/api/games/${g.id}`);
  assert.deepEqual(state.seats.map((s) => [s.name, s.guest]), [['Hugo', true], ['Quinn <b>Q</b>', true]]);

  // The link took the seat once: Quinn's seat plays with a token of its own, and the link no
  // longer acts for it. Quinn opening it again still plays; anyone else is told it was used.
  const [kept] = await quinn.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('zertz.seat.')).map((k) => localStorage.getItem(k)));
  assert.notEqual(kept, g.invite_token, 'the seat token is not the invitation');
  await quinn.goto(`${env.server.url}/lobby`);
  await quinn.goto(`${env.server.url}${g.invite_url}`);
  await quinn.waitForSelector('#players .player.you');
  assert.ok(!quinn.url().includes('#join'), 'the used link leaves the address bar');
  const mallory = await fresh();
  await mallory.goto(`${env.server.url}${g.invite_url}`);
  await message(mallory, /This invitation can no longer be used: its seat is taken/);
  assert.equal(await mallory.locator('#players .player.you').count(), 0, 'the link gives no seat');
  await assert.rejects(call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Mallory', token: g.invite_token }), /409.*this invitation has been used/);

  // The lobby marks them too.
  await quinn.goto(`${env.server.url}/lobby`);
  const row = quinn.locator(`#live-games tr[data-game="${g.id}"]`);
  await row.waitFor();
  assert.equal(await row.locator('.tag.guest').count(), 2);
  assert.match(await row.textContent(), /Quinn <b>Q<\/b>/);
});
