// @ts-check
// The invite link box: the table's address, a copy button and a line of help.
//
// Owns: that box's markup. May not touch: the state (copying goes through the actions).

import { h } from '../dom.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./actions.js').Actions} Actions */

/** The address people open to join this table. @param {string} tableId */
export function inviteUrl(tableId) {
  return new URL(`t/${encodeURIComponent(tableId)}`, document.baseURI).href;
}

/** The invite box. @param {TableState} s @param {Actions} actions */
export function inviteBox(s, actions) {
  const url = inviteUrl(s.tableId);
  return h('div', { class: 'invite' },
    h('label', { for: 'invite-link' }, 'Invite link'),
    h('div', { class: 'row' },
      h('input', { id: 'invite-link', readonly: true, value: url, onfocus: (/** @type {any} */ e) => e.target.select() }),
      h('button', { type: 'button', id: 'copy-invite', 'data-focus': 'copy-invite', onclick: () => actions.copyInvite(url) },
        s.copied ? 'Copied!' : 'Copy link')),
    h('p', { class: 'hint' }, 'Send this link to the people you want to play with.'));
}
