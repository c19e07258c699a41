// Ratings in the browser: two people sign up, one creates a rated Blitz game with a clock from
// the home page (the "rated" box refused for the engine and without a clock, the server's own
// refusal shown), the other joins by the link (the lobby marks the game rated), and they play
// it to a win by typing moves. Both profiles then show a rating in the pool that moved away
// from 1500 (one up, one down) with its graph, the game with its rating change and filters
// that find it or not; the game page shows the change; the leaderboard says why it is empty;
// an unknown player is said so; an engine seat shows its published rating.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCustom,
  serverAndBrowser, call, freshPage, gameId, gameState, pickMove, rng, shot, shownVersion, signUpAs, textMatches, waitVersion,
} from './lib.js';

const env = serverAndBrowser();

/** Plays `move` by typing it under the board, and waits for the page to show it. */
async function typeMove(page, move) {
  const before = await shownVersion(page);
  await page.fill('#move-text', move);
  await page.press('#move-text', 'Enter');
  await waitVersion(page, before + 1);
  const said = await page.textContent('#message');
  if (/refused/.test(said || '')) throw new Error(`move ${move} refused: ${said}`);
}

/** The rating a profile's card of `pool` shows, as a number ("1662?" → 1662). */
async function cardRating(page, pool) {
  const card = page.locator(`.rating-card[data-pool="${pool}"]`);
  await card.waitFor();
  return Number((await card.locator('.rating-value').textContent()).replace('?', ''));
}

test('a rated game played to its end moves both ratings, shown on profiles and the game page', async () => {
  const ann = await freshPage(env);
  await signUpAs(env, ann, 'Ann');

  // The "rated" box: only for an account, and not against the engine.
  await openCustom(ann);
  await ann.waitForSelector('#rated-label:not([hidden])');
  assert.ok(await ann.isDisabled('#rated'), 'the engine is the default opponent: unrated');
  assert.match(await ann.getAttribute('#rated-label', 'title'), /games against the engine are unrated/);
  await ann.check('input[name=opponent][value=invite]');
  assert.ok(await ann.isDisabled('#rated'), 'no clock yet');
  assert.match(await ann.textContent('#rated-note'), /rated games need a clock/);
  await ann.selectOption('#rules', 'blitz');
  await ann.selectOption('#clock', 'fischer-5-3');
  assert.ok(await ann.isEnabled('#rated'));
  assert.match(await ann.textContent('#rated-note'), /Blitz rules, blitz/);
  // A house rule makes it unrated, and the page says so (the server refuses it too).
  await ann.check('#bribes');
  assert.ok(await ann.isDisabled('#rated'));
  assert.match(await ann.textContent('#rated-note'), /rated games follow the official rules/);
  await ann.uncheck('#bribes');
  assert.ok(await ann.isEnabled('#rated'));
  await ann.check('#rated');
  assert.ok(!(await ann.isChecked('#casual')) && (await ann.isDisabled('#casual')), 'a rated game has no takebacks');

  // What the page cannot foresee, the server refuses in its words (here a board forced past
  // the page's own check).
  await ann.selectOption('#board', '40');
  assert.ok(await ann.isDisabled('#rated'));
  await ann.evaluate(() => {
    const box = document.querySelector('#rated');
    box.disabled = false;
    box.checked = true;
  });
  await ann.click('#start');
  assert.match(await textMatches(ann, /refused/), /The server refused: rated: only games on the 37-ring board/);
  await ann.selectOption('#board', '37');
  await ann.check('#rated');
  await ann.click('#start');
  const link = await ann.inputValue('#invite-link');
  await ann.click('#go');
  await ann.waitForSelector('#status[data-status=open]');
  const id = gameId(ann);

  const ben = await freshPage(env);
  await signUpAs(env, ben, 'Ben');
  await ben.goto(link);
  await ben.click('#join');
  await ben.waitForSelector('#status[data-status=live]');
  await ann.waitForSelector('#status[data-status=live]');
  // The game page learns from the profiles that the game is rated, and in which pool.
  await ann.waitForSelector('#game-rating');
  assert.match(await ann.textContent('#game-rating'), /rated Blitz rules, blitz/);
  await ann.waitForFunction(() => /Ben \(new\)/.test(document.querySelector('#players').textContent));
  // The lobby marks it rated among the games being played.
  const lobby = await freshPage(env);
  await lobby.goto(`${env.server.url}/lobby`);
  await lobby.waitForSelector(`#live-games tr[data-game="${id}"] .tag.rated`);
  await lobby.context().close();

  // Played to the end by typing the moves under the board.
  const pages = { 1: ann, 2: ben };
  const random = rng(3);
  let state;
  for (let moves = 0; ; moves += 1) {
    state = await gameState(env.server, id);
    if (state.status !== 'live') break;
    assert.ok(moves < 150, 'the game ends');
    const mover = pages[state.to_move];
    await waitVersion(mover, state.version);
    await typeMove(mover, pickMove(state.legal_moves, random));
  }
  const winnerSeat = state.result.winner;
  assert.ok(winnerSeat, `a win, not ${state.result.text}`);
  const [winner, loser] = winnerSeat === 1 ? ['Ann', 'Ben'] : ['Ben', 'Ann'];

  // The game page shows both changes, one up, one down.
  await ann.waitForSelector('#game-rating .delta.up');
  const change = await ann.textContent('#game-rating');
  assert.match(change, new RegExp(`${winner} 1500 → \\d+ \\+\\d+`));
  assert.match(change, new RegExp(`${loser} 1500 → \\d+ \u2212\\d+`));
  await ann.waitForSelector('#players .rating .delta.down');
  await shot(ann, 'ratings-game-end');

  // Both profiles: the rating of the pool, its graph with the latest point, the game listed
  // with its change and links.
  const ratings = {};
  for (const [who, sign] of [[winner, '+'], [loser, '\u2212']]) {
    await ann.goto(`${env.server.url}/@/${who}`);
    ratings[who] = await cardRating(ann, 'blitz-blitz');
    const card = ann.locator('.rating-card[data-pool="blitz-blitz"]');
    assert.match(await card.textContent(), /Blitz rules, blitz/);
    assert.match(await card.textContent(), /provisional/);
    assert.match(await card.textContent(), /1 rated game/);
    assert.equal(await card.locator('svg.rating-graph circle.latest').count(), 1);
    assert.equal(Number(await card.locator('svg.rating-graph circle.latest').getAttribute('data-rating')), ratings[who]);
    const row = ann.locator(`#games tr[data-game="${id}"]`);
    await row.waitFor();
    assert.ok((await row.locator('.delta').textContent()).startsWith(sign), `${who}'s change has the sign ${sign}`);
    assert.equal(await row.locator('a.game-link').getAttribute('href'), `/game/${id}`);
    assert.equal(await row.locator('a.replay-link').getAttribute('href'), `/archive#game=${id}`);
    assert.match(await ann.textContent('#results-line'), who === winner ? /1 finished game: 1 won, 0 lost/ : /1 finished game: 0 won, 1 lost/);
    assert.match(await ann.textContent('#by-reason'), /(Won|Lost) (by captures|by isolation|with no legal move left|as the opponent had no legal move): 1/);
  }
  assert.ok(ratings[winner] > 1500, `the winner went up: ${ratings[winner]}`);
  assert.ok(ratings[loser] < 1500, `the loser went down: ${ratings[loser]}`);
  await shot(ann, 'ratings-profile');

  // The filters: the loser has no win, has a loss against the winner; an unknown opponent is
  // refused in the server's words.
  await ann.selectOption('#filter-result', 'win');
  await ann.waitForSelector('#no-games');
  assert.match(ann.url(), /\?result=win$/);
  await ann.selectOption('#filter-result', 'loss');
  await ann.fill('#filter-opponent', winner);
  await ann.click('#filter-apply');
  await ann.waitForSelector(`#games tr[data-game="${id}"]`);
  await ann.fill('#filter-opponent', 'Nobody_here');
  await ann.click('#filter-apply');
  assert.match(await textMatches(ann, /Cannot/, '#games'), /no player has that name/);

  // The leaderboard opens on the pool with players: both, their ratings marked provisional
  // and the mark explained; a pool nobody played says so; the home page's top players too.
  await ann.click('header.site a[href="/players"]');
  await ann.waitForSelector('#leaders[data-pool="blitz-blitz"][data-loaded="2"]');
  const rows = await ann.$$eval('#leaders tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => [r[1], r[2]]), [[winner, `${ratings[winner]}?`], [loser, `${ratings[loser]}?`]]);
  assert.match(await ann.textContent('#provisional-note'), /^Ratings are provisional \(marked \?\) until/);
  await ann.click('#pool-tabs [data-pool="standard-rapid"]');
  await ann.waitForSelector('#leaders[data-pool="standard-rapid"][data-loaded="0"]');
  assert.match(await ann.textContent('#no-leaders'), /Nobody has played a rated game in this pool/);
  assert.match(ann.url(), /\/players\?pool=standard-rapid$/);
  await ann.goto(`${env.server.url}/`);
  await ann.waitForSelector('#top-list .top-pool[data-pool="blitz-blitz"]');
  assert.match(await ann.textContent('#top-list'), new RegExp(`${winner} ${ratings[winner]}\\?`));
  await ann.waitForSelector('#online[data-count] a[href="/@/Ben"]');

  // An unknown player.
  await ann.goto(`${env.server.url}/@/Nobody_here`);
  assert.match(await textMatches(ann, /no player/), /no player named Nobody_here/);

  // An engine seat shows its published rating.
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'engine', level: 10 }, name: 'Gus' });
  await ann.goto(`${env.server.url}/game/${g.id}`);
  await ann.waitForSelector('#status[data-status=live]');
  assert.match(await ann.textContent('#players'), /Engine level 10 \(2720\)/);
});
