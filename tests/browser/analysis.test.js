// The analysis board (issue 19, item 1): moves played by pointing and typing kept as a tree of
// variations (a new move branches, a variation is promoted and deleted, a comment stays plain
// text), the arrow keys over the tree, the address that reopens the same board, a move the
// server refuses said in its words, and the position editor with the server's verdict.
// Needs GET /api/position, POST /api/position/play and POST /api/position/setup.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, clicksFor, freshPage, shot } from './lib.js';

const env = serverAndBrowser();

const START = '37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1';

/** The legal moves of a position, from the API. */
const legal = async (position) => (await call(env.server, 'GET', `/api/position?position=${encodeURIComponent(position)}`)).legal;
/** The position after a move, from the API. */
const after = async (position, move) => (await call(env.server, 'POST', '/api/position/play', { position, move })).position;

/** Waits until the board shows the position `ply` moves from the start. */
const atPly = (page, ply) => page.waitForSelector(`#board[data-ply="${ply}"]`);
const shown = (page) => page.getAttribute('#board', 'data-position');
/** The moves of the main line, as the move list shows them. */
const mainLine = (page) => page.$$eval('#tree-moves .tree-line.main > button.mv:not(.start)', (bs) => bs.map((b) => b.dataset.move));
const variations = (page) => page.$$eval('#tree-moves .variation button.mv', (bs) => bs.map((b) => b.dataset.move));

/** Types `text` into the move field and plays it. */
async function typeMove(page, text) {
  await page.fill('#move-text', text);
  await page.press('#move-text', 'Enter');
}

/** A lenient spelling of a placement the server must read: `Wd4,a1` → `wd4 a1`. */
const lenient = (move) => move.replace(/^([WGB])/, (c) => c.toLowerCase()).replace(',', ' ');

test('variations: play, branch, promote, comment, delete, keys, and the address', async () => {
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/analysis`);
  await atPly(page, 0);
  assert.equal(await shown(page), START);
  assert.match(await page.textContent('#status'), /Player 1 to move/);

  // Move 1 by pointing.
  const l0 = await legal(START);
  const m1 = l0.find((m) => /^[WGB][a-g]\d,[a-g]\d$/.test(m));
  for (const s of clicksFor(m1)) await page.click(s);
  await atPly(page, 1);
  const p1 = await after(START, m1);
  assert.equal(await shown(page), p1);

  // Move 2 by typing, leniently.
  const l1 = await legal(p1);
  const [m2, m2b] = l1.filter((m) => /^[WGB][a-g]\d,[a-g]\d$/.test(m));
  await typeMove(page, lenient(m2));
  await atPly(page, 2);
  assert.deepEqual(await mainLine(page), [m1, m2]);

  // Back one move and another move there: a variation.
  await page.keyboard.press('ArrowLeft');
  await atPly(page, 1);
  await typeMove(page, m2b);
  await page.waitForFunction((m) => [...document.querySelectorAll('#tree-moves .variation button.mv')].some((b) => b.dataset.move === m), m2b);
  assert.deepEqual(await mainLine(page), [m1, m2], 'the main line stays');
  assert.deepEqual(await variations(page), [m2b]);
  assert.equal(await page.getAttribute('#tree-moves button.mv.current', 'data-move'), m2b);

  // A comment is kept as plain text, never as markup.
  const words = 'Better <b>here</b> & there';
  await page.fill('#comment', words);
  await page.waitForSelector('#tree-moves .comment');
  assert.equal(await page.textContent('#tree-moves .comment'), words);
  assert.equal(await page.locator('#tree-moves .comment b').count(), 0);

  // The address holds the position and the line: a new page opens the same board.
  const url = new URL(page.url());
  assert.equal(url.pathname, '/analysis');
  assert.equal(url.searchParams.get('position'), START);
  assert.deepEqual(url.searchParams.get('line').split(';'), [m1, m2b]);
  const again = await freshPage(env);
  await again.goto(url.href);
  await atPly(again, 2);
  assert.equal(await shown(again), await after(p1, m2b));
  assert.deepEqual(await mainLine(again), [m1, m2b]);

  // Promote: the variation becomes the main line.
  await page.click('#promote');
  await page.waitForFunction((m) => document.querySelector('#tree-moves .tree-line.main > button.mv[data-ply="2"]')?.dataset.move === m, m2b);
  assert.deepEqual(await mainLine(page), [m1, m2b]);
  assert.deepEqual(await variations(page), [m2]);
  await shot(page, 'analysis-tree');

  // Delete it: back to move 1, and the other move is the main line again.
  await page.click('#delete');
  await atPly(page, 1);
  assert.deepEqual(await mainLine(page), [m1, m2]);
  assert.deepEqual(await variations(page), []);

  // Keys: Home, End, ← →.
  await page.keyboard.press('End');
  await atPly(page, 2);
  await page.keyboard.press('Home');
  await atPly(page, 0);
  await page.keyboard.press('End');
  await atPly(page, 2);
  // Two presses in a row go two moves back, even before the first position has been shown.
  await page.evaluate(() => {
    for (let k = 0; k < 2; k += 1) document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
  });
  await atPly(page, 0);
  await page.keyboard.press('ArrowRight');
  await atPly(page, 1);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('line') !== null);
  assert.equal(new URL(page.url()).searchParams.get('line'), m1);

  // A move the server refuses: its sentence, and the board stays.
  await typeMove(page, 'Wz9,a1');
  await page.waitForFunction(() => document.querySelector('#message.error')?.textContent.length > 0);
  assert.match(await page.textContent('#message'), /z9/);
  assert.equal(await page.getAttribute('#board', 'data-ply'), '1');
});

test('the position editor: the server says what is wrong, then the position is analysed', async () => {
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/analysis`);
  await atPly(page, 0);
  await page.click('#edit-toggle');
  await page.waitForSelector('#setup-done');
  // Seven white marbles: one more than the rule set has.
  await page.click('[data-tool="W"]');
  for (const c of ['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'c1']) await page.click(`#board [data-coord="${c}"]`);
  assert.match(await page.textContent('#setup-supply'), /-1 white/);
  await page.click('#setup-done');
  await page.waitForFunction(() => document.querySelector('#setup-error')?.textContent.length > 0);
  assert.match(await page.textContent('#setup-error'), /white/i);
  await shot(page, 'analysis-editor');

  // One white marble on d4, a ring taken away at a1, player 2 to move.
  await page.click('#setup-clear');
  await page.click('#board [data-coord="d4"]');
  await page.click('[data-tool="ring"]');
  await page.click('#board [data-coord="a1"]');
  await page.selectOption('#setup-to-move', '2');
  await page.click('#setup-done');
  await page.waitForSelector('#editor', { state: 'hidden' });
  await atPly(page, 0);
  const position = await shown(page);
  assert.match(position, / 5\/8\/10 0\/0\/0 0\/0\/0 2$/);
  assert.equal(new URL(page.url()).searchParams.get('position'), position);
  const info = await call(env.server, 'GET', `/api/position?position=${encodeURIComponent(position)}`);
  assert.equal(info.to_move, 2);
  assert.match(await page.textContent('#status'), /Player 2 to move/);
});
