// The archive: finished games listed with their date, players, board, result and length, page
// by page, searched by player and filtered by board, rule set and result; the replay says how
// the game ended after its last move, keeps the current move in sight in its list, and writes
// the moves in host notation when asked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, freshPage, gameState, rng } from './lib.js';

const env = serverAndBrowser();

/** A game between `a` and `b` with `settings`, finished by `end` ('resign1', 'resign2', 'abort'). */
async function finished(a, b, settings, end) {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: a, ...settings });
  const j = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: b, token: g.invite_token });
  const action = end === 'abort' ? { type: 'abort' } : { type: 'resign' };
  await call(env.server, 'POST', `/api/games/${g.id}/action`, action, end === 'resign2' ? j.token : g.token);
  return g.id;
}

/** A game played to its end by seeded random moves (captures first), long enough to scroll. */
async function playedOut() {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Eve' });
  const j = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Fay', token: g.invite_token });
  const tokens = [g.token, j.token];
  const random = rng(3);
  let s = await gameState(env.server, g.id);
  while (s.status === 'live') {
    const captures = s.legal_moves.filter((m) => m.startsWith('x'));
    const quiet = s.legal_moves.filter((m) => !m.includes(' x '));
    const list = captures.length ? captures : quiet.length ? quiet : s.legal_moves;
    const move = list[Math.floor(random() * list.length)];
    s = (await call(env.server, 'POST', `/api/games/${g.id}/action?legal=list`, { type: 'move', move }, tokens[s.to_move - 1])).state;
  }
  return s;
}

const rows = (page) => page.locator('#finished tbody tr');

/** Waits until the list shows `n` games (0: the empty list's sentence); a refusal fails at once. */
async function listed(page, n) {
  const error = await page.waitForFunction((k) => {
    const e = document.querySelector('#finished-error');
    if (e) return e.textContent;
    if (k === 0) return document.querySelector('#no-finished') ? 'ok' : false;
    return document.querySelectorAll('#finished tbody tr').length === k ? 'ok' : false;
  }, n).then((h) => h.jsonValue());
  if (error !== 'ok') throw new Error(error);
}
const column = (page, n) => page.locator(`#finished tbody tr td:nth-child(${n})`).allTextContents();

let long = null; // the long game, played by the first test

test('finished games by page; the replay ends with how the game ended and follows the current move', async () => {
  long = await playedOut();
  assert.ok(long.moves.length >= 20, `a long game (${long.moves.length} moves)`);
  // 24 more: Ann and Ben on 37 rings, Cy and Di on 48 rings with the Blitz rules, some won by
  // the first player, some by the second, some called off.
  for (let k = 0; k < 12; k += 1) await finished('Ann', 'Ben', {}, k % 3 === 0 ? 'resign2' : 'resign1');
  for (let k = 0; k < 12; k += 1) await finished('Cy', 'Di', { board: '48', rules: 'blitz' }, k % 4 === 0 ? 'abort' : 'resign2');

  const page = await freshPage(env);
  await page.goto(`${env.server.url}/archive`);
  await page.waitForSelector('#finished tbody tr');
  // A page of 20: date, players, board, result and length; the newest first.
  assert.equal(await rows(page).count(), 20);
  assert.deepEqual(await page.locator('#finished thead th').allTextContents(), ['Date', 'Players', 'Board', 'Result', 'Length', '']);
  const first = rows(page).first();
  assert.match(await first.locator('td.date time').getAttribute('datetime'), /^\d{4}-\d\d-\d\dT/);
  assert.match(await first.textContent(), /Cy.*–.*Di/);
  assert.match(await first.textContent(), /48 rings · blitz/);
  assert.match(await first.locator('td.length').textContent(), /^0 moves$/);
  // The next page holds the other five, then back.
  await page.click('#older');
  await page.waitForSelector('#finished[data-page="2"]');
  assert.equal(await rows(page).count(), 5);
  assert.ok(await page.isHidden('#older'));
  const lengths = await column(page, 5);
  assert.ok(lengths.includes(`${long.moves.length} moves`), 'the long game is the oldest');
  await page.click('#newer');
  await page.waitForSelector('#finished[data-page="1"]');
  assert.equal(await rows(page).count(), 20);

  // The long game's replay: after its last move, how it ended (not who would move).
  await page.goto(`${env.server.url}/archive#game=${long.id}`);
  await page.waitForSelector('#replay-ending');
  const ending = `${long.result.text.charAt(0).toUpperCase()}${long.result.text.slice(1)}`;
  assert.equal((await page.textContent('#replay-ending')).replace(/\.$/, ''), ending.replace(/\.$/, ''));
  assert.equal(await page.locator('#replay-to-move').count(), 0);
  // The list scrolls by itself to keep the current move in sight: the last, the first, one between.
  const inSight = () => page.evaluate(() => {
    const box = document.querySelector('#replay-scroll').getBoundingClientRect();
    const r = document.querySelector('#replay-scroll li.current').getBoundingClientRect();
    return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  });
  assert.ok(await page.evaluate(() => document.querySelector('#replay-scroll').scrollHeight > document.querySelector('#replay-scroll').clientHeight), 'the list scrolls');
  assert.ok(await inSight(), 'the last move is in sight');
  await page.click('#first');
  assert.ok(await inSight(), 'the start is in sight');
  assert.match(await page.textContent('#counts'), /Eve to move/);
  for (let k = 0; k < 12; k += 1) await page.click('#next');
  assert.ok(await inSight(), 'move 12 is in sight');
  await page.click('#last');
  assert.ok(await inSight());

  // Host notation: the moves of the list in host notation, each in its own position.
  await page.selectOption('#opt-notation', 'host');
  const firstMove = await page.textContent('#replay-moves [data-turn="1"]');
  assert.match(firstMove, /^[WGB] [A-G]\d [A-G]\d$/);
  assert.equal(await page.getAttribute('#replay-moves [data-turn="1"]', 'data-move'), long.moves[0]);
  await page.selectOption('#opt-notation', 'official');
  await page.context().close();
});

test('finished games searched by player and filtered by board, rule set and result', async () => {
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/archive`);
  await page.waitForSelector('#finished tbody tr');
  // Search by player, filter by board, rule set and result (kept in the address).
  await page.fill('#filter-player', 'Ann');
  await page.click('#filter-apply');
  await listed(page, 12);
  assert.ok((await column(page, 2)).every((t) => /Ann/.test(t)));
  assert.match(page.url(), /\?player=Ann/);
  await page.selectOption('#filter-result', '0-1');
  await listed(page, 8);
  assert.ok((await column(page, 4)).every((t) => /^0-1/.test(t)));
  await page.fill('#filter-player', '');
  await page.selectOption('#filter-result', '');
  await page.selectOption('#filter-board', '48');
  await listed(page, 12);
  assert.ok((await column(page, 3)).every((t) => /^48 rings/.test(t)));
  await page.selectOption('#filter-rules', 'standard');
  await listed(page, 0);
  assert.match(await page.textContent('#no-finished'), /No finished game matches this search/);
  await page.selectOption('#filter-board', '');
  await listed(page, 13);
  await page.selectOption('#filter-result', '*');
  await listed(page, 0);
  await page.selectOption('#filter-rules', 'blitz');
  await listed(page, 3);
  assert.ok((await column(page, 4)).every((t) => /called off/.test(t)));

  await page.context().close();
});
