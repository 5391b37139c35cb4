// @ts-check
// Finished hands to download from the score sheet: the server's list of stored hands, asked for
// each time the sheet gains a line, and the link for a line.
//
// Owns: `/api/tables/{id}/hands` and matching its entries to score sheet lines. May not touch:
// the view or the connection.

import { t } from '../i18n/index.js';
import { h } from '../dom.js';

/** @typedef {import('./state.js').Store} Store */
/** @typedef {import('./state.js').TableState} TableState */

/** Keeps `hands` in the state current with the score sheet. */
export class Downloads {
  /** @param {Store} store */
  constructor(store) {
    this.store = store;
    store.subscribe((s) => this.refresh(s));
  }

  /** Asks for the table's finished hands once the score sheet gains a line. @param {TableState} s */
  refresh(s) {
    const last = s.view?.history[s.view.history.length - 1];
    if (s.handsOff || !last || !s.view || (s.role !== 'player' && s.role !== 'spectator')) return;
    const key = `${s.view.history.length}:${last.hand}:${last.totals.join(',')}`;
    if (key === s.handsKey) return;
    this.store.set({ handsKey: key });
    this.load(key, 0);
  }

  /** @param {string} key @param {number} attempt */
  async load(key, attempt) {
    const s = this.store.state;
    let list = null;
    try {
      const res = await fetch(`api/tables/${encodeURIComponent(s.tableId)}/hands`);
      if (res.ok) {
        list = await res.json();
      } else {
        const body = await res.json().catch(() => ({}));
        // A server started with --no-store keeps no hands: the feature just is not there.
        if (body.code === 'no_storage') this.store.set({ handsOff: true });
      }
    } catch {
      // Offline for a moment: the next line of the score sheet asks again.
    }
    if (key !== this.store.state.handsKey || !Array.isArray(list)) return;
    this.store.set({ hands: list });
    const view = this.store.state.view;
    const last = view?.history[view.history.length - 1];
    // The log is written before its events are sent, so this is rare; ask again a bit later.
    if (last && !storedHand(this.store.state, last) && attempt < 3) setTimeout(() => this.load(key, attempt + 1), 1000);
  }
}

/**
 * The server's entry for a line of the score sheet: a hand of the latest match, same totals.
 * @param {TableState} s @param {any} row
 */
export function storedHand(s, row) {
  const list = s.hands || [];
  const latest = list[list.length - 1];
  if (!latest) return null;
  return list.find((e) => e.match_no === latest.match_no && e.hand === row.hand
    && e.totals.join(',') === row.totals.join(',')) || null;
}

/**
 * The download link of a score sheet line, or null while the server has not stored it.
 * @param {TableState} s @param {any} row @param {string} where which sheet ("side", "in-dialog")
 */
export function downloadLink(s, row, where) {
  const stored = storedHand(s, row);
  if (!stored) return null;
  const url = stored.url.replace(/^\//, '');
  const json = h('a', {
    class: 'download', href: url, download: `parlor-${s.tableId}-hand-${stored.number + 1}.json`,
    'data-hand': row.hand, 'data-focus': `download-${where}-${row.hand}`,
    title: t('downloads.title'),
  }, h('span', { class: 'sr-only' }, `${t('downloads.download')} `), t('head.hand', { n: row.hand + 1 }));
  if ((s.view?.variant || s.table?.variant) !== 'bridge') return json;
  // A Bridge board also downloads in Portable Bridge Notation, for other bridge programs.
  const pbn = h('a', {
    class: 'download pbn', href: `${url}/pbn`, download: `parlor-${s.tableId}-board-${stored.number}.pbn`,
    'data-hand': row.hand, 'data-focus': `download-pbn-${where}-${row.hand}`,
    title: t('downloads.pbn_title'),
  }, h('span', { class: 'sr-only' }, `${t('downloads.download')} ${t('head.hand', { n: row.hand + 1 })} `), t('downloads.pbn'));
  return h('span', { class: 'download-pair' }, json, ' ', pbn);
}

/** Whether each sheet's downloads are unfolded, kept across redraws. @type {Map<string, boolean>} */
const unfolded = new Map();

/**
 * The finished hands to download, folded away under the score sheet (few people want them:
 * they are for replays and for writing bots), or null when there are none yet.
 * @param {TableState} s @param {any[]} rows the score sheet's lines @param {string} where
 */
export function downloadsBox(s, rows, where) {
  const links = rows.map((r) => downloadLink(s, r, where)).filter((a) => a);
  if (!links.length) return null;
  const box = h('details', {
    class: 'downloads', open: unfolded.get(where) || null,
    ontoggle: (/** @type {any} */ e) => unfolded.set(where, e.target.open),
  },
  h('summary', { 'data-focus': `downloads-${where}` }, t('downloads.summary')),
  h('p', { class: 'hint' }, t('downloads.hint')),
  h('div', { class: 'download-list' }, links));
  return box;
}
