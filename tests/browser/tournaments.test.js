// Tournaments in the browser: an account creates a round robin from /tournaments, two more
// join from its page (a guest is offered to sign in instead), the organiser starts it, and each
// round's players find "your game is ready" on the event's page without reloading it; the
// loser of each game resigns on the game page. The standings, the crosstable and each round's
// results follow live, and the podium shows at the end, with the report and the games to
// download. The form's refusal (a Swiss with more rounds than it can have) is shown in the
// server's words, and an unknown event is a 404. Then a Swiss of four: one player withdraws
// during round 1 (two clicks), another asks to sit out round 2 (and takes a first request
// back); round 2 is paired without either; the organiser removes a player and ends it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, freshPage, shot, signUpAs, textMatches } from './lib.js';

const env = serverAndBrowser();

/** Players in order of strength: in each game the one later in this list resigns. */
const NAMES = ['Ann', 'Bob', 'Cid'];

test('a round robin created, joined, played through and its podium shown, live on its page', async () => {
  const pages = {};
  for (const name of NAMES) {
    pages[name] = await freshPage(env);
    await signUpAs(env, pages[name], name);
  }
  const ann = pages.Ann;

  // Ann creates it from the list page (a Swiss of 5 rounds for three players is refused first).
  await ann.click('header.site nav a[href="/tournaments"]');
  await ann.waitForURL(/\/tournaments$/);
  await textMatches(ann, /No tournament is taking players/, '#registering');
  await ann.click('#create-details summary');
  await ann.fill('#event-name-field', 'Friday <b>round</b> robin');
  await ann.fill('#event-max', '3');
  await ann.click('#create-event');
  assert.match(await textMatches(ann, /not created/), /rounds/);
  await ann.selectOption('#event-format', 'round_robin');
  assert.equal(await ann.inputValue('#event-rounds'), '', 'a round robin plays the whole cycle unless told');
  await ann.click('#create-event');
  await ann.waitForURL(/\/tournament\/[^/]+$/);
  const url = ann.url();
  await ann.waitForSelector('body[data-status=registering]');
  assert.equal(await ann.textContent('#event-name'), 'Friday <b>round</b> robin', 'the name is shown as text');
  assert.match(await ann.textContent('#event-settings'), /Round robin · 37 rings · standard · 5 min \+ 3 s.* · rated/);
  await textMatches(ann, /Starts when the organiser starts it · 0 players of 3 at most · organised by Ann/, '#event-status');
  assert.ok(await ann.isDisabled('#start'), 'no start with nobody in');
  await ann.click('#join');
  await ann.waitForSelector('#entries-table tr[data-name=Ann]');

  // A guest is offered to sign in; Bob and Cid join from the link.
  const guest = await freshPage(env);
  await guest.goto(url);
  await guest.waitForSelector('#sign-in-to-join');
  for (const name of ['Bob', 'Cid']) {
    await pages[name].goto(url);
    await pages[name].click('#join');
    await textMatches(pages[name], /You are in/);
  }
  // Ann's page shows them without a reload, then the event is full.
  await ann.waitForSelector('#entries-table tr[data-name=Cid]');
  await textMatches(ann, /3 players of 3 at most/, '#event-status');
  await guest.reload();
  await guest.waitForSelector('#sign-in-to-join');
  await shot(ann, 'tournament-registering');
  await ann.click('#start');
  await ann.waitForSelector('body[data-status=running]');

  // Three rounds of one game (one player rests each round).
  for (let round = 1; round <= 3; round += 1) {
    for (const name of NAMES) await pages[name].waitForSelector(`body[data-round="${round}"]`, { timeout: 15000 });
    const playing = [];
    for (const name of NAMES) {
      if (await pages[name].locator('#go-to-game').count()) playing.push(name);
    }
    assert.equal(playing.length, 2, `round ${round}: two players have a game (${playing})`);
    const [winner, loser] = playing.sort((a, b) => NAMES.indexOf(a) - NAMES.indexOf(b));
    assert.match(await pages[winner].textContent('#your-game'), new RegExp(`Round ${round}: your game against ${loser} is ready`));
    const page = pages[loser];
    await page.click('#go-to-game');
    await page.waitForURL(/\/game\//);
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#status[data-status=finished]');
    await page.goto(url);
    // The winner's page, never reloaded, shows the result.
    const row = `.round[data-round="${round}"] tr.mine`;
    await pages[winner].waitForFunction((sel) => /–/.test(document.querySelector(`${sel} td.result`)?.textContent || ''), row, { timeout: 15000 });
    const first = await pages[winner].textContent(`${row} td:nth-child(2)`);
    assert.equal(await pages[winner].textContent(`${row} td.result`), first === winner ? '1–0' : '0–1');
  }
  await ann.waitForSelector('body[data-status=finished]', { timeout: 15000 });

  // Final standings, crosstable and podium.
  const standing = await ann.$$eval('#standings-table tbody tr', (rows) => rows.map((r) => [...r.children].slice(0, 3).map((c) => c.textContent).join(' ')));
  assert.deepEqual(standing, ['1 Ann 2', '2 Bob 1', '3 Cid 0']);
  assert.match(await ann.textContent('#standings-table caption'), /After round 3/);
  const annCross = await ann.$$eval('#crosstable-table tr[data-name=Ann] td.cross', (cells) => cells.map((c) => c.textContent));
  assert.equal(annCross.length, 3);
  assert.equal(annCross.filter((c) => c === 'rest').length, 1, 'Ann rests once');
  assert.ok(annCross.filter((c) => c !== 'rest').every((c) => /^\d[wb] 1$/.test(c)), `Ann won both games: ${annCross}`);
  const places = await ann.$$eval('#podium-places li', (items) => items.map((li) => li.getAttribute('data-name')));
  assert.deepEqual(places, ['Ann', 'Bob', 'Cid']);
  assert.equal(await ann.locator('#event-actions button').count(), 0, 'nothing to join or start');
  // The downloads: the report as TRF (a line per player, three rounds), the games as SGF.
  const fetched = (sel) => ann.evaluate(async (s) => (await fetch(document.querySelector(s).getAttribute('href'))).text(), sel);
  const trf = await fetched('#download-trf');
  assert.match(trf, /^012 Friday <b>round<\/b> robin\n/);
  assert.equal(trf.split('\n').filter((l) => l.startsWith('001 ')).length, 3, trf);
  assert.match(trf, /^XXR 3$/m);
  assert.equal((await fetched('#download-games')).split('(;').length - 1, 3, 'three games');
  await shot(ann, 'tournament-finished');

  // A Swiss of four, two rounds: Cid withdraws during round 1 (after a second thought), and is
  // marked in the standings; Dee asks for a bye in round 2, which pairs Ann and Bob.
  pages.Dee = await freshPage(env);
  await signUpAs(env, pages.Dee, 'Dee');
  const four = [...NAMES, 'Dee'];
  const swiss = await ann.evaluate(async () => {
    const r = await fetch('/api/tournaments', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Quick Swiss', format: 'swiss', rounds: 2, max_players: 4, clock: { kind: 'fischer', base_ms: 300000, increment_ms: 3000 } }) });
    return (await r.json()).id;
  });
  const swissUrl = `${env.server.url}/tournament/${swiss}`;
  for (const name of four) {
    await pages[name].goto(swissUrl);
    await pages[name].click('#join');
    await textMatches(pages[name], /You are in/);
  }
  await ann.reload();
  await ann.click('#start');
  const cid = pages.Cid;
  await cid.waitForSelector('body[data-round="1"]');
  await cid.click('#withdraw');
  await textMatches(cid, /You will not be paired again/, '#event-actions');
  await cid.click('#withdraw-confirm');
  await textMatches(cid, /You have withdrawn/);
  await cid.waitForSelector('#entries-table tr[data-name=Cid] .tag.withdrawn');
  // Dee asks to sit out round 2, the last: not for half a point (refused in the server's
  // words), for none; she takes it back and asks again.
  const dee = pages.Dee;
  await dee.goto(swissUrl);
  await dee.waitForSelector('#bye-form');
  await dee.selectOption('#bye-round', '2');
  await dee.selectOption('#bye-points', 'half');
  await dee.click('#ask-bye');
  await textMatches(dee, /cannot be taken in the last round/);
  const askZero = async () => {
    await dee.selectOption('#bye-round', '2');
    await dee.selectOption('#bye-points', 'zero');
    await dee.click('#ask-bye');
    await dee.waitForSelector('#my-byes li[data-round="2"]');
  };
  await askZero();
  assert.match(await dee.textContent('#my-byes'), /You sit out round 2 \(no points\)/);
  await dee.click('#my-byes li[data-round="2"] .take-back');
  await dee.waitForSelector('#my-byes', { state: 'detached' });
  await askZero();
  // In round 1 everyone but Ann resigns; round 2 leaves Cid out.
  for (const name of four) {
    const page = pages[name];
    await page.goto(swissUrl);
    await page.waitForSelector('body[data-status=running]');
    const now = await page.getAttribute('body', 'data-round');
    if (name === 'Ann' || now !== '1' || !(await page.locator('#go-to-game').count())) continue;
    await page.click('#go-to-game');
    await page.waitForURL(/\/game\//);
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#status[data-status=finished]');
  }
  await ann.goto(swissUrl);
  await ann.waitForSelector('body[data-round="2"]', { timeout: 15000 });
  const round2 = await ann.$$eval('.round[data-round="2"] tbody tr', (rows) => rows.map((r) => r.textContent));
  assert.ok(round2.every((r) => !r.includes('Cid')), `Cid is not paired in round 2: ${round2}`);
  assert.ok(round2.some((r) => r.includes('Dee') && r.includes('0 bye')), `Dee sits out round 2: ${round2}`);
  await dee.reload();
  assert.match(await textMatches(dee, /you sit it out, as you asked/, '#your-game'), /Round 2/);
  // The organiser removes Bob (confirmed in a dialog) and ends the event (two clicks).
  ann.once('dialog', (d) => d.accept());
  await ann.click('#entries-table tr[data-name=Bob] .remove-player');
  await ann.waitForSelector('#entries-table tr[data-name=Bob] .tag.withdrawn');
  await ann.click('#end-event');
  await textMatches(ann, /No round is paired after this/, '#event-actions');
  await ann.click('#end-confirm');
  await ann.waitForSelector('body[data-status=finished]');
  await textMatches(ann, /The tournament is over/);
  assert.equal(await ann.locator('#standings-table tr[data-name=Cid] .tag.withdrawn').count(), 1);

  // The list page files both under finished, newest first; an unknown event is a 404 that
  // says so.
  await ann.goto(`${env.server.url}/tournaments`);
  await ann.waitForSelector('#finished tr[data-id] a');
  const finished = await ann.$$eval('#finished tr[data-id] a', (links) => links.map((a) => a.textContent));
  assert.deepEqual(finished, ['Quick Swiss', 'Friday <b>round</b> robin']);
  const missing = await ann.goto(`${env.server.url}/tournament/nope`);
  assert.equal(missing.status(), 404);
  await textMatches(ann, /No such tournament/, '#event-name');
});
