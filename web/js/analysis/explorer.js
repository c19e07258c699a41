// The opening explorer panel: the moves played from the position on the board in the games
// the server knows (BoardSpace's archive, this server's own), most played first, each with its
// games, a win/draw/loss bar, the average rating of the players who chose it, the date of its
// last game and the engine's evaluation when the server gives one (GET /api/explorer). A click
// on a move plays it; a click on an example game opens that game on the board.

import { api } from '../api.js';
import { fill, h } from '../ui.js';
import { Tree } from './tree.js';

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
    analysis.listen(({ info }) => {
      this.position = info.position;
      this.examplesOf = null;
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
      const g = await api('GET', `/api/explorer/games/${encodeURIComponent(id)}`);
      const game = await api('POST', '/api/import', { text: g.record });
      const headers = Object.fromEntries(game.headers || []);
      const tree = Tree.fromLine(game.positions[0], game.moves, game.positions, headers);
      // The game opens at the position the explorer was showing, when the game passes by it.
      const at = game.positions.indexOf(this.position);
      await this.analysis.load(tree, { kind: 'position' }, game.moves.slice(0, Math.max(0, at)));
      this.analysis.say(`Opened ${g.players.join(' – ')} (${g.result}${g.date ? `, ${g.date}` : ''}).`, 'ok');
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
    fill(this.el, head, filters, d ? h('p', { class: 'note', id: 'explorer-total', 'data-games': d.games }, `${d.games} game${d.games === 1 ? '' : 's'} reach this position.`) : null, body);
    this.el.dataset.loading = this.loading ? 'true' : 'false';
  }

  table(d) {
    const rows = [];
    for (const m of d.moves) {
      const decided = m.first_wins + m.second_wins + m.draws || 1;
      const pct = (n) => `${(100 * n) / decided}%`;
      const bar = h('span', { class: 'wdl', title: `player 1 won ${m.first_wins}, drawn ${m.draws}, player 2 won ${m.second_wins}` },
        h('span', { class: 'w1', style: `width:${pct(m.first_wins)}` }),
        h('span', { class: 'dr', style: `width:${pct(m.draws)}` }),
        h('span', { class: 'w2', style: `width:${pct(m.second_wins)}` }));
      const evalText = m.eval ? scoreText(m.eval) : '';
      rows.push(h('tr', { 'data-move': m.move, 'data-games': m.games },
        h('td', {}, h('button', { type: 'button', class: 'link-button explorer-move', onclick: () => this.analysis.play(m.move) }, m.move)),
        h('td', { class: 'num' }, String(m.games)),
        h('td', {}, bar),
        h('td', { class: 'num' }, m.average_rating === null || m.average_rating === undefined ? '' : String(Math.round(m.average_rating))),
        h('td', { class: 'date', title: m.last_date || null }, (m.last_date || '').slice(0, 7)),
        h('td', { class: 'num' }, evalText),
        h('td', {}, m.examples && m.examples.length
          ? h('button', { type: 'button', class: 'link-button', onclick: () => { this.examplesOf = this.examplesOf === m.move ? null : m.move; this.render(); } }, 'games')
          : '')));
      if (this.examplesOf === m.move) {
        rows.push(h('tr', { class: 'examples' }, h('td', { colspan: 7 }, h('ul', { class: 'examples' }, m.examples.map((g) => h('li', {},
          h('button', { type: 'button', class: 'link-button explorer-game', 'data-game': g.id, onclick: () => this.openGame(g.id) },
            `${g.players[0]}${g.ratings && g.ratings[0] ? ` (${g.ratings[0]})` : ''} – ${g.players[1]}${g.ratings && g.ratings[1] ? ` (${g.ratings[1]})` : ''}`),
          ` ${g.result}${g.date ? ` · ${g.date}` : ''} · ${g.source}`))))));
      }
    }
    return h('div', { class: 'table-wrap' }, h('table', { class: 'list explorer-table', id: 'explorer-moves' },
      h('thead', {}, h('tr', {}, ['Move', 'Games', 'Results', 'Avg', 'Last', 'Eval', ''].map((t) => h('th', {}, t)))),
      h('tbody', {}, rows)));
  }
}

/** A score of the engine in words: "+35", "wins in 3", "loses in 2". */
export function scoreText(score) {
  if (!score) return '';
  if (typeof score.cp === 'number') return `${score.cp > 0 ? '+' : ''}${score.cp}`;
  if (typeof score.win === 'number') return `wins in ${score.win}`;
  if (typeof score.loss === 'number') return `loses in ${score.loss}`;
  return '';
}
