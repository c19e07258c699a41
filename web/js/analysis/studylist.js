// A player's studies on their profile, /@/{name} (GET /api/players/{name}/studies): each
// study's name, its number of chapters and when it was last changed, linking to /study/{id}.
// A module of its own, loaded beside the profile's script; the section stays hidden while the
// player has no study (or the server keeps none).

import { api } from '../api.js';
import { fill, h } from '../ui.js';

const name = decodeURIComponent(location.pathname.split('/')[2] || '');
const box = document.getElementById('studies');

/** "25 Nov 2026" from milliseconds or an ISO date. */
const day = (t) => new Date(t).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

async function show() {
  let studies;
  try {
    studies = await api('GET', `/api/players/${encodeURIComponent(name)}/studies`);
  } catch {
    return; // no such player (the profile says so) or no studies kept on this server
  }
  if (!Array.isArray(studies) || !studies.length) return;
  fill(document.getElementById('study-list'), h('ul', { class: 'my-games study-list' }, studies.map((s) => h('li', { 'data-study': s.id },
    h('a', { href: `/study/${encodeURIComponent(s.id)}` }, s.name),
    h('span', { class: 'note' }, ` · ${s.chapters} chapter${s.chapters === 1 ? '' : 's'}${s.updated ? ` · ${day(s.updated)}` : ''}`)))));
  box.hidden = false;
}

if (name && box) show();
