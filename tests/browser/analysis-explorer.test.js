// The explorer panel of the analysis board (issue 19, item 3): at the start position it lists
// the moves of the games imported, with the counts the API gives, most played first; a click
// on a move plays it. The games come from the shared BoardSpace archive, imported into the
// test server's database with `zertz explorer import` before the server starts.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { binary, call, launch, repo, shot, startServer } from './lib.js';

const START = '37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1';
const env = { server: null, browser: null };

before(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zertz-browser-'));
  // One year of the archive: a few hundred games, enough for several first moves. The archive
  // is where .ci/run found it (ZERTZ_BOARDSPACE), else next to the repository.
  const root = process.env.ZERTZ_BOARDSPACE || path.resolve(repo, '..', 'shared', 'boardspace');
  const archive = path.join(root, 'archive-2025');
  const files = readdirSync(archive).slice(0, 1).map((f) => path.join(archive, f));
  const run = spawnSync(binary, ['explorer', 'import', '--db', path.join(dir, 'test.db'), ...files], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`zertz explorer import failed: ${run.stderr}`);
  env.server = await startServer({ dir });
  env.browser = await launch();
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
});

test('the explorer at the start: the moves and counts of the API, and a click plays', async () => {
  const api = await call(env.server, 'GET', `/api/explorer?position=${encodeURIComponent(START)}&source=all`);
  assert.ok(api.games > 0 && api.moves.length > 1, `games were imported (${api.games})`);
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${env.server.url}/analysis`);
  await page.waitForSelector('#board[data-ply="0"]');
  await page.check('#explorer-toggle');
  await page.waitForSelector('#explorer-moves tbody tr');
  const rows = await page.$$eval('#explorer-moves tbody tr[data-move]', (rs) => rs.map((r) => [r.dataset.move, Number(r.dataset.games)]));
  assert.deepEqual(rows, api.moves.map((m) => [m.move, m.games]));
  assert.equal(Number(await page.getAttribute('#explorer-total', 'data-games')), api.games);
  // Most played first.
  for (let k = 1; k < rows.length; k += 1) assert.ok(rows[k - 1][1] >= rows[k][1]);
  await shot(page, 'analysis-explorer');

  // A click on the most played move plays it, and the explorer follows.
  await page.click(`#explorer-moves tr[data-move="${rows[0][0]}"] button.explorer-move`);
  await page.waitForSelector('#board[data-ply="1"]');
  const next = await page.getAttribute('#board', 'data-position');
  const api2 = await call(env.server, 'GET', `/api/explorer?position=${encodeURIComponent(next)}&source=all`);
  await page.waitForFunction((n) => Number(document.querySelector('#explorer-total')?.dataset.games) === n, api2.games);
  assert.ok(api2.games >= rows[0][1], 'every game of the move reaches the position after it');
});
