// @ts-check
// Import and export of the analysis: a record (with or without variations), a BoardSpace SGF
// or a position string, pasted or chosen as a file, becomes the tree on the board
// (POST /api/trees/import); the whole tree, variations and comments included, goes out as SGF
// or as the project's record (POST /api/trees/export), to download or copy.

import { api } from '../../lib/api.js';
import { copy, fill, h } from '../../lib/ui.js';
import { Tree } from './tree.js';

const MAX_FILE = 1024 * 1024; // larger than any record with variations a person writes

export class IoPanel {
  constructor(el, analysis) {
    this.el = el;
    this.analysis = analysis;
    this.render();
  }

  /** Reads `text` (record, SGF or position string) into a new tree on the board. */
  async importText(text) {
    if (!text.trim()) {
      this.status('Paste a record, an SGF or a position string, or choose a file, first.', 'error');
      return;
    }
    try {
      const json = await api('POST', '/api/trees/import', { text });
      const tree = Tree.fromJSON(json);
      await this.analysis.load(tree, { kind: 'position' });
      const n = [...tree.nodes()].length - 1;
      this.status(`Imported: ${n} move${n === 1 ? '' : 's'}${tree.root.children.length > 1 || [...tree.nodes()].some((x) => x.children.length > 1) ? ' with variations' : ''}.`, 'ok');
    } catch (e) {
      this.status(`Cannot import: ${e.message}`, 'error');
    }
  }

  /** The tree as text in `format` ('sgf' or 'record'), from the server. */
  async exportText(format) {
    const r = await api('POST', '/api/trees/export', { tree: this.analysis.tree.toJSON(), format });
    return r.text;
  }

  async exportTo(format, how) {
    try {
      const text = await this.exportText(format);
      const out = this.el.querySelector('#export-text');
      out.value = text;
      out.hidden = false;
      if (how === 'copy') {
        this.status((await copy(text, out)) ? 'Copied.' : 'Select the text below and copy it.', 'ok');
      } else {
        const name = `zertz-analysis.${format === 'sgf' ? 'sgf' : 'txt'}`;
        const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
        const link = h('a', { href: url, download: name });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
        this.status(`${name} downloaded.`, 'ok');
      }
    } catch (e) {
      this.status(`Cannot export: ${e.message}`, 'error');
    }
  }

  status(text, kind) {
    const el = this.el.querySelector('#io-status');
    el.textContent = text;
    el.className = `message ${kind}`;
  }

  render() {
    const text = h('textarea', { id: 'import-text', placeholder: 'A record, a BoardSpace SGF (;GM[22]… or a position string' });
    const file = h('input', { type: 'file', id: 'import-file', 'aria-label': 'A record file to import', accept: '.sgf,.txt,.zertz,.rec,text/plain' });
    file.addEventListener('change', async () => {
      const f = file.files[0];
      if (!f) return;
      if (f.size > MAX_FILE) {
        this.status('That file is too large for a record (over 1 MB).', 'error');
        return;
      }
      text.value = await f.text();
      this.importText(text.value);
    });
    const b = (id, label, fn) => h('button', { type: 'button', id, onclick: fn }, label);
    const details = h('details', { class: 'io' },
      h('summary', {}, 'Import and export'),
      h('div', { class: 'row' }, file),
      text,
      h('p', { class: 'row' }, b('import-button', 'Import', () => this.importText(text.value))),
      h('p', { class: 'row' },
        b('export-sgf', 'Download SGF', () => this.exportTo('sgf', 'download')),
        b('export-record', 'Download record', () => this.exportTo('record', 'download')),
        b('copy-sgf', 'Copy SGF', () => this.exportTo('sgf', 'copy')),
        b('copy-record', 'Copy record', () => this.exportTo('record', 'copy'))),
      h('textarea', { id: 'export-text', readonly: true, hidden: true, 'aria-label': 'The exported text' }),
      h('div', { id: 'io-status', class: 'message', role: 'status' }));
    fill(this.el, details);
  }
}
