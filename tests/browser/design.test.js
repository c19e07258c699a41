// A Zertz+xx game in two browsers: Alice creates it from the home page's form, designs the
// board by clicking places of the grid (and takes one ring away again), finishes the design;
// Bob swaps, so Alice moves first; then a few moves by clicking, on the designed board.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCustom, serverAndBrowser, personPage, gameState, gameId, rng, pickMove, clickMove, shot, waitVersion } from './lib.js';

const env = serverAndBrowser();

const named = (name) => personPage(env, name, { width: 1280, height: 900 });

const RINGS = ['c3', 'c4', 'c5', 'd3', 'd4', 'd5', 'd6', 'e3', 'e4', 'e5', 'f4', 'f5', 'g4'];

/** Clicks a place of the board and waits for the next version. */
async function clickPlace(page, coord) {
  const before = Number(await page.getAttribute('#status', 'data-version'));
  await page.click(`#board [data-coord="${coord}"]`);
  await waitVersion(page, before + 1);
}

test('design a board, swap, and play on it by clicking', async () => {
  const alice = await named('Alice');
  await alice.goto(`${env.server.url}/`);
  await openCustom(alice);
  await alice.check('input[name=opponent][value=invite]');
  await alice.selectOption('#board', 'Zertz+xx');
  await alice.click('#start');
  const link = await alice.inputValue('#invite-link');
  await alice.click('#go');
  await alice.waitForSelector('#status[data-status=open]');
  const bob = await named('Bob');
  await bob.goto(link);
  await bob.click('#join');
  await bob.waitForSelector('#status[data-status=live]');
  await alice.waitForSelector('#status[data-status=live]');
  const id = gameId(alice);

  // The whole grid is drawn, every place an outline to click.
  assert.match(await alice.textContent('#status'), /Design the board/);
  assert.match(await bob.textContent('#status'), /Alice is designing the board/);
  assert.equal(await alice.locator('#board .place.absent').count(), 17 * 12);
  // Bob cannot design: the click is refused on the page, nothing is sent.
  await bob.click('#board [data-coord="c3"]');
  assert.match(await bob.textContent('#message'), /Only player 1 designs/);

  for (const c of [...RINGS, 'a1']) await clickPlace(alice, c);
  await clickPlace(alice, 'a1'); // taken away again
  assert.equal(await alice.locator('#board .place.absent').count(), 17 * 12 - RINGS.length);
  const designed = await gameState(env.server, id);
  assert.deepEqual([...designed.design.rings].sort(), [...RINGS].sort());
  await waitVersion(bob, designed.version);
  assert.equal(await bob.locator('#board .place:not(.absent)').count(), RINGS.length, 'Bob sees the design');
  await shot(alice, 'design-grid');

  let v = designed.version;
  await alice.click('#finish-design');
  v += 1;
  await waitVersion(bob, v);
  // The designed board alone is drawn now; Bob may move first or swap.
  assert.equal(await bob.locator('#board .place').count(), RINGS.length);
  assert.equal(await bob.locator('#board .place.absent').count(), 0);
  assert.match(await bob.textContent('#status'), /or swap/);
  assert.equal(await alice.locator('#swap').count(), 0, 'the designer has no swap');
  await bob.click('#swap');
  v += 1;
  await waitVersion(alice, v);
  assert.match(await alice.textContent('#status'), /Your turn/);
  assert.equal(await bob.locator('#swap').count(), 0, 'one swap only');

  const pages = { 1: alice, 2: bob };
  const random = rng(3);
  for (let k = 0; k < 4; k += 1) {
    const state = await gameState(env.server, id);
    if (state.status !== 'live') break;
    const mover = pages[state.to_move];
    await waitVersion(mover, state.version);
    await clickMove(mover, pickMove(state.legal_moves, random));
  }
  const end = await gameState(env.server, id);
  assert.ok(end.moves.length >= 2, `moves were played: ${end.moves}`);
  assert.equal(end.design.swapped, true);
  assert.equal(end.board, 'custom');
  await shot(alice, 'design-played');
});
