// A real network drop: the server is killed in the middle of a game and of a match, and
// started again on the same database and port. The pages (a game's and a match's) say they
// lost the connection, reconnect by themselves, and follow the game and the match as they go on.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, call, storeSeat, clickMove, waitVersion, shownVersion } from './lib.js';

let server;
let browser;

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the game and match pages reconnect after the server was killed and restarted', async () => {
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
  // A best-of-3 match between them, watched on its page.
  const m = await call(server, 'POST', '/api/matches', { opponent: { kind: 'invite' }, name: 'Ole', best_of: 3 });
  // The invitation takes the place once; the place then plays with a token of its own.
  const mj = await call(server, 'POST', `/api/matches/${m.id}/join`, { name: 'Pia', token: m.invite_token });
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto(`${server.url}/match/${m.id}`);
  await watcher.waitForSelector('#match-score[data-score="0-0"]');
  await watcher.waitForFunction(() => window.zertzMatchSocket?.ws?.readyState === WebSocket.OPEN);

  await server.kill();
  for (const page of [ole, watcher]) {
    await page.waitForSelector('#connection:not([hidden])');
    assert.match(await page.textContent('#connection'), /reconnecting/);
  }
  server = await startServer({ port, dir: server.dir });
  for (const page of [ole, pia, watcher]) {
    await page.waitForSelector('#connection', { state: 'hidden', timeout: 15000 });
  }

  // Pia resigns the match's first game: the match page, never reloaded, shows the score.
  const { current_game: first } = await call(server, 'GET', `/api/matches/${m.id}`);
  await call(server, 'POST', `/api/games/${first}/action`, { type: 'resign' }, mj.token);
  await watcher.waitForSelector('#match-score[data-score="1-0"]', { timeout: 10000 });

  await clickMove(pia, 'Gd5,g1');
  await waitVersion(ole, await shownVersion(pia));
  assert.match(await ole.textContent('#status'), /Your turn/);
  const state = await call(server, 'GET', `/api/games/${g.id}`);
  assert.deepEqual(state.moves, ['Wd4,a1', 'Gd5,g1']);
  assert.equal(await ole.locator('#moves ol.moves li').count(), 3);
});
