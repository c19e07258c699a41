// The explorer panel of the analysis board (issue 19, item 3): at the start position it lists
// the moves of the games imported, with the counts the API gives, most played first; a click
// on a move plays it; the panel fits the 380 px side column and a phone without overflowing.
// The games come from the shared BoardSpace archive, imported into the test server's database
// with `zertz explorer import` before the server starts. A puzzle of the project's set cut from
// one of those games links to the game itself, opened on the analysis board at the puzzle's
// move; one whose game the explorer does not hold shows the position alone and says why.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { binary, call, launch, repo, shot, startServer } from './lib.js';

const START = '37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1';
const env = { server: null, browser: null };
const PUZZLES = path.join(repo, 'data', 'puzzles.json');

before(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zertz-browser-'));
  // One year of the archive: a few hundred games, enough for several first moves. The archive
  // is where .ci/run found it (ZERTZ_BOARDSPACE), else next to the repository.
  const root = process.env.ZERTZ_BOARDSPACE || path.resolve(repo, '..', 'shared', 'boardspace');
  const archive = path.join(root, 'archive-2025');
  const files = readdirSync(archive).slice(0, 1).map((f) => path.join(archive, f));
  const run = spawnSync(binary, ['explorer', 'import', '--db', path.join(dir, 'test.db'), ...files], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`zertz explorer import failed: ${run.stderr}`);
  env.server = await startServer({ dir, args: ['--puzzles', PUZZLES] });
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
  const listed = () => page.$$eval('#explorer-moves tbody tr[data-move]', (rs) => rs.map((r) => [r.dataset.move, Number(r.dataset.games)]));
  // The twelve most played, then every move when asked.
  assert.deepEqual(await listed(), api.moves.slice(0, 12).map((m) => [m.move, m.games]));
  if (api.moves.length > 12) {
    assert.match(await page.textContent('#explorer-all'), new RegExp(`Show all ${api.moves.length} moves`));
    await page.click('#explorer-all');
    await page.waitForSelector(`#explorer-moves tbody tr[data-move]:nth-child(${api.moves.length})`);
  }
  const rows = await listed();
  assert.deepEqual(rows, api.moves.map((m) => [m.move, m.games]));
  assert.equal(await page.locator('#explorer-all').count(), 0);
  assert.equal(Number(await page.getAttribute('#explorer-total', 'data-games')), api.games);
  assert.match(await page.textContent('#explorer-total'), api.games === 1 ? /^1 game reaches / : /^\d+ games reach /);
  // A rating column only when some move's games were rated (the BoardSpace games carry none).
  const rated = api.moves.some((m) => m.average_rating !== null && m.average_rating !== undefined);
  const headers = await page.$$eval('#explorer-moves thead th', (ths) => ths.map((t) => t.textContent));
  assert.equal(headers.includes('Rating'), rated, `${headers}`);
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

  // The explorer merges positions equal under a symmetry of the board: an example game that
  // met this position turned or mirrored opens turned as a whole, on this very position.
  let turned = null;
  for (const m of api2.moves) {
    for (const g of m.examples || []) {
      const got = await call(env.server, 'GET', `/api/explorer/games/${encodeURIComponent(g.id)}?position=${encodeURIComponent(next)}`);
      assert.equal(got.ply, 1, `${g.id} meets the position after one turn`);
      if (got.turned && !turned) turned = { move: m.move, id: g.id };
    }
  }
  assert.ok(turned, 'an example game met the position turned or mirrored');
  if (await page.locator('#explorer-all').count()) await page.click('#explorer-all');
  await page.click(`#explorer-moves tr[data-move="${turned.move}"] button.explorer-games`);
  await page.click(`#explorer-moves tr.examples button.explorer-game[data-game="${turned.id}"]`);
  await page.waitForFunction(() => /turned to match the board/.test(document.querySelector('#message')?.textContent || ''));
  await page.waitForSelector('#board[data-ply="1"]');
  assert.equal(await page.getAttribute('#board', 'data-position'), next);
});

/** How far the explorer reaches past its room (each 0 or less when nothing overflows). */
const overflow = (page) => page.evaluate(() => {
  const panel = document.querySelector('#explorer');
  const table = document.querySelector('#explorer-moves');
  return {
    panel: panel.scrollWidth - panel.clientWidth,
    table: table.getBoundingClientRect().right - panel.getBoundingClientRect().right,
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  };
});

test('the explorer fits the 380 px side column and a phone; a move\'s games unfold its date and examples', async () => {
  const api = await call(env.server, 'GET', `/api/explorer?position=${encodeURIComponent(START)}&source=all`);
  const m = api.moves.find((x) => x.examples && x.examples.length);
  assert.ok(m, 'some move has example games');
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const page = await env.browser.newPage({ viewport });
    page.on('pageerror', (e) => { throw e; });
    await page.goto(`${env.server.url}/analysis`);
    await page.waitForSelector('#board[data-ply="0"]');
    await page.check('#explorer-toggle');
    await page.waitForSelector('#explorer-moves tbody tr[data-move]');
    const width = await page.$eval('#explorer', (e) => e.getBoundingClientRect().width);
    if (viewport.width > 860) assert.ok(width <= 380, `the side column is 380 px (${width})`);
    const none = { panel: 0, table: 0, page: 0 };
    const clip = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.max(0, Math.ceil(v))]));
    assert.deepEqual(clip(await overflow(page)), none, `no overflow at ${viewport.width} px`);

    // The games count unfolds the last game's date and the example games, still in the room.
    await page.click(`#explorer-moves tr[data-move="${m.move}"] button.explorer-games`);
    await page.waitForSelector(`#explorer-moves tr.examples[data-of="${m.move}"]`);
    const details = await page.textContent(`#explorer-moves tr.examples[data-of="${m.move}"]`);
    assert.ok(details.includes(`Last played ${m.last_date}`), details);
    assert.deepEqual(
      await page.$$eval(`#explorer-moves tr.examples[data-of="${m.move}"] button.explorer-game`, (bs) => bs.map((b) => b.dataset.game)),
      m.examples.map((g) => g.id),
    );
    assert.deepEqual(clip(await overflow(page)), none, `no overflow at ${viewport.width} px with the games unfolded`);
    if (viewport.width < 860) await shot(page, 'analysis-explorer-narrow');
    await page.close();
  }
});

test('a puzzle from an archive game opens that game at its move; without the game, its position', async () => {
  const set = JSON.parse(readFileSync(PUZZLES, 'utf8')).puzzles.filter((p) => p.source.archive === 'boardspace');
  // A puzzle whose game was imported (the year's file names carry its date) and one whose game
  // was not (an older year).
  let held = null;
  for (const p of set.filter((x) => x.source.game.includes('-2025-'))) {
    const q = new URLSearchParams({ name: p.source.game });
    const r = await fetch(`${env.server.url}/api/explorer/games?${q}`);
    if (r.ok) { held = p; break; }
  }
  assert.ok(held, 'a puzzle of the set comes from a game of the imported archive');
  const missing = set.find((x) => x.source.game.includes('-2013-'));
  assert.ok(missing, 'a puzzle from a game of 2013');

  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${env.server.url}/puzzles/${held.id}`);
  await page.waitForSelector(`#task[data-puzzle="${held.id}"]`);
  assert.match(await page.textContent('#puzzle-source'), new RegExp(`From the BoardSpace game ${held.source.game.replace(/[.+]/g, '\\$&')}, move ${held.source.move_number}`));
  await page.click('#source-link');
  await page.waitForURL(/\/analysis\?/);
  // The game's own tree, at the puzzle's move: the board shows the puzzle's position, and the
  // game's later moves are there to step through.
  await page.waitForSelector(`#board[data-ply="${held.source.move_number - 1}"]`);
  assert.equal(await page.getAttribute('#board', 'data-position'), held.position);
  assert.match(await page.textContent('#message'), new RegExp(`Opened the BoardSpace game ${held.source.game.replace(/[.+]/g, '\\$&')}`));

  await page.goto(`${env.server.url}/puzzles/${missing.id}`);
  await page.waitForSelector(`#task[data-puzzle="${missing.id}"]`);
  await page.click('#source-link');
  await page.waitForURL(/\/analysis\?/);
  await page.waitForSelector('#board[data-ply="0"]');
  assert.equal(await page.getAttribute('#board', 'data-position'), missing.position);
  assert.match(await page.textContent('#message'), /explorer does not hold it.*The position alone is shown/);
  await page.close();
});
