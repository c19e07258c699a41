// Studies on the analysis board (issue 19, item 4): an account saves its analysis as a study
// of two chapters, listed on the author's profile; the link opens it read-only for another
// account, who copies it; a chapter is played through in "guess the move". Needs the study
// routes and the position routes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, freshPage, signUpAs } from './lib.js';

const env = serverAndBrowser();

const START = '37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1';

async function play(page, move, ply) {
  await page.fill('#move-text', move);
  await page.press('#move-text', 'Enter');
  await page.waitForSelector(`#board[data-ply="${ply}"]`);
}

/** The first quiet placements of a line of `n` moves from the start, by the API. */
async function line(n) {
  let p = START;
  const moves = [];
  for (let k = 0; k < n; k += 1) {
    const info = await call(env.server, 'GET', `/api/position?position=${encodeURIComponent(p)}`);
    const m = info.legal.find((x) => /^[WGB][a-g]\d,[a-g]\d$/.test(x)) || info.legal[0];
    moves.push(m);
    p = (await call(env.server, 'POST', '/api/position/play', { position: p, move: m })).position;
  }
  return moves;
}

test('save a study, open it read-only elsewhere, copy it, and guess its moves', async () => {
  const moves = await line(3);
  const ann = await freshPage(env);
  await signUpAs(env, ann, 'annstudy');
  await ann.goto(`${env.server.url}/analysis`);
  await ann.waitForSelector('#board[data-ply="0"]');
  for (let k = 0; k < moves.length; k += 1) await play(ann, moves[k], k + 1);
  await ann.fill('#study-name-input', 'Openings <i>to learn</i>');
  await ann.click('#study-save');
  await ann.waitForSelector('#study-link');
  const link = await ann.inputValue('#study-link');
  const id = new URL(link).pathname.split('/')[2];
  assert.equal(new URL(ann.url()).searchParams.get('study'), id);
  // A second chapter from the position after move 1.
  await ann.keyboard.press('Home');
  await ann.keyboard.press('ArrowRight');
  await ann.waitForSelector('#board[data-ply="1"]');
  await ann.click('#add-chapter');
  await ann.waitForSelector('#chapters button[data-chapter="1"].chosen');
  await ann.click('#study-save');
  // "Saved." is the second save's word ("Saved as a new study." was the first's, still shown
  // while the second is on its way).
  await ann.waitForFunction(() => document.querySelector('#study-status')?.textContent === 'Saved.');
  const stored = await call(env.server, 'GET', `/api/studies/${id}`);
  assert.equal(stored.name, 'Openings <i>to learn</i>');
  assert.equal(stored.chapters.length, 2);

  // Ben: read-only, the name shown as text, no move can be added; he copies it.
  const ben = await freshPage(env);
  await signUpAs(env, ben, 'benstudy');
  await ben.goto(link);
  await ben.waitForSelector('#study-copy');
  assert.equal(await ben.textContent('#study-name b'), 'Openings <i>to learn</i>');
  assert.equal(await ben.locator('#study-name i').count(), 0);
  await ben.waitForSelector('#board[data-ply="0"]');
  await ben.keyboard.press('End');
  await ben.waitForSelector('#board[data-ply="3"]');
  const legal = (await call(env.server, 'GET', `/api/position?position=${encodeURIComponent(await ben.getAttribute('#board', 'data-position'))}`)).legal;
  await ben.fill('#move-text', legal[0]);
  await ben.press('#move-text', 'Enter');
  await ben.waitForFunction(() => /copy it/.test(document.querySelector('#message')?.textContent || ''));

  // Guess the move from the start of chapter 1.
  await ben.keyboard.press('Home');
  await ben.waitForSelector('#board[data-ply="0"]');
  await ben.click('#guess-start');
  assert.equal(await ben.locator('#tree-moves button.mv:not(.start)').count(), 0, 'the moves are hidden');
  const start = await call(env.server, 'GET', `/api/position?position=${encodeURIComponent(START)}`);
  const wrong = start.legal.find((m) => m !== moves[0]);
  await play(ben, wrong, 0);
  await ben.waitForFunction(() => /^Not/.test(document.querySelector('#guess-said').textContent));
  await play(ben, moves[0], 1);
  await ben.waitForFunction(() => /^Right/.test(document.querySelector('#guess-said').textContent));
  await ben.click('#guess-reveal');
  await ben.waitForSelector('#board[data-ply="2"]');
  assert.match(await ben.textContent('#guess-score'), /1 right, 1 wrong, 1 revealed/);
  assert.equal(await ben.locator('#tree-moves button.mv:not(.start)').count(), 2);
  await ben.click('#guess-stop');

  // Ann's profile lists the study, its name as text.
  await ann.goto(`${env.server.url}/@/annstudy`);
  await ann.waitForSelector(`#studies li[data-study="${id}"]`);
  assert.equal(await ann.textContent(`#studies li[data-study="${id}"] a`), 'Openings <i>to learn</i>');
  assert.match(await ann.textContent(`#studies li[data-study="${id}"]`), /2 chapters/);

  await ben.click('#study-copy');
  await ben.waitForURL((u) => u.pathname.startsWith('/study/') && !u.pathname.endsWith(id));
  await ben.waitForSelector('#study-save');
});
