// Tournaments in the browser: an account creates a round robin from /tournaments, two more
// join from its page (a guest is offered to sign in instead), the organiser starts it, and each
// round's players find "your game is ready" on the event's page without reloading it; the
// loser of each game resigns on the game page. The standings, the crosstable and each round's
// results follow live, and the podium shows at the end, with the report and the games to
// download. The form's refusal (a Swiss with more rounds than it can have) is shown in the
// server's words, and an unknown event is a 404. Then a Swiss of four: one player withdraws
// during round 1 (two clicks), another asks to sit out round 2 (and takes a first request
// back); round 2 is paired without either; the organiser removes a player and ends it. A
// death-match knockout of four to its podium. An arena: created from the form, a late entry
// joining while it runs, berserk clicked on the game page, the table following the games
// without a reload; and a Swiss whose standings follow round 1's results on a spectator's page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, freshPage, postFrom, shot, signUpAs, textMatches } from './lib.js';

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
  const swiss = (await postFrom(ann, '/api/tournaments', { name: 'Quick Swiss', format: 'swiss', rounds: 2, max_players: 4, clock: { kind: 'fischer', base_ms: 300000, increment_ms: 3000 } })).id;
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

/** From `page` (signed in), an action in `game` as its player: the game's state after it. */
const actIn = async (page, game, action) => (await postFrom(page, `/api/games/${game}/action?legal=list`, action)).state;

/** The game a match page links to now, once it is not `after`. */
async function currentGame(page, matchUrl, after) {
  await page.goto(matchUrl);
  await page.waitForFunction((old) => {
    const a = document.querySelector('#current-game');
    return a && a.getAttribute('href') !== old;
  }, after ? `/game/${after}` : null);
  return (await page.getAttribute('#current-game', 'href')).split('/')[2];
}

/** `loser` resigns the games of the match at `matchUrl` on the game page until the match is over. */
async function loseMatch(page, matchUrl, games) {
  let last = null;
  for (let k = 0; k < games; k += 1) {
    last = await currentGame(page, matchUrl, last);
    await page.goto(`${env.server.url}/game/${last}`);
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#status[data-status=finished]');
  }
}

test('a death-match knockout of four: bracket, best-of-3 matches, a bribe in the final, the podium', async () => {
  const names = ['Kim', 'Lou', 'Max', 'Ned'];
  const pages = {};
  for (const name of names) {
    pages[name] = await freshPage(env);
    await signUpAs(env, pages[name], name);
  }
  const kim = pages.Kim;
  await kim.goto(`${env.server.url}/tournaments`);
  await kim.click('#create-details summary');
  await kim.fill('#event-name-field', 'DM Colosseum');
  await kim.fill('#event-max', '4');
  await kim.selectOption('#event-format', 'knockout');
  await kim.check('#event-third-place');
  // No rounds to give; who begins a match is asked; the host's clock is offered.
  assert.equal(await kim.isVisible('#event-rounds'), false);
  assert.equal(await kim.isVisible('#event-first-mover'), true);
  assert.equal(await kim.inputValue('#event-clock'), 'reserve');
  // Casual, and why: rated games follow the official rules, the death matches the host's.
  assert.equal(await kim.isChecked('#event-rated'), false);
  assert.equal(await kim.isDisabled('#event-rated'), true);
  assert.match(await kim.textContent('#event-rated-note'), /house rules \(no repetition; bribes in the final\)/);
  // Who may enter: ratings 1000 to 2000 (everyone here is 1500).
  await kim.fill('#event-min-rating', '1000');
  await kim.fill('#event-max-rating', '2000');
  await kim.click('#create-event');
  await kim.waitForURL(/\/tournament\/[^/]+$/);
  const url = kim.url();
  await textMatches(kim, /^Death-match knockout \(best of 3\), a match for third place · 37 rings .* 1 min a move \+ 3 min reserve.* · ratings 1000–2000/, '#event-settings');
  for (const name of names) {
    await pages[name].goto(url);
    await pages[name].click('#join');
    await textMatches(pages[name], /You are in/);
  }
  // Ned, the lower seed of his match, chooses who begins its game 1: he tries "my opponent
  // begins", then comes back to beginning himself (the default), each saved as it changes.
  const ned = pages.Ned;
  assert.equal(await ned.inputValue('#first-choice'), 'me');
  await ned.selectOption('#first-choice', 'opponent');
  await textMatches(ned, /When you choose, your opponent begins game 1/);
  await ned.reload();
  assert.equal(await ned.inputValue('#first-choice'), 'opponent');
  await ned.selectOption('#first-choice', 'me');
  await textMatches(ned, /When you choose, you begin game 1/);
  await kim.reload();
  await textMatches(kim, /^Death-match knockout \(best of 3\), 2 rounds/, '#event-settings');
  // The event's room: what Kim says there, Ned reads on his page of the event.
  await kim.waitForFunction(() => window.zertzRoom?.ws?.readyState === WebSocket.OPEN);
  await pages.Ned.waitForFunction(() => window.zertzRoom?.ws?.readyState === WebSocket.OPEN);
  await kim.fill('#chat-input', 'Good luck, all four of us');
  await kim.press('#chat-input', 'Enter');
  await pages.Ned.locator('#event-chat .chat-text', { hasText: 'Good luck, all four of us' }).waitFor();
  await kim.click('#start');
  await kim.waitForSelector('body[data-status=running]');

  // The organiser pauses and resumes (the games under way would go on meanwhile).
  await kim.click('#pause-event');
  await kim.waitForSelector('body[data-status=paused]');
  await textMatches(kim, /Paused by the organiser in round 1/, '#event-status');
  await kim.click('#resume-event');
  await kim.waitForSelector('body[data-status=running]');

  // The bracket: seeds 1-4 and 2-3, the lower seed moving first in game 1.
  await kim.waitForSelector('#bracket-svg');
  assert.equal(await kim.isVisible('#crosstable-section'), false);
  const slot = (r, k) => kim.$$eval(`#bracket-svg g[data-round="${r}"][data-slot="${k}"] text`, (ts) => ts.map((t) => t.textContent));
  assert.deepEqual((await slot(1, 1)).slice(0, 2), ['Ned', 'Kim']);
  assert.deepEqual((await slot(1, 2)).slice(0, 2), ['Max', 'Lou']);
  assert.deepEqual((await slot(2, 1)).slice(0, 2), ['', ''], 'the final is still to come');
  await shot(kim, 'knockout-round-1');

  // Round 1: Ned and Max lose their matches 0-2 on the game page.
  for (const loser of ['Ned', 'Max']) {
    const page = pages[loser];
    await page.goto(url);
    await textMatches(page, /your death match against .* is ready/, '#your-game');
    const matchUrl = new URL(await page.getAttribute('#go-to-game', 'href'), env.server.url).href;
    assert.match(matchUrl, /\/match\//);
    await loseMatch(page, matchUrl, 2);
  }

  // The final: Lou (seed 2) moves first. She captures, then offers a bribe instead of moving;
  // Kim rejects it on the game page.
  await kim.waitForSelector('body[data-round="2"]', { timeout: 15000 });
  assert.deepEqual((await slot(2, 1)).slice(0, 2), ['Lou', 'Kim']);
  // The semifinal losers meet for third place, drawn under the final; Ned resigns it.
  assert.deepEqual((await slot(2, 2)).slice(0, 2), ['Ned', 'Max']);
  const thirdMatch = (await (await kim.request.get(`${env.server.url}/api/tournaments/${url.split('/').pop()}`)).json())
    .pairings[1].boards.find((b) => b.board === 2).game;
  await postFrom(pages.Ned, `/api/matches/${thirdMatch}/resign`, {});
  const lou = pages.Lou;
  await lou.goto(url);
  const finalUrl = new URL(await lou.getAttribute('#go-to-game', 'href'), env.server.url).href;
  const game = await currentGame(lou, finalUrl, null);
  // Moves by the API (captures first, else the first legal move) until Lou is to move and
  // both hold a marble of one colour: a bribe must be of marbles both players hold.
  const common = (st) => [0, 1, 2].find((c) => st.captures[0][c] > 0 && st.captures[1][c] > 0);
  let s = await actIn(lou, game, { type: 'move', move: 'Wd4,a1' });
  for (let ply = 0; ply < 80 && !(s.to_move === 1 && common(s) !== undefined); ply += 1) {
    const list = s.legal_moves;
    const move = list.find((m) => m.startsWith('x')) || list[0];
    s = await actIn(s.to_move === 1 ? lou : kim, game, { type: 'move', move });
    assert.equal(s.status, 'live', 'the game goes on until a bribe is possible');
  }
  const colour = common(s);
  assert.ok(s.to_move === 1 && colour !== undefined, `both hold a colour: ${JSON.stringify(s.captures)}`);
  await lou.goto(`${env.server.url}/game/${game}`);
  await lou.waitForSelector('#bribe-form');
  assert.match(await lou.textContent('#bribe-form'), /3 left/);
  await lou.fill(`#bribe-form input[data-bribe="${'WGB'[colour]}"]`, '1');
  await lou.click('#bribe-form button[type=submit]');
  await textMatches(lou, /waits for an answer/, '#actions');
  await kim.goto(`${env.server.url}/game/${game}`);
  await kim.click('#reject-bribe');
  // A bribe counts against the match's three, accepted or not.
  await textMatches(lou, /Bribes left: 2|Bribe to pass \(2 left\)/, '#actions');
  await loseMatch(lou, finalUrl, 2);

  // The places: Kim, Lou, and both semifinal losers third.
  await kim.goto(url);
  await kim.waitForSelector('body[data-status=finished]', { timeout: 15000 });
  const podium = await kim.$$eval('#podium-places li', (items) => items.map((li) => `${li.getAttribute('data-name')} ${li.querySelector('.place-name').textContent}`));
  assert.deepEqual(podium, ['Kim First', 'Lou Second', 'Max Third']);
  assert.match(await kim.textContent('#podium-places li[data-name=Max]'), /won the match for third place/);
  const places = await kim.$$eval('#standings-table tbody tr', (rows) => rows.map((r) => [...r.children].slice(0, 3).map((c) => c.textContent).join(' ')));
  assert.deepEqual(places, ['1 Kim won it', '2 Lou the final', '3 Max a semifinal', '4 Ned a semifinal']);
  assert.equal(await kim.locator('#download-trf').count(), 0, 'no TRF for a knockout');
  await shot(kim, 'knockout-finished');
});

test('an arena joined while it runs, berserk on the game page, its table and a Swiss standings live', async () => {
  const names = ['Eli', 'Fay', 'Gus', 'Hal'];
  const pages = {};
  for (const name of names) {
    pages[name] = await freshPage(env);
    await signUpAs(env, pages[name], name);
  }
  const eli = pages.Eli;
  const fay = pages.Fay;
  const gus = pages.Gus;

  // Eli creates an arena of 30 minutes from the form: no rounds, minutes and berserk asked.
  await eli.goto(`${env.server.url}/tournaments`);
  await eli.click('#create-details summary');
  await eli.fill('#event-name-field', 'Friday arena');
  await eli.selectOption('#event-format', 'arena');
  assert.equal(await eli.isVisible('#event-rounds'), false);
  assert.equal(await eli.isChecked('#event-berserk'), true);
  await eli.selectOption('#event-minutes', '30');
  await eli.click('#create-event');
  await eli.waitForURL(/\/tournament\/[^/]+$/);
  const url = eli.url();
  await textMatches(eli, /Arena, 30 minutes, berserk allowed · 37 rings/, '#event-settings');
  await eli.click('#join');
  await fay.goto(url);
  await fay.click('#join');
  await textMatches(fay, /You are in/);
  await eli.waitForSelector('#entries-table tr[data-name=Fay]');
  await eli.click('#start');
  await eli.waitForSelector('body[data-status=running]');
  await textMatches(eli, /Ends in (29|30):\d\d/, '#event-status');

  // Gus comes while it runs, joins from the page and waits for a free player.
  await gus.goto(url);
  await gus.click('#join');
  await textMatches(gus, /paired as soon as another player is free/);
  await gus.waitForSelector('#standings-table tr[data-name=Gus]');

  // Fay finds her game ready, goes berserk on the game page (before her first move).
  await fay.waitForSelector('#go-to-game');
  assert.match(await fay.textContent('#your-game'), /Berserk before your first move/);
  await fay.click('#go-to-game');
  await fay.waitForURL(/\/game\//);
  const game = fay.url().split('/').pop();
  await fay.click('#berserk');
  await fay.waitForSelector('.berserk-note[data-seat]');
  assert.match(await fay.textContent('#actions'), /You went berserk: half the clock, no increment/);
  assert.equal(await fay.locator('#berserk').count(), 0, 'berserk once');

  // Seven moves of Fay's (by the API), then Eli resigns: a berserk win earns 3.
  const start = await (await eli.request.get(`${env.server.url}/api/games/${game}?legal=list`)).json();
  const fayIs = start.seats.findIndex((s) => s.name === 'Fay') + 1;
  let s = start;
  for (let turn = 0; turn < 40; turn += 1) {
    const fayMoves = fayIs === 1 ? Math.ceil(s.moves.length / 2) : Math.floor(s.moves.length / 2);
    if (fayMoves >= 7 && s.to_move !== fayIs) break;
    const mover = s.to_move === fayIs ? fay : eli;
    s = (await postFrom(mover, `/api/games/${game}/action?legal=list`, { type: 'move', move: s.legal_moves[0] })).state;
    assert.equal(s.status, 'live');
  }
  await postFrom(eli, `/api/games/${game}/action`, { type: 'resign' });

  // Gus's page, not reloaded: Fay leads with 3 (a berserk game on her sheet) and meets Gus.
  await gus.waitForSelector('#standings-table tr[data-name=Fay][data-points="3"]', { timeout: 15000 });
  assert.equal(await gus.locator('#standings-table tr[data-name=Fay] .sheet-game.berserk').count(), 1);
  await textMatches(gus, /Your game against Fay is ready/, '#your-game');
  await textMatches(eli, /Fay – Gus|Gus – Fay/, '#arena-games-list');
  await shot(eli, 'arena-running');

  // Eli ends it (two clicks): Fay first on the podium, no TRF.
  await eli.click('#end-event');
  await eli.click('#end-confirm');
  await eli.waitForSelector('body[data-status=finished]');
  assert.equal(await eli.getAttribute('#podium-places li.place-1', 'data-name'), 'Fay');
  assert.equal(await eli.locator('#download-trf').count(), 0);

  // A Swiss of four (by the API): a spectator's standings follow round 1's results live.
  const swiss = await postFrom(eli, '/api/tournaments', {
    name: 'Live Swiss', format: 'swiss', rounds: 2, clock: { kind: 'fischer', base_ms: 300000, increment_ms: 3000 },
  });
  for (const name of names) await postFrom(pages[name], `/api/tournaments/${swiss.id}/join`, {});
  await postFrom(eli, `/api/tournaments/${swiss.id}/start`, {});
  const watcher = await freshPage(env);
  await watcher.goto(`${env.server.url}/tournament/${swiss.id}`);
  await watcher.waitForSelector('body[data-round="1"]');
  await textMatches(watcher, /After round 0/, '#standings caption');
  const e = await (await watcher.request.get(`${env.server.url}/api/tournaments/${swiss.id}`)).json();
  for (const b of e.pairings[0].boards) {
    // The second mover resigns each game.
    await postFrom(pages[b.black], `/api/games/${b.game}/action`, { type: 'resign' });
  }
  await watcher.waitForSelector('body[data-round="2"]', { timeout: 15000 });
  await textMatches(watcher, /After round 1/, '#standings caption');
  const winners = e.pairings[0].boards.map((b) => b.white).sort();
  const leaders = await watcher.$$eval('#standings-table tbody tr', (rows) => rows.slice(0, 2).map((r) => r.getAttribute('data-name')).sort());
  assert.deepEqual(leaders, winners, 'the round 1 winners lead, without a reload');
});
