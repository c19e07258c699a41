// Two people in two browser contexts play a whole Blitz game to a win by clicking; a third
// watches. Midway one player reloads the page and another loses the connection: both go on
// where they were. Then the archive replays the game and reads its record back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCustom, serverAndBrowser, personPage, gameState, gameId, rng, pickMove, clickMove, shot, waitVersion, call } from './lib.js';

const env = serverAndBrowser();

const named = (name) => personPage(env, name, { width: 1280, height: 860 });

test('two people play a whole game by clicking, with a spectator, a reload and a dropped connection', async (t) => {
  const alice = await named('Alice');
  await alice.goto(`${env.server.url}/`);
  // How long the home page took is printed, not judged: a test does not time a shared machine.
  const loaded = await alice.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd);
  assert.ok(loaded > 0, 'the home page loaded');
  t.diagnostic(`the home page loaded in ${loaded.toFixed(0)} ms`);
  await openCustom(alice);
  await alice.check('input[name=opponent][value=invite]');
  await alice.selectOption('#rules', 'blitz');
  await alice.selectOption('#clock', 'fischer-5-3');
  await alice.click('#start');
  const link = await alice.inputValue('#invite-link');
  assert.match(link, /\/game\/[^#]+#join=/);
  await alice.click('#go');
  await alice.waitForSelector('#status[data-status=open]');
  assert.equal(await alice.inputValue('#invite-link'), link, 'the game page repeats the link while waiting');

  const bob = await named('Bob');
  await bob.goto(link);
  // Asked who plays before taking the seat: the name he used last time, kept.
  assert.equal(await bob.inputValue('#join-name'), 'Bob');
  await bob.click('#join');
  await bob.waitForSelector('#status[data-status=live]');
  await alice.waitForSelector('#status[data-status=live]');
  assert.ok(!bob.url().includes('#join'), 'the token leaves the address bar');
  const id = gameId(alice);

  const watcher = await named('Carol');
  await watcher.goto(`${env.server.url}/game/${id}`);
  await watcher.waitForSelector('#status[data-status=live]');
  assert.match(await watcher.textContent('#status'), /Watching/);

  const pages = { 1: alice, 2: bob };
  const random = rng(7);
  let moves = 0;
  for (;;) {
    const state = await gameState(env.server, id);
    if (state.status !== 'live') break;
    assert.ok(moves < 120, 'the game ends');
    const mover = pages[state.to_move];
    // The server has the move; the mover's page may still be receiving it.
    await waitVersion(mover, state.version);
    assert.match(await mover.textContent('#status'), /Your turn/);
    await clickMove(mover, pickMove(state.legal_moves, random));
    moves += 1;
    if (moves === 6) {
      // A reload keeps the seat (the token is in localStorage) and the game where it was.
      await bob.reload();
      await bob.waitForSelector('#status[data-status=live]');
      await waitVersion(bob, state.version + 1);
      assert.equal(await bob.locator('#players .player.you .name').textContent(), 'Bob');
    }
    if (moves === 9) {
      // A dropped connection reconnects by itself and catches up with `since`.
      await alice.evaluate(() => window.zertzSocket.ws.close());
    }
    if (moves === 12) await shot(alice, 'two-players-midgame');
  }

  const end = await gameState(env.server, id);
  assert.equal(end.status, 'finished');
  assert.ok(end.result.winner === 1 || end.result.winner === 2, `a win, not ${end.result.text}`);
  for (const page of [alice, bob, watcher]) {
    await waitVersion(page, end.version);
    assert.ok((await page.textContent('#status')).includes(end.result.text));
    assert.equal(await page.locator('#moves ol.moves li').count(), end.moves.length + 1);
  }
  const winner = pages[end.result.winner];
  assert.equal(await winner.locator('#players .player.you.won').count(), 1);
  await winner.waitForSelector('#analysis:not([hidden]) ol.best li', { timeout: 15000 });
  // The move before the last, numbered in pairs as the move list numbers it: "After 14… Gb2,g4".
  const ply = end.moves.length - 1;
  const label = `${Math.floor((ply - 1) / 2) + 1}${ply % 2 === 1 ? '.' : '…'}`;
  const escaped = `${label} ${end.moves[ply - 1]}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(await winner.textContent('#analysis'), new RegExp(`After ${escaped}, .* to move`));
  await shot(winner, 'two-players-end');

  // Looking back at move 3 shows that position; the live game is one click away.
  await watcher.click('#moves [data-turn="3"]');
  await watcher.waitForSelector('#board[data-turn="3"]');
  assert.match(await watcher.textContent('#lookback'), /after move 3/);
  await watcher.click('#back-to-game');
  await watcher.waitForSelector(`#board[data-turn="${end.moves.length}"]`);

  // The archive lists the game, replays it, and offers its record and SGF.
  await watcher.goto(`${env.server.url}/archive`);
  await watcher.click(`tr[data-game="${id}"] button`);
  await watcher.waitForSelector('#viewer:not([hidden])');
  assert.equal(await watcher.getAttribute('#slider', 'max'), String(end.moves.length));
  await watcher.click('#first');
  await watcher.waitForSelector('#replay-board[data-turn="0"]');
  await watcher.click('#next');
  await watcher.waitForSelector('#replay-board[data-turn="1"]');
  assert.match(await watcher.textContent('#turn'), new RegExp(end.moves[0]));
  const positionAfterOne = await watcher.inputValue('#position-string');
  assert.match(positionAfterOne, /^37 blitz /);
  const [download] = await Promise.all([watcher.waitForEvent('download'), watcher.click('#export-record')]);
  assert.equal(download.suggestedFilename(), `zertz-${id}.txt`);
  // BoardSpace has no Blitz: the SGF is refused, and the page says why.
  await watcher.click('#export-sgf');
  await watcher.waitForFunction(() => /BoardSpace plays only the standard rule set/.test(document.querySelector('#message').textContent));
  await shot(watcher, 'archive-replay');

  // A record pasted in is read back by the server and shown.
  const record = await (await fetch(`${env.server.url}/api/games/${id}/record`)).text();
  await watcher.fill('#import-text', record);
  await watcher.click('#import-button');
  await watcher.waitForFunction(() => document.querySelector('#viewer-title').textContent.startsWith('Imported'));
  assert.equal(await watcher.getAttribute('#slider', 'max'), String(end.moves.length));

  // So is a file chosen from the disk.
  await watcher.goto(`${env.server.url}/archive`);
  await watcher.setInputFiles('#import-file', { name: 'game.txt', mimeType: 'text/plain', buffer: Buffer.from(record) });
  await watcher.waitForFunction(() => document.querySelector('#viewer-title').textContent.startsWith('Imported'));
  assert.equal(await watcher.getAttribute('#slider', 'max'), String(end.moves.length));

  // Nonsense is refused in words.
  await watcher.fill('#import-text', 'this is not a game');
  await watcher.click('#import-button');
  await watcher.waitForFunction(() => document.querySelector('#message').textContent.includes('cannot be read'));

  // The server agrees with what everyone saw.
  const final = await call(env.server, 'GET', `/api/games/${id}`);
  assert.deepEqual(final.moves, end.moves);
});
