// A best-of-3 match with bribes and seed 004's period clock, created and accepted in the
// browser: game 1 is played by clicking (with a bribe proposed and rejected on the way), the
// loser of game 1 resigns game 2 over HTTP, and the pages show the score and the end. A
// spectator's match page follows it all without a reload, over the match's WebSocket (dropped
// once on the way, and opened again by the page).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCustom, serverAndBrowser, personPage, call, gameState, gameId, rng, pickMove, clickMove, shot, waitVersion } from './lib.js';

const env = serverAndBrowser();

const named = (name) => personPage(env, name, { width: 1280, height: 900 });

test('a best-of-3 match through to its end', async () => {
  const alice = await named('Alice');
  await alice.goto(`${env.server.url}/`);
  await openCustom(alice);
  await alice.check('input[name=opponent][value=invite]');
  await alice.selectOption('#rules', 'blitz');
  await alice.selectOption('#clock', 'periods');
  await alice.check('#bribes');
  await alice.check('#match');
  await alice.click('#start');
  const link = await alice.inputValue('#invite-link');
  assert.match(link, /\/match\/[^#]+#join=/);
  await alice.click('#go');
  await alice.waitForSelector('#match-view #invite-link');
  const matchId = decodeURIComponent(new URL(alice.url()).pathname.split('/')[2]);

  const bob = await named('Bob');
  await bob.goto(link);
  assert.equal(await bob.inputValue('#join-match-name'), 'Bob');
  await bob.click('#join-match');

  // Carol watches the match page. It must follow the match by its WebSocket: the match is read
  // over HTTP once, when the page opens, and never again.
  const carol = await named('Carol');
  const matchPath = `/api/matches/${matchId}`;
  const matchSockets = [];
  carol.on('websocket', (ws) => {
    if (new URL(ws.url()).pathname === `${matchPath}/ws`) matchSockets.push(ws.url());
  });
  let matchReads = 0;
  carol.on('request', (r) => {
    if (new URL(r.url()).pathname === matchPath) matchReads += 1;
  });
  await carol.goto(`${env.server.url}/match/${matchId}`);
  await carol.waitForSelector('#match-score[data-score="0-0"]');
  await carol.waitForSelector('#current-game');
  const socketOpen = () => window.zertzMatchSocket?.ws?.readyState === WebSocket.OPEN;
  await carol.waitForFunction(socketOpen);
  assert.equal(matchReads, 1);
  // Her connection drops; the page connects again by itself.
  await carol.evaluate(() => window.zertzMatchSocket.ws.close());
  await carol.waitForFunction(socketOpen);
  assert.equal(matchSockets.length, 2, `the match's socket, then again: ${matchSockets}`);

  await bob.click('#current-game');
  await bob.waitForSelector('#status[data-status=live]');
  await alice.click('#current-game', { timeout: 10000 });
  await alice.waitForSelector('#status[data-status=live]');
  const id = gameId(alice);
  assert.equal(gameId(bob), id);
  assert.match(await alice.textContent('#match'), /Best of 3, game 1/);
  assert.match(await alice.textContent('#players .player.you .clock'), /5 periods of 1:00/);

  // Alice (first) offers an empty bribe to pass; Bob rejects it; Alice must move.
  let state = await gameState(env.server, id);
  assert.equal(state.to_move, 1);
  await alice.click('#bribe-form button[type=submit]');
  await bob.waitForSelector('#reject-bribe');
  assert.match(await bob.textContent('#actions'), /offers you nothing to pass/);
  await bob.click('#reject-bribe');
  await waitVersion(alice, state.version + 2);
  assert.match(await alice.textContent('#actions'), /\(2 left\)/);

  const pages = { 1: alice, 2: bob };
  const random = rng(5);
  for (let moves = 0; ; moves += 1) {
    state = await gameState(env.server, id);
    if (state.status !== 'live') break;
    assert.ok(moves < 120, 'game 1 ends');
    await clickMove(pages[state.to_move], pickMove(state.legal_moves, random));
  }
  const winnerSeat = state.result.winner;
  assert.ok(winnerSeat, `game 1 is won: ${state.result.text}`);
  const winner = pages[winnerSeat];
  const loser = pages[3 - winnerSeat];
  const score = winnerSeat === 1 ? '1-0' : '0-1';
  for (const page of [alice, bob]) {
    await page.waitForSelector(`#match .score[data-score="${score}"]`, { timeout: 10000 });
    await page.waitForSelector('#next-game');
  }
  await shot(winner, 'match-game1-end');

  // Game 2 starts with the other player; the loser of game 1 resigns it at once.
  const match = await call(env.server, 'GET', `/api/matches/${matchId}`);
  const game2 = match.current_game;
  assert.ok(game2 && game2 !== id);
  // Carol's match page, never reloaded, shows the score and game 2 being played.
  await carol.waitForSelector(`#match-score[data-score="${score}"]`, { timeout: 10000 });
  await carol.waitForSelector(`#current-game[href="/game/${game2}"]`, { timeout: 10000 });
  assert.equal(await carol.locator('#match-view tbody tr').count(), 2);
  await winner.click('#next-game');
  await winner.waitForSelector('#status[data-status=live]');
  assert.equal(gameId(winner), game2);
  const loserToken = await loser.evaluate((m) => localStorage.getItem(`zertz.match.${m}`), matchId);
  await call(env.server, 'POST', `/api/games/${game2}/action`, { type: 'resign' }, loserToken);
  await winner.waitForSelector('#status[data-status=finished]');
  assert.match(await winner.textContent('#status'), /You win!/);
  const final = winnerSeat === 1 ? '2-0' : '0-2';
  await winner.waitForSelector(`#match .score[data-score="${final}"]`, { timeout: 10000 });
  await winner.waitForSelector('#match .match-over');
  const champion = winnerSeat === 1 ? 'Alice' : 'Bob';
  assert.match(await winner.textContent('#match .match-over'), new RegExp(`${champion} wins the match`));
  assert.equal(await winner.locator('#next-game').count(), 0, 'no game after the end');
  await shot(winner, 'match-end');

  // The match pages say so too: Carol's, still open since the start, and the loser's, opened
  // now.
  await carol.waitForSelector('#match-winner', { timeout: 10000 });
  assert.match(await carol.textContent('#match-winner'), new RegExp(`${champion} wins the match 2–0`));
  assert.equal(matchReads, 1, 'the match page never read the match again over HTTP');
  assert.equal(matchSockets.length, 2);
  await loser.goto(`${env.server.url}/match/${matchId}`);
  await loser.waitForSelector('#match-winner');
  assert.match(await loser.textContent('#match-winner'), new RegExp(`${champion} wins the match 2–0`));
  assert.equal(await loser.locator('#match-view tbody tr').count(), 2);
});
