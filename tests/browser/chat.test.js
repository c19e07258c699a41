// The game room's chat in the browser: two guests play, an account and a guest watch. Lines go
// both ways and everyone sees them, markup shown as text; a guest who watches may only use the
// preset phrases (free text is refused in the server's words); a player hides the spectators'
// lines, reports one and mutes an account, whose next line is refused; a player to move types
// a move in the chat and it is played on the board, an illegal one is answered by the room;
// once the game is over the archive shows the chat grouped by move.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCustom, serverAndBrowser, freshPage, gameId, gameState, personPage, shot, signUpAs, textMatches, waitVersion } from './lib.js';

const env = serverAndBrowser();

/** Waits until the page's chat has a line whose text is `text` (shown or hidden); its locator. */
async function line(page, text) {
  const li = page.locator('#chat-lines li.chat-line').filter({ has: page.locator('.chat-text', { hasText: text }) });
  await li.first().waitFor({ state: 'attached' });
  return li.first();
}

/** Says `text` in the page's chat by typing it and pressing Enter. */
async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

/** Waits until the page's socket is open (the chat rides on it). */
const connected = (page) => page.waitForFunction(() => window.zertzSocket?.ws?.readyState === WebSocket.OPEN);

test('players and spectators talk; guests watching use the presets; a move typed in the chat is played', async () => {
  const alice = await personPage(env, 'Alice', { width: 1280, height: 900 });
  await alice.goto(`${env.server.url}/`);
  await openCustom(alice);
  await alice.check('input[name=opponent][value=invite]');
  await alice.click('#start');
  const link = await alice.inputValue('#invite-link');
  await alice.click('#go');
  await alice.waitForSelector('#status[data-status=open]');
  const id = gameId(alice);
  const bob = await personPage(env, 'Bob', { width: 1280, height: 900 });
  await bob.goto(link);
  await bob.click('#join');
  await bob.waitForSelector('#status[data-status=live]');
  await alice.waitForSelector('#status[data-status=live]');

  // Carol watches with an account; Dan watches as a guest (the name he gave before is his
  // name in the room).
  const carol = await freshPage(env);
  await signUpAs(env, carol, 'Carol');
  await carol.goto(`${env.server.url}/game/${id}`);
  const dan = await personPage(env, 'Dan', { width: 1280, height: 900 });
  await dan.goto(`${env.server.url}/game/${id}`);
  for (const page of [alice, bob, carol, dan]) await connected(page);

  // A player's line reaches everyone, markup shown as text.
  await say(alice, 'Hello <b>all</b>');
  for (const page of [alice, bob, carol, dan]) {
    const l = await line(page, 'Hello <b>all</b>');
    assert.equal(await l.locator('.chat-name').textContent(), 'Alice');
    assert.equal(await page.locator('#chat-lines b').count(), 0, 'no markup from a line');
    assert.equal(await l.getAttribute('data-kind'), 'player');
  }
  assert.equal(await alice.inputValue('#chat-input'), '', 'the field is emptied once the line is said');

  // A spectator with an account says anything; the players see it marked as a spectator's.
  await say(carol, 'Enjoying this one');
  const carolsLine = await line(alice, 'Enjoying this one');
  assert.equal(await carolsLine.getAttribute('data-kind'), 'spectator');
  assert.match(await carolsLine.textContent(), /Carol watching/);
  await line(bob, 'Enjoying this one');
  await line(dan, 'Enjoying this one');

  // A guest who watches may not type freely: refused in the server's words, the text kept.
  assert.ok(await dan.locator('.chat-hint').isVisible(), 'told that the phrases are all a guest may send');
  await say(dan, 'hi there');
  assert.match(await textMatches(dan, /preset/, '#chat-error'), /guests watching a game may only send the preset phrases/);
  assert.equal(await dan.inputValue('#chat-input'), 'hi there');
  // The preset buttons work.
  await dan.click('#chat-presets [data-preset="Good luck!"]');
  for (const page of [alice, bob, carol, dan]) {
    const l = await line(page, 'Good luck!');
    assert.equal(await l.locator('.chat-name').textContent(), 'Dan');
    assert.equal(await l.locator('.tag.guest').count(), 1);
  }
  await dan.waitForFunction(() => document.querySelector('#chat-error').textContent === '');

  // Only the players may hide the spectators; the choice is remembered in the browser.
  assert.ok(await dan.locator('#chat-hide-spectators').isHidden());
  await bob.check('#chat-hide-spectators');
  assert.ok(await (await line(bob, 'Enjoying this one')).isHidden());
  assert.ok(await (await line(bob, 'Hello <b>all</b>')).isVisible());
  assert.equal(await bob.evaluate(() => localStorage.getItem('zertz.ui.chatHideSpectators')), 'true');
  await bob.uncheck('#chat-hide-spectators');
  assert.ok(await (await line(bob, 'Enjoying this one')).isVisible());

  // A line reported; an account muted by a player, whose next line is refused.
  await (await line(bob, 'Good luck!')).locator('button.chat-report').click();
  await (await line(bob, 'Good luck!')).locator('.chat-reported').waitFor();
  assert.equal(await (await line(alice, 'Hello <b>all</b>')).locator('button.chat-mute').count(), 0, 'no muting oneself');
  assert.equal(await (await line(alice, 'Good luck!')).locator('button.chat-mute').count(), 0, 'a guest has no account to mute');
  await carolsLine.locator('button.chat-mute').click();
  await line(carol, 'Carol was muted by Alice');
  assert.equal(await (await line(alice, 'Carol was muted by Alice')).getAttribute('data-kind'), 'room');
  await (await line(alice, 'Enjoying this one')).locator('button.chat-unmute').waitFor();
  await say(carol, 'Can you hear me?');
  assert.match(await textMatches(carol, /muted/, '#chat-error'), /you are muted in this room/);

  // The player to move types a move in the chat: it is played on everyone's board.
  const before = await gameState(env.server, id);
  assert.equal(before.to_move, 1);
  await say(alice, 'Wd4,a1');
  for (const page of [alice, bob, carol, dan]) {
    await waitVersion(page, before.version + 1);
    assert.match(await page.textContent('#moves'), /Wd4,a1/);
    assert.match(await (await line(page, 'Wd4,a1')).locator('.chat-played').textContent(), /played Wd4,a1/);
  }
  assert.deepEqual((await gameState(env.server, id)).moves, ['Wd4,a1']);
  // A move that cannot be played is answered by the room, and nothing is played.
  await say(bob, 'Wd4,b2');
  const answer = alice.locator('#chat-lines li.kind-room').filter({ hasText: 'nothing was played' });
  await answer.first().waitFor();
  assert.match(await answer.first().textContent(), /^.*the room.*Bob: /);
  assert.equal((await gameState(env.server, id)).moves.length, 1);
  await shot(alice, 'chat-game');

  // Over: the archive replays the game with its chat, grouped by the move it was said after.
  await bob.click('#resign');
  await bob.click('#resign-confirm');
  await alice.waitForSelector('#status[data-status=finished]');
  await carol.goto(`${env.server.url}/archive#game=${id}`);
  await carol.waitForSelector('#replay-chat:not([hidden]) .chat-turn');
  const groups = carol.locator('#replay-chat .chat-turn');
  assert.equal(await groups.count(), 2);
  assert.match(await groups.nth(0).textContent(), /Before the first move.*Hello <b>all<\/b>.*Good luck!.*Wd4,a1.*played Wd4,a1/s);
  assert.match(await groups.nth(1).textContent(), /After 1\. Wd4,a1.*Wd4,b2.*nothing was played/s);
  await groups.nth(0).locator('.chat-turn-go').click();
  await carol.waitForSelector('#replay-board[data-turn="0"]');
  await shot(carol, 'chat-archive');
});
