// Quick pairing on the home page: two signed-in players click the same speed and land on one
// rated game, each in their seat; two guests are paired into a casual game; Cancel withdraws
// the request (the server's queue empties).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, freshPage, gameId, signUpAs, textMatches } from './lib.js';

const env = serverAndBrowser();

/** Clicks the quick-pairing tile of `speed` with `rules` chosen. */
async function ask(page, speed, rules = 'standard') {
  await page.selectOption('#pairing-rules', rules);
  await page.click(`#pairing button[data-speed=${speed}]`);
}

test('two signed-in players click Blitz and land on one rated game', async () => {
  const ann = await freshPage(env);
  const bob = await freshPage(env);
  await signUpAs(env, ann, 'PairAnn');
  await signUpAs(env, bob, 'PairBob');
  await ask(ann, 'blitz');
  await textMatches(ann, /Looking for an opponent \(rated\)/, '#pairing-status');
  await ask(bob, 'blitz');
  await Promise.all([
    ann.waitForURL((u) => u.pathname.startsWith('/game/')),
    bob.waitForURL((u) => u.pathname.startsWith('/game/')),
  ]);
  assert.equal(gameId(ann), gameId(bob));
  const state = await call(env.server, 'GET', `/api/games/${gameId(ann)}`);
  assert.equal(state.status, 'live');
  assert.equal(state.rated, true);
  assert.equal(state.pool, 'standard-blitz');
  assert.deepEqual(state.seats.map((s) => s.name).sort(), ['PairAnn', 'PairBob']);
  // Each page plays its own seat (by the session): the one to move sees its legal moves.
  for (const page of [ann, bob]) {
    await page.waitForFunction(() => document.querySelector('#board svg'));
  }
  await ann.context().close();
  await bob.context().close();
});

test('two guests are paired into a casual game; Cancel withdraws a request', async () => {
  const xan = await freshPage(env);
  const yun = await freshPage(env);
  for (const [page, name] of [[xan, 'Xan'], [yun, 'Yun']]) {
    await page.goto(`${env.server.url}/`);
    await page.fill('#name', name);
  }
  await ask(xan, 'rapid', 'blitz');
  await textMatches(xan, /Looking for an opponent \(casual\)/, '#pairing-status');
  // Cancelled: the request leaves the queue.
  await xan.click('#pairing-cancel');
  await textMatches(xan, /withdrawn/, '#pairing-status');
  await xan.waitForFunction(async () => (await (await fetch('/api/pairing')).json()).queues.length === 0);
  await ask(xan, 'rapid', 'blitz');
  await ask(yun, 'rapid', 'blitz');
  await Promise.all([
    xan.waitForURL((u) => u.pathname.startsWith('/game/')),
    yun.waitForURL((u) => u.pathname.startsWith('/game/')),
  ]);
  const state = await call(env.server, 'GET', `/api/games/${gameId(xan)}`);
  assert.equal(state.rated, false);
  assert.equal(state.rules, 'blitz');
  assert.ok(state.seats.every((s) => s.guest));
  await xan.context().close();
  await yun.context().close();
});
