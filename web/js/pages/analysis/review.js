// @ts-check
// The review of a finished game: "Review this game" asks the server for one (POST /api/reviews,
// a background job on a fair queue), a progress bar follows it (GET /api/reviews/{id}, with the
// place in the queue while it waits), and once done the page shows an evaluation graph under
// the board (player 1's win chance at each position; a click goes there), each move of the
// main line marked (?! inaccuracy, ? mistake, ?? blunder) with the better move, and each
// player's accuracy. A review is stored once computed: a second visit shows it at once.

import { api } from '../../lib/api.js';
import { fill, h } from '../../lib/ui.js';
import { Tree } from './tree.js';
import { MARK_SYMBOLS } from './treeview.js';

const NS = 'http://www.w3.org/2000/svg';
const POLL_MS = 700;
const MARK_WORDS = { best: 'the best move', good: 'a good move', only: 'the only move', inaccuracy: 'an inaccuracy', mistake: 'a mistake', blunder: 'a blunder' };

const svg = (tag, attrs = {}) => {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
};

/** The tree header naming the review shown on it (kept by a study saved from the tree). */
const REVIEW_HEADER = 'Review';

export class ReviewPanel {
  /** `el`: the panel beside the board; `graphEl`: the place under the board for the graph. */
  constructor(el, graphEl, analysis) {
    this.el = el;
    this.graphEl = graphEl;
    this.analysis = analysis;
    this.job = null; // the last answer of the review routes
    this.review = null; // the finished review shown
    this.error = null;
    this.timer = null;
    this.checkedGame = null; // the server game whose stored review was asked for
    this.checkedReview = null; // the review a study named, once asked for
    this.showing = false; // the better move kept on the board ("Show on the board")
    analysis.listen(({ node, tree }) => {
      this.showing = false;
      if (this.review && tree !== this.tree) this.clear();
      const s = analysis.source;
      if (s.kind === 'game' && this.checkedGame !== s.id) {
        this.checkedGame = s.id;
        this.stored(s.id);
      }
      // A study saved with a review names it in a header: its marks and graph come back.
      const named = tree.headers && tree.headers[REVIEW_HEADER];
      if (s.kind === 'study' && named && !this.review && this.checkedReview !== named) {
        this.checkedReview = named;
        this.named(named);
      }
      this.render(node);
    });
    this.render(null);
  }

  clear() {
    this.review = null;
    this.job = null;
    this.tree = null;
    clearTimeout(this.timer);
    this.graphEl.hidden = true;
  }

  /** A server game's review, when one is stored (state "none" otherwise: the button offers one). */
  async stored(id) {
    try {
      const r = await api('GET', `/api/games/${encodeURIComponent(id)}/review`);
      if (r.state !== 'none') this.follow(r);
    } catch {
      // the game is gone or the server unreachable: the button still offers a review
    }
  }

  /** The review a study's chapter names, shown on its tree when it is done. */
  async named(id) {
    try {
      const job = await api('GET', `/api/reviews/${encodeURIComponent(id)}`);
      if (job.state === 'done' && job.review && this.analysis.tree.headers[REVIEW_HEADER] === id) {
        this.job = job;
        this.show(job.review);
      }
    } catch {
      // the review is gone: the chapter keeps its moves and comments
    }
  }

  /** Asks for a review of the game on the board. */
  async start() {
    const s = this.analysis.source;
    this.error = null;
    try {
      let body;
      if (s.kind === 'game') body = { game: s.id };
      else body = { record: await this.mainLineRecord() };
      this.follow(await api('POST', '/api/reviews', body));
    } catch (e) {
      this.error = e.status === 429 ? `You already have reviews waiting: ${e.message}` : e.message;
      this.render(this.analysis.current);
    }
  }

  /** The main line of the tree as a record (the server's export of a tree without variations). */
  async mainLineRecord() {
    const t = this.analysis.tree;
    const line = Tree.fromLine(t.start, t.mainLine().map((n) => n.move), null, t.headers);
    const r = await api('POST', '/api/trees/export', { tree: line.toJSON(), format: 'record' });
    return r.text;
  }

  /** Follows a review job until it is done (polling), then shows it. */
  follow(job) {
    clearTimeout(this.timer);
    this.job = job;
    if (job.state === 'done' && job.review) {
      this.show(job.review);
      return;
    }
    this.render(this.analysis.current);
    this.timer = setTimeout(async () => {
      try {
        this.follow(await api('GET', `/api/reviews/${encodeURIComponent(job.id)}`));
      } catch (e) {
        this.error = `The review cannot be followed: ${e.message}`;
        this.render(this.analysis.current);
      }
    }, POLL_MS);
  }

  /** Opens /analysis?review=ID: the reviewed game on the board once the review is done. */
  async openReview(id, line) {
    try {
      const job = await api('GET', `/api/reviews/${encodeURIComponent(id)}`);
      if (job.state !== 'done') {
        await this.analysis.load(this.analysis.tree, { kind: 'review', id }, []);
        this.follow(job);
        this.pendingLine = line;
        return;
      }
      await this.loadReviewed(job, line);
    } catch (e) {
      this.analysis.say(`Cannot open the review ${id}: ${e.message}`, 'error');
      await this.analysis.load(this.analysis.tree, { kind: 'position' }, []);
    }
  }

  async loadReviewed(job, line) {
    const r = job.review;
    const names = r.names || [];
    const headers = {};
    if (names[0]) headers.Player1 = names[0];
    if (names[1]) headers.Player2 = names[1];
    // The game's own tree when the review has it (a bribe and its pass are steps of the line
    // but not reviewed moves); older reviews hold the moves only.
    const tree = r.tree ? Tree.fromJSON(r.tree) : Tree.fromLine(r.start, r.moves.map((m) => m.move), null, headers);
    for (const [k, v] of Object.entries(headers)) tree.headers[k] = tree.headers[k] || v;
    this.job = job;
    this.review = r;
    this.tree = tree;
    this.mark(tree, r);
    if (job.id) tree.headers[REVIEW_HEADER] = job.id;
    await this.analysis.load(tree, { kind: 'review', id: job.id }, line);
  }

  /** Shows a finished review on the tree now on the board. */
  show(review) {
    const s = this.analysis.source;
    if (s.kind === 'review' && this.analysis.tree.mainLine().length === 0 && review.moves.length) {
      this.loadReviewed(this.job, this.pendingLine || []);
      return;
    }
    this.review = review;
    this.tree = this.analysis.tree;
    this.mark(this.tree, review);
    // Named in the tree's headers, so that a study saved from this tree shows it again.
    if (this.job && this.job.id) this.tree.headers[REVIEW_HEADER] = this.job.id;
    this.analysis.redraw();
    this.render(this.analysis.current);
  }

  /** Puts each move's verdict on the main line's nodes (as far as they are the moves reviewed). */
  mark(tree, review) {
    const main = tree.mainLine();
    review.moves.forEach((m, k) => {
      const node = main[plyOfMove(review, k) - 1];
      if (node && node.move === m.move) node.mark = m;
    });
  }

  graph(current) {
    const r = this.review;
    const pts = r.graph;
    const W = 600;
    const H = 110;
    const n = Math.max(1, pts.length - 1);
    const x = (i) => (i * W) / n;
    const y = (p) => (1 - p) * H;
    const el = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'eval-graph', id: 'eval-graph', role: 'img', preserveAspectRatio: 'none' });
    const label = `Player 1's win chance at each of the ${pts.length} positions`;
    el.append(svg('title'));
    el.lastChild.textContent = label;
    el.append(svg('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }));
    const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(p).toFixed(1)}`).join(' ');
    el.append(svg('polygon', { points: `0,${H} ${line} ${W},${H}`, class: 'graph-area' }));
    el.append(svg('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'graph-mid' }));
    el.append(svg('polyline', { points: line, class: 'graph-line' }));
    const main = this.analysis.tree.mainLine();
    const ply = current && current.mainLine ? current.ply : null;
    if (ply !== null) {
      const at = graphIndex(r, ply);
      el.append(svg('line', { x1: x(at), x2: x(at), y1: 0, y2: H, class: 'graph-here', id: 'graph-here' }));
    }
    pts.forEach((p, i) => {
      const m = i > 0 ? r.moves[i - 1] : null;
      const bad = m && MARK_SYMBOLS[m.mark];
      if (bad) el.append(svg('circle', { cx: x(i), cy: y(p), r: 4, class: `graph-mark mark-${m.mark}` }));
      // A band the width of one position, to click.
      const hit = svg('rect', { x: x(i) - W / n / 2, y: 0, width: W / n, height: H, class: 'graph-hit', 'data-ply': i });
      const t = svg('title');
      t.textContent = `${i === 0 ? 'start' : `after move ${i}`}: player 1 ${Math.round(100 * p)}%`;
      hit.append(t);
      hit.addEventListener('click', () => {
        const at = i === 0 ? 0 : plyOfMove(r, i - 1);
        const node = at === 0 ? this.analysis.tree.root : main[at - 1];
        if (node) this.analysis.goTo(node);
      });
      el.append(hit);
    });
    return el;
  }

  render(current) {
    const s = this.analysis.source;
    const main = this.analysis.tree.mainLine();
    const items = [h('h3', {}, 'Game review')];
    const job = this.job;
    const r = this.review;
    if (r) {
      const names = r.names && r.names.length === 2 ? r.names : ['Player 1', 'Player 2'];
      const count = (p, mark) => r.moves.filter((m) => m.player === p && m.mark === mark).length;
      items.push(h('table', { class: 'accuracy', id: 'review-accuracy' },
        h('tr', {}, h('th', {}, ''), h('th', {}, 'accuracy'), h('th', {}, '?!'), h('th', {}, '?'), h('th', {}, '??')),
        [1, 2].map((p) => h('tr', { 'data-player': p }, h('td', {}, names[p - 1]),
          h('td', { class: 'num' }, accuracyText(r.accuracy[p - 1])),
          ['inaccuracy', 'mistake', 'blunder'].map((k) => h('td', { class: `num mark-${k}` }, String(count(p, k))))))));
      const m = current && current.mark;
      if (m) {
        const before = current.parent && current.parent.position;
        // The better move drawn on the board, in the position before the move played: while
        // the pointer or the focus is on it, or kept by "Show on the board" (phones have no
        // pointer to hover with).
        const show = (on) => this.analysis.preview(on && before ? { position: before, move: m.best } : null);
        const better = m.best && m.best !== m.move
          ? [' Better: ', h('button', {
            type: 'button', class: 'link-button', id: 'review-best', title: 'Play it as a variation',
            onclick: () => this.playBest(current, m.best),
            onmouseenter: () => show(true), onmouseleave: () => show(this.showing), onfocus: () => show(true), onblur: () => show(this.showing),
          }, m.best), ` (${chanceWords(m.win_chance_before, m.best_score_text)}). `,
          before ? h('button', {
            type: 'button', class: 'link-button', id: 'review-show-best', 'aria-pressed': String(this.showing),
            onclick: (e) => {
              this.showing = !this.showing;
              e.currentTarget.setAttribute('aria-pressed', String(this.showing));
              e.currentTarget.textContent = this.showing ? 'Back to the game' : 'Show on the board';
              show(this.showing);
            },
          }, this.showing ? 'Back to the game' : 'Show on the board') : null]
          : '';
        items.push(h('p', { id: 'review-verdict', class: `verdict mark-${m.mark}` },
          h('b', {}, `${m.move}${MARK_SYMBOLS[m.mark] || ''}`), ` is ${MARK_WORDS[m.mark] || m.mark}`,
          markReason(m), better));
      }
      fill(this.graphEl, this.graph(current));
      this.graphEl.hidden = false;
    } else if (job) {
      const pct = job.total ? Math.round((100 * job.done) / job.total) : 0;
      items.push(h('div', { class: 'review-progress', id: 'review-progress', 'data-state': job.state },
        h('div', { class: 'bar' }, h('span', { style: `width:${pct}%` })),
        h('p', { class: 'note' }, job.state === 'queued'
          ? `Waiting for the engine: place ${job.place} in the queue.`
          : `Analysing: ${job.done} of ${job.total} positions.`)));
    } else {
      const why = main.length === 0 ? 'Play or import a game first: the main line is reviewed.' : null;
      items.push(h('p', {}, h('button', { type: 'button', id: 'review-start', class: 'primary', disabled: Boolean(why), onclick: () => this.start() }, 'Review this game')),
        h('p', { class: 'note' }, why || (s.kind === 'game' ? 'The engine evaluates every position of the game on the server; it is stored once done.' : 'The main line is reviewed as a record.')));
    }
    if (this.error) items.push(h('p', { class: 'error', id: 'review-error' }, this.error));
    fill(this.el, items);
  }

  /** Plays the better move in the position before `node`: it becomes a variation. */
  async playBest(node, best) {
    await this.analysis.goTo(node.parent);
    await this.analysis.play(best);
  }
}

/**
 * The main line's ply after the `k`-th reviewed move: its turn + 1 (reviews before the turns
 * were given: k + 1).
 */
function plyOfMove(r, k) {
  const m = r.moves[k];
  return m && typeof m.turn === 'number' ? m.turn + 1 : k + 1;
}

/** The graph's point of the main line's position at `ply`: the reviewed moves made by then. */
function graphIndex(r, ply) {
  let n = 0;
  while (n < r.moves.length && plyOfMove(r, n) <= ply) n += 1;
  return n;
}

/**
 * A move's win chance in words: "wins in 5" when proven, else "66% to win" (the chance for the
 * player who moves, as the marks count it).
 * @param {number} chance
 * @param {string} [proven] the server's words for the score (`wins in N` only when proven)
 */
function chanceWords(chance, proven) {
  if (proven && /^(wins|loses) in \d+$/.test(proven)) return proven;
  return typeof chance === 'number' ? `${Math.round(100 * chance)}% to win` : 'the engine\'s choice';
}

/**
 * Why a move got its mark, in the numbers the mark is made from (docs/study.md, "Marks"): the
 * win chance of its player with the best move and with the move played, and what was lost.
 * (The graph shows player 1's chance between positions, which may differ: the best move's
 * score comes from a search of the position before.)
 */
function markReason(m) {
  if (typeof m.win_chance_before !== 'number' || typeof m.win_chance_after !== 'number') return '.';
  const pct = (x) => `${Math.round(100 * x)}%`;
  const after = chanceWords(m.win_chance_after, m.score_text);
  if (m.mark === 'best' || m.mark === 'only') return ` (${after}).`;
  return `: ${pct(m.lost)} of the win chance lost (${chanceWords(m.win_chance_before, m.best_score_text)} with the best move, ${after} with this one).`;
}

/** A player's accuracy: "87%", or "—" when they made no move with a choice. */
const accuracyText = (a) => (typeof a === 'number' ? `${Math.round(a)}%` : '—');
