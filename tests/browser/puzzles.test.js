// The puzzle trainer (/puzzles) with a small proven set (fixtures/puzzles.json, written by the
// Rust test `server_puzzles::the_browser_fixture_is_the_proven_set`): a guest solves a win in
// 2 move by move, the server answering with its defence, and sees the rating change kept in
// the browser; fails a win in 1, sees the refutation, retries (unrated) and solves it. The
// home page shows the daily puzzle.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { clicksFor, repo, serverAndBrowser, shot } from './lib.js';

const fixture = path.join(repo, 'tests', 'browser', 'fixtures', 'puzzles.json');
const set = JSON.parse(readFileSync(fixture, 'utf8'));
const byId = Object.fromEntries(set.puzzles.map((p) => [p.id, p]));

const env = serverAndBrowser({ args: ['--puzzles', fixture] });

async function guestPage() {
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error(`page: ${e.message}`); });
  return page;
}

async function enter(page, move) {
  for (const selector of clicksFor(move)) await page.click(selector);
}

const result = (page, r) => page.waitForSelector(`#verdict[data-result="${r}"]`);

test('a guest solves a puzzle move by move and sees the rating change', async () => {
  const chain = byId.chain;
  const page = await guestPage();
  await page.goto(`${env.server.url}/puzzles/chain`);
  await page.waitForSelector('#task[data-puzzle="chain"]');
  assert.equal(await page.textContent('#task'), 'Player 2 to move and win in 2');
  assert.equal(await page.getAttribute('#board', 'data-position'), chain.position);
  assert.match(await page.textContent('#puzzle-source'), /From game g-chain, move 30/);
  assert.equal(await page.getAttribute('#source-link', 'href'), '/game/g-chain');

  await enter(page, chain.solution.move);
  await result(page, 'right');
  const reply = chain.solution.then[0].defences[0];
  assert.match(await page.textContent('#verdict'), new RegExp(`The reply: ${reply.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.equal(await page.locator('#line li').count(), 2);

  await enter(page, chain.solution.then[0].next.move);
  await result(page, 'solved');
  const change = await page.textContent('#rating-change');
  assert.match(change, /Your puzzle rating: 1500 → \d+ \(\+\d+\)/);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('zertz.puzzles.rating')));
  assert.ok(kept.rating > 1500 && kept.deviation < 350, JSON.stringify(kept));
  assert.ok(await page.isVisible('#retry'));
  await shot(page, 'puzzle-solved');

  // The home page shows the daily puzzle, a link to it.
  await page.goto(env.server.url);
  await page.waitForSelector('#daily-puzzle:not([hidden])');
  const daily = await page.getAttribute('#daily-link', 'data-puzzle');
  assert.ok(byId[daily], daily);
  assert.equal(await page.getAttribute('#daily-link', 'href'), `/puzzles/${daily}`);
  assert.match(await page.textContent('#daily-text'), /Player [12] to move and win in [12]/);
  await page.context().close();
});

test('a guest fails a puzzle, sees the refutation, retries unrated and solves it', async () => {
  const iso = byId.iso;
  const page = await guestPage();
  await page.goto(`${env.server.url}/puzzles/iso`);
  await page.waitForSelector('#task[data-puzzle="iso"]');
  assert.equal(await page.textContent('#task'), 'Player 1 to move and win in 1');
  assert.match(await page.textContent('#puzzle-source'), /BoardSpace game Z-test-game-2006-08-10-1303\.sgf, move 21/);

  // A grey marble on a4 and a3 removed: the grey is taken, not the fourth white.
  await enter(page, 'Ga4,a3');
  await result(page, 'wrong');
  assert.match(await page.textContent('#verdict'), /Ga4,a3 x Ga4 is not the solution: after the reply .+, player 1 has no legal move left, so player 2 wins\./);
  assert.ok(Number(await page.getAttribute('#rating-change', 'data-change')) < 0);
  assert.equal(await page.getAttribute('#board', 'data-state'), 'wrong');
  // What the game's player did may be the answer: said only with the solution, when asked.
  assert.doesNotMatch(await page.textContent('#verdict'), /In the game/);
  await page.click('#solution');
  assert.match(await page.textContent('#verdict'), /In the game, the player (found it|missed it)/);
  assert.match(await page.textContent('#solution-text'), new RegExp(`was ${iso.solution.move.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await shot(page, 'puzzle-failed');

  await page.click('#retry');
  await result(page, 'solving');
  assert.equal(await page.getAttribute('#board', 'data-position'), iso.position);
  await enter(page, iso.solution.move);
  await result(page, 'solved');
  assert.match(await page.textContent('#rating-change'), /Unrated: only your first try at a puzzle counts/);

  // Next: the other puzzle (this one is solved now).
  await page.click('#next');
  await page.waitForSelector('#task[data-puzzle="chain"]');
  assert.match(page.url(), /\/puzzles\/chain$/);
  await page.context().close();
});
