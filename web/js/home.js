// The home page: one form to start a game against the engine, invite a friend, post an open
// game, or create a best-of-N match, with board, rules, clock and house rules (and for a
// logged-in player, rated or not). A logged-in player also sees their games in progress;
// everyone sees who is online and the top players.

import { api, playerName, saveMatchToken, saveSeatToken, setPlayerName } from './api.js';
import { playingAs, siteHeader } from './account.js';
import { copy, fill, h, personTag, profileHref, say } from './ui.js';
import { poolName, poolOf, PROVISIONAL_NOTE, whyUnrated } from './ratings.js';
import { quickPairing } from './pairing.js';

/** The clock presets of the form, as the API's clock objects. */
export const CLOCKS = {
  none: null,
  'fischer-5-5': { kind: 'fischer', base_ms: 300000, increment_ms: 5000 },
  'fischer-15-10': { kind: 'fischer', base_ms: 900000, increment_ms: 10000 },
  'sudden-10': { kind: 'sudden_death', total_ms: 600000 },
  periods: { kind: 'periods', main_ms: 0, periods: 5, period_ms: 60000 },
  reserve: { kind: 'per_move_reserve', per_move_ms: 60000, reserve_ms: 180000, step_ms: 15000 },
  'corr-3': { kind: 'correspondence', per_move_ms: 3 * 86400000 },
};

const $ = (id) => document.getElementById(id);

let account = null; // the logged-in account, null for a guest

function body(form) {
  const v = new FormData(form);
  const opponent = v.get('opponent');
  const b = {
    board: v.get('board'),
    rules: v.get('rules'),
    no_repetition: v.get('no_repetition') === 'on',
    bribes: v.get('bribes') === 'on',
    casual: v.get('casual') === 'on',
    opponent: opponent === 'engine' ? { kind: 'engine', level: Number(v.get('level')) } : { kind: opponent },
    seat: v.get('seat'),
    name: String(v.get('name') || '').trim(),
  };
  const clock = CLOCKS[v.get('clock')];
  if (clock) b.clock = clock;
  // (A disabled box is not in the form's data: rated only when it can be.)
  if (v.get('rated') === 'on') {
    b.rated = true;
    b.casual = false;
  }
  if (v.get('match') === 'on') {
    b.best_of = Number(v.get('best_of'));
    if (b.bribes) b.bribe_limit = Number(v.get('bribe_limit'));
  }
  return b;
}

function linkBox(text, url, go, goText) {
  const input = h('input', { readonly: true, value: url, class: 'link', id: 'invite-link' });
  const copied = h('span', { class: 'note' });
  return [
    h('p', {}, text),
    h('div', { class: 'row' }, input, h('button', {
      type: 'button',
      onclick: async () => { copied.textContent = (await copy(url, input)) ? ' copied' : ' select and copy it'; },
    }, 'Copy link'), copied),
    h('p', {}, h('a', { class: 'button primary', href: go, id: 'go' }, goText)),
  ];
}

async function submit(e) {
  e.preventDefault();
  const form = e.target;
  const b = body(form);
  if (account) delete b.name; // the server plays the account under its own name
  else if (!b.name) {
    say('Give your name first.', 'error');
    return;
  } else setPlayerName(b.name);
  const button = $('start');
  button.disabled = true;
  say('Creating…');
  try {
    if (b.best_of) await createMatch(b);
    else await createGame(b);
  } catch (err) {
    say(`The server refused: ${err.message}`, 'error');
  } finally {
    button.disabled = false;
  }
}

async function createGame(b) {
  const r = await api('POST', '/api/games', b);
  // A guest's seat lives in this browser; an account's follows the account (the cookie).
  if (!account) saveSeatToken(r.id, r.token);
  const game = `/game/${encodeURIComponent(r.id)}`;
  if (r.invite_url) {
    const url = new URL(r.invite_url, location.origin).href;
    localStorage.setItem(`zertz.invite.${r.id}`, url);
    say('');
    fill($('created'), linkBox('Game created. Send this link to your friend; whoever opens it takes the other seat:', url, game, 'Go to the game →'));
    $('created').hidden = false;
    return;
  }
  location.href = game;
}

async function createMatch(b) {
  const r = await api('POST', '/api/matches', b);
  if (!account) saveMatchToken(r.id, r.token);
  const page = `/match/${encodeURIComponent(r.id)}`;
  if (r.invite_url) {
    const url = new URL(r.invite_url, location.origin).href;
    localStorage.setItem(`zertz.invite.match.${r.id}`, url);
    say('');
    fill($('created'), linkBox(`Match (best of ${b.best_of}) created. Send this link to your opponent:`, url, page, 'Go to the match →'));
    $('created').hidden = false;
    return;
  }
  // Against the engine the first game exists at once; an open match waits in the lobby.
  const m = await api('GET', page.replace('/match/', '/api/matches/'), undefined, r.token);
  location.href = m.current_game ? `/game/${encodeURIComponent(m.current_game)}` : page;
}

function sync() {
  const engine = document.querySelector('input[name=opponent]:checked').value === 'engine';
  $('level-label').hidden = !engine;
  $('start').textContent = $('match').checked ? 'Create the match' : engine ? 'Play the engine' : 'Create the game';
  syncRated(engine);
}

let casualBefore = null; // the casual box as it was before "rated" unticked it

/**
 * The "rated" box: for a logged-in player only, and usable only when the settings can be rated
 * (the reason shows beside it and in its title otherwise). A rated game has no takebacks, so
 * it unticks "casual" while ticked. The server decides: a refusal is shown in its words.
 */
function syncRated(engine) {
  const box = $('rated');
  const label = $('rated-label');
  const note = $('rated-note');
  const casual = $('casual');
  label.hidden = !account;
  note.hidden = !account;
  if (!account) {
    box.checked = false;
    return;
  }
  const board = $('board').value;
  const rules = $('rules').value;
  const clock = CLOCKS[$('clock').value];
  const why = whyUnrated({ engine, board, rules, clock });
  box.disabled = Boolean(why);
  if (why) box.checked = false;
  label.classList.toggle('disabled', Boolean(why));
  label.title = why ? `Unrated: ${why}` : "The result changes both players' ratings";
  if (box.checked) {
    if (casualBefore === null) casualBefore = casual.checked;
    casual.checked = false;
    casual.disabled = true;
  } else {
    casual.disabled = false;
    if (casualBefore !== null) casual.checked = casualBefore;
    casualBefore = null;
  }
  const pool = poolOf(board, rules, clock);
  note.textContent = why
    ? `(unrated: ${why})`
    : box.checked ? `(counts in ${poolName(pool)}; no takebacks; your opponent needs an account)` : `(would count in ${poolName(pool)})`;
}

/** "Top players": the best five of the pools with the most established players. */
async function showTopPlayers() {
  let board;
  try {
    board = await api('GET', '/api/leaderboard');
  } catch (e) {
    fill($('top-list'), h('p', { class: 'empty' }, `The leaderboard cannot be read: ${e.message}`));
    return;
  }
  const pools = board.pools.filter((p) => p.players.length)
    .sort((a, b) => b.players.length - a.players.length)
    .slice(0, 3);
  if (!pools.length) {
    fill($('top-list'), h('p', { class: 'empty', id: 'no-top-players' }, `No established player yet: ${PROVISIONAL_NOTE}.`));
    return;
  }
  fill($('top-list'), h('div', { class: 'top-pools' }, pools.map((p) => h('div', { class: 'top-pool', 'data-pool': p.pool },
    h('h3', {}, h('a', { href: `/players?pool=${encodeURIComponent(p.pool)}` }, p.name)),
    h('ol', { class: 'leaders' }, p.players.slice(0, 5).map((x) => h('li', {},
      h('a', { href: profileHref(x.name) }, x.name), ' ', h('span', { class: 'rating' }, String(x.rating)))))))));
}

/** What a game of "Your games" is waiting for, from its state as the player sees it. */
function gameNow(s) {
  if (s.status === 'open') return 'waiting for an opponent';
  if (s.pending_bribe) return s.pending_bribe.by === s.you ? 'your bribe waits for an answer' : 'a bribe waits for your answer';
  return s.to_move === s.you ? 'your turn' : 'their turn';
}

/** The logged-in player's open and live games and matches, each a link to its page. */
async function showMyGames() {
  let mine;
  try {
    mine = await api('GET', '/api/me/games');
  } catch {
    return; // signed out meanwhile, or the server is away: the list is only a convenience
  }
  // The states say who the opponent is and whose turn it is (the list has at most 100).
  const states = (await Promise.all(mine.games.slice(0, 30).map((g) => api('GET', `/api/games/${encodeURIComponent(g.id)}`).catch(() => null))))
    .filter(Boolean);
  const games = states.map((s) => {
    const other = s.seats[s.you === 2 ? 0 : 1];
    const game = s.match_game ? `Game ${s.match_game[1]} of a match` : `${s.board} rings, ${s.rules}`;
    return h('li', { 'data-game': s.id, class: s.status === 'live' && s.to_move === s.you ? 'your-turn' : null },
      h('a', { href: `/game/${encodeURIComponent(s.id)}` }, game), ' against ', personTag(other, 'nobody yet'), ` · ${gameNow(s)}`);
  });
  const matches = mine.matches.map((m) => h('li', { 'data-match': m.id },
    h('a', { href: `/match/${encodeURIComponent(m.id)}` }, `Match, best of ${m.best_of}`), ': ',
    personTag(m.players[0], 'waiting for a player…'), ` ${m.score[0]} – ${m.score[1]} `, personTag(m.players[1], 'waiting for a player…')));
  fill($('my-games'), games.length || matches.length
    ? h('ul', { class: 'my-games' }, matches, games)
    : h('p', { class: 'empty' }, 'No game in progress. Start one below.'));
  $('your-games').hidden = false;
}

/** "Online now": the accounts active in the last minutes. */
async function showOnline() {
  let online;
  try {
    online = await api('GET', '/api/online');
  } catch {
    return;
  }
  const el = $('online');
  if (!online.count) {
    fill(el, 'Nobody with an account is online right now.');
    return;
  }
  const names = online.names.flatMap((n, k) => [k ? ', ' : '', h('a', { href: profileHref(n) }, n)]);
  const more = online.count - online.names.length;
  fill(el, `Online now (${online.count}): `, names, more > 0 ? ` and ${more} more` : '');
  el.dataset.count = String(online.count);
}

async function start() {
  const asked = siteHeader('home');
  $('name').value = playerName();
  const form = $('new-game');
  form.addEventListener('submit', submit);
  form.addEventListener('change', sync);
  sync();
  showOnline();
  showTopPlayers();
  quickPairing($('pairing'), () => (account ? { account } : { name: $('name').value.trim() }));
  account = await asked;
  if (account) {
    // No name to give: the game is played under the account's. (A disabled field is not sent.)
    $('name').disabled = true;
    $('name-label').hidden = true;
    $('you').append(playingAs(account, 'playing-as'));
    showMyGames();
  }
  sync(); // the "rated" box, now that it is known who plays
}

start();
