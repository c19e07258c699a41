// The review of a finished game on the analysis board (issue 19, item 2): "Review this game",
// a progress bar while the server works, then the evaluation graph under the board, the moves
// marked as the API marks them, each player's accuracy, and a click on the graph that goes to
// that position. A second visit shows the stored review at once. Needs the review routes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, freshPage, gameState, rng, shot, signUpAs } from './lib.js';

const env = serverAndBrowser();

const SYMBOLS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** A game of `n` random moves (captures first), then resigned by player 2. */
async function finishedGame(n) {
  const g = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'invite' }, name: 'Ann' });
  const j = await call(env.server, 'POST', `/api/games/${g.id}/join`, { name: 'Ben', token: g.invite_token });
  const tokens = [g.token, j.token];
  const random = rng(7);
  let s = await gameState(env.server, g.id);
  for (let k = 0; k < n && s.status === 'live'; k += 1) {
    const captures = s.legal_moves.filter((m) => m.startsWith('x'));
    const list = captures.length ? captures : s.legal_moves;
    s = (await call(env.server, 'POST', `/api/games/${g.id}/action?legal=list`, { type: 'move', move: list[Math.floor(random() * list.length)] }, tokens[s.to_move - 1])).state;
  }
  if (s.status === 'live') await call(env.server, 'POST', `/api/games/${g.id}/action`, { type: 'resign' }, tokens[1]);
  return gameState(env.server, g.id);
}

test('review a finished game: progress, graph, marks, accuracy; a second visit is instant', async () => {
  // Short: the debug build reviews a position in several seconds.
  const game = await finishedGame(4);
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/analysis?game=${encodeURIComponent(game.id)}`);
  await page.waitForSelector('#board[data-ply="0"]');
  await page.click('#review-start');
  // The progress bar shows while the review is computed (unless it is done at once).
  await page.waitForSelector('#review-progress, #eval-graph');
  await page.waitForSelector('#eval-graph', { timeout: 240000 });
  const review = (await call(env.server, 'GET', `/api/games/${encodeURIComponent(game.id)}/review`)).review;
  assert.equal(review.moves.length, game.moves.length);
  // One band to click per position, and each bad move marked in the list as the API marks it.
  assert.equal(await page.locator('#eval-graph .graph-hit').count(), game.moves.length + 1);
  const marks = await page.$$eval('#tree-moves .tree-line.main > button.mv:not(.start)', (bs) => bs.map((b) => b.querySelector('.mark')?.textContent || ''));
  assert.deepEqual(marks, review.moves.map((m) => SYMBOLS[m.mark] || ''));
  const accuracy = await page.$$eval('#review-accuracy tr[data-player] td:nth-child(2)', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(accuracy, review.accuracy.map((a) => (typeof a === 'number' ? `${Math.round(a)}%` : '—')));
  await shot(page, 'analysis-review');

  // A click on the graph goes to that position; its move's verdict is shown.
  await page.click('#eval-graph .graph-hit[data-ply="3"]', { force: true });
  await page.waitForSelector('#board[data-ply="3"]');
  assert.match(await page.textContent('#review-verdict'), new RegExp(review.moves[2].move.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // The verdict gives the numbers its mark is made from (the mover's win chance with the best
  // move and with this one, and the loss the docs' thresholds apply to), never a bare score.
  const m2 = review.moves[2];
  const verdict = await page.textContent('#review-verdict');
  if (!/^(wins|loses) in \d+$/.test(m2.score_text)) assert.match(verdict, new RegExp(`${Math.round(100 * m2.win_chance_after)}% to win`));
  if (!['best', 'only'].includes(m2.mark)) assert.match(verdict, new RegExp(`${Math.round(100 * m2.lost)}% of the win chance lost`));
  assert.doesNotMatch(verdict, /\([+\u2212-]?\d+\)/, 'no score without a unit');

  // A move the engine would have played otherwise: the better move drawn on the board, in the
  // position before the move played, while asked for; the game's position again after.
  const k = review.moves.findIndex((m) => m.best && m.best !== m.move);
  assert.ok(k >= 0, 'a random game has a move the engine would not play');
  await page.click(`#eval-graph .graph-hit[data-ply="${k + 1}"]`, { force: true });
  await page.waitForSelector(`#board[data-ply="${k + 1}"]`);
  const shown = await page.getAttribute('#board', 'data-position');
  assert.equal(await page.getAttribute('#board', 'data-preview'), null);
  await page.click('#review-show-best');
  await page.waitForSelector('#board[data-preview]');
  assert.equal(await page.getAttribute('#board', 'data-preview'), review.moves[k].best);
  assert.equal(await page.locator('#board .pending-marble, #board .pending-remove, #board .pending-taken').count() > 0, true);
  assert.equal(await page.getAttribute('#review-show-best', 'aria-pressed'), 'true');
  await page.click('#review-show-best');
  await page.waitForSelector('#board:not([data-preview])');
  assert.equal(await page.getAttribute('#board', 'data-position'), shown);

  // A second visit: the stored review, without asking again.
  const again = await freshPage(env);
  await again.goto(`${env.server.url}/analysis?game=${encodeURIComponent(game.id)}`);
  await again.waitForSelector('#eval-graph');
  assert.equal(await again.locator('#review-start').count(), 0);
});

// A record with a bribe (rules.md 7.3): player 2 buys a pass with a white marble. The pass is
// a step of the line but no reviewed move: marks, graph and verdicts stay on their moves.
const BRIBED = `[Bribes "on"]
[Start "37 standard ..../...../....../......./....../...../.... 2/8/10 2/0/0 2/0/0 1"]

1. Wd4,a1 (bribe 1/0/0 accepted) - 2. Gb2,g4 Bf2,a2 *`;

test('the review of a record with a bribe keeps the bribe on the line and each mark on its move', async () => {
  const job = await call(env.server, 'POST', '/api/reviews', { record: BRIBED });
  let r = job;
  for (let k = 0; k < 2400 && r.state !== 'done' && r.state !== 'failed'; k += 1) {
    await new Promise((done) => setTimeout(done, 100));
    r = await call(env.server, 'GET', `/api/reviews/${job.id}`);
  }
  assert.equal(r.state, 'done');
  const review = r.review;
  assert.deepEqual(review.moves.map((m) => m.move), ['Wd4,a1', 'Gb2,g4', 'Bf2,a2']);
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/analysis?review=${encodeURIComponent(job.id)}`);
  await page.waitForSelector('#eval-graph');
  const steps = await page.$$eval('#tree-moves .tree-line.main > button.mv:not(.start)', (bs) => bs.map((b) => b.dataset.move || b.textContent));
  assert.equal(steps.length, 4, `the bribe is a step of the line: ${steps}`);
  const marks = await page.$$eval('#tree-moves .tree-line.main > button.mv:not(.start)', (bs) => bs.map((b) => b.querySelector('.mark')?.textContent || ''));
  assert.deepEqual(marks, [review.moves[0], null, review.moves[1], review.moves[2]].map((m) => (m ? SYMBOLS[m.mark] || '' : '')));
  assert.equal(await page.locator('#eval-graph .graph-hit').count(), review.moves.length + 1);
  // The graph's third point is the position after Gb2,g4: ply 3 of the line (the pass is ply 2).
  await page.click('#eval-graph .graph-hit[data-ply="2"]', { force: true });
  await page.waitForSelector('#board[data-ply="3"]');
  assert.match(await page.textContent('#review-verdict'), /Gb2,g4/);
  await page.waitForSelector('#graph-here', { state: 'attached' });
  const here = await page.getAttribute('#graph-here', 'x1');
  const hit = await page.locator('#eval-graph .graph-hit[data-ply="2"]').evaluate((e) => Number(e.getAttribute('x')) + Number(e.getAttribute('width')) / 2);
  assert.ok(Math.abs(Number(here) - hit) < 0.2, `the marker stands at point 2: ${here} vs ${hit}`);
});

/** A review of `record` asked of the server and waited for. */
async function reviewed(record) {
  const job = await call(env.server, 'POST', '/api/reviews', { record });
  let r = job;
  for (let k = 0; k < 2400 && r.state !== 'done' && r.state !== 'failed'; k += 1) {
    await new Promise((done) => setTimeout(done, 100));
    r = await call(env.server, 'GET', `/api/reviews/${job.id}`);
  }
  assert.equal(r.state, 'done');
  return r;
}

test('a study saved from a reviewed game shows the review\'s marks and graph again', async () => {
  const job = await reviewed('1. Wd4,a1 Gb2,g4 2. Bf2,a2 *');
  const page = await freshPage(env);
  await signUpAs(env, page, 'reviewsaver');
  await page.goto(`${env.server.url}/analysis?review=${encodeURIComponent(job.id)}`);
  await page.waitForSelector('#eval-graph');
  const marks = () => page.$$eval('#tree-moves .tree-line.main > button.mv:not(.start)', (bs) => bs.map((b) => b.querySelector('.mark')?.textContent || ''));
  const before = await marks();
  assert.deepEqual(before, job.review.moves.map((m) => SYMBOLS[m.mark] || ''));
  await page.fill('#study-name-input', 'Reviewed');
  await page.click('#study-save');
  await page.waitForSelector('#study-link');
  const link = await page.inputValue('#study-link');
  const id = new URL(link).pathname.split('/')[2];
  const stored = await call(env.server, 'GET', `/api/studies/${id}`);
  assert.equal(stored.chapters[0].tree.headers.Review, job.id, 'the chapter names its review');

  // Opened again, by someone else: the graph under the board and the same marks.
  const other = await freshPage(env);
  await other.goto(link);
  await other.waitForSelector('#eval-graph');
  assert.equal(await other.locator('#eval-graph .graph-hit').count(), job.review.moves.length + 1);
  assert.deepEqual(await other.$$eval('#tree-moves .tree-line.main > button.mv:not(.start)', (bs) => bs.map((b) => b.querySelector('.mark')?.textContent || '')), before);
});
