// Saved studies on a player's profile: Ann saves two studies (through the API, from her own
// page, as the analysis board will), one named with HTML; her profile lists both, the last
// saved first, each a link to /study/{id} with its name shown as text; Ben's says he has none.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, freshPage, signUpAs } from './lib.js';

const env = serverAndBrowser();

const START = '37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1';

/** Saves a study from `page` (its cookies, its origin) and returns its id. */
async function saveStudy(page, name, chapters) {
  const answer = await page.evaluate(async ([n, c]) => {
    const res = await fetch('/api/studies', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: n, chapters: c }),
    });
    return { status: res.status, body: await res.json() };
  }, [name, chapters]);
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.id;
}

test('a profile lists the player\'s studies as links, names as text', async () => {
  const ann = await freshPage(env);
  await signUpAs(env, ann, 'Ann');
  const tree = { start: START, children: [{ move: 'Wd4,a1', comment: 'a start', children: [] }] };
  const first = await saveStudy(ann, 'Openings', [{ name: 'One', tree }]);
  const html = '<b>bold</b> & <i>more</i>';
  const second = await saveStudy(ann, html, [{ name: 'A', tree }, { name: 'B', tree }]);

  await ann.goto(`${env.server.url}/@/Ann`);
  await ann.waitForSelector('#study-list li');
  const items = await ann.$$eval('#study-list li', (lis) => lis.map((li) => ({
    id: li.dataset.study,
    href: li.querySelector('a').getAttribute('href'),
    text: li.querySelector('a').textContent,
    bold: li.querySelector('b') !== null,
    note: li.querySelector('.note').textContent,
  })));
  assert.equal(items.length, 2);
  // The last saved first; its HTML shown as the text it is.
  assert.deepEqual(items.map((i) => i.id), [second, first]);
  assert.equal(items[0].text, html);
  assert.equal(items[0].bold, false, 'no element made from the name');
  assert.equal(items[0].href, `/study/${second}`);
  assert.match(items[0].note, /2 chapters/);
  assert.equal(items[1].text, 'Openings');
  assert.match(items[1].note, /1 chapter · saved/);

  const ben = await freshPage(env);
  await signUpAs(env, ben, 'Ben');
  await ben.goto(`${env.server.url}/@/Ben`);
  await ben.waitForSelector('#no-studies');
  assert.equal(await ben.textContent('#no-studies'), 'No saved study.');
});
