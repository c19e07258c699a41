// Every page, as a guest and signed in, checked after its scripts have drawn it: no two
// elements share an id (a second element with an id makes `getElementById` answer the first, so
// the control written second is dead: the puzzle page's theme filter was, behind the header's
// theme button), and an ordinary guest's visit leaves no error in the console (a guest asking
// who is logged in, or for a game's review before there is one, is answered, not refused).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, call, freshPage, signUpAs, repo } from './lib.js';

// The proven set of the puzzle page's own test, so the puzzle page has puzzles and themes.
const env = serverAndBrowser({ args: ['--puzzles', path.join(repo, 'tests', 'browser', 'fixtures', 'puzzles.json')] });

/** The ids used more than once on the page, with how many times. */
async function repeatedIds(page) {
  return page.evaluate(() => {
    const seen = new Map();
    for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) || 0) + 1);
    return [...seen].filter(([, n]) => n > 1);
  });
}

async function pages() {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Ida' });
  const m = await call(env.server, 'POST', '/api/matches', { opponent: { kind: 'invite' }, name: 'Ida', best_of: 3 });
  return ['/', '/lobby', '/archive', `/game/${g.id}`, `/match/${m.id}`, '/login', '/signup', '/players', '/tournaments', '/room',
    '/analysis', '/puzzles', '/puzzles/chain', '/learn', '/learn/placing', '/rules', '/no-such-page'];
}

test('no page has two elements with one id, for a guest or a player signed in', async () => {
  const paths = await pages();
  const guest = await freshPage(env);
  const player = await freshPage(env);
  await signUpAs(env, player, 'idchecker');
  for (const [who, page] of [['guest', guest], ['signed in', player]]) {
    for (const p of [...paths, ...(who === 'signed in' ? ['/account', '/@/idchecker'] : [])]) {
      await page.goto(`${env.server.url}${p}`);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await repeatedIds(page), [], `${p} (${who})`);
    }
  }
});

test('the puzzle page\'s theme filter works beside the header\'s theme button', async () => {
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/puzzles`);
  await page.waitForLoadState('networkidle');
  const options = await page.$$eval('#theme option', (os) => os.map((o) => o.value));
  assert.ok(options.length > 1, `the filter lists themes: ${options}`);
  assert.equal(await page.locator('#theme').evaluate((el) => el.tagName), 'SELECT');
  // The header's button is its own element, and still switches the colours.
  const before = await page.evaluate(() => document.documentElement.dataset.theme);
  await page.click('#theme-switch');
  assert.notEqual(await page.evaluate(() => document.documentElement.dataset.theme), before);
  const height = await page.locator('#theme-switch').evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(height < 60, `the header button is ${height} px tall`);
});

test('a guest\'s visit to every page logs no error in the console', async () => {
  const paths = await pages();
  // A finished game on the analysis board: the page asks for its review, which does not exist yet.
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Ida' });
  const j = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Ivo', token: g.invite_token });
  await call(env.server, 'POST', `/api/games/${g.id}/action`, { type: 'resign' }, j.token);
  paths.push(`/analysis?game=${g.id}`);
  const guest = await freshPage(env);
  const errors = [];
  guest.on('console', (m) => { if (m.type() === 'error') errors.push(`${guest.url()}: ${m.text()}`); });
  for (const p of paths.filter((p) => p !== '/no-such-page')) {
    await guest.goto(`${env.server.url}${p}`);
    await guest.waitForLoadState('networkidle');
  }
  assert.deepEqual(errors, []);
});
