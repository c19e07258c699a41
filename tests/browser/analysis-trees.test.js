// Import and export on the analysis board: a tree with a variation and a comment goes out as
// the project's record and as SGF, and each comes back in as the same tree; a record with
// bribes imports with each bribe a node of its own, stepped onto like a move. Needs the tree
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

/** The moves of the main line, as the move list shows them. */
const mainLine = (page) => page.$$eval('#tree-moves .tree-line.main > button.mv:not(.start)', (bs) => bs.map((b) => b.dataset.move));

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

// A record with bribes (rules.md 7.3): player 2 buys a pass with a white marble, then offers
// another that player 1 rejects. Both players start with two white marbles captured.
const BRIBE_START = '37 standard ..../...../....../......./....../...../.... 2/8/10 2/0/0 2/0/0 1';
const BRIBE_RECORD = `[Bribes "on"]
[Start "${BRIBE_START}"]

1. Wd4,a1 (bribe 1/0/0 accepted) - 2. Gb2,g4 (bribe 1/0/0 rejected) Bf2,a2 *
`;
const BRIBE_STEPS = ['Wd4,a1', 'bribe 1/0/0 accepted', 'Gb2,g4', 'bribe 1/0/0 rejected', 'Bf2,a2'];

/** Waits until the board shows the node `ply` steps deep, then says what it shows. */
async function shownAt(page, ply) {
  await page.waitForSelector(`#board[data-ply="${ply}"]`);
  return {
    position: await page.getAttribute('#board', 'data-position'),
    current: await page.getAttribute('#tree-moves button.mv.current', 'data-move'),
    toMove: await page.getAttribute('#status', 'data-to-move'),
  };
}

test('an imported record with bribes: each bribe is a node shown and stepped onto, and exported', async () => {
  // The positions the server's record reader gives, one a turn: a rejected bribe is no turn.
  const game = await call(env.server, 'POST', '/api/import', { text: BRIBE_RECORD });
  assert.deepEqual(game.moves, ['Wd4,a1', '-', 'Gb2,g4', 'Bf2,a2']);
  const expected = [game.positions[0], game.positions[1], game.positions[2], game.positions[3], game.positions[3], game.positions[4]];

  const page = await freshPage(env);
  await page.goto(`${env.server.url}/analysis`);
  await page.waitForSelector('#board[data-ply="0"]');
  await page.click('.io-panel summary');
  await page.fill('#import-text', BRIBE_RECORD);
  await page.click('#import-button');
  await page.waitForFunction(() => /Imported: 5 moves/.test(document.querySelector('#io-status').textContent));
  assert.deepEqual(await mainLine(page), BRIBE_STEPS);
  assert.equal(await page.getAttribute('#board', 'data-position'), BRIBE_START);
  // The move list counts turns: the rejected bribe is an event before player 2's second move.
  assert.equal(await page.locator('#tree-moves button.mv.event').count(), 1);
  assert.equal(await page.textContent('#tree-moves .tree-line.main'), 'start1.Wd4,a1bribe 1/0/0 accepted2.Gb2,g4bribe 1/0/0 rejected2…Bf2,a2');

  // Step by step with the arrow key: onto each bribe and past it.
  const toMove = ['1', '2', '1', '2', '2', '1'];
  for (let ply = 1; ply <= BRIBE_STEPS.length; ply += 1) {
    await page.keyboard.press('ArrowRight');
    const at = await shownAt(page, ply);
    assert.deepEqual(at, { position: expected[ply], current: BRIBE_STEPS[ply - 1], toMove: toMove[ply] }, `step ${ply}`);
  }
  assert.equal(await page.textContent('#message'), '', 'no error on the way');

  // A click in the move list goes straight to a bribe, and the address reopens the board there.
  await page.click('#tree-moves button.mv[data-move="bribe 1/0/0 accepted"]');
  assert.deepEqual(await shownAt(page, 2), { position: expected[2], current: 'bribe 1/0/0 accepted', toMove: '1' });
  await page.click('#tree-moves button.mv[data-move="bribe 1/0/0 rejected"]');
  assert.deepEqual(await shownAt(page, 4), { position: expected[4], current: 'bribe 1/0/0 rejected', toMove: '2' });
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('bribes'), 'on');
  assert.deepEqual(url.searchParams.get('line').split(';'), BRIBE_STEPS.slice(0, 4));
  const again = await freshPage(env);
  await again.goto(url.href);
  assert.deepEqual(await shownAt(again, 4), { position: expected[4], current: 'bribe 1/0/0 rejected', toMove: '2' });

  // A bribe typed after the first move: a variation beside the accepted one.
  await page.click('#tree-moves button.mv[data-move="Wd4,a1"]');
  await shownAt(page, 1);
  await page.fill('#move-text', '(bribe 1/0/0 rejected)');
  await page.press('#move-text', 'Enter');
  assert.deepEqual(await shownAt(page, 2), { position: expected[1], current: 'bribe 1/0/0 rejected', toMove: '2' });
  assert.deepEqual(await page.$$eval('#tree-moves .variation button.mv', (bs) => bs.map((b) => b.dataset.move)), ['bribe 1/0/0 rejected']);

  // Out as a record and back in: the same tree, bribes included.
  const tree = await treeOf(page);
  await page.evaluate(() => { document.querySelector('#export-text').value = ''; });
  await page.click('#copy-record');
  await page.waitForFunction(() => document.querySelector('#export-text').value.length > 0);
  const text = await page.inputValue('#export-text');
  // The typed bribe is a variation of the accepted one: `((bribe 1/0/0 rejected))`.
  assert.match(text, /1\. Wd4,a1 \(bribe 1\/0\/0 accepted\) -\s+\(\(bribe 1\/0\/0 rejected\)\)\s+2\. Gb2,g4\s+\(bribe 1\/0\/0 rejected\) Bf2,a2 \*/);
  await page.fill('#import-text', text);
  await page.click('#import-button');
  await page.waitForFunction(() => /Imported: 6 moves with variations/.test(document.querySelector('#io-status').textContent));
  assert.deepEqual(await treeOf(page), tree);
  // BoardSpace's SGF has no bribes (nor this start): the export says it cannot, in words.
  await page.click('#copy-sgf');
  await page.waitForFunction(() => /Cannot export: /.test(document.querySelector('#io-status').textContent));
});
