// Learn and the rules page (issue 20, item 4): two lessons completed by pointing at the board,
// a wrong try answered with why and taken back, progress kept through a reload (a guest's in
// the browser, an account's on the server, a guest's handed to the account on signing up), and
// /rules with its diagrams drawn by the server from real positions, printable without the site
// header. Needs GET /api/lessons, POST /api/lessons/{id}/try and /api/rules/diagrams/*.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, clicksFor, freshPage, signUpAs } from './lib.js';

const env = serverAndBrowser();

/** Waits until the lesson `id` shows with `state` (task, wrong, done). */
const lessonState = (page, id, state) => page.waitForSelector(`#lesson[data-id="${id}"][data-state="${state}"]`);

/** Enters `move` (official notation) by clicking the supply and the rings. */
async function clickMove(page, move) {
  for (const selector of clicksFor(move)) await page.click(selector);
}

/** The lessons the list marks done. */
const doneInList = (page) => page.$$eval('#lessons li[data-done=yes]', (items) => items.map((li) => li.dataset.lesson));

/** The lessons the server has recorded for the page's account. */
const doneOnServer = (page) => page.evaluate(async () => (await (await fetch('/api/lessons')).json()).lessons.filter((l) => l.done).map((l) => l.id));

test('"Next lesson" opens the next lesson at its top (a phone); a wrong try\'s answer and "Try again" come into view (a laptop)', async () => {
  const page = await freshPage(env, { width: 390, height: 844 });
  await page.goto(`${env.server.url}/learn/placing`);
  await lessonState(page, 'placing', 'task');
  await clickMove(page, 'Gd4,a1');
  await lessonState(page, 'placing', 'done');
  await page.click('#next');
  await lessonState(page, 'free-rings', 'task');
  const top = await page.$eval('#lesson', (el) => el.getBoundingClientRect().top);
  assert.ok(top > -2 && top < 100, `the lesson's head is at ${top} px from the top of the screen`);
  // A wrong try, on a laptop's screen too: its explanation and "Try again" come into view
  // below the board.
  await page.setViewportSize({ width: 1280, height: 800 });
  await clickMove(page, 'Wc3,a3');
  await lessonState(page, 'free-rings', 'wrong');
  const seen = await page.evaluate(() => ['#why', '#retry'].map((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return [s, Math.round(r.top), Math.round(r.bottom), window.innerHeight];
  }));
  for (const [s, top2, bottom, height] of seen) assert.ok(top2 >= 0 && bottom <= height, `${s} at ${top2}–${bottom} of ${height}`);
});

test('a guest completes two lessons, with a wrong try on the way, and keeps them through a reload', async () => {
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/learn`);
  await lessonState(page, 'placing', 'task');
  assert.match(await page.textContent('#task'), /grey marble on the ring d4/);
  assert.equal(await page.locator('header.site nav a[href="/learn"].here').count(), 1);

  // A hint, then the move by pointing.
  await page.click('#hint');
  assert.match(await page.textContent('#hints'), /grey marble/);
  await clickMove(page, 'Gd4,a1');
  await lessonState(page, 'placing', 'done');
  assert.match(await page.textContent('#why'), /^Right\./);
  assert.deepEqual(await doneInList(page), ['placing']);

  // The next lesson; a legal move that is not the task first.
  await page.click('#next');
  await lessonState(page, 'free-rings', 'task');
  assert.equal(new URL(page.url()).pathname, '/learn/free-rings');
  await clickMove(page, 'Wc3,a3');
  await lessonState(page, 'free-rings', 'wrong');
  const why = await page.textContent('#why');
  assert.match(why, /removed was a3; the task asks for b2/, why);
  // The board shows what the try did until "Try again".
  assert.notEqual(await page.getAttribute('#board', 'data-position'), await page.evaluate(() => window.zertzLearn.lesson.position));
  await page.click('#retry');
  await lessonState(page, 'free-rings', 'task');
  assert.equal(await page.getAttribute('#board', 'data-position'), await page.evaluate(() => window.zertzLearn.lesson.position));
  await clickMove(page, 'Wc3,b2');
  await lessonState(page, 'free-rings', 'done');
  assert.deepEqual(await doneInList(page), ['placing', 'free-rings']);
  assert.match(await page.textContent('#progress'), /2 of \d+ lessons done \(kept in this browser/);

  // A reload keeps both, and opens the first lesson not done yet.
  await page.goto(`${env.server.url}/learn`);
  await lessonState(page, 'compulsory-capture', 'task');
  assert.deepEqual(await doneInList(page), ['placing', 'free-rings']);
  await page.context().close();
});

test('an account keeps its lessons on the server, a guest\'s progress included', async () => {
  const page = await freshPage(env);
  // As a guest, one lesson, the move typed.
  await page.goto(`${env.server.url}/learn/compulsory-capture`);
  await lessonState(page, 'compulsory-capture', 'task');
  await page.fill('#move-text', 'Wa2,a3');
  await page.press('#move-text', 'Enter');
  await page.waitForFunction(() => /a capture is compulsory/.test(document.querySelector('#why')?.textContent || ''));
  await page.fill('#move-text', 'x d4Gd6');
  await page.press('#move-text', 'Enter');
  await lessonState(page, 'compulsory-capture', 'done');

  // Signing up hands it to the account when /learn opens next.
  await signUpAs(env, page, 'Learner');
  await page.goto(`${env.server.url}/learn/notation`);
  await lessonState(page, 'notation', 'task');
  await page.waitForFunction(async () => (await (await fetch('/api/lessons')).json()).lessons.some((l) => l.id === 'compulsory-capture' && l.done));

  // A lesson of two steps, the opponent answering in between.
  await clickMove(page, 'Wd4,a1');
  await page.waitForSelector('#lesson[data-step="1"][data-state="task"]');
  assert.match(await page.textContent('#why'), /Your opponent places a grey marble on d5/);
  await clickMove(page, 'x d5Wd3');
  await lessonState(page, 'notation', 'done');
  assert.deepEqual((await doneOnServer(page)).sort(), ['compulsory-capture', 'notation']);

  // This browser forgets; the account remembers.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await lessonState(page, 'notation', 'task');
  assert.deepEqual((await doneInList(page)).sort(), ['compulsory-capture', 'notation']);
  assert.match(await page.textContent('#progress'), /kept with your account, Learner/);
  await page.context().close();
});

test('/rules shows its diagrams and prints without the site header', async () => {
  const page = await freshPage(env);
  await page.goto(`${env.server.url}/`);
  await page.click('#home-learn a[href="/rules"]');
  await page.waitForURL(/\/rules$/);
  await page.waitForSelector('#account-nav[data-state]');
  for (const [href, text] of [['/learn', 'Learn'], ['/puzzles', 'Puzzles'], ['/rules', 'Rules']]) {
    assert.equal(await page.textContent(`header.site nav a[href="${href}"]`), text);
  }
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
  const images = await page.$$eval('main img', (imgs) => imgs.map((img) => ({ src: img.getAttribute('src'), width: img.naturalWidth })));
  assert.ok(images.length >= 6, `diagrams: ${images.length}`);
  for (const img of images) {
    assert.match(img.src, /^\/api\/rules\/diagrams\/[a-z-]+\.svg$/);
    assert.ok(img.width > 100, `${img.src} is drawn (${img.width} px wide)`);
  }
  // The pictures are the rules library's: a chain's marbles where the position has them.
  const svg = await page.evaluate(async () => (await fetch('/api/rules/diagrams/chain.svg')).text());
  assert.equal((svg.match(/class="marble /g) || []).length, 4);
  assert.equal(await page.locator('header.site').isVisible(), true);
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.locator('header.site').isVisible(), false);
  assert.equal(await page.locator('#print').isVisible(), false);
  await page.context().close();
});
