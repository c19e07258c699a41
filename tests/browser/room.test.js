// The public room (issue 37 item 2): /room, where everyone online talks and sees the games
// being played and the open challenges, and its panel on the home page. Two accounts and a
// guest: lines go both ways, markup shown as text; the guest is told before typing that only
// the preset phrases may be sent, free text is refused in the server's words, a preset goes;
// a reader ignores an account for themselves and reports a line; an account's lines are
// limited across all its connections (two pages of one account share one allowance).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, call, freshPage, personPage, shot, signUpAs, textMatches } from './lib.js';

const env = serverAndBrowser();

/** Waits until the page's room has a line whose text is `text`. */
const line = (page, text) => page.locator('#chat-lines li.chat-line').filter({ has: page.locator('.chat-text', { hasText: text }) }).first();

/** Opens the room and waits for its socket. */
async function enter(page) {
  await page.goto(`${env.server.url}/room`);
  await page.waitForFunction(() => window.zertzRoom?.ws?.readyState === WebSocket.OPEN);
}

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

test('the public room: people talk, guests use the presets, ignore and report, limits per account', async () => {
  // A game being played and an open challenge, listed beside the chat.
  const live = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'engine', level: 1 }, name: 'Vic' });
  const open = await call(env.server, 'POST', '/api/games', { opponent: { kind: 'open' }, name: 'Wes' });

  const ria = await freshPage(env);
  await signUpAs(env, ria, 'Ria');
  const sam = await freshPage(env);
  await signUpAs(env, sam, 'Sam');
  await enter(ria);
  await enter(sam);
  await ria.waitForSelector(`#room-live li[data-game="${live.id}"]`);
  await ria.waitForSelector(`#room-open li[data-game="${open.id}"]`);

  await say(ria, 'Hello, <b>room</b>!');
  await line(sam, 'Hello, <b>room</b>!').waitFor();
  assert.equal(await sam.locator('#chat-lines b').count(), 0, 'markup shown as text');

  // A guest: told before typing, free text refused in the server's words, a preset sent.
  const tom = await personPage(env, 'Tom', { width: 1280, height: 900 });
  await enter(tom);
  await textMatches(tom, /Guests who watch may send only the phrases above/, '.chat-hint');
  await line(tom, 'Hello, <b>room</b>!').waitFor();
  await say(tom, 'free text');
  await textMatches(tom, /preset/i, '#chat-error');
  await tom.click('#chat-presets button[data-preset="Hello!"]');
  await line(ria, 'Hello!').waitFor();

  // Sam ignores Ria (for himself only) and reports her line.
  const riaLine = line(sam, 'Hello, <b>room</b>!');
  await riaLine.locator('.chat-report').click();
  await riaLine.locator('.chat-reported').waitFor();
  await riaLine.locator('.chat-ignore').click();
  assert.equal(await riaLine.isVisible(), false, 'Ria\'s lines are hidden for Sam');
  await say(ria, 'still here');
  await line(ria, 'still here').waitFor();
  await line(sam, 'still here').waitFor({ state: 'attached' });
  assert.equal(await line(sam, 'still here').isVisible(), false);
  await enter(sam);
  assert.equal(await line(sam, 'still here').isVisible(), false, 'remembered in this browser');
  await shot(ria, 'public-room');

  // Two more pages of Ria's account (connections that have sent nothing yet) share one
  // allowance: the account's limit, not the connection's.
  const [ria2, ria3] = [await ria.context().newPage(), await ria.context().newPage()];
  await enter(ria2);
  await enter(ria3);
  const answers = [];
  for (let k = 0; k < 8; k += 1) {
    const page = k % 2 ? ria3 : ria2;
    answers.push(await page.evaluate((n) => new Promise((resolve) => {
      const ws = window.zertzRoom.ws;
      const heard = (m) => {
        const msg = JSON.parse(m.data);
        if (msg.type === 'ack' || msg.type === 'refused') {
          ws.removeEventListener('message', heard);
          resolve(msg.type === 'ack' ? 'ack' : msg.error);
        }
      };
      ws.addEventListener('message', heard);
      ws.send(JSON.stringify({ type: 'chat', text: `line ${n}` }));
    }), k));
  }
  // Four lines a connection is within a connection's five; eight are past the account's five
  // (fewer when Ria's earlier lines have not been earned back yet): the later ones are refused,
  // by the account's limit. The allowance comes back continuously (a line every 2 s), so when
  // it was just short of a whole line at the first refusal, one later line may pass: at least
  // two of the last three are refused, every refusal the account's.
  const first = answers.indexOf(answers.find((a) => a !== 'ack'));
  assert.ok(first > 0 && first <= 5, `refused from the account's sixth line at most: ${answers}`);
  assert.ok(answers.slice(5).filter((a) => a !== 'ack').length >= 2, `the lines past the allowance refused: ${answers}`);
  for (const a of answers.filter((a) => a !== 'ack')) assert.match(a, /too many lines from your account/);

  // The home page shows the room's latest lines and the way in.
  await ria.goto(`${env.server.url}/`);
  await textMatches(ria, /still here/, '#room-lines');
  await ria.click('#room-link');
  await ria.waitForURL(/\/room$/);
});
