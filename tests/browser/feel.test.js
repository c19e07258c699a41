// Feedback on every event of a game: moves animated marble by marble and said in words, sounds,
// the player's turn in the title, the icon and a notification, low time, a sentence for every
// request, move confirmation and premoves. Animations and sounds are checked through what the
// page records of them (window.zertzFeel, data-animating), not through pixels or speakers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, clickMove, gameState, shot, storeSeat, textMatches, waitVersion } from './lib.js';

// The full browser: the headless shell denies notifications even when they are granted.
const env = serverAndBrowser({ fullBrowser: true, args: ['--claim-after', '30'] });

// Ann (first) can isolate a1 and a2 by placing anywhere and removing b1: placing black on d4 also
// sets up a chain for Ben (d3 over d4 to d5, over d6 to d7).
const ISOLATION = '37 standard WG-./.--../....../..W..G./....../...../.... 4/6/10 0/0/0 0/0/0 1';

/** A game between Ann and Ben (an invitation taken), created with `settings`: {id, tokens}. */
async function twoSeats(settings = {}) {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Ann', ...settings });
  const j = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Ben', token: g.invite_token });
  return { id: g.id, tokens: [g.token, j.token] };
}

/** The game page of a seat (token) or of a spectator (no token), in a browser context of its own. */
async function open(id, token, options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 860 }, ...options });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  if (token) await storeSeat(page, env.server, id, token);
  await page.goto(`${env.server.url}/game/${id}`);
  await page.waitForSelector('#status[data-status=live]');
  await page.waitForFunction(() => window.zertzSocket?.ws?.readyState === WebSocket.OPEN);
  return page;
}

const feel = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.zertzFeel)));
const said = async (page, re) => textMatches(page, re, '#news');

/** Makes the page believe its tab is hidden (or visible again). */
const hide = (page, hidden) => page.evaluate((h) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
  document.dispatchEvent(new Event('visibilitychange'));
}, hidden);

/**
 * Resolves once the board starts an animation, having paused it `at` ms in (for a screenshot
 * of a moment of it); `play` below lets it finish.
 */
const pauseAnimation = (page, at) => page.evaluate((t) => new Promise((resolve) => {
  const look = () => {
    const svg = document.querySelector('#board[data-animating] svg');
    if (!svg) {
      requestAnimationFrame(look);
      return;
    }
    for (const a of svg.getAnimations({ subtree: true })) {
      a.pause();
      a.currentTime = t;
    }
    resolve();
  };
  look();
}), at);
const play = (page) => page.evaluate(() => document.querySelector('#board svg').getAnimations({ subtree: true }).forEach((a) => a.play()));

test('an isolation and a chain are animated marble by marble, said and heard; the last move stays marked', async () => {
  const { id, tokens } = await twoSeats({ position: ISOLATION });
  const ann = await open(id, tokens[0], { permissions: ['notifications'] });
  const ben = await open(id, tokens[1]);
  const still = await open(id, null, { reducedMotion: 'reduce' });

  // Ann isolates a1 and a2: Ben's page animates the placement, the ring taken away, then the two
  // rings fading with their marbles, 260 ms a step; it is paused during the fading for a picture.
  const paused = pauseAnimation(ben, 2 * 260 + 150);
  await clickMove(ann, 'Bd4,b1');
  await paused;
  assert.equal(await ben.locator('#board .fx .fx-isolated').count(), 2, 'both isolated rings fade out');
  assert.equal(await ben.locator('#board .fx .fx-ring').count(), 3, 'and the removed ring slides away');
  await said(ben, /isolates two rings and takes 1 white and 1 grey marble/);
  await shot(ben, 'isolation');
  await play(ben);
  await ben.waitForSelector('#board:not([data-animating])');
  assert.equal(await ben.locator('#board .fx > *').count(), 0, 'the animation leaves nothing behind');

  const b = await feel(ben);
  assert.deepEqual(b.animated.at(-1), { move: 'Bd4,b1 x Wa1Ga2', steps: ['place', 'remove', 'isolate 2'], ms: 260, skipped: null });
  assert.ok(b.animated.at(-1).ms <= 300, 'a step takes at most 300 ms');
  assert.equal(b.played.at(-1), 'isolation');
  assert.match(b.said.at(-1), /^Ann places a black marble on d4 and removes ring b1; it isolates two rings and takes 1 white and 1 grey marble\.$/);
  // The last move stays marked: the marble placed, the rings gone drawn as dashed outlines.
  assert.equal(await ben.locator('#board circle.last').count(), 1);
  assert.equal(await ben.locator('#board circle.ghost').count(), 3);

  // Asked for less motion: the sentence, no animation.
  await said(still, /isolates two rings/);
  assert.equal((await feel(still)).animated.at(-1).skipped, 'reduced-motion');

  // Ann's tab is hidden when Ben captures a chain: no animation, a notification, the title.
  await hide(ann, true);
  await clickMove(ben, 'x d3Bd5Gd7');
  await said(ann, /Ben captures 1 grey and 1 black marble in a chain of two jumps \(d3 → d5 → d7\)/);
  const a = await feel(ann);
  assert.deepEqual(a.animated.at(-1), { move: 'x d3Bd5Gd7', steps: ['jump', 'jump'], ms: 260, skipped: 'hidden' });
  assert.equal(a.played.at(-1), 'capture');
  assert.deepEqual(a.notified, [{ title: 'ZÈRTZ: your turn', body: 'Ben played x d3Bd5Gd7.', shown: true }]);
  assert.match(await ann.title(), /^● Your turn · Ann – Ben/);
  assert.equal(await ann.getAttribute('link[rel=icon]', 'data-turn'), 'yours');
  assert.doesNotMatch(await ben.title(), /Your turn/);
  assert.equal(await ben.getAttribute('link[rel=icon]', 'href'), '/static/favicon.svg');
  await hide(ann, false);
  // The chain is the last move now: its path is marked, the isolation's outlines are gone.
  assert.equal(await ann.locator('#board .last-path').count(), 1);
  assert.equal(await ann.locator('#board circle.ghost').count(), 0);

  // Seen on a visible page, the chain hops from ring to ring.
  const watched = await feel(still);
  assert.equal(watched.animated.at(-1).skipped, 'reduced-motion');

  // Animations turned off in the board options: remembered, and nothing moves.
  await ann.uncheck('#opt-animations');
  await clickMove(ann, 'Wc3,g1');
  await clickMove(ben, 'Gc4,g2');
  await said(ann, /Ben places a grey marble on c4/);
  assert.equal((await feel(ann)).animated.at(-1).skipped, 'off');
  assert.equal(await ann.evaluate(() => localStorage.getItem('zertz.ui.animations')), 'false');
  const seen = await feel(ben);
  assert.equal(seen.animated.at(-1).skipped, null, 'Ben still sees his own move animated');
  assert.deepEqual(seen.animated.at(-1).steps, ['place', 'remove']);
  await Promise.all([ann, ben, still].map((p) => p.context().close()));
});

test('the turn in the title and icon, low time warned, the sound switch remembered', async () => {
  const { id, tokens } = await twoSeats({ clock: { kind: 'sudden_death', total_ms: 21000 } });
  const ann = await open(id, tokens[0]);
  const ben = await open(id, tokens[1]);
  assert.match(await ann.title(), /^● Your turn/);
  assert.doesNotMatch(await ben.title(), /Your turn/);
  // An invited game's clocks stand still until the first move, and the page says so.
  assert.match(await ann.textContent('#clock-note'), /^The clocks start with the first move\.$/);
  assert.equal(await ann.locator('#players .clock.running').count(), 0);

  // The page asks once for notifications, on the player's first move, and never again.
  const stub = () => ann.evaluate(() => {
    window.asked = 0;
    Object.defineProperty(Notification, 'permission', { configurable: true, get: () => 'default' });
    Notification.requestPermission = () => { window.asked += 1; return Promise.resolve('default'); };
  });
  // Muted: the switch is remembered after a reload, and the next sound is not played.
  await ann.click('#sound-toggle');
  assert.equal(await ann.getAttribute('#sound-toggle', 'data-sound'), 'off');
  await ann.reload();
  await ann.waitForSelector('#status[data-status=live]');
  assert.equal(await ann.getAttribute('#sound-toggle', 'data-sound'), 'off');
  await stub();
  await clickMove(ann, 'Wd4,a1');
  assert.equal(await ann.evaluate(() => window.asked), 1, 'asked on the first move');
  assert.equal(await ann.evaluate(() => localStorage.getItem('zertz.ui.notify-asked')), 'true');
  assert.deepEqual((await feel(ann)).played, []);
  assert.ok((await feel(ann)).muted.includes('move'));
  assert.equal((await feel(ben)).played.at(-1), 'move');
  assert.equal(await ann.locator('#clock-note').count(), 0, 'the clocks run now');

  // Ben's clock runs with under 20 s left: it turns red, a sound and a sentence, once.
  await ben.waitForSelector('#players .player.you .clock.low.running');
  await said(ben, /Low time: .* left on your clock/);
  assert.deepEqual((await feel(ben)).played.filter((s) => s === 'lowtime'), ['lowtime']);
  assert.match(await ben.title(), /^● Your turn/);
  assert.doesNotMatch(await ann.title(), /Your turn/);
  // Ann's next move: not asked again (nor after a reload: the browser remembers it asked).
  await clickMove(ben, 'Bd7,g1');
  await ann.reload();
  await ann.waitForSelector('#status[data-status=live]');
  await stub();
  await clickMove(ann, 'Gb1,a4');
  assert.equal(await ann.evaluate(() => window.asked), 0, 'never asked again');
  await Promise.all([ann, ben].map((p) => p.context().close()));
});

test('every request gets a sentence: takeback, draw, bribes, rematch, an opponent who left', async () => {
  const { id, tokens } = await twoSeats({ bribes: true });
  const ann = await open(id, tokens[0]);
  const ben = await open(id, tokens[1]);

  await clickMove(ann, 'Wd4,a1');
  await ann.click('#takeback');
  await said(ben, /^Ann asks to take back their last move: allow or refuse it\.$/);
  await said(ann, /^You ask to take back your last move\.$/);
  await ben.click('text=Refuse takeback');
  await said(ann, /^Ben refuses the takeback\.$/);

  await ben.click('#offer-draw');
  await said(ann, /^Ben offers a draw: accept or decline it\.$/);
  await ann.click('text=Decline draw');
  await said(ben, /^Ann declines the draw\.$/);

  // Ben, to move, offers an empty bribe to pass: rejected, then accepted.
  await ben.click('#bribe-form button[type=submit]');
  await said(ann, /^Ben offers you no marble to pass their turn: accept or reject it\.$/);
  await ann.click('#reject-bribe');
  await said(ben, /^Ann rejects the bribe: you move on\.$/);
  await ben.click('#bribe-form button[type=submit]');
  await said(ann, /offers you no marble/);
  await ann.click('#accept-bribe');
  await said(ben, /^Ann accepts the bribe: you hand over no marble and pass\.$/);
  await said(ann, /^You accept the bribe: Ben hands over no marble and passes\.$/);

  // The end, then a rematch asked by one and agreed by the other.
  await ann.click('#resign');
  await ann.click('#resign-confirm');
  // How it ended is said once, by the status line; the news line does not repeat it.
  await textMatches(ben, /You win!.*Ben wins: Ann resigned\./, '#status');
  assert.ok(await ben.isHidden('#news'), 'the news line is put away');
  assert.equal(await ben.evaluate(() => document.body.innerText.split('Ben wins: Ann resigned.').length - 1), 1);
  assert.equal((await feel(ben)).said.at(-1), 'Ben wins: Ann resigned.');
  assert.equal((await feel(ben)).played.at(-1), 'end');
  await ben.click('#rematch');
  await said(ann, /^Ben asks for a rematch\.$/);
  await said(ben, /^You ask for a rematch: waiting for your opponent\.$/);
  await ann.click('#rematch');
  await said(ben, /^The rematch is ready\.$/);

  // In the rematch Ben leaves: Ann is told, with the countdown to claiming the game.
  await Promise.all([ann.click('#rematch-link'), ben.click('#rematch-link')]);
  await ann.waitForSelector('#status[data-status=live]');
  await ben.waitForSelector('#status[data-status=live]');
  await ann.waitForFunction(() => window.zertzSocket?.ws?.readyState === WebSocket.OPEN);
  await ann.waitForSelector('#players .player:not(.you):not(:has(.away))');
  await ben.context().close();
  await said(ann, /^Ben has left the game: if they are not back in \d+ s, you may claim the win\.$/);
  assert.match(await ann.textContent('#actions'), /you may claim the game in \d+ s/);
  await ann.context().close();
});

test('a player arriving at a new game is not "back"; one who left and returns is; the first sentence does not move the board', async () => {
  const { id, tokens } = await twoSeats();
  const ann = await open(id, tokens[0]);
  const ben = await open(id, tokens[1]);
  await ann.waitForSelector('#players .player:not(.you):not(:has(.away))');
  const top = () => ben.locator('#board').evaluate((el) => el.getBoundingClientRect().top);
  const before = await top();
  await clickMove(ann, 'Wd4,a1');
  await said(ben, /./);
  // The first sentence takes the room kept for it: the board stays where it was.
  assert.equal(await top(), before, 'the board does not move down when the news line fills');
  assert.deepEqual((await feel(ann)).said.filter((t) => /is back/.test(t)), [], 'Ben only arrived');
  assert.deepEqual((await feel(ben)).said.filter((t) => /is back/.test(t)), [], 'Ann only arrived');
  // Ben leaves and comes back in a new browser: now Ann is told.
  await ben.context().close();
  await said(ann, /^Ben has left the game/);
  const again = await open(id, tokens[1]);
  await said(ann, /^Ben is back\.$/);
  await Promise.all([ann, again].map((p) => p.context().close()));
});

test('a move shown first and sent on Confirm; a premove played on the turn, or dropped with a word', async () => {
  const { id, tokens } = await twoSeats();
  const ann = await open(id, tokens[0]);
  const ben = tokens[1];
  const move = (text) => call(env.server, 'POST', `/api/games/${id}/action`, { type: 'move', move: text }, ben);

  // Confirmation on: the move is drawn on the board and waits; Cancel forgets it.
  await ann.selectOption('#opt-confirm', 'on');
  for (const c of ['#supply [data-colour=W]', '#board [data-coord=d4]', '#board [data-coord=a1]']) await ann.click(c);
  await ann.waitForSelector('#confirm-bar[data-kind=confirm]');
  assert.equal(await ann.textContent('#pending-move'), 'Wd4,a1');
  assert.equal(await ann.locator('#board .pending-marble').count(), 1);
  assert.equal(await ann.locator('#board .place.pending-remove[data-coord=a1]').count(), 1);
  assert.deepEqual((await gameState(env.server, id)).moves, [], 'nothing sent yet');
  await ann.click('#cancel-move');
  assert.ok(await ann.isHidden('#confirm-bar'));
  assert.equal(await ann.locator('#board .pending-marble').count(), 0);
  for (const c of ['#supply [data-colour=W]', '#board [data-coord=d4]', '#board [data-coord=a1]']) await ann.click(c);
  const version = (await gameState(env.server, id)).version;
  await ann.click('#confirm-move');
  await waitVersion(ann, version + 1);
  assert.deepEqual((await gameState(env.server, id)).moves, ['Wd4,a1']);

  // While Ben thinks, Ann premoves grey on f2, removing g1: played as soon as Ben has moved.
  for (const c of ['#supply [data-colour=G]', '#board [data-coord=f2]', '#board [data-coord=g1]']) await ann.click(c);
  await ann.waitForSelector('#confirm-bar[data-kind=premove]');
  assert.equal(await ann.textContent('#premove'), 'Gf2,g1');
  assert.equal(await ann.locator('#board .pending-marble.premove').count(), 1);
  await move('Bb4,a4');
  await said(ann, /Ann places a grey marble on f2 and removes ring g1/);
  assert.deepEqual((await gameState(env.server, id)).moves, ['Wd4,a1', 'Bb4,a4', 'Gf2,g1']);
  assert.ok((await feel(ann)).said.includes('Your premove Gf2,g1 is played.'));

  // A premove Ben's move makes impossible is dropped, and Ann is told why.
  for (const c of ['#supply [data-colour=W]', '#board [data-coord=e2]', '#board [data-coord=g4]']) await ann.click(c);
  assert.equal(await ann.textContent('#premove'), 'We2,g4');
  await move('Be2,b1');
  await said(ann, /^Your premove We2,g4 was dropped: e2 now holds a marble\.$/);
  assert.ok(await ann.isHidden('#confirm-bar'));
  assert.match(await ann.textContent('#status'), /Your turn/);
  assert.deepEqual((await gameState(env.server, id)).moves, ['Wd4,a1', 'Bb4,a4', 'Gf2,g1', 'Be2,b1']);
  await ann.context().close();
});
