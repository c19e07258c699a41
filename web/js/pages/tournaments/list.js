// @ts-check
// The tournaments page, /tournaments (GET /api/tournaments): the events starting soon with a
// countdown, those under way and those finished, each linking to its page; and the form that
// creates one (create.js). The lists are asked for again every few seconds.

import { api } from '../../lib/api.js';
import { siteHeader } from '../../lib/account.js';
import { $, fill, h, say } from '../../lib/ui.js';
import { shortMoment } from '../../lib/gamelist.js';
import { createBox } from './create.js';
import { FORMATS, startText } from './words.js';

const REFRESH_MS = 5000;
/** @type {any[]} */
let events = [];

const EMPTY = {
  registering: 'No tournament is taking players. Create one above.',
  running: 'No tournament is being played.',
  finished: 'No tournament has finished yet.',
};

function when(t) {
  if (t.status === 'registering') return h('span', { class: 'countdown' }, startText(t));
  if (t.status === 'running') return `Round ${t.round}`;
  if (t.status === 'paused') return `Round ${t.round}, paused`;
  return shortMoment(t.start_ms || t.created_ms);
}

function table(status) {
  // A paused event is still under way.
  const list = events.filter((t) => t.status === status || (status === 'running' && t.status === 'paused'));
  if (!list.length) return h('p', { class: 'empty' }, EMPTY[status]);
  return h('table', { class: 'list events' },
    h('thead', {}, h('tr', {}, ['Tournament', 'Format', 'Players', status === 'finished' ? 'Started' : status === 'running' ? 'Now' : 'Start', 'Organiser'].map((c) => h('th', {}, c)))),
    h('tbody', {}, list.map((t) => h('tr', { 'data-id': t.id },
      h('td', {}, h('a', { href: `/tournament/${encodeURIComponent(t.id)}` }, t.name), t.rated ? h('span', { class: 'tag rated' }, ' rated') : ''),
      h('td', {}, FORMATS[t.format] || t.format),
      h('td', {}, status === 'registering' ? `${t.players} / ${t.max_players}` : String(t.players)),
      h('td', {}, when(t)),
      h('td', {}, t.organiser)))));
}

function show() {
  for (const status of ['registering', 'running', 'finished']) fill($(status), table(status));
}

async function load() {
  try {
    events = (await api('GET', '/api/tournaments')).tournaments;
    say('');
    show();
  } catch (e) {
    say(`Cannot read the tournaments: ${e.message}`, 'error');
  }
}

async function start() {
  const account = await siteHeader('tournaments');
  fill($('create-box'), createBox(account));
  await load();
  // The countdowns move every second; the lists are asked for again every few.
  setInterval(() => {
    for (const el of document.querySelectorAll('tr[data-id] .countdown')) {
      const t = events.find((e) => e.id === el.closest('tr')?.getAttribute('data-id'));
      if (t) el.textContent = startText(t);
    }
  }, 1000);
  setInterval(() => { if (document.visibilityState === 'visible') load(); }, REFRESH_MS);
}

start();
