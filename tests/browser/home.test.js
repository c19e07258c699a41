// The home page invites: one-click tiles (the engine at a few levels, the common clocks against
// anyone or a friend, the death match with the house rules), the full form folded away behind
// "Custom game", the games being played shown as small live boards; Blitz and Rapid mean what
// quick pairing means, every tile's text fits in it, and the death match and bribes are
// explained with a link to the rules; an address the site does not have gets its own page, with
// status 404.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, freshPage, gameId } from './lib.js';

const env = serverAndBrowser();

test('one click starts a game: the engine, a clock against a friend, the tournament match; live boards to watch', async () => {
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/`);
  await page.waitForSelector('#engine-tiles .tile');
  // The full form is there, folded away.
  assert.equal(await page.$eval('#custom-game', (d) => d.open), false);
  assert.ok(await page.isHidden('#new-game'));
  await page.click('#custom-toggle');
  assert.ok(await page.isVisible('#new-game'));
  await page.click('#custom-toggle');
  // Top players, who is online and quick pairing are still there.
  for (const id of ['#quick-pairing [data-speed=blitz]', '#top-players', '#online']) assert.equal(await page.locator(id).count(), 1, id);

  // The engine at level 3, in one click.
  await page.fill('#name', 'Tia');
  await page.click('#play-engine-3');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('#status[data-status=live]');
  const engineGame = gameId(page);
  const state = await call(env.server, 'GET', `/api/games/${engineGame}`);
  assert.deepEqual(state.seats.map((s) => s.kind), ['human', 'engine']);
  assert.equal(state.seats[1].level, 3);
  assert.equal(state.seats[0].name, 'Tia');

  // A clock against a friend: the invitation link at once.
  await page.goto(`${env.server.url}/`);
  await page.check('input[name=quick-opponent][value=invite]');
  await page.click('#play-clock-fischer-5-3');
  const link = await page.inputValue('#invite-link');
  const invited = decodeURIComponent(new URL(link).pathname.split('/')[2]);
  const blitz = await call(env.server, 'GET', `/api/games/${invited}`);
  assert.equal(blitz.status, 'open');
  assert.deepEqual(blitz.clock, { kind: 'fischer', base_ms: 300000, increment_ms: 3000 });

  // The tournament match, posted for anyone: best of 3, no repetition, bribes, 1 min + 3 min.
  await page.goto(`${env.server.url}/`);
  await page.click('#play-tournament');
  await page.waitForURL(/\/match\//);
  const matchId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
  const match = await call(env.server, 'GET', `/api/matches/${matchId}`);
  assert.equal(match.best_of, 3);
  assert.equal(match.repetition, 'forbidden');
  assert.equal(match.bribes, true);
  assert.match(match.clock_text, /1 min/);
  assert.equal(match.status, 'open');

  // The game against the engine is being played: the home page shows it as a small board.
  await page.goto(`${env.server.url}/`);
  const card = page.locator(`#live-boards a.live-board[data-game="${engineGame}"]`);
  await card.waitFor();
  assert.equal(await card.getAttribute('href'), `/game/${engineGame}`);
  assert.equal(await card.locator('svg.board .place').count(), 37);
  assert.match(await card.textContent(), /Tia – Engine level 3/);
  await card.click();
  await page.waitForURL(new RegExp(`/game/${engineGame}$`));
  await page.context().close();
});

test('an address the site does not have: its own page, status 404', async () => {
  const page = await freshPage(env);
  const res = await page.goto(`${env.server.url}/no/such/page`);
  assert.equal(res.status(), 404);
  await page.waitForSelector('#missing-what[data-path]');
  assert.equal(await page.textContent('h1'), 'Nothing here');
  assert.match(await page.textContent('#missing-what'), /There is no page at \/no\/such\/page/);
  assert.equal(await page.locator('header.site nav a[href="/lobby"]').count(), 1, 'the site header');
  assert.equal(await page.locator('main a[href="/archive"]').count(), 1);
  // The API keeps answering in JSON.
  const api = await fetch(`${env.server.url}/api/no-such-thing`);
  assert.equal(api.status, 404);
  assert.match((await api.json()).error, /no-such-thing/);
  await page.context().close();
});

test('Blitz and Rapid mean one thing, every tile fits, the death match and bribes are explained', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }, { width: 360, height: 640 }]) {
    const page = await freshPage(env, viewport);
    await page.goto(`${env.server.url}/`);
    await page.waitForSelector('#clock-tiles .tile');
    await page.waitForSelector('#pairing [data-speed="rapid"]');
    // The clock tiles and quick pairing give Blitz and Rapid the same clocks.
    const tiles = await page.$$eval('#clock-tiles .tile', (ts) => ts.map((t) => t.innerText.replace(/\s+/g, ' ').trim()));
    const speeds = await page.$$eval('#pairing .tile', (ts) => ts.map((t) => t.innerText.replace(/\s+/g, ' ').trim()));
    for (const [name, clock] of [['Blitz', '5 min + 3 s'], ['Rapid', '10 min + 10 s']]) {
      assert.ok(tiles.some((t) => t.startsWith(name) && t.includes(clock)), `${name} tile: ${tiles}`);
      assert.ok(speeds.some((t) => t.startsWith(name) && t.includes(clock)), `${name} pairing: ${speeds}`);
    }
    // No tile's text runs out of it (Correspondence did).
    const over = await page.$$eval('.tiles .tile', (ts) => ts
      .filter((t) => t.scrollWidth > t.clientWidth + 1)
      .map((t) => `${t.innerText.split('\n')[0]}: ${t.scrollWidth} > ${t.clientWidth}`));
    assert.deepEqual(over, [], `${viewport.width} px`);
    await page.close();
  }
  // The death match is named for players and explained, and its house rules are one click away.
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/`);
  await page.waitForSelector('#play-tournament');
  assert.match(await page.textContent('#play-tournament'), /^Death match/);
  assert.match(await page.textContent('#death-match-note'), /best of 3, no position may come back/);
  await page.click('#death-match-note a[href="/rules#house-rules"]');
  await page.waitForURL(/\/rules#house-rules$/);
  assert.match(await page.textContent('#house-rules'), /Bribes\. Instead of moving, a player may offer/);
  await page.close();
});
