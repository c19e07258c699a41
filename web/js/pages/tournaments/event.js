// @ts-check
// An event's page, /tournament/{id} (GET /api/tournaments/{id}): its settings and where it is
// (a countdown to the start, the round, finished), joining and withdrawing while it registers,
// the organiser's start, "your game is ready" with a link to the player's board (a knockout's:
// their match), the standings (a knockout's places), the crosstable (a knockout's bracket,
// bracket.js; an arena's table with streaks and berserks, arena.js), each round's games, the
// event's room (its chat), the podium at the end, and the downloads (the report as TRF, the
// games as SGF). An arena takes players while it runs: join, leave and come back. The page asks again every few seconds while the event is not over,
// so the standings follow the games live.

import { ApiError, api } from '../../lib/api.js';
import { signInHref, siteHeader } from '../../lib/account.js';
import { $, fill, h, profileHref, say } from '../../lib/ui.js';
import { ChatPanel } from '../../lib/chat.js';
import { RoomSocket } from '../../lib/socket.js';
import { arenaClock, arenaTable, gamesUnderWay } from './arena.js';
import { bracket } from './bracket.js';
import { crosstable, podium, roundsList, seen, standingsTable } from './tables.js';
import { formatText, settingsText, statusText } from './words.js';

/** @typedef {import('../../lib/types.js').Tournament} Tournament */

/** How often the page asks for the event while it is not over. */
const REFRESH_MS = 3000;

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
/** @type {Tournament | null} */
let shown = null;
/** @type {string | null} */
let me = null;
let busy = false;

/** Sends an action (join, withdraw, start, bye) and shows the event it answers. */
async function act(what, doneText, body = undefined) {
  if (busy) return;
  busy = true;
  try {
    show(await api('POST', `/api/tournaments/${encodeURIComponent(id)}/${what}`, body));
    say(doneText, 'ok');
  } catch (e) {
    say(e.message, 'error');
  } finally {
    busy = false;
  }
}

/** Whether the withdrawal from a running event waits for its confirmation. */
let confirmWithdraw = false;

/**
 * Withdrawing from a running event, in two clicks: the player is paired no more, a game under
 * way is played on, and the results stand.
 */
function withdrawRunning(t) {
  const entered = me && t.entries.some((e) => e.name === me && !e.withdrawn);
  if ((t.status !== 'running' && t.status !== 'paused') || !entered) return [];
  const redraw = () => fill($('event-actions'), actions(t));
  if (!confirmWithdraw) {
    return [h('button', { type: 'button', id: 'withdraw', onclick: () => { confirmWithdraw = true; redraw(); } }, 'Withdraw')];
  }
  return [
    h('span', {}, 'Leave the tournament? You will not be paired again; a game under way goes on and your results stand. '),
    h('button', { type: 'button', class: 'danger', id: 'withdraw-confirm', onclick: () => { confirmWithdraw = false; act('withdraw', 'You have withdrawn: you will not be paired again.'); } }, 'Withdraw'),
    h('button', { type: 'button', onclick: () => { confirmWithdraw = false; redraw(); } }, 'Stay'),
  ];
}

/**
 * A Swiss player's byes: the rounds not paired yet that they asked to sit out (each with a
 * button that takes the request back) and a form to ask for one, for half a point or none.
 */
function byesBox(t) {
  const mine = me && t.entries.find((e) => e.name === me && !e.withdrawn);
  const last = t.settings && t.settings.rounds;
  if (!mine || t.format !== 'swiss' || t.status === 'finished' || !last) return null;
  const ask = (round, points, done) => act('bye', done, { round, points });
  const asked = mine.byes || [];
  const open = [];
  for (let r = t.round + 1; r <= last; r += 1) if (!asked.some((b) => b.round === r)) open.push(r);
  const round = h('select', { id: 'bye-round', 'aria-label': 'Round' }, open.map((r) => h('option', { value: r }, `round ${r}`)));
  const points = h('select', { id: 'bye-points', 'aria-label': 'Points' },
    h('option', { value: 'half' }, 'for half a point (once, not the last round)'),
    h('option', { value: 'zero' }, 'for no points'));
  return h('div', { class: 'byes', id: 'byes' },
    asked.length ? h('ul', { id: 'my-byes' }, asked.map((b) => h('li', { 'data-round': String(b.round) },
      `You sit out round ${b.round} (${b.points === 'half' ? 'half a point' : 'no points'}) `,
      h('button', { type: 'button', class: 'take-back', onclick: () => ask(b.round, 'none', `You play round ${b.round} after all.`) }, 'Take back')))) : null,
    open.length ? h('form', {
      class: 'row', id: 'bye-form',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const r = Number(/** @type {HTMLSelectElement} */ (round).value);
        ask(r, /** @type {HTMLSelectElement} */ (points).value, `You will sit out round ${r}.`);
      },
    }, 'Sit out ', round, ' ', points, ' ', h('button', { type: 'submit', id: 'ask-bye' }, 'Ask for a bye')) : null);
}

/**
 * A knockout player's choice for the matches where it is theirs to say who begins game 1 (the
 * seed the organiser named): to begin, or to let the opponent begin. Saved as it changes.
 */
function firstBox(t) {
  const mine = me && t.entries.find((e) => e.name === me && !e.withdrawn);
  if (!mine || t.format !== 'knockout' || t.status === 'finished') return null;
  const chooser = t.settings && t.settings.first_mover === 'higher' ? 'higher' : 'lower';
  const choice = /** @type {HTMLSelectElement} */ (h('select', { id: 'first-choice', 'aria-label': 'Who begins game 1 when you choose' },
    h('option', { value: 'me', selected: mine.first !== 'opponent' }, 'I begin'),
    h('option', { value: 'opponent', selected: mine.first === 'opponent' }, 'my opponent begins')));
  choice.addEventListener('change', () => act('first', choice.value === 'me'
    ? 'When you choose, you begin game 1.' : 'When you choose, your opponent begins game 1.', { first: choice.value }));
  return h('div', { class: 'row', id: 'first-box' },
    h('label', {}, `When you are the ${chooser} seed of a match, you choose who begins its game 1: `, choice),
    h('span', { class: 'note' }, 'kept for every match not paired yet'));
}

/** Whether the organiser's "End the tournament" waits for its confirmation. */
let confirmEnd = false;

/** The organiser's end of the event, in two clicks. */
function endButton(t) {
  if (!me || t.organiser !== me || t.status === 'finished') return [];
  const redraw = () => fill($('event-actions'), actions(t));
  if (!confirmEnd) return [h('button', { type: 'button', id: 'end-event', onclick: () => { confirmEnd = true; redraw(); } }, 'End the tournament')];
  return [
    h('span', {}, 'End it now? No round is paired after this; the games under way are played on and count. '),
    h('button', { type: 'button', class: 'danger', id: 'end-confirm', onclick: () => { confirmEnd = false; act('end', 'The tournament is over.'); } }, 'End it'),
    h('button', { type: 'button', onclick: () => { confirmEnd = false; redraw(); } }, 'Go on'),
  ];
}

/** The organiser's pause of a running event, and its resume. */
function pauseButton(t) {
  if (!me || t.organiser !== me) return [];
  if (t.status === 'running') {
    return [h('button', { type: 'button', id: 'pause-event', title: 'The games under way go on; no round is paired until you resume', onclick: () => act('pause', 'The tournament is paused: the games under way go on, no round is paired.') }, 'Pause')];
  }
  if (t.status === 'paused') {
    return [h('button', { type: 'button', class: 'primary', id: 'resume-event', onclick: () => act('resume', 'The tournament goes on.') }, 'Resume')];
  }
  return [];
}

/** The buttons this viewer may use: join or withdraw, sign in, the organiser's start, pause and end. */
function actions(t) {
  return [...playerActions(t), ...pauseButton(t), ...endButton(t)];
}

/** An arena under way: join (or come back), or leave for a while. */
function arenaActions(t) {
  if (!me) return [h('a', { class: 'button primary', id: 'sign-in-to-join', href: signInHref() }, 'Sign in to join')];
  const mine = t.entries.find((e) => e.name === me);
  if (mine && !mine.withdrawn) {
    return [h('button', { type: 'button', id: 'withdraw', title: 'You are not paired until you come back; your points stand', onclick: () => act('withdraw', 'You have left the arena: come back whenever you like.') }, 'Leave the arena')];
  }
  return [h('button', {
    type: 'button', class: 'primary', id: 'join', disabled: t.players >= t.max_players,
    onclick: () => act('join', 'You are in: you are paired as soon as another player is free.'),
  }, t.players >= t.max_players ? 'Full' : mine ? 'Come back' : 'Join the arena')];
}

/** A player's buttons: join or withdraw, sign in; the organiser's start. */
function playerActions(t) {
  if (t.format === 'arena' && (t.status === 'running' || t.status === 'paused')) return arenaActions(t);
  if (t.status === 'running' || t.status === 'paused') return withdrawRunning(t);
  if (t.status !== 'registering') return [];
  if (!me) return [h('a', { class: 'button primary', id: 'sign-in-to-join', href: signInHref() }, 'Sign in to join')];
  const entered = t.entries.some((e) => e.name === me && !e.withdrawn);
  const out = [entered
    ? h('button', { type: 'button', id: 'withdraw', onclick: () => act('withdraw', 'You have withdrawn.') }, 'Withdraw')
    : h('button', { type: 'button', class: 'primary', id: 'join', disabled: t.players >= t.max_players, onclick: () => act('join', 'You are in. The page shows your game when the round is paired.') }, t.players >= t.max_players ? 'Full' : 'Join')];
  if (t.organiser === me) {
    out.push(h('button', {
      type: 'button', class: 'primary', id: 'start', disabled: t.players < 2, title: t.players < 2 ? 'A tournament needs two players' : null,
      onclick: () => act('start', 'The tournament has started.'),
    }, 'Start now'));
  }
  return out;
}

/** "Your game is ready": the viewer's board of the current round while its game is played. */
function yourGame(t) {
  if (!me || (t.status !== 'running' && t.status !== 'paused')) return null;
  if (t.format === 'arena') {
    // An arena's game is in any wave: the viewer's that is not over.
    const board = t.pairings.flatMap((r) => r.boards).find((b) => !b.result && b.url && seen(b, me));
    const s = board && seen(board, me);
    if (!board || !s || !s.opponent) return null;
    return h('p', { class: 'result-box your-game-ready' },
      h('strong', {}, `Your game against ${s.opponent} is ready. `),
      s.first ? 'You move first. ' : 'You move second. ',
      t.settings && t.settings.berserk ? 'Berserk before your first move: half your clock for a point more if you win. ' : '',
      h('a', { class: 'button primary', id: 'go-to-game', href: board.url }, 'Go to your game'));
  }
  const round = t.pairings.find((r) => r.round === t.round);
  if (!round) return null;
  for (const b of round.boards) {
    const s = seen(b, me);
    if (!s) continue;
    if (!s.opponent) {
      const what = { 'half-bye': 'you sit it out, as you asked, for half a point', 'zero-bye': 'you sit it out, as you asked', rest: 'you rest' }[s.result || ''] || "you have the bye, a win's points";
      return h('p', { class: 'result-box', id: 'your-bye' }, `Round ${t.round}: ${what}. The next round is paired when this one is over.`);
    }
    if (b.result || !b.url) return null;
    if (t.format === 'knockout') {
      return h('p', { class: 'result-box your-game-ready' },
        h('strong', {}, `Round ${t.round}: your death match against ${s.opponent} is ready. `),
        s.first ? 'You move first in game 1, then the first move alternates. ' : 'You move second in game 1, then the first move alternates. ',
        h('a', { class: 'button primary', id: 'go-to-game', href: b.url }, 'Go to your match'));
    }
    return h('p', { class: 'result-box your-game-ready' },
      h('strong', {}, `Round ${t.round}: your game against ${s.opponent} is ready. `),
      s.first ? 'You move first. ' : 'You move second. ',
      h('a', { class: 'button primary', id: 'go-to-game', href: b.url }, 'Go to your game'));
  }
  return null;
}

/**
 * The players: while it registers everyone entered, after the start their pairing numbers (a
 * player who withdrew since is marked).
 */
function entries(t) {
  const list = t.entries.filter((e) => !e.withdrawn || e.number !== null);
  if (!list.length) return h('p', { class: 'empty', id: 'no-entries' }, 'Nobody has joined yet.');
  const numbered = list.some((e) => e.number !== null);
  const organising = me !== null && t.organiser === me && t.status !== 'finished';
  const sorted = numbered ? [...list].sort((a, b) => (a.number ?? 1e9) - (b.number ?? 1e9)) : list;
  return h('table', { class: 'list entries', id: 'entries-table' },
    h('thead', {}, h('tr', {}, numbered ? h('th', {}, 'No.') : null, h('th', {}, 'Player'), h('th', {}, 'Rating'), organising ? h('th', {}, '') : null)),
    h('tbody', {}, sorted.map((e) => h('tr', { 'data-name': e.name },
      numbered ? h('td', { class: 'rank' }, String(e.number ?? '')) : null,
      h('td', {}, h('a', { href: profileHref(e.name) }, e.name),
        e.engine ? ' ' : '', e.engine ? h('span', { class: 'tag engine', title: 'entered by the organiser; plays its moves itself' }, 'engine') : '',
        e.withdrawn ? ' ' : '', e.withdrawn ? h('span', { class: 'tag withdrawn' }, 'withdrawn') : ''),
      h('td', { class: 'rating' }, String(e.rating)),
      organising ? h('td', {}, e.withdrawn ? '' : h('button', {
        type: 'button', class: 'remove-player', title: `Take ${e.name} out of the tournament`,
        onclick: () => { if (window.confirm(`Remove ${e.name}? They will not be paired again; a game under way goes on.`)) act('remove', `${e.name} was removed.`, { name: e.name }); },
      }, 'Remove')) : null))));
}

/**
 * The organiser's entry of one of the engine's levels as a player: before the start, or while
 * an arena runs. The server says why when it refuses (at most four levels).
 */
function engineBox(t) {
  const open = t.status === 'registering' || (t.format === 'arena' && (t.status === 'running' || t.status === 'paused'));
  if (!me || t.organiser !== me || !open) return null;
  const levels = Array.from({ length: 10 }, (_, i) => i + 1);
  const level = /** @type {HTMLSelectElement} */ (h('select', { id: 'engine-level', 'aria-label': 'The engine\'s level' },
    levels.map((n) => h('option', { value: String(n), selected: n === 5 }, `level ${n}`))));
  return h('form', {
    class: 'row', id: 'engine-entry',
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      act('engines', `Engine level ${level.value} is entered.`, { level: Number(level.value) });
    },
  }, h('label', {}, 'Enter the engine as a player: ', level), ' ', h('button', { type: 'submit', id: 'enter-engine' }, 'Enter'));
}

/** The line that says where the event is; a countdown is rewritten every second. */
function showStatus() {
  if (!shown) return;
  const players = `${shown.players} player${shown.players === 1 ? '' : 's'}${shown.status === 'registering' ? ` of ${shown.max_players} at most` : ''}`;
  const where = shown.format === 'arena' && shown.status === 'running' ? arenaClock(shown) : statusText(shown);
  $('event-status').textContent = `${where} · ${players} · organised by ${shown.organiser}`;
}

/** Shows the event. */
function show(/** @type {Tournament} */ t) {
  if (shown && shown.status !== t.status) confirmEnd = false;
  // What the last action said is old news once the event has moved on.
  if (shown && (shown.status !== t.status || shown.round !== t.round)) say('');
  shown = t;
  document.title = `ZÈRTZ · ${t.name}`;
  $('event-name').textContent = t.name;
  $('event-settings').textContent = `${formatText(t)} · ${settingsText(t)}`;
  document.body.dataset.status = t.status;
  document.body.dataset.round = String(t.round);
  showStatus();
  fill($('event-actions'), actions(t));
  // Redrawn only when it changes: a choice being made is not reset by the refresh.
  const mine = me ? t.entries.find((e) => e.name === me) : null;
  const byesKey = JSON.stringify([t.status, t.round, mine && mine.withdrawn, mine && mine.byes, mine && mine.first]);
  if ($('bye-box').dataset.key !== byesKey) {
    // A Swiss player's byes, or a knockout player's choice of who begins.
    const byes = byesBox(t) || firstBox(t);
    $('bye-box').dataset.key = byesKey;
    $('bye-box').hidden = !byes;
    fill($('bye-box'), byes);
  }
  const ready = yourGame(t);
  $('your-game').hidden = !ready;
  fill($('your-game'), ready);
  const over = t.status === 'finished';
  $('podium').hidden = !over || !t.standings.lines.length;
  fill($('podium'), over && t.standings.lines.length ? podium(t) : null);
  const started = t.status !== 'registering';
  $('standings-section').hidden = !started;
  const knockout = t.format === 'knockout';
  const arena = t.format === 'arena';
  $('crosstable-section').hidden = !started || knockout || arena;
  $('bracket-section').hidden = !started || !knockout;
  $('rounds-section').hidden = !t.pairings.length || arena;
  $('arena-games-section').hidden = !arena || !started || over;
  if (started) {
    fill($('standings'), arena ? arenaTable(t) : standingsTable(t));
    if (knockout) fill($('bracket'), bracket(t));
    else if (arena) fill($('arena-games-list'), gamesUnderWay(t));
    else fill($('crosstable'), crosstable(t));
  }
  if (!arena) fill($('rounds'), roundsList(t, me));
  const base = `/api/tournaments/${encodeURIComponent(t.id)}`;
  $('downloads').hidden = !started;
  fill($('downloads'), started ? ['Download: ',
    knockout || arena ? null : h('a', { href: `${base}/trf`, id: 'download-trf', download: `${t.id}.trf` }, 'the report (TRF)'), knockout || arena ? null : ' · ',
    h('a', { href: `${base}/games.sgf`, id: 'download-games', download: `${t.id}.sgf` }, 'the games (SGF)')] : null);
  fill($('entries'), entries(t), engineBox(t));
}

async function load() {
  try {
    show(await api('GET', `/api/tournaments/${encodeURIComponent(id)}`));
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      $('event-name').textContent = 'No such tournament';
      say('There is no tournament at this address.', 'error');
      fill($('entries'), h('p', { class: 'empty' }, h('a', { href: '/tournaments' }, 'See the tournaments')));
      return false;
    }
    say(`Cannot read the tournament: ${e.message}`, 'error');
    return true;
  }
}

/** The event's room: its players and watchers talk (ignore and report as in the public room). */
function openChat(account) {
  const name = account ? undefined : (localStorage.getItem('zertz.name') || undefined);
  /** @type {RoomSocket | null} */
  let socket = null;
  const chat = new ChatPanel({ send: (message) => (socket ? socket.send(message) : false), ignore: true });
  chat.setViewer({ player: false, guest: !account, name: account ? account.name : (name || 'Guest') });
  fill($('event-chat'), chat.el);
  socket = new RoomSocket({
    name,
    path: `/api/tournaments/${encodeURIComponent(id)}/chat/ws`,
    onRoom: (msg) => chat.receive(msg),
    onStatus: (status) => chat.connection(status),
  });
  socket.start();
  /** @type {any} */ (window).zertzRoom = socket;
}

async function start() {
  const account = await siteHeader('tournaments');
  me = account ? account.name : null;
  if (!(await load())) return;
  openChat(account);
  setInterval(showStatus, 1000);
  setInterval(() => {
    if (shown && shown.status !== 'finished' && !busy && document.visibilityState === 'visible') load();
  }, REFRESH_MS);
}

start();
