// Shared by the browser tests: a real `zertz serve` on a free port with a fresh database,
// Debian's Chromium through playwright-core, and helpers that play moves the way a person does
// (by clicking the supply and the rings).

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { before, after, afterEach } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..', '..');
export const output = path.join(here, 'output');
mkdirSync(output, { recursive: true });

/** The binary under test: $ZERTZ_BIN, or target/debug/zertz of the repository. */
export const binary = process.env.ZERTZ_BIN
  || path.resolve(repo, process.env.CARGO_TARGET_DIR || 'target', 'debug', 'zertz');

/**
 * Starts `zertz serve` on 127.0.0.1 with a new SQLite file (or the one in `dir`, on `port`,
 * to restart a server); resolves to {url, dir, stop, kill, log}.
 */
export async function startServer({ port = 0, dir = null, args = [] } = {}) {
  dir = dir || mkdtempSync(path.join(tmpdir(), 'zertz-browser-'));
  const db = path.join(dir, 'test.db');
  const child = spawn(binary, ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, '--engine-ms', '150', '--sign-ups-per-hour', '0', '--invitations-per-client', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => { log += d; });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`zertz serve did not start; log:\n${log}`)), 20000);
    child.on('error', (e) => reject(new Error(`cannot run ${binary}: ${e.message}`)));
    child.on('exit', (code) => reject(new Error(`zertz serve exited (${code}); log:\n${log}`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      const m = /listening on (http:\/\/[^/]+)\//.exec(line);
      if (m) resolve(m[1]);
      else reject(new Error(`unexpected first line: ${line}`));
    });
  });
  const exited = () => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
  return {
    url,
    dir,
    log: () => log,
    /** Kills the server at once (SIGKILL), keeping its database. */
    async kill() {
      child.kill('SIGKILL');
      await exited();
    },
    async stop() {
      child.kill('SIGTERM');
      await exited();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Debian's full Chromium: $CHROMIUM, or /usr/bin/chromium. */
const fullChromium = () => process.env.CHROMIUM || '/usr/bin/chromium';

/**
 * Debian's headless shell of Chromium (`apt-get install chromium-headless-shell`): the same
 * engine without the desktop browser around it, and the suite runs in about 70% of the time
 * it takes on the full browser (docs/testing.md). $CHROMIUM_HEADLESS_SHELL, or
 * /usr/bin/chromium-headless-shell; the full browser when neither is installed.
 */
const headlessShell = () => {
  const shell = process.env.CHROMIUM_HEADLESS_SHELL || '/usr/bin/chromium-headless-shell';
  return existsSync(shell) ? shell : fullChromium();
};

/**
 * Launches Chromium, headless: the headless shell, or the full browser when `full` (for what
 * only it does, such as granting notifications). Every page it opens fails its test on a
 * Content-Security-Policy violation (an inline script or style the server's policy refused),
 * which would otherwise only be a line in the console.
 */
export async function launch({ full = false } = {}) {
  const browser = await chromium.launch({
    executablePath: full ? fullChromium() : headlessShell(),
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) {
        throw new Error(`${message.location().url}: ${message.text()}`);
      }
    });
    return context;
  };
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.close = async (o) => { await context.close(o); };
    return page;
  };
  return browser;
}

/** An HTTP call to the server (JSON in and out); throws on an error status. */
export async function call(server, method, p, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(server.url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

/** The game's state as a spectator sees it, its legal moves spelled out (`legal_moves`). */
export const gameState = (server, id) => call(server, 'GET', `/api/games/${id}?legal=list`);

/** The game id of a game page. */
export const gameId = (page) => decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);

/** A small seeded random generator, so a failing game can be replayed. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Picks a move that ends the game soon: the longest capture, else a placement that takes
 * marbles by isolation, else one at random.
 */
export function pickMove(legal, random) {
  const captures = legal.filter((m) => m.startsWith('x'));
  if (captures.length) return captures.sort((a, b) => b.length - a.length)[0];
  const isolating = legal.filter((m) => m.includes(' x '));
  if (isolating.length) return isolating[Math.floor(random() * isolating.length)];
  return legal[Math.floor(random() * legal.length)];
}

/** The clicks that enter a move given in official notation: [selector, …]. */
export function clicksFor(move) {
  const coords = (s) => [...s.matchAll(/[a-z]\d+/g)].map((m) => m[0]);
  if (move.startsWith('x')) {
    return coords(move.slice(1)).map((c) => `#board [data-coord="${c}"]`);
  }
  const main = move.split(' x ')[0];
  const [at, remove] = coords(main);
  const clicks = [`#supply [data-colour="${main[0]}"]`, `#board [data-coord="${at}"]`];
  if (remove) clicks.push(`#board [data-coord="${remove}"]`);
  return clicks;
}

/** The version the game page shows. */
export async function shownVersion(page) {
  return Number(await page.getAttribute('#status', 'data-version'));
}

/** Waits until the page shows at least `version`. */
export async function waitVersion(page, version, timeout = 10000) {
  await page.waitForFunction(
    (v) => Number(document.querySelector('#status')?.dataset.version) >= v,
    version,
    { timeout },
  );
}

/**
 * Plays `move` on `page` by clicking (or tapping, with how = 'tap'), and waits until the page
 * shows the next version.
 */
export async function clickMove(page, move, how = 'click') {
  const before = await shownVersion(page);
  for (const selector of clicksFor(move)) {
    await page[how](selector);
  }
  // A move that waits for "Confirm" (on a touch screen, or with the option on) is confirmed.
  if (await page.locator('#confirm-move').isVisible()) await page[how]('#confirm-move');
  await waitVersion(page, before + 1);
  const error = await page.textContent('#message');
  if (/refused/.test(error || '')) throw new Error(`move ${move} refused: ${error}`);
}

/** Saves a screenshot under output/. */
export async function shot(page, name) {
  const file = path.join(output, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Puts a seat token into the browser's storage, as the page would after joining. */
export async function storeSeat(page, server, id, token) {
  await page.goto(`${server.url}/lobby`);
  await page.evaluate(([i, t]) => localStorage.setItem(`zertz.seat.${i}`, t), [id, token]);
}

/**
 * Registers the hooks of a test file: one `zertz serve` (started with `options`, as for
 * `startServer`) and one browser shared by its tests (the full one when `fullBrowser`, see
 * `launch`), closed at the end. Returns an object whose `server` and `browser` are set once
 * the hooks have run. The pages a test opened are closed after it: left open they would go on
 * polling and rendering through the file's later tests, and hold connections against the
 * server's cap per address (all the suite's people share 127.0.0.1).
 */
export function serverAndBrowser({ fullBrowser = false, ...options } = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer(options);
    env.browser = await launch({ full: fullBrowser });
  });
  afterEach(async () => {
    await Promise.all((env.browser?.contexts() ?? []).map((context) => context.close()));
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/**
 * A page for a person called `name`, in a browser context of its own (so its own seat tokens
 * in localStorage), opened on the lobby with the name remembered. A page error fails the test.
 */
export async function personPage(env, name, viewport) {
  const context = await env.browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error(`${name}'s page: ${e.message}`); });
  await page.goto(`${env.server.url}/lobby`);
  await page.evaluate((n) => localStorage.setItem('zertz.name', n), name);
  return page;
}

/** The password the tests' accounts share. */
export const PASSWORD = 'marbles and rings';

/** A page in a browser context of its own (its own cookies and storage); a page error fails. */
export async function freshPage(env, viewport = { width: 1280, height: 900 }) {
  const context = await env.browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  return page;
}

/**
 * POSTs `body` as JSON from `page`, as its own scripts do (its session cookie, its origin):
 * the answer's JSON; a refusal throws with the path and the server's words.
 */
export async function postFrom(page, path, body) {
  return page.evaluate(async ([p, b]) => {
    const r = await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
    const j = await r.json();
    if (!r.ok) throw new Error(`${p}: ${j.error}`);
    return j;
  }, [path, body]);
}

/**
 * Creates the account `name` on /signup and waits to be back on the home page, signed in. A
 * refusal on the way fails at once with its words.
 */
export async function signUpAs(env, page, name) {
  await page.goto(`${env.server.url}/signup?next=%2F`);
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', PASSWORD);
  await page.fill('#signup-again', PASSWORD);
  await page.click('#signup-button');
  const home = await Promise.race([
    page.waitForURL((url) => url.pathname === '/').then(() => true),
    page.waitForFunction(() => document.querySelector('#message.error')?.textContent).then(() => false, () => true),
  ]);
  if (!home) throw new Error(`signing up as ${name}: ${await page.textContent('#message')}`);
  await page.waitForSelector('#account-nav[data-state=in]');
}

/** Waits until the page's #message (or the element `selector`) matches `re`; returns its text. */
export async function textMatches(page, re, selector = '#message') {
  await page.waitForFunction(([sel, src]) => new RegExp(src).test(document.querySelector(sel)?.textContent || ''), [selector, re.source]);
  return page.textContent(selector);
}

/** Opens the home page's "Custom game" form (folded away at first). */
export async function openCustom(page) {
  await page.waitForSelector('#custom-game');
  if (!(await page.$eval('#custom-game', (d) => d.open))) await page.click('#custom-toggle');
}
