// A bad connection on the game page (issue 37 item 3): the network cut while the player is to
// move. The page says at once that it is offline and that the clocks may be behind; a move made
// meanwhile is kept (not thrown away with "Cannot read the game"), and sent when the network is
// back, exactly once; the message clears.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, freshPage, gameState, postFrom, signUpAs, textMatches } from './lib.js';

const env = serverAndBrowser();

test('a move made offline is kept and arrives once the network is back, exactly once', async () => {
  const page = await freshPage(env);
  await signUpAs(env, page, 'Olga');
  const g = await postFrom(page, '/api/games', { opponent: { kind: 'engine', level: 1 } });
  await page.goto(`${env.server.url}/game/${g.id}`);
  await page.waitForSelector('#status[data-status=live]');
  await page.waitForFunction(() => window.zertzSocket?.ws?.readyState === WebSocket.OPEN);
  assert.equal(await page.isVisible('#connection'), false);

  // The network goes: said at once, before any request fails.
  await page.context().setOffline(true);
  await textMatches(page, /Offline: reconnecting… The clocks shown may be behind/, '#connection');
  assert.equal(await page.getAttribute('body', 'data-connection'), 'offline');
  await page.fill('#move-text', 'Wd4,a1');
  await page.press('#move-text', 'Enter');
  await textMatches(page, /Offline: your move Wd4,a1 is kept, and sent when the connection is back/);
  assert.doesNotMatch(await page.textContent('#message'), /Cannot read the game/);
  assert.equal((await gameState(env.server, g.id)).moves.length, 0, 'nothing reached the server');

  // Back: the move is sent, once; the engine answers; the banner goes.
  await page.context().setOffline(false);
  await textMatches(page, /your move Wd4,a1 was sent/);
  await page.waitForSelector('#connection', { state: 'hidden' });
  let s = await gameState(env.server, g.id);
  for (let k = 0; k < 100 && s.moves.length < 2; k += 1) {
    await page.waitForFunction((v) => Number(document.querySelector('#status')?.dataset.version) > v, s.version);
    s = await gameState(env.server, g.id);
  }
  assert.equal(s.moves[0], 'Wd4,a1');
  assert.equal(s.moves.filter((m) => m === 'Wd4,a1').length, 1, `once: ${s.moves}`);
  assert.equal(s.to_move, 1, 'the engine has answered and it is Olga\'s turn again');
  assert.equal(await page.getAttribute('body', 'data-connection'), 'open');
});
