// @ts-check
// A list of finished games shown page by page, as the archive and a player's profile show theirs:
// filter fields (`filter-NAME`) kept in the page's address, a table of rows, "Older" and "Newer"
// buttons walking the server's `before` cursors, and a refusal said in the server's words.

import { api } from './api.js';
import { $, fill, h } from './ui.js';

/**
 * The filter field `filter-NAME`: a text field or a list.
 * @param {string} name
 */
const field = (name) => /** @type {HTMLInputElement | HTMLSelectElement} */ ($(`filter-${name}`));

/** A moment as the lists show it: "3 Mar 2026, 14:05" (empty for none). */
export const shortMoment = (ms) => (ms ? new Date(ms).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }) : '');

/**
 * Sets up the list and shows its first page (with the filters the address gives). `o`:
 * - `filters`: the filter names, each read from the field `filter-NAME` and sent as `NAME`;
 * - `live`: the filters that search as soon as they change (the others on the form's submit);
 * - `form`: the id of the filters' form;
 * - `path(q)`: the address to GET for a page, `q` holding the filters, `limit` and `before`;
 * - `rows(games)`: the page's rows (may be async);
 * - `into`: the id of the element the list fills; `tableClass` and `headings`: its table;
 * - `errorId`, `emptyId`, `empty` and `noMatch`: the refusal's and the empty list's ids and words;
 * - `pageNumber`: the id of the element that says the page's number, if any.
 */
export function pagedGameList(o) {
  const PAGE = 20;
  // The page shown (`before`), the pages before it, the next one.
  const list = { before: null, newer: [], next: null };
  let asked = 0; // the last page asked for: an older answer arriving late is dropped

  function filters() {
    const q = new URLSearchParams();
    for (const f of o.filters) {
      const v = field(f).value.trim();
      if (v) q.set(f, v);
    }
    return q;
  }

  async function load() {
    const ask = (asked += 1);
    const q = filters();
    q.set('limit', String(PAGE));
    if (list.before) q.set('before', list.before);
    let page;
    let rows;
    try {
      page = await api('GET', o.path(q));
      rows = await o.rows(page.games);
    } catch (e) {
      if (ask !== asked) return;
      // A filter the server refuses is said in its words.
      fill($(o.into), h('p', { class: 'error', id: o.errorId }, `Cannot list the games: ${e.message}`));
      $('older').hidden = true;
      $('newer').hidden = true;
      return;
    }
    if (ask !== asked) return;
    list.next = page.next;
    const filtered = o.filters.some((f) => q.get(f));
    fill($(o.into), rows.length
      ? h('div', { class: 'table-wrap' }, h('table', { class: o.tableClass },
        h('thead', {}, h('tr', {}, o.headings.map((t) => h('th', {}, t)))), h('tbody', {}, rows)))
      : h('p', { class: 'empty', id: o.emptyId }, filtered ? o.noMatch : o.empty));
    $(o.into).dataset.page = String(list.newer.length + 1);
    if (o.pageNumber) $(o.pageNumber).textContent = list.newer.length || list.next ? `page ${list.newer.length + 1}` : '';
    $('older').hidden = !list.next;
    $('newer').hidden = !list.newer.length;
  }

  /** Shows the first page of the games the filters ask for, and keeps them in the address. */
  function search() {
    list.before = null;
    list.newer = [];
    const q = filters();
    history.replaceState(null, '', `${location.pathname}${q.toString() ? `?${q}` : ''}${location.hash}`);
    load();
  }

  const given = new URLSearchParams(location.search);
  for (const f of o.filters) if (given.get(f)) field(f).value = given.get(f);
  $(o.form).addEventListener('submit', (e) => {
    e.preventDefault();
    search();
  });
  for (const f of o.live) $(`filter-${f}`).addEventListener('change', search);
  $('older').addEventListener('click', () => {
    if (!list.next) return;
    list.newer.push(list.before);
    list.before = list.next;
    load();
  });
  $('newer').addEventListener('click', () => {
    if (!list.newer.length) return;
    list.before = list.newer.pop();
    load();
  });
  load();
}
