// Clicks and typing that do not make a legal move are refused with an explanation, and the
// page keeps showing what the server says.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, storeSeat, shownVersion, shot, waitVersion } from './lib.js';

const env = serverAndBrowser();

/** A live game between two people from `position` (or the standard start): {id, tokens}. */
async function liveGame(position) {
  const body = { opponent: { kind: 'invite' }, name: 'Erin' };
  if (position) body.position = position;
  const g = await call(env.server, 'POST', '/api/games', body);
  const joined = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Finn', token: g.invite_token });
  return { id: g.id, tokens: [g.token, joined.token] };
}

const message = (page) => page.textContent('#message');

test('wrong clicks in a placement turn explain themselves', async () => {
  const { id, tokens } = await liveGame();
  const page = await env.browser.newPage({ viewport: { width: 1200, height: 850 } });
  await storeSeat(page, env.server, id, tokens[0]);
  await page.goto(`${env.server.url}/game/${id}`);
  await page.waitForSelector('#status[data-status=live]');
  const version = await shownVersion(page);

  await page.click('#board [data-coord="a1"]');
  assert.match(await message(page), /First choose the colour of the marble/);
  await page.click('#supply [data-colour="W"]');
  assert.match(await page.textContent('#prompt'), /Place the white marble/);
  await page.click('#board [data-coord="d4"]');
  assert.match(await page.textContent('#prompt'), /remove a free ring/);
  assert.equal(await page.locator('#board .place.target.remove').count(), 18, 'the 18 edge rings are free');
  await page.click('#board [data-coord="d5"]');
  assert.match(await message(page), /The ring at d5 is not free: a ring can be removed only if it is empty/);
  await shot(page, 'illegal-explained');
  await page.click('#board [data-coord="d4"]');
  assert.match(await message(page), /d4 holds a marble|^$/);

  // Typed nonsense goes to the env.server, which says what is wrong; nothing changes.
  await page.click('#cancel');
  await page.fill('#move-text', 'Wz9,a1');
  await page.press('#move-text', 'Enter');
  await page.waitForFunction(() => /refused by the server/.test(document.querySelector('#message').textContent));
  assert.equal(await shownVersion(page), version);
  const server1 = await call(env.server, 'GET', `/api/games/${id}`);
  assert.equal(server1.version, version);
  assert.equal(server1.moves.length, 0);

  // A typed legal move is played.
  await page.fill('#move-text', 'Wd4,a1');
  await page.press('#move-text', 'Enter');
  await waitVersion(page, version + 1);
  assert.match(await page.textContent('#status'), /Finn is to move/);
  await page.click('#board [data-coord="a2"]');
  assert.match(await message(page), /It is not your turn: Finn is to move/);

  // The engine's analysis waits for the end of the game.
  const res = await fetch(`${env.server.url}/api/games/${id}/analysis`);
  assert.equal(res.status, 409);
  assert.match((await res.json()).error, /once the game is over/);

  // A spectator cannot move.
  const watcher = await env.browser.newPage();
  await watcher.goto(`${env.server.url}/game/${id}`);
  await watcher.waitForSelector('#status[data-status=live]');
  await watcher.click('#supply [data-colour="G"]');
  assert.match(await message(watcher), /You are watching this game/);
});

test('a compulsory capture: wrong clicks refused, the chain entered step by step', async () => {
  // White d4 and grey d5 next to each other: either may jump the other.
  const { id, tokens } = await liveGame('37 standard ..../...../....../...WG../....../...../.... 5/7/10 0/0/0 0/0/0 1');
  const page = await env.browser.newPage({ viewport: { width: 1200, height: 850 } });
  await storeSeat(page, env.server, id, tokens[0]);
  await page.goto(`${env.server.url}/game/${id}`);
  await page.waitForSelector('#status[data-status=live]');
  const version = await shownVersion(page);
  assert.match(await page.textContent('#prompt'), /A capture is compulsory/);

  await page.click('#supply [data-colour="B"]');
  assert.match(await message(page), /You cannot place a marble now: a capture is compulsory/);
  await page.click('#board [data-coord="a1"]');
  assert.match(await message(page), /a1 is an empty ring, and a capture is compulsory this turn\. Click a marble that can jump: d4 or d5/);
  await page.click('#board [data-coord="d4"]');
  assert.equal(await page.locator('#board .place.target').count(), 1);
  await page.click('#board [data-coord="d7"]');
  assert.match(await message(page), /The marble on d4 can jump only to d6/);
  assert.equal(await shownVersion(page), version);
  await page.click('#board [data-coord="d6"]');
  await waitVersion(page, version + 1);
  const state = await call(env.server, 'GET', `/api/games/${id}`);
  assert.deepEqual(state.moves, ['x d4Gd6']);
  assert.deepEqual(state.captures[0], [0, 1, 0]);
  assert.match(await page.textContent('#players .player.you'), /1\/5/);
});
