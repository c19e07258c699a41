// After its first full state, the game page receives only what each event changed and sets it
// on the state it holds: along a game with captures, draw offers and a takeback, that state
// stays the one a reload reads whole, and no event message carries the whole state.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, gameState, rng, storeSeat, waitVersion } from './lib.js';

const env = serverAndBrowser();

/** A page on game `id`, as the holder of `token` (a spectator without), recording the
 * WebSocket messages it receives. */
async function open(id, token) {
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 860 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  const received = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => {
    if (typeof f.payload === 'string') received.push(f.payload);
  }));
  if (token) await storeSeat(page, env.server, id, token);
  await page.goto(`${env.server.url}/game/${id}`);
  await page.waitForSelector('#status[data-version]');
  return { page, received };
}

/** The state the page holds, without what changes with the time alone. */
async function held(page) {
  const s = await page.evaluate(() => window.zertzSocket.state);
  delete s.server_ms;
  delete s.turn_ms;
  for (const c of s.clocks) delete c.remaining_ms;
  for (const seat of s.seats) delete seat.away_claim_in_ms;
  return s;
}

test('a page that receives only changes holds the state a reload reads whole', async () => {
  const g = await call(env.server, 'POST', '/api/games', {
    opponent: { kind: 'invite' }, name: 'Ann', casual: true, clock: { kind: 'fischer', base_ms: 300000, increment_ms: 5000 },
  });
  const j = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Ben', token: g.invite_token });
  const tokens = [g.token, j.token];
  const ann = await open(g.id, g.token);
  const watcher = await open(g.id, null);
  const act = (seat, action) => call(env.server, 'POST', `/api/games/${g.id}/action`, action, tokens[seat - 1]);

  const random = rng(11);
  let s = await gameState(env.server, g.id);
  let captures = 0;
  for (let turn = 0; turn < 40 && s.status === 'live'; turn += 1) {
    const mover = s.to_move;
    if (turn === 5) {
      await act(mover, { type: 'offer_draw' });
      await act(3 - mover, { type: 'decline_draw' });
    }
    if (turn === 8) {
      await act(3 - mover, { type: 'request_takeback' });
      await act(mover, { type: 'accept_takeback' });
      s = await gameState(env.server, g.id);
      continue;
    }
    const taking = s.legal_moves.filter((m) => m.startsWith('x'));
    captures += taking.length ? 1 : 0;
    const move = taking.length ? taking[0] : s.legal_moves[Math.floor(random() * s.legal_moves.length)];
    await act(s.to_move, { type: 'move', move });
    s = await gameState(env.server, g.id);
    for (const { page } of [ann, watcher]) {
      await waitVersion(page, s.version);
      // What the page spelled out from the compact form is the server's list.
      const shown = await page.evaluate(() => window.zertzSocket.state.legal_moves);
      assert.deepEqual(shown, s.legal_moves, `legal moves at version ${s.version}`);
    }
  }
  assert.ok(s.moves.length >= 20, `a long enough game (${s.moves.length} moves)`);

  for (const { page, received } of [ann, watcher]) {
    const events = received.map((t) => JSON.parse(t)).filter((m) => m.type === 'event');
    assert.ok(events.length >= 20, `events received: ${events.length}`);
    for (const e of events) assert.equal(e.state, undefined, 'an event carries changes, not the state');
    const moved = received.filter((t) => JSON.parse(t).type === 'event' && JSON.parse(t).event.type === 'moved');
    // About 1 KB or less a move (18 KB with the whole state at the start of a game).
    const biggest = Math.max(...moved.map((t) => t.length));
    const mean = moved.reduce((n, t) => n + t.length, 0) / moved.length;
    assert.ok(mean < 1024, `a move's message is under 1 KB on average (${mean} bytes)`);
    assert.ok(biggest < 1536, `and never much more (largest ${biggest} bytes)`);
    const before = await held(page);
    assert.equal(before.version, s.version);
    await page.reload();
    await waitVersion(page, s.version);
    await page.waitForFunction((v) => window.zertzSocket?.state?.version === v, s.version);
    const after = await held(page);
    assert.deepEqual(before, after, 'the state built from the changes is the one a reload reads');
    assert.equal(await page.locator('#moves ol.moves li').count(), s.moves.length + 1);
  }
  // The full state is small: compact legal moves only.
  const full = await (await fetch(`${env.server.url}/api/games/${g.id}`)).text();
  assert.ok(!full.includes('legal_moves'), 'the list is only sent when asked for');
  assert.ok(full.length < 4096, `the full state is ${full.length} bytes`);
});
