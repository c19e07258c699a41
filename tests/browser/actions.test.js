// The buttons beside the board: a takeback asked and allowed, a draw offered and declined, then
// offered and accepted; a game claimed from an opponent who left.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, storeSeat, clickMove, waitVersion, shownVersion } from './lib.js';

const env = serverAndBrowser({ args: ['--claim-after', '2'] });

async function seated(id, token) {
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 850 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await storeSeat(page, env.server, id, token);
  await page.goto(`${env.server.url}/game/${id}`);
  await page.waitForSelector('#status[data-status=live]');
  return page;
}

test('takeback and draw, asked and answered with the buttons', async () => {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Kim' });
  const j = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Lou', token: g.invite_token });
  const kim = await seated(g.id, g.token);
  const lou = await seated(g.id, j.token);

  await clickMove(kim, 'Wd4,a1');
  await waitVersion(lou, await shownVersion(kim));
  await kim.click('#takeback');
  await lou.waitForSelector('#accept-takeback');
  await lou.click('#accept-takeback');
  await kim.waitForFunction(() => /Your turn/.test(document.querySelector('#status').textContent));
  assert.deepEqual((await call(env.server, 'GET', `/api/games/${g.id}`)).moves, []);
  assert.equal(await kim.locator('#board [data-coord="a1"]').count(), 1, 'the removed ring is back');

  await kim.click('#offer-draw');
  await lou.waitForSelector('#accept-draw');
  await lou.click('text=Decline draw');
  await kim.waitForSelector('#offer-draw');
  await clickMove(kim, 'Gd4,g1');
  await lou.waitForSelector('#offer-draw');
  await lou.click('#offer-draw');
  await kim.waitForSelector('#accept-draw');
  await kim.click('#accept-draw');
  await kim.waitForSelector('#status[data-status=finished]');
  await lou.waitForSelector('#status[data-status=finished]');
  assert.match(await lou.textContent('#status'), /Drawn/);
  const state = await call(env.server, 'GET', `/api/games/${g.id}`);
  assert.equal(state.result.token, '1/2-1/2');
});

test('the game of an opponent who left is claimed after the countdown', async () => {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Max' });
  const j = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Nia', token: g.invite_token });
  const max = await seated(g.id, g.token);
  const nia = await seated(g.id, j.token);
  await clickMove(max, 'Bd4,g1');
  await waitVersion(nia, await shownVersion(max));
  await nia.context().close();
  await max.waitForSelector('#players .away');
  await max.click('#claim', { timeout: 10000 });
  await max.waitForSelector('#status[data-status=finished]');
  assert.match(await max.textContent('#status'), /You win!/);
});
