// A phone-sized screen still plays: nothing wider than the screen, the board big enough to tap,
// moves by tapping. And the 61-ring board loads and answers clicks (how fast is printed, a
// measure for docs/web.md, not a pass mark: a test does not time a shared machine).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCustom, serverAndBrowser, call, freshPage, gameState, gameId, rng, pickMove, clickMove, shot, storeSeat, waitVersion } from './lib.js';

const env = serverAndBrowser();

test('a 390x844 phone screen plays against the engine', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(`${env.server.url}/`);
  await page.fill('#name', 'Gus');
  await openCustom(page);
  await page.selectOption('#level', '1');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('#status[data-status=live]');
  const id = gameId(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (page is ${width} px wide)`);
  const box = await page.locator('#board svg').boundingBox();
  assert.ok(box.width >= 360, `the board uses the width of the screen (${box.width} px)`);
  // A ring is big enough to hit with a finger (at least 40 px across at 37 rings).
  const ring = await page.locator('#board [data-coord="d4"] .ring').boundingBox();
  assert.ok(ring.width >= 40, `rings are ${ring.width} px`);

  // On a touch screen a move is shown first and sent on "Confirm".
  const version = (await gameState(env.server, id)).version;
  for (const c of ['#supply [data-colour="W"]', '#board [data-coord="d4"]', '#board [data-coord="a1"]']) await page.tap(c);
  await page.waitForSelector('#confirm-bar[data-kind=confirm]');
  assert.equal(await page.textContent('#pending-move'), 'Wd4,a1');
  assert.equal((await gameState(env.server, id)).version, version, 'nothing sent before Confirm');
  await page.tap('#confirm-move');
  await waitVersion(page, version + 2, 20000);

  const random = rng(11);
  for (let i = 0; i < 3; i += 1) {
    const state = await gameState(env.server, id);
    const move = pickMove(state.legal_moves, random);
    await clickMove(page, move, 'tap');
    await waitVersion(page, state.version + 2, 20000);
  }
  await shot(page, 'phone');
  await page.screenshot({ path: new URL('./output/phone-full.png', import.meta.url).pathname, fullPage: true });
});

test('the 61-ring board loads and answers clicks, its load and click times printed', async (t) => {
  const g = await call(env.server, 'POST', '/api/games', { board: '61', opponent: { kind: 'engine', level: 1 }, name: 'Hana' });
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => { throw e; });
  await storeSeat(page, env.server, g.id, g.token);
  await page.goto(`${env.server.url}/game/${g.id}`);
  await page.waitForSelector('#status[data-status=live]');
  // From the start of the navigation to the game drawn, as the page measures it.
  const shown = await page.evaluate(() => window.zertzShownAt);
  t.diagnostic(`61-ring game shown ${shown.toFixed(0)} ms after the navigation started`);
  assert.equal(await page.locator('#board .place').count(), 61);
  const clickTime = await page.evaluate(async () => {
    const t = performance.now();
    document.querySelector('#supply [data-colour="B"]').click();
    document.querySelector('#board [data-coord="e5"]').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    return performance.now() - t;
  });
  t.diagnostic(`two clicks handled in ${clickTime.toFixed(1)} ms`);
  assert.equal(await page.locator('#board .place.target.remove').count(), 24, 'the 24 edge rings are offered');
  await shot(page, 'board-61');
  const version = (await gameState(env.server, g.id)).version;
  await page.click('#board [data-coord="a1"]');
  await waitVersion(page, version + 1);
  assert.deepEqual((await gameState(env.server, g.id)).moves[0], 'Be5,a1');
});

test('on 390x844 and 360x640: the header is one row behind a menu, the supply in view with the board; installable', async () => {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'engine', level: 1 }, name: 'Pia' });
  for (const viewport of [{ width: 390, height: 844 }, { width: 360, height: 640 }]) {
    const context = await env.browser.newContext({ viewport, isMobile: true, hasTouch: true });
    await context.addInitScript(([id, token]) => localStorage.setItem(`zertz.seat.${id}`, token), [g.id, g.token]);
    for (const path of [`/game/${g.id}`, '/learn/placing', '/puzzles', '/analysis']) {
      const page = await context.newPage();
      page.on('pageerror', (e) => { throw e; });
      await page.goto(`${env.server.url}${path}`);
      await page.waitForSelector('#supply button[data-colour=W]');
      const where = `${path} at ${viewport.width}x${viewport.height}`;
      const header = await page.locator('header.site').boundingBox();
      assert.ok(header.height <= 50, `${where}: the header is one row (${header.height} px)`);
      assert.equal(await page.isVisible('#site-menu nav'), false, `${where}: the links wait behind the menu`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), viewport.width, `${where}: nothing wider than the screen`);
      // The board brought into view: the marbles to place are on the screen with it, below it.
      await page.locator('#board svg').scrollIntoViewIfNeeded();
      const board = await page.locator('#board svg').boundingBox();
      const supply = await page.locator('#supply').boundingBox();
      assert.ok(supply.y + supply.height <= viewport.height + 1 && supply.y >= 0, `${where}: the supply is on the screen (${supply.y}..${supply.y + supply.height})`);
      assert.ok(board.y >= 0 && board.y < viewport.height, `${where}: the board is on the screen`);
      if (path.startsWith('/game/')) {
        // The menu opens the links and the account, over the page, and closes again.
        await page.click('#menu-toggle');
        assert.equal(await page.getAttribute('#menu-toggle', 'aria-expanded'), 'true');
        assert.equal(await page.isVisible('#site-menu nav a[href="/tournaments"]'), true);
        if (viewport.width === 390) await shot(page, 'phone-menu');
        await page.click('#menu-toggle');
        assert.equal(await page.isVisible('#site-menu nav'), false);
        if (viewport.width === 390) await shot(page, 'phone-game');
        // A marble tapped in the supply at the bottom, then a ring on the board: the move goes.
        await page.tap('#supply button[data-colour=W]');
        assert.equal(await page.getAttribute('#supply button[data-colour=W]', 'aria-pressed'), 'true');
      }
      await page.close();
    }
    await context.close();
  }
  // Installable: a manifest with a name, a start, standalone display and icons of 192 and 512.
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/`);
  const href = await page.getAttribute('link[rel=manifest]', 'href');
  const res = await fetch(`${env.server.url}${href}`);
  assert.equal(res.headers.get('content-type'), 'application/manifest+json');
  const manifest = await res.json();
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, '/');
  for (const size of ['192x192', '512x512']) {
    const icon = manifest.icons.find((i) => i.sizes === size);
    assert.ok(icon, size);
    const png = await fetch(`${env.server.url}${icon.src}`);
    assert.equal(png.headers.get('content-type'), 'image/png');
  }
  await page.context().close();
});
