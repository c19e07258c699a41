// @ts-check
// The home page: quick-play tiles that start a game in one click (the engine at a few levels,
// the common clocks against anyone or a friend, a best-of-3 match with the house rules of the
// online tournaments), quick pairing, and the full form behind "Custom game" (board, rules,
// clock, house rules, a best-of-N match, and for a logged-in player rated or not). Beside them:
// the signed-in player's games in progress, the games being played now as small live boards,
// who is online and the top players.

import { api, playerName, saveMatchToken, saveSeatToken, setPlayerName } from '../../lib/api.js';
import { playingAs, siteHeader } from '../../lib/account.js';
import { BoardView } from '../../lib/board.js';
import { parsePosition } from '../../lib/position.js';
import { $, copy, engineName, fill, h, personTag, profileHref, say } from '../../lib/ui.js';
import { poolName, poolOf, ratingText, whyUnrated } from '../../lib/ratings.js';
import { quickPairing } from './pairing.js';
import { showDaily, showRoom } from './daily.js';

/** The clock presets of the form, as the API's clock objects. */
export const CLOCKS = {
  none: null,
  // Blitz and Rapid as quick pairing gives them (pairing/service.rs `clock_of`): one meaning.
  'fischer-5-3': { kind: 'fischer', base_ms: 300000, increment_ms: 3000 },
  'fischer-10-10': { kind: 'fischer', base_ms: 600000, increment_ms: 10000 },
  'sudden-10': { kind: 'sudden_death', total_ms: 600000 },
  periods: { kind: 'periods', main_ms: 0, periods: 5, period_ms: 60000 },
  reserve: { kind: 'per_move_reserve', per_move_ms: 60000, reserve_ms: 180000, step_ms: 15000 },
  'corr-3': { kind: 'correspondence', per_move_ms: 3 * 86400000 },
};


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
  await start(body(e.target), $('start'));
}

/** Creates the game or match `b` describes, `button` disabled meanwhile. */
async function start(b, button) {
  if (account) delete b.name; // the server plays the account under its own name
  else if (!b.name) {
    say('Give your name first.', 'error');
    $('name', HTMLInputElement).focus();
    return;
  } else setPlayerName(b.name);
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

// ---- quick play: one click ----

/** The engine's levels offered as tiles. */
const ENGINE_TILES = [
  { level: 1, name: 'Beginner' },
  { level: 3, name: 'Easy' },
  { level: 5, name: 'Medium' },
  { level: 7, name: 'Strong' },
  { level: 10, name: 'Full strength' },
];

/** The common clocks offered as tiles (keys of CLOCKS). */
const CLOCK_TILES = [
  { clock: 'fischer-5-3', name: 'Blitz', text: '5 min + 3 s a move' },
  { clock: 'sudden-10', name: '10 minutes', text: 'for the whole game' },
  { clock: 'fischer-10-10', name: 'Rapid', text: '10 min + 10 s a move' },
  { clock: 'reserve', name: 'Death match', text: '1 min a move + 3 min reserve' },
  // A soft hyphen: where the word breaks when the tile is narrow.
  { clock: 'corr-3', name: 'Correspon\u00addence', text: '3 days a move' },
];

/**
 * The match of the online tournaments: best of 3 on the 37 rings, no repetition, bribes (three
 * each), 1 minute a move and 3 minutes of reserve in 15-second steps, no takebacks.
 */
export const TOURNAMENT_MATCH = {
  board: '37',
  rules: 'standard',
  no_repetition: true,
  bribes: true,
  bribe_limit: 3,
  best_of: 3,
  casual: false,
  seat: 'random',
};

const quickName = () => (account ? undefined : $('name', HTMLInputElement).value.trim());
const quickOpponent = () => /** @type {HTMLInputElement} */ (document.querySelector('input[name=quick-opponent]:checked')).value;

function tile(attrs, title, text, onclick) {
  const b = h('button', { type: 'button', class: 'tile', ...attrs }, h('strong', {}, title), h('span', { class: 'note' }, text));
  b.addEventListener('click', () => onclick(b));
  return b;
}

function quickPlay() {
  fill($('engine-tiles'), ENGINE_TILES.map((t) => tile({ 'data-level': t.level, id: `play-engine-${t.level}` }, t.name, `level ${t.level} · no clock`,
    (b) => start({ board: '37', rules: 'standard', casual: true, seat: 'first', opponent: { kind: 'engine', level: t.level }, name: quickName() }, b))));
  fill($('clock-tiles'), CLOCK_TILES.map((t) => tile({ 'data-clock': t.clock, id: `play-clock-${t.clock}` }, t.name, t.text,
    (b) => start({ board: '37', rules: 'standard', casual: true, seat: 'random', clock: CLOCKS[t.clock], opponent: { kind: quickOpponent() }, name: quickName() }, b))));
  fill($('match-tiles'), tile({ id: 'play-tournament' }, 'Death match', 'best of 3 · no repetition · bribes · 1 min a move + 3 min reserve',
    (b) => start({ ...TOURNAMENT_MATCH, clock: CLOCKS.reserve, opponent: { kind: quickOpponent() }, name: quickName() }, b)));
}

// ---- games being played now ----

/** The games being played, each a small board to watch; read again every few seconds. */
async function showLive() {
  const box = $('live-boards');
  let states;
  try {
    const live = await api('GET', '/api/games?status=live&limit=6');
    states = (await Promise.all(live.games.map((g) => api('GET', `/api/games/${encodeURIComponent(g.id)}`).catch(() => null)))).filter(Boolean);
  } catch {
    return; // the list is a convenience: it stays as it was
  }
  if (!states.length) {
    fill(box, h('p', { class: 'empty', id: 'no-live' }, 'No game is being played right now.'));
    return;
  }
  // The cards of games still being played are kept (and their boards drawn again); the others go.
  /** @type {Map<string, HTMLElement & {board?: BoardView}>} */
  const cards = new Map([...box.querySelectorAll('[data-game]')].map((el) => [/** @type {HTMLElement} */ (el).dataset.game, /** @type {HTMLElement} */ (el)]));
  const shown = states.map((s) => {
    let card = cards.get(s.id);
    if (!card) {
      card = h('a', { class: 'live-board', href: `/game/${encodeURIComponent(s.id)}`, 'data-game': s.id, title: 'Watch this game' },
        h('div', { class: 'mini-board' }), h('div', { class: 'live-names' }), h('div', { class: 'note live-moves' }));
      card.board = new BoardView(card.querySelector('.mini-board'));
    }
    card.board.render(parsePosition(s.position), { coords: false });
    // Plain names: the whole card is one link (to watch the game).
    const name = (seat, i) => (seat.kind === 'engine' ? engineName(seat.level) : seat.name || `Player ${i + 1}`);
    fill(card.querySelector('.live-names'), `${name(s.seats[0], 0)} – ${name(s.seats[1], 1)}`);
    const mover = s.seats[s.to_move - 1];
    fill(card.querySelector('.live-moves'), `${s.board} rings · move ${s.moves.length + 1}, ${mover.kind === 'engine' ? engineName(mover.level) : mover.name || 'a player'} to play`);
    card.dataset.version = String(s.version);
    return card;
  });
  fill(box, shown);
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
  const engine = /** @type {HTMLInputElement} */ (document.querySelector('input[name=opponent]:checked')).value === 'engine';
  $('level-label').hidden = !engine;
  $('start').textContent = $('match', HTMLInputElement).checked ? 'Create the match' : engine ? 'Play the engine' : 'Create the game';
  syncRated(engine);
}

let casualBefore = null; // the casual box as it was before "rated" unticked it

/**
 * The "rated" box: for a logged-in player only, and usable only when the settings can be rated
 * (the reason shows beside it and in its title otherwise). A rated game has no takebacks, so
 * it unticks "casual" while ticked. The server decides: a refusal is shown in its words.
 */
function syncRated(engine) {
  const box = $('rated', HTMLInputElement);
  const label = $('rated-label');
  const note = $('rated-note');
  const casual = $('casual', HTMLInputElement);
  label.hidden = !account;
  note.hidden = !account;
  if (!account) {
    box.checked = false;
    return;
  }
  const board = $('board', HTMLSelectElement).value;
  const rules = $('rules', HTMLSelectElement).value;
  const clock = CLOCKS[$('clock', HTMLSelectElement).value];
  const houseRules = $('no-repetition', HTMLInputElement).checked || $('bribes', HTMLInputElement).checked;
  const why = whyUnrated({ engine, board, rules, clock, houseRules });
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
    fill($('top-list'), h('p', { class: 'empty', id: 'no-top-players' }, 'Nobody has played a rated game in the last 90 days.'));
    return;
  }
  fill($('top-list'), h('div', { class: 'top-pools' }, pools.map((p) => h('div', { class: 'top-pool', 'data-pool': p.pool },
    h('h3', {}, h('a', { href: `/players?pool=${encodeURIComponent(p.pool)}` }, p.name)),
    h('ol', { class: 'leaders' }, p.players.slice(0, 5).map((x) => h('li', {},
      h('a', { href: profileHref(x.name) }, x.name), ' ',
      h('span', { class: 'rating', title: x.provisional ? 'provisional' : '' }, ratingText(x)))))))));
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

async function begin() {
  const asked = siteHeader('home');
  $('name', HTMLInputElement).value = playerName();
  const form = $('new-game');
  form.addEventListener('submit', submit);
  form.addEventListener('change', sync);
  sync();
  quickPlay();
  showOnline();
  showTopPlayers();
  showLive();
  showDaily();
  showRoom();
  setInterval(() => {
    if (!document.hidden) showLive();
  }, 5000);
  // The custom form opens by itself when the address asks for it (/#custom).
  if (location.hash === '#custom') $('custom-game', HTMLDetailsElement).open = true;
  quickPairing($('pairing'), () => (account ? { account } : { name: $('name', HTMLInputElement).value.trim() }));
  account = await asked;
  if (account) {
    // No name to give: the game is played under the account's. (A disabled field is not sent.)
    $('name', HTMLInputElement).disabled = true;
    $('name-label').hidden = true;
    $('you').append(playingAs(account, 'playing-as'));
    showMyGames();
  }
  sync(); // the "rated" box, now that it is known who plays
}

begin();
