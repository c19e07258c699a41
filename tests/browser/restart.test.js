// A real network drop: the server is killed in the middle of a game and started again on the
// same database and port. The pages say they lost the connection, reconnect by themselves and
// the game goes on.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, call, storeSeat, clickMove, waitVersion, shownVersion } from './lib.js';

let server;
let browser;

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the pages reconnect after the server was killed and restarted', async () => {
  server = await startServer();
  browser = await launch();
  const port = Number(new URL(server.url).port);
  const g = await call(server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Ole' });
  const j = await call(server, 'POST', `/api/games/${g.id}/join`, { name: 'Pia', token: g.invite_token });
  const pages = [];
  for (const token of [g.token, j.token]) {
    const page = await (await browser.newContext()).newPage();
    await storeSeat(page, server, g.id, token);
    await page.goto(`${server.url}/game/${g.id}`);
    await page.waitForSelector('#status[data-status=live]');
    pages.push(page);
  }
  const [ole, pia] = pages;
  await clickMove(ole, 'Wd4,a1');
  await waitVersion(pia, await shownVersion(ole));

  await server.kill();
  await ole.waitForSelector('#connection:not([hidden])');
  assert.match(await ole.textContent('#connection'), /reconnecting/);
  server = await startServer({ port, dir: server.dir });
  await ole.waitForSelector('#connection', { state: 'hidden', timeout: 15000 });
  await pia.waitForSelector('#connection', { state: 'hidden', timeout: 15000 });

  await clickMove(pia, 'Gd5,g1');
  await waitVersion(ole, await shownVersion(pia));
  assert.match(await ole.textContent('#status'), /Your turn/);
  const state = await call(server, 'GET', `/api/games/${g.id}`);
  assert.deepEqual(state.moves, ['Wd4,a1', 'Gd5,g1']);
  assert.equal(await ole.locator('#moves ol.moves li').count(), 3);
});
