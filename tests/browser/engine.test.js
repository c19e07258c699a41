// A game against the engine started from the home page: moves by clicking, the engine's
// replies, resigning, and a rematch the engine accepts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCustom, serverAndBrowser, gameState, gameId, rng, pickMove, clickMove, shot, waitVersion } from './lib.js';

const env = serverAndBrowser();

test('a game against the engine, by clicking, then resign and rematch', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${env.server.url}/`);
  await page.fill('#name', 'Dana');
  await openCustom(page);
  await page.selectOption('#level', '1');
  await page.selectOption('#clock', 'reserve');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('#status[data-status=live]');
  const id = gameId(page);
  assert.match(await page.textContent('#status'), /Your turn/);
  // The engine's level with its published rating.
  assert.match(await page.textContent('#players'), /Engine level 1 \(800\)/);
  assert.match(await page.textContent('#players .player.you .clock'), /reserve 3:00/, 'the per-move + reserve clock');

  const random = rng(3);
  for (let i = 0; i < 3; i += 1) {
    const state = await gameState(env.server, id);
    assert.equal(state.to_move, 1);
    await clickMove(page, pickMove(state.legal_moves, random));
    // The engine answers by itself.
    await waitVersion(page, state.version + 2, 20000);
    assert.match(await page.textContent('#status'), /Your turn/);
  }
  const state = await gameState(env.server, id);
  assert.equal(state.moves.length, 6);
  assert.equal(await page.locator('#moves ol.moves li').count(), 7);
  await shot(page, 'engine-game');

  await page.click('#resign');
  await page.click('#resign-confirm');
  await page.waitForSelector('#status[data-status=finished]');
  assert.match(await page.textContent('#status'), /resign/i);
  await page.click('#rematch');
  await page.waitForSelector('#rematch-link', { timeout: 10000 });
  await page.click('#rematch-link');
  await page.waitForSelector('#status[data-status=live]');
  assert.notEqual(gameId(page), id);
  // Seats are swapped: the engine moves first and the page waits for it.
  await page.waitForFunction(() => /Your turn/.test(document.querySelector('#status').textContent), null, { timeout: 20000 });
});
