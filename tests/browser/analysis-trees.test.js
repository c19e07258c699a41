// Import and export on the analysis board: a tree with a variation and a comment goes out as
// the project's record and as SGF, and each comes back in as the same tree. Needs the tree
// routes (/api/trees/import, /api/trees/export) and the position routes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, freshPage } from './lib.js';

const env = serverAndBrowser();

const START = '37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1';
const legal = async (position) => (await call(env.server, 'GET', `/api/position?position=${encodeURIComponent(position)}`)).legal;
const after = async (position, move) => (await call(env.server, 'POST', '/api/position/play', { position, move })).position;

/** The tree as the page holds it: moves and comments, nested. */
const treeOf = (page) => page.evaluate(() => {
  const walk = (n) => ({ move: n.move, comment: n.comment || '', children: n.children.map(walk) });
  return walk(window.zertzAnalysis.tree.root).children;
});

async function play(page, move, ply) {
  await page.fill('#move-text', move);
  await page.press('#move-text', 'Enter');
  await page.waitForSelector(`#board[data-ply="${ply}"]`);
}

test('a tree with a variation and a comment: out as record and SGF, and back in unchanged', async () => {
  const quiet = (l) => l.filter((m) => /^[WGB][a-g]\d,[a-g]\d$/.test(m));
  const [a, b] = quiet(await legal(START));
  const [c] = quiet(await legal(await after(START, a)));
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/analysis`);
  await page.waitForSelector('#board[data-ply="0"]');
  await play(page, a, 1);
  await play(page, c, 2);
  await page.keyboard.press('Home');
  await page.waitForSelector('#board[data-ply="0"]');
  await play(page, b, 1);
  await page.fill('#comment', 'the other way');
  const tree = await treeOf(page);
  assert.equal(tree.length, 2);

  await page.click('.io-panel summary');
  for (const format of ['record', 'sgf']) {
    await page.click(`#copy-${format}`);
    await page.waitForFunction(() => document.querySelector('#export-text').value.length > 0);
    const text = await page.inputValue('#export-text');
    if (format === 'sgf') assert.match(text, /^\s*\(;/);
    await page.evaluate(() => { document.querySelector('#export-text').value = ''; });
    // Back in: the same moves, variations and comments.
    await page.fill('#import-text', text);
    await page.click('#import-button');
    await page.waitForFunction(() => /Imported/.test(document.querySelector('#io-status').textContent));
    assert.deepEqual(await treeOf(page), tree, `through ${format}`);
  }
  // Something that is not a record: the server's sentence.
  await page.fill('#import-text', 'not a record at all');
  await page.click('#import-button');
  await page.waitForFunction(() => /Cannot import/.test(document.querySelector('#io-status').textContent));
});
