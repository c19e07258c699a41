// The engine panel of the analysis board (issue 19, item 1): switched on, it shows the
// evaluation, the depth and the best lines, updated as the search deepens; when the player
// moves on, the search follows the new position. Needs the analysis WebSocket
// (/api/analysis/ws) and the position routes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, freshPage, shot } from './lib.js';

const env = serverAndBrowser();

const START = '37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1';

/** The lines the panel shows: [{move, depth}]. */
const lines = (page) => page.$$eval('#engine-lines li', (ls) => ls.map((l) => l.dataset.move));
const depth = async (page) => Number(await page.getAttribute('#engine-depth', 'data-depth'));

test('the engine: lines that deepen, and that follow the board', async () => {
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/analysis`);
  await page.waitForSelector('#board[data-ply="0"]');
  await page.check('#engine-toggle');
  await page.waitForSelector('#engine-lines li');
  const first = await depth(page);
  // The lines are updated live: a deeper search, or the search's end, follows.
  await page.waitForFunction((d) => Number(document.querySelector('#engine-depth')?.dataset.depth) > d
    || document.querySelector('#engine-status')?.dataset.state === 'done', first, { timeout: 20000 });
  const legal = (await call(env.server, 'GET', `/api/position?position=${encodeURIComponent(START)}`)).legal;
  const shownLines = await lines(page);
  assert.ok(shownLines.length >= 1 && shownLines.length <= 3, `1 to 3 lines (${shownLines.length})`);
  for (const m of shownLines) assert.ok(legal.includes(m), `${m} is a legal move at the start`);
  assert.match(await page.textContent('#engine-eval'), /^[+-]?\d+$|wins in|loses in/);
  await shot(page, 'analysis-engine');

  // Playing the best line's move: the engine follows the new position.
  const move = shownLines[0];
  await page.click(`#engine-lines li[data-move="${move}"] button`);
  await page.waitForSelector('#board[data-ply="1"]');
  const next = await page.getAttribute('#board', 'data-position');
  const legal2 = (await call(env.server, 'GET', `/api/position?position=${encodeURIComponent(next)}`)).legal;
  await page.waitForFunction((l) => {
    const ms = [...document.querySelectorAll('#engine-lines li')].map((x) => x.dataset.move);
    return ms.length > 0 && ms.every((m) => l.includes(m));
  }, legal2, { timeout: 20000 });

  // Switched off: the lines go and the panel says how to start it again.
  await page.uncheck('#engine-toggle');
  await page.waitForSelector('#engine-status[data-state=off]');
  assert.equal(await page.locator('#engine-lines li').count(), 0);
});
