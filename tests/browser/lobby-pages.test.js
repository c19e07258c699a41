// The lobby pages its open games (20 a page, older and newer), so that many seeks never push
// anyone's out of reach, and leaves out invitations waiting for their friend, which no limit
// holds (issue 21).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, serverAndBrowser, personPage } from './lib.js';

// Every request of a browser test comes from 127.0.0.1: one client, allowed many seeks here.
const env = serverAndBrowser({ args: ['--seeks-per-client', '30'] });

test('the lobby pages open games and leaves invitations out', async () => {
  const seeks = [];
  for (let i = 1; i <= 23; i += 1) {
    seeks.push((await call(env.server, 'POST', '/api/games', { opponent: { kind: 'open' }, name: `Seeker ${i}` })).id);
  }
  const invitations = [];
  for (let i = 0; i < 10; i += 1) {
    invitations.push((await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Flood' })).id);
  }
  const page = await personPage(env, 'Kai', { width: 1200, height: 850 });
  await page.goto(`${env.server.url}/lobby`);
  const rows = page.locator('#open-games tr[data-game]');
  const shown = async () => page.$$eval('#open-games tr[data-game]', (trs) => trs.map((tr) => tr.dataset.game));

  await page.waitForFunction(() => document.querySelectorAll('#open-games tr[data-game]').length === 20);
  assert.equal(await page.textContent('#open-page'), 'Page 1');
  assert.ok(await page.isDisabled('#open-previous'));
  const first = await shown();
  assert.ok(first.every((id) => seeks.includes(id)), 'seeks only, no invitation');
  assert.ok(first.includes(seeks[22]) && !first.includes(seeks[0]), 'the newest first');

  await page.click('#open-next');
  await page.waitForSelector('#open-page:text("Page 2")');
  await page.waitForFunction(() => document.querySelectorAll('#open-games tr[data-game]').length === 3);
  const second = await shown();
  assert.deepEqual([...first, ...second].sort(), [...seeks].sort(), 'every seek on one page or the other, once');
  assert.ok(second.includes(seeks[0]), 'the oldest seek is reached');
  assert.ok(!(await shown()).some((id) => invitations.includes(id)));

  await page.click('#open-previous');
  await page.waitForSelector('#open-page:text("Page 1")');
  await page.waitForFunction(() => document.querySelectorAll('#open-games tr[data-game]').length === 20);
  assert.equal(await rows.count(), 20);
});
