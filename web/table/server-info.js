// @ts-check
// What the page asks the server over HTTP: the variants (with their facts) and, while nobody
// here is seated or watching, the table's seat list.
//
// Owns: those two requests, their retries and polling. May not touch: the DOM or the
// connection (the socket's `table` messages are the truth once it is open).

import { t } from '../i18n/index.js';
import { errorText } from '../lobby.js';

/** @typedef {import('./state.js').Store} Store */

/** The variants list with its facts: loaded once, and again when a variant is missing from it. */
export class Variants {
  /** @param {Store} store */
  constructor(store) {
    this.store = store;
    /** @type {Promise<void> | null} */
    this.loading = null;
  }

  /** Resolves once the list is loaded, trying again every few seconds while it cannot be. */
  ready() {
    if (!this.loading) this.loading = this.fetchUntilLoaded();
    return this.loading;
  }

  /** Loads the list again (a table of a variant the list did not have). */
  reload() {
    this.loading = this.fetchUntilLoaded();
    return this.loading;
  }

  async fetchUntilLoaded() {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const res = await fetch('api/variants');
        if (res.ok) {
          this.store.set({ variants: await res.json() });
          return;
        }
      } catch {
        // Offline for a moment: try again.
      }
      await new Promise((r) => setTimeout(r, Math.min(10000, 1000 * 2 ** attempt)));
    }
  }
}

/** Polls `/api/tables/{id}` every few seconds while the page shows the join page. */
export class TablePoll {
  /** @param {Store} store */
  constructor(store) {
    this.store = store;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timer = undefined;
  }

  start() {
    clearInterval(this.timer);
    this.load();
    this.timer = setInterval(() => {
      if (this.store.state.role !== 'none') clearInterval(this.timer);
      else this.load();
    }, 3000);
  }

  stop() {
    clearInterval(this.timer);
  }

  async load() {
    const store = this.store;
    // Once seated or watching, the socket's `table` messages are the truth: an answer to a
    // request made before that is stale and must not overwrite them.
    const stale = () => store.state.role !== 'none';
    try {
      const res = await fetch(`api/tables/${encodeURIComponent(store.state.tableId)}`);
      if (stale()) return;
      if (!res.ok) {
        const message = res.status === 404 ? t('join.no_table') : await errorText(res);
        if (!stale()) store.set({ joinInfoError: message, table: null });
        return;
      }
      const info = await res.json();
      if (stale()) return;
      const error = store.state.joinInfoError === t('join.no_table') ? '' : store.state.joinInfoError;
      store.set({ table: info, joinInfoError: error });
    } catch {
      if (!stale()) store.set({ joinInfoError: t('join.unreachable') });
    }
  }
}
