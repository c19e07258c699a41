// The ways onto the analysis board: the game page's "Analyse" button (at the move shown, live
// or finished), each archive entry's, and the archive viewer's, for a game of the server (by
// its id) and for an imported record (by its start and moves).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, freshPage, gameState } from './lib.js';

const env = serverAndBrowser();

/** A game between Ann and Ben with `n` moves played (the first legal move each turn). */
async function played(n) {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Ann' });
  const j = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Ben', token: g.invite_token });
  const tokens = [g.token, j.token];
  let s = await gameState(env.server, g.id);
  for (let k = 0; k < n; k += 1) {
    s = (await call(env.server, 'POST', `/api/games/${g.id}/action?legal=list`, { type: 'move', move: s.legal_moves[0] }, tokens[s.to_move - 1])).state;
  }
  return { id: g.id, tokens, state: s };
}

const query = async (page, selector) => new URL(await page.getAttribute(selector, 'href'), env.server.url).searchParams;

test("the game page's Analyse button follows the move shown", async () => {
  const { id } = await played(3);
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/game/${id}`);
  await page.waitForSelector('#status[data-status=live]');
  await page.waitForFunction(() => /turn=3/.test(document.querySelector('#analyse-link').href));
  let q = await query(page, '#analyse-link');
  assert.equal(q.get('game'), id);
  assert.equal(q.get('turn'), '3');
  // Looking back at move 1: the button opens the board there.
  await page.click('#moves button[data-turn="1"]');
  await page.waitForFunction(() => /turn=1/.test(document.querySelector('#analyse-link').href));
  q = await query(page, '#analyse-link');
  assert.equal(q.get('turn'), '1');
  assert.equal(new URL(await page.getAttribute('#analyse-link', 'href'), env.server.url).pathname, '/analysis');
});

test('the archive offers Analyse on each game and in its viewer, also for an imported record', async () => {
  const { id, tokens } = await played(4);
  await call(env.server, 'POST', `/api/games/${id}/action`, { type: 'resign' }, tokens[0]);
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/archive`);
  const row = page.locator(`#finished tr[data-game="${id}"]`);
  await row.waitFor();
  const href = await row.locator('a.analyse-game').getAttribute('href');
  assert.equal(href, `/analysis?game=${encodeURIComponent(id)}`);
  // The viewer: at the end of the game, then after move 2.
  await row.locator('button.replay-game').click();
  await page.waitForSelector('#analyse-here');
  let q = await query(page, '#analyse-here');
  assert.equal(q.get('game'), id);
  assert.equal(q.get('turn'), '4');
  await page.click('#prev');
  await page.click('#prev');
  q = await query(page, '#analyse-here');
  assert.equal(q.get('turn'), '2');

  // An imported record: the board opens at its start with the moves up to the one shown.
  const record = await (await fetch(`${env.server.url}/api/games/${id}/record`)).text();
  const data = await call(env.server, 'POST', '/api/import', { text: record });
  await page.fill('#import-text', record);
  await page.click('#import-button');
  await page.waitForFunction(() => document.querySelector('#viewer-title')?.textContent.startsWith('Imported'));
  await page.waitForFunction(() => /line=/.test(document.querySelector('#analyse-here').href));
  q = await query(page, '#analyse-here');
  assert.equal(q.get('game'), null);
  assert.equal(q.get('position'), data.positions[0]);
  assert.deepEqual(q.get('line').split(';'), data.moves);
  await page.click('#first');
  q = await query(page, '#analyse-here');
  assert.equal(q.get('line'), null, 'at the start no move is given');
});
