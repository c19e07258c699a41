// @ts-check
// The opening explorer panel: the moves played from the position on the board in the games
// the server knows (BoardSpace's archive, this server's own), most played first, each with its
// games, a win/draw/loss bar, the average rating of the players who chose it and the engine's
// evaluation when the server gives one (GET /api/explorer); its games unfold to the date of the
// last one and example games. A click on a move plays it; a click on an example game opens that
// game on the board.

import { api } from '../../lib/api.js';
import { fill, h } from '../../lib/ui.js';
import { Tree } from './tree.js';

/**
 * An explorer game (GET /api/explorer/games/…) as a tree of its moves: its record is read back
 * by the server (POST /api/import). Resolves to {tree, moves, positions}.
 */
export async function explorerGameTree(g) {
  const game = await api('POST', '/api/import', { text: g.record });
  const headers = Object.fromEntries(game.headers || []);
  return { tree: Tree.fromLine(game.positions[0], game.moves, game.positions, headers), moves: game.moves, positions: game.positions };
}

/** What an explorer game is, in words: its players, result and date. */
export const explorerGameWords = (g) => `${g.players.join(' – ')} (${g.result}${g.date ? `, ${g.date}` : ''})`;

/** How many moves are listed before "Show all". */
const FIRST_ROWS = 12;

export class ExplorerPanel {
  constructor(el, analysis) {
    this.el = el;
    this.analysis = analysis;
    this.open = false;
    this.source = 'all';
    this.minRating = '';
    this.data = null;
    this.error = null;
    this.position = null;
    this.asked = 0;
    this.examplesOf = null; // the move whose example games are unfolded
    this.all = false; // every move listed, not only the most played
    analysis.listen(({ info }) => {
      this.position = info.position;
      this.examplesOf = null;
      this.all = false;
      if (this.open) this.query();
    });
    this.render();
  }

  async query() {
    const ask = (this.asked += 1);
    const q = new URLSearchParams({ position: this.position, source: this.source, eval: 'true' });
    if (this.minRating) q.set('min_rating', this.minRating);
    this.loading = true;
    this.render();
    try {
      const data = await api('GET', `/api/explorer?${q}`);
      if (ask !== this.asked) return;
      this.data = data;
      this.error = null;
    } catch (e) {
      if (ask !== this.asked) return;
      this.data = null;
      this.error = e.status === 404 && !e.message.includes(' ') ? 'The explorer is not available on this server.' : e.message;
    }
    this.loading = false;
    this.render();
  }

  /** Opens an example game on the board (its record read back by the server). */
  async openGame(id) {
    try {
      // Asked with the position: a game that met it turned or mirrored (the explorer merges
      // those) comes turned as a whole, so that it passes through the position on the board.
      const g = await api('GET', `/api/explorer/games/${encodeURIComponent(id)}?${new URLSearchParams({ position: this.position })}`);
      const { tree, moves, positions } = await explorerGameTree(g);
      // The game opens at the position the explorer was showing, when the game passes by it.
      const at = positions.indexOf(this.position);
      await this.analysis.load(tree, { kind: 'position' }, moves.slice(0, Math.max(0, at)));
      this.analysis.say(`Opened ${explorerGameWords(g)}${g.turned ? ', turned to match the board: it reached this position turned or mirrored' : ''}.`, 'ok');
    } catch (e) {
      this.analysis.say(`Cannot open the game: ${e.message}`, 'error');
    }
  }

  render() {
    const toggle = h('input', { type: 'checkbox', id: 'explorer-toggle' });
    toggle.checked = this.open;
    toggle.addEventListener('change', () => {
      this.open = toggle.checked;
      if (this.open && this.position) this.query();
      else this.render();
    });
    const head = h('div', { class: 'panel-head' }, h('label', {}, toggle, ' Opening explorer'));
    if (!this.open) {
      fill(this.el, head);
      return;
    }
    const source = h('select', { id: 'explorer-source' }, [['all', 'all games'], ['boardspace', 'BoardSpace archive'], ['server', 'this server']]
      .map(([v, t]) => h('option', { value: v, selected: v === this.source }, t)));
    source.addEventListener('change', () => { this.source = source.value; this.query(); });
    const rating = h('input', { type: 'number', id: 'explorer-min-rating', min: 0, max: 4000, step: 100, value: this.minRating, placeholder: 'any', class: 'short' });
    rating.addEventListener('change', () => { this.minRating = rating.value.trim(); this.query(); });
    const filters = h('div', { class: 'row filters' }, h('label', {}, 'Games ', source), h('label', {}, 'Rating at least ', rating));
    const d = this.data;
    let body;
    if (this.error) body = h('p', { class: 'error', id: 'explorer-error' }, this.error);
    else if (!d) body = h('p', { class: 'note' }, 'Loading…');
    else if (!d.moves.length) body = h('p', { class: 'empty', id: 'explorer-empty' }, 'No game known reaches this position.');
    else body = this.table(d);
    fill(this.el, head, filters, d ? h('p', { class: 'note', id: 'explorer-total', 'data-games': d.games }, `${d.games} game${d.games === 1 ? ' reaches' : 's reach'} this position.`) : null, body);
    this.el.dataset.loading = this.loading ? 'true' : 'false';
  }

  /**
   * The moves as a table narrow enough for the side column (380 px, or a phone): the move, its
   * games (a button unfolding the date of the last game and the example games), a win/draw/loss
   * bar with the percentages, the average rating of the players who chose it and the engine's
   * evaluation; the long forms are in each cell's title.
   */
  table(d) {
    // No rating column when no game of these moves was rated (the BoardSpace games carry none).
    const rated = d.moves.some((m) => m.average_rating !== null && m.average_rating !== undefined);
    const rows = [];
    // The start has over a hundred moves played: the most played first, the rest on demand.
    const shown = this.all ? d.moves : d.moves.slice(0, FIRST_ROWS);
    for (const m of shown) {
      const open = this.examplesOf === m.move;
      const rating = m.average_rating === null || m.average_rating === undefined ? '' : String(Math.round(m.average_rating));
      rows.push(h('tr', { 'data-move': m.move, 'data-games': m.games, class: open ? 'open' : null },
        h('td', { class: 'move' }, h('button', { type: 'button', class: 'link-button explorer-move', title: `Play ${m.move}`, onclick: () => this.analysis.play(m.move) }, m.move)),
        h('td', { class: 'num' }, h('button', {
          type: 'button',
          class: 'link-button explorer-games',
          'aria-expanded': open ? 'true' : 'false',
          title: `${m.games} game${m.games === 1 ? '' : 's'}: show the last one's date and example games`,
          onclick: () => { this.examplesOf = open ? null : m.move; this.render(); },
        }, String(m.games))),
        h('td', { class: 'results' }, wdlBar(m)),
        rated ? h('td', { class: 'num', title: rating ? `the players who chose ${m.move} were rated ${rating} on average` : null }, rating) : null,
        h('td', { class: 'num eval', title: scoreText(m.eval) || null }, scoreShort(m.eval))));
      if (open) rows.push(h('tr', { class: 'examples', 'data-of': m.move }, h('td', { colspan: rated ? 5 : 4 }, this.details(m))));
    }
    const col = (cls) => h('col', { class: cls });
    return h('div', { class: 'table-wrap' }, h('table', { class: 'list explorer-table', id: 'explorer-moves' },
      h('colgroup', {}, col('move'), col('games'), col('results'), rated ? col('rating') : null, col('eval')),
      h('thead', {}, h('tr', {},
        h('th', {}, 'Move'),
        h('th', { class: 'num' }, 'Games'),
        h('th', { title: 'won by player 1 · drawn · won by player 2' }, 'Results'),
        rated ? h('th', { class: 'num', title: 'the average rating of the players who chose the move' }, 'Rating') : null,
        h('th', { class: 'num', title: 'the engine\'s evaluation after the move' }, 'Eval'))),
      h('tbody', {}, rows)),
    shown.length < d.moves.length
      ? h('p', {}, h('button', { type: 'button', class: 'link-button', id: 'explorer-all', onclick: () => { this.all = true; this.render(); } },
        `Show all ${d.moves.length} moves (${d.moves.length - shown.length} more, played less)`))
      : null);
  }

  /** What a move's games unfold to: the date of its last game and its example games. */
  details(m) {
    const games = m.examples || [];
    const side = (g, k) => `${g.players[k]}${g.ratings && g.ratings[k] ? ` (${g.ratings[k]})` : ''}`;
    return h('div', { class: 'explorer-details' },
      h('p', { class: 'note' }, m.last_date ? `Last played ${m.last_date}.` : 'The date of the last game is not known.'),
      games.length
        ? h('ul', { class: 'examples' }, games.map((g) => h('li', {},
          h('button', { type: 'button', class: 'link-button explorer-game', 'data-game': g.id, onclick: () => this.openGame(g.id) }, `${side(g, 0)} – ${side(g, 1)}`),
          ` ${g.result}${g.date ? ` · ${g.date}` : ''} · ${g.source}`)))
        : h('p', { class: 'note' }, 'No example game is kept for this move.'));
  }
}

/** The win/draw/loss bar of a move: each part as wide as its share, the share written in it when it fits. */
function wdlBar(m) {
  const decided = m.first_wins + m.second_wins + m.draws;
  const share = (n) => (decided ? (100 * n) / decided : 0);
  const part = (cls, n) => {
    const p = share(n);
    // A share under a quarter of the bar has no room for its figure: the bar's title has it.
    return h('span', { class: cls, style: `width:${p}%` }, p >= 25 ? `${Math.round(p)}%` : '');
  };
  const words = decided
    ? `player 1 won ${m.first_wins} (${Math.round(share(m.first_wins))}%), drawn ${m.draws} (${Math.round(share(m.draws))}%), player 2 won ${m.second_wins} (${Math.round(share(m.second_wins))}%)`
    : 'no finished game';
  return h('span', { class: 'wdl', title: words, 'aria-label': words, role: 'img' },
    part('w1', m.first_wins), part('dr', m.draws), part('w2', m.second_wins));
}

/** A score in a few characters for the table: "+35", "#3" (wins in 3), "#-2" (loses in 2). */
export function scoreShort(score) {
  if (!score) return '';
  if (typeof score.cp === 'number') return `${score.cp > 0 ? '+' : ''}${score.cp}`;
  if (typeof score.win === 'number') return `#${score.win}`;
  if (typeof score.loss === 'number') return `#-${score.loss}`;
  return '';
}

/** A score of the engine in words: "+35", "wins in 3", "loses in 2". */
export function scoreText(score) {
  if (!score) return '';
  if (typeof score.cp === 'number') return `${score.cp > 0 ? '+' : ''}${score.cp}`;
  if (typeof score.win === 'number') return `wins in ${score.win}`;
  if (typeof score.loss === 'number') return `loses in ${score.loss}`;
  return '';
}
