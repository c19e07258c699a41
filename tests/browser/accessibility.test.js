// Accessibility (issue 37 item 5): every page audited by axe-core (the npm package, run in the
// page) in the light and the dark theme, with no violation of serious or critical impact; the
// pages as a signed-in player sees them, with the things that were unreadable before (the
// player's own name in the chat, the primary buttons of the dark theme) on them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { serverAndBrowser, freshPage, gameState, postFrom, signUpAs } from './lib.js';

const env = serverAndBrowser();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What the pages show: a game with a move and a chat line, a match, a tournament. */
const made = { game: '', match: '', tournament: '' };

/** Made once, by the first test (the file's server is started by then). */
let making = null;
const setUp = () => (making ||= makeThings());

async function makeThings() {
  const page = await freshPage(env);
  await signUpAs(env, page, 'Audrey');
  const post = (path, body) => postFrom(page, path, body);
  const g = await post('/api/games', { opponent: { kind: 'invite' } });
  made.game = g.id;
  const m = await post('/api/matches', { opponent: { kind: 'invite' }, best_of: 3 });
  made.match = m.id;
  const t = await post('/api/tournaments', { name: 'Audit Swiss', format: 'swiss', rounds: 3, clock: { kind: 'fischer', base_ms: 300000, increment_ms: 3000 } });
  made.tournament = t.id;
  // The player's own line in the game's chat (the name drawn in the player's colour).
  await page.goto(`${env.server.url}/game/${made.game}`);
  await page.waitForFunction(() => window.zertzSocket?.ws?.readyState === WebSocket.OPEN);
  await page.fill('#chat-input', 'good luck');
  await page.press('#chat-input', 'Enter');
  await page.waitForSelector('#chat-lines li.chat-line.mine');
  await page.context().storageState({ path: `${env.server.dir}/audrey.json` });
  await page.context().close();
}

/** The pages audited, each with what shows it is drawn. */
const PAGES = () => [
  ['/', '#account-nav[data-state=in]'],
  ['/lobby', '#account-nav[data-state=in]'],
  ['/room', '#chat-lines'],
  ['/players', '#account-nav[data-state=in]'],
  ['/tournaments', '#account-nav[data-state=in]'],
  [`/tournament/${made.tournament}`, 'body[data-status=registering]'],
  ['/archive', '#account-nav[data-state=in]'],
  ['/analysis', '#board svg'],
  ['/puzzles', '#board svg'],
  ['/learn', '#account-nav[data-state=in]'],
  ['/rules', '#account-nav[data-state=in]'],
  ['/account', '#account-nav[data-state=in]'],
  ['/@/Audrey', '#account-nav[data-state=in]'],
  [`/game/${made.game}`, '#chat-lines li.chat-line.mine'],
  [`/match/${made.match}`, '#match-score'],
  ['/login', '#login-button'],
  ['/signup', '#signup-button'],
  ['/no-such-page', 'h1'],
];

for (const scheme of ['light', 'dark']) {
  test(`no serious or critical axe violation on any page, ${scheme} theme`, async () => {
    await setUp();
    const context = await env.browser.newContext({
      colorScheme: scheme,
      // axe is put in the page as a script: the site's policy allows only its own.
      bypassCSP: true,
      storageState: `${env.server.dir}/audrey.json`,
      viewport: { width: 1280, height: 900 },
    });
    const found = [];
    for (const [path, ready] of PAGES()) {
      const page = await context.newPage();
      page.on('pageerror', (e) => { throw e; });
      await page.goto(`${env.server.url}${path}`);
      await page.waitForSelector(ready, { state: 'attached' });
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'auto');
      await page.addScriptTag({ content: axeSource });
      const violations = await page.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${(n.failureSummary || '').split('\n')[1] || ''}`).join('; ')}`);
      });
      for (const v of violations) found.push(`${path}: ${v}`);
      await page.close();
    }
    await context.close();
    assert.deepEqual(found, [], found.join('\n'));
  });
}

test('a whole game against the engine by keyboard alone, each move said in the live region', async () => {
  const page = await freshPage(env);
  await signUpAs(env, page, 'Kira');
  const g = await postFrom(page, '/api/games', { opponent: { kind: 'engine', level: 1 } });
  await page.goto(`${env.server.url}/game/${g.id}`);
  await page.waitForSelector('#status[data-status=live]');
  const live = await page.getAttribute('#news', 'aria-live');
  assert.equal(live, 'polite', 'the sentences go to a live region');
  /** Presses Tab until `wanted` (run in the page) holds for the focused element. */
  const tabTo = async (wanted, arg, what) => {
    for (let k = 0; k < 300; k += 1) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(wanted, arg)) return;
    }
    throw new Error(`Tab never reached ${what}`);
  };
  const focusedCoord = (c) => document.activeElement?.closest?.('[data-coord]')?.getAttribute('data-coord') === c;
  // The first move on the board itself: the white marble, ring d4, then ring a1 removed.
  await tabTo(() => document.activeElement?.matches('#supply button[data-colour=W]'), null, 'the white marble');
  await page.keyboard.press('Enter');
  await tabTo(focusedCoord, 'd4', 'ring d4');
  await page.keyboard.press('Enter');
  await tabTo(focusedCoord, 'a1', 'ring a1');
  await page.keyboard.press('Enter');
  // The engine's answer is said in the live region (which holds the latest sentence).
  await page.waitForFunction(() => /Engine level 1 (places|captures)/.test(document.querySelector('#news')?.textContent || ''));
  const first = await gameState(env.server, g.id);
  assert.equal(first.moves[0], 'Wd4,a1', 'the move made with the keyboard on the board');
  // Then every move typed in the move field, reached with Tab: it keeps the focus.
  await tabTo(() => document.activeElement?.id === 'move-text', null, 'the move field');
  let s = await gameState(env.server, g.id);
  for (let turn = 0; turn < 200 && s.status === 'live'; turn += 1) {
    if (s.to_move !== 1) {
      await page.waitForFunction((v) => Number(document.querySelector('#status')?.dataset.version) > v, s.version);
      s = await gameState(env.server, g.id);
      continue;
    }
    // The server may be ahead of the page (the engine answers within milliseconds): a player
    // moves on the position the page shows, so the page catches up first.
    await page.waitForFunction((v) => Number(document.querySelector('#status')?.dataset.version) >= v, s.version);
    const move = s.legal_moves.find((m) => m.startsWith('x')) || s.legal_moves[0];
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'move-text');
    await page.keyboard.type(move);
    await page.keyboard.press('Enter');
    await page.waitForFunction((v) => Number(document.querySelector('#status')?.dataset.version) > v, s.version);
    s = await gameState(env.server, g.id);
  }
  assert.equal(s.status, 'finished', 'the game was played to its end');
  await page.waitForSelector('#status[data-status=finished]');
  // The end is said in the status line, itself a live region.
  assert.equal(await page.getAttribute('#status', 'aria-live'), 'polite');
  assert.match(await page.textContent('#status'), /wins|won|lost|draw/i);
  assert.ok(s.moves.length >= 10, `a whole game: ${s.moves.length} turns`);
});
