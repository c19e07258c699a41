// An open game posted from the home page shows in the lobby, where another person accepts it;
// the live game is then listed to watch. And the host notation can be switched on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCustom, serverAndBrowser, personPage, gameId } from './lib.js';

const env = serverAndBrowser();

const named = (name) => personPage(env, name, { width: 1200, height: 850 });

test('an open game is accepted from the lobby, then listed to watch', async () => {
  const ida = await named('Ida');
  await ida.goto(`${env.server.url}/`);
  await openCustom(ida);
  await ida.check('input[name=opponent][value=open]');
  await ida.selectOption('#board', '48');
  await ida.check('#no-repetition');
  await ida.click('#start');
  await ida.waitForURL(/\/game\//);
  await ida.waitForSelector('#status[data-status=open]');
  const id = gameId(ida);

  const jon = await named('Jon');
  await jon.goto(`${env.server.url}/lobby`);
  const row = jon.locator(`#open-games tr[data-game="${id}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /Ida guest \(moves first\)/);
  assert.equal(await row.locator('.tag.guest').count(), 1, 'a guest, marked');
  assert.equal(await jon.inputValue('#who #name'), 'Jon', 'accepted under the name at the top');
  assert.match(await row.textContent(), /48 rings · standard · no clock · no repetition/);
  await row.locator('button').click();
  await jon.waitForURL(new RegExp(`/game/${id}$`));
  await jon.waitForSelector('#status[data-status=live]');
  assert.equal(await jon.locator('#board .place').count(), 48);
  await ida.waitForSelector('#status[data-status=live]');
  assert.match(await ida.textContent('#status'), /Your turn/);

  await jon.goto(`${env.server.url}/lobby`);
  await jon.locator(`#live-games tr[data-game="${id}"]`).waitFor();
  assert.equal(await jon.locator(`#open-games tr[data-game="${id}"]`).count(), 0);

  // Host notation: rows lettered from the right-hand column, numbered from the top.
  await ida.selectOption('#opt-notation', 'host');
  assert.equal(await ida.getAttribute('#board [data-coord="h1"]', 'data-host'), 'A4');
  assert.equal(await ida.getAttribute('#board [data-coord="a1"]', 'data-host'), 'H5');
  await ida.hover('#board [data-coord="d4"]');
  assert.match(await ida.textContent('#hover'), /^E5 \(official d4\)/);
  const letters = await ida.locator('#board text.column:not(.top)').allTextContents();
  assert.deepEqual(letters, ['H', 'G', 'F', 'E', 'D', 'C', 'B', 'A']);
});

test('an open match is accepted from the lobby and its first game starts', async () => {
  const mia = await named('Mia');
  await mia.goto(`${env.server.url}/`);
  await openCustom(mia);
  await mia.check('input[name=opponent][value=open]');
  await mia.check('#match');
  await mia.selectOption('#best-of', '5');
  await mia.click('#start');
  await mia.waitForURL(/\/match\//);
  await mia.waitForSelector('text=Waiting for an opponent from the lobby');
  const matchId = decodeURIComponent(new URL(mia.url()).pathname.split('/')[2]);

  const ned = await named('Ned');
  await ned.goto(`${env.server.url}/lobby`);
  const row = ned.locator(`#open-matches tr[data-match="${matchId}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /Mia.*Best of 5/);
  await row.locator('button').click();
  await ned.waitForURL(/\/game\//);
  await ned.waitForSelector('#status[data-status=live]');
  // The match line is filled once the match's own state arrives (it may come after the game's).
  await ned.waitForFunction(() => /Best of 5/.test(document.querySelector('#match')?.textContent || ''));
  assert.match(await ned.textContent('#match'), /Best of 5, game 1/);
  assert.match(await ned.textContent('#players .player.you .name'), /Ned/);
  // Mia's match page offers the game.
  await mia.click('#current-game', { timeout: 10000 });
  await mia.waitForSelector('#status[data-status=live]');
  assert.match(await mia.textContent('#status'), /Your turn/);
});
