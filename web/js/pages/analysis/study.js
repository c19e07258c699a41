// @ts-check
// Studies: the analysis saved under a name as one or more chapters (each a start position with
// its variations and comments), owned by the account that saved it (POST /api/studies, PUT to
// change it). Its link, /study/{id}, opens it read-only for anyone else, who may copy it to
// their own account. A chapter can be played through in "guess the move": the rest of its main
// line is hidden, the player tries each move, is told right or wrong, and may reveal it.

import { api } from '../../lib/api.js';
import { signInHref } from '../../lib/account.js';
import { copy, fill, h } from '../../lib/ui.js';
import { Tree } from './tree.js';
import * as positions from './positions.js';

export class StudyPanel {
  constructor(el, analysis, account) {
    this.el = el;
    this.analysis = analysis;
    this.account = null;
    this.study = null; // {id, name, owner, mine} once saved or opened
    this.chapters = []; // [{name, tree: Tree}]
    this.chapter = 0;
    this.guess = null; // {right, wrong, revealed} while guessing
    this.status = '';
    account.then((a) => {
      this.account = a;
      this.render();
    });
    analysis.listen(({ tree }) => {
      // A tree loaded from elsewhere (an import, an example game) replaces the chapter shown.
      if (this.chapters[this.chapter]) this.chapters[this.chapter].tree = tree;
      this.render();
    });
    this.render();
  }

  /** Opens the study `id` at chapter `n`, following `line` in it. */
  async open(id, n, line) {
    try {
      const s = await api('GET', `/api/studies/${encodeURIComponent(id)}`);
      this.study = { id: s.id, name: s.name, owner: s.owner, mine: s.mine };
      this.chapters = s.chapters.map((c) => ({ name: c.name, tree: Tree.fromJSON(c.tree) }));
      if (!this.chapters.length) throw new Error('the study has no chapter');
      this.analysis.readOnly = s.mine ? null : `This study belongs to ${s.owner}: copy it to your account to change it.`;
      await this.showChapter(Math.max(0, Math.min(n, this.chapters.length - 1)), line);
    } catch (e) {
      this.analysis.say(`Cannot open the study ${id}: ${e.message}`, 'error');
      await this.analysis.load(this.analysis.tree, { kind: 'position' }, []);
    }
  }

  async showChapter(k, line = []) {
    this.stopGuessing();
    this.chapter = k;
    const c = this.chapters[k];
    await this.analysis.load(c.tree, { kind: 'study', id: this.study.id, chapter: k, name: this.study.name }, line);
    this.render();
  }

  /** Saves the analysis: a new study (from the board's tree), or the changes to the owner's. */
  async save(name) {
    const chapters = this.chapters.length
      ? this.chapters
      : [{ name: 'Chapter 1', tree: this.analysis.tree }];
    const body = { name, chapters: chapters.map((c) => ({ name: c.name, tree: c.tree.toJSON() })) };
    try {
      if (this.study && this.study.mine) {
        await api('PUT', `/api/studies/${encodeURIComponent(this.study.id)}`, body);
        this.study.name = name;
        this.status = 'Saved.';
      } else {
        const r = await api('POST', '/api/studies', body);
        this.study = { id: r.id, name, owner: this.account && this.account.name, mine: true };
        this.chapters = chapters;
        this.analysis.readOnly = null;
        await this.showChapter(this.chapter, this.analysis.current.line());
        this.status = 'Saved as a new study.';
      }
    } catch (e) {
      this.status = `Cannot save: ${e.message}`;
    }
    this.render();
  }

  /** Copies someone else's study to the viewer's account and opens the copy. */
  async copyStudy() {
    try {
      const r = await api('POST', `/api/studies/${encodeURIComponent(this.study.id)}/copy`);
      location.href = `/study/${encodeURIComponent(r.id)}`;
    } catch (e) {
      this.status = `Cannot copy: ${e.message}`;
      this.render();
    }
  }

  /** A new chapter starting at the position on the board. */
  async addChapter() {
    if (!this.chapters.length) this.chapters = [{ name: 'Chapter 1', tree: this.analysis.tree }];
    // The game's result and how it ended belong to the game, not to a chapter starting
    // elsewhere (the server checks a Result header against the chapter's main line).
    const { Result, Termination, ...headers } = this.analysis.tree.headers;
    const tree = new Tree(this.analysis.current.position, headers);
    this.chapters.push({ name: `Chapter ${this.chapters.length + 1}`, tree });
    if (this.study) await this.showChapter(this.chapters.length - 1);
    else {
      this.chapter = this.chapters.length - 1;
      await this.analysis.load(tree, { kind: 'position' }, []);
    }
  }

  // ---- guess the move ----

  startGuessing() {
    const here = this.analysis.current;
    if (!here.children.length) {
      this.status = 'There is no move after this one to guess: go back along the main line first.';
      this.render();
      return;
    }
    this.guess = { right: 0, wrong: 0, revealed: 0, said: 'Your move: what was played here?' };
    this.analysis.hideAfter = here;
    this.analysis.intercept = (text) => this.tryMove(text);
    this.render();
  }

  stopGuessing() {
    if (!this.guess) return;
    this.guess = null;
    this.analysis.intercept = null;
    this.analysis.hideAfter = null;
    this.render();
  }

  /** A move played while guessing: right (the chapter's next move) or wrong. Returns true. */
  async tryMove(text) {
    const here = this.analysis.current;
    const target = here.children[0];
    if (!target) {
      this.guess.said = 'The line ends here.';
      this.render();
      return true;
    }
    let move = text;
    try {
      move = (await positions.play(here.position, text)).move;
    } catch (e) {
      this.guess.said = e.message;
      this.render();
      return true;
    }
    if (move === target.move) {
      this.guess.right += 1;
      this.guess.said = `Right: ${move}.`;
      await this.advance(target);
    } else {
      this.guess.wrong += 1;
      this.guess.said = `Not ${move}: try again, or reveal the move.`;
      this.render();
    }
    return true;
  }

  async reveal() {
    const target = this.analysis.current.children[0];
    if (!target) return;
    this.guess.revealed += 1;
    this.guess.said = `The move was ${target.move}.`;
    await this.advance(target);
  }

  async advance(target) {
    this.analysis.hideAfter = target;
    await this.analysis.goTo(target);
    if (!target.children.length) this.guess.said += ' That was the last move of the line.';
    this.render();
  }

  render() {
    const items = [h('h3', {}, 'Study')];
    const s = this.study;
    if (s) {
      items.push(h('p', { id: 'study-name' }, h('b', {}, s.name), s.owner ? ` by ${s.owner}` : ''));
      const link = `${location.origin}/study/${encodeURIComponent(s.id)}`;
      const input = h('input', { readonly: true, class: 'link', value: link, id: 'study-link' });
      items.push(h('div', { class: 'row' }, input, h('button', { type: 'button', onclick: () => copy(link, input) }, 'Copy link')));
    }
    if (this.chapters.length > 1 || s) {
      items.push(h('div', { class: 'row chapters', id: 'chapters' }, this.chapters.map((c, k) => h('button', {
        type: 'button',
        class: `chapter${k === this.chapter ? ' chosen' : ''}`,
        'data-chapter': k,
        onclick: () => (s ? this.showChapter(k) : this.localChapter(k)),
      }, c.name))));
    }
    if (s && !s.mine) {
      items.push(h('p', { class: 'note' }, 'Read-only: this study is someone else\'s.'));
      if (this.account) items.push(h('p', {}, h('button', { type: 'button', id: 'study-copy', onclick: () => this.copyStudy() }, 'Copy to my studies')));
      else items.push(h('p', {}, h('a', { href: signInHref() }, 'Sign in'), ' to copy it to your studies.'));
    } else if (this.account) {
      const name = h('input', { id: 'study-name-input', maxlength: 100, value: s ? s.name : '', placeholder: 'Name of the study', 'aria-label': 'Name of the study' });
      items.push(h('form', { class: 'row', id: 'study-form', onsubmit: (e) => { e.preventDefault(); this.save(name.value.trim() || 'Untitled study'); } },
        name, h('button', { type: 'submit', id: 'study-save' }, s ? 'Save' : 'Save as a study')));
      items.push(h('p', {}, h('button', { type: 'button', id: 'add-chapter', onclick: () => this.addChapter() }, 'New chapter from this position')));
    } else {
      items.push(h('p', { class: 'note' }, h('a', { href: signInHref() }, 'Sign in'), ' to save this analysis as a study.'));
    }
    // Guess the move.
    if (this.guess) {
      const g = this.guess;
      items.push(h('div', { class: 'guess', id: 'guess' },
        h('p', { id: 'guess-said', class: /^Right/.test(g.said) ? 'ok' : /^Not/.test(g.said) ? 'error' : '' }, g.said),
        h('p', { class: 'note', id: 'guess-score' }, `${g.right} right, ${g.wrong} wrong, ${g.revealed} revealed.`),
        h('div', { class: 'row' },
          h('button', { type: 'button', id: 'guess-reveal', onclick: () => this.reveal(), disabled: !this.analysis.current.children.length }, 'Reveal the move'),
          h('button', { type: 'button', id: 'guess-stop', onclick: () => this.stopGuessing() }, 'Stop guessing'))));
    } else {
      items.push(h('p', {}, h('button', { type: 'button', id: 'guess-start', onclick: () => this.startGuessing() }, 'Guess the move'),
        h('span', { class: 'note' }, ' from here, along the main line.')));
    }
    if (this.status) items.push(h('p', { class: 'note', id: 'study-status' }, this.status));
    fill(this.el, items);
  }

  async localChapter(k) {
    this.chapter = k;
    await this.analysis.load(this.chapters[k].tree, { kind: 'position' }, []);
  }
}
