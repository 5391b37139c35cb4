// @ts-check
// Registered bots the host can invite: the list of those online for this table's variant
// (`GET /api/bots`), polled while the host has an empty seat to fill, and how each seat's
// invitation stands ("invited…", "declined", "no answer").
//
// Owns: that list and the invitation states in the store, and their words. May not touch: the
// DOM (the seats panel draws them) or the connection (the actions send `invite_bot`).

import { t } from '../i18n/index.js';
import { isHost } from './names.js';

/** @typedef {import('./state.js').Store} Store */
/** @typedef {import('./state.js').TableState} TableState */

/** How often the list is read again while it is shown, in milliseconds. */
const POLL_MS = 5000;

/** The option value of a registered bot in the seat menu. @param {string} name */
export function remoteValue(name) {
  return `remote:${name}`;
}

/** The registered bot an option value names, or null for a built-in strategy. @param {string} value */
export function remoteName(value) {
  return value.startsWith('remote:') ? value.slice('remote:'.length) : null;
}

/** An invitation's state in words, or null when there is nothing to say. @param {{ bot: string, status: string } | undefined} invite */
export function inviteText(invite) {
  if (!invite) return null;
  switch (invite.status) {
    case 'sent':
    case 'declined':
    case 'expired':
    case 'cancelled':
      return t(`invite.${invite.status}`, { bot: invite.bot });
    default: return null;
  }
}

/** Whether the list is wanted now: the viewer hosts, between matches, with an empty seat. @param {TableState} s */
function wanted(s) {
  return isHost(s) && !!s.table && s.table.status !== 'playing'
    && s.table.seats.some((/** @type {any} */ x) => x.occupant === 'empty');
}

/**
 * A store listener that keeps `remoteBots` fresh while it is wanted.
 * @param {Store} store
 */
export function remoteBotPoll(store) {
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer;
  let last = '';
  const load = async () => {
    const variant = store.state.table?.variant;
    if (!variant) return;
    try {
      const res = await fetch(`api/bots?variant=${encodeURIComponent(variant)}`);
      if (!res.ok) return;
      const bots = await res.json();
      const text = JSON.stringify(bots);
      // Only a real change redraws the seats (and keeps an open menu open otherwise).
      if (text !== last) {
        last = text;
        store.set({ remoteBots: bots });
      }
    } catch {
      // Offline for a moment: the next round tries again.
    }
  };
  return (/** @type {TableState} */ s) => {
    const want = wanted(s);
    if (want && timer === undefined) {
      load();
      timer = setInterval(load, POLL_MS);
    } else if (!want && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}
