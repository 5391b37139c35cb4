// @ts-check
// The invite link box: the table's address, a copy button and a line of help, and a warning
// when the address names this computer only (no one else's phone can open it).
//
// Owns: that box's markup. May not touch: the state (copying goes through the actions).

import { t, tParts } from '../i18n/index.js';
import { h } from '../dom.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./actions.js').Actions} Actions */

/** The address people open to join this table. @param {string} tableId */
export function inviteUrl(tableId) {
  return new URL(`t/${encodeURIComponent(tableId)}`, document.baseURI).href;
}

/**
 * Whether `url` names this computer only (`localhost`, `127.x.x.x`, `[::1]`): a link that
 * opens nothing on anyone else's phone or computer.
 * @param {string} url
 */
export function onlyThisComputer(url) {
  let host;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost')
    || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
    || host === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

/**
 * The same server at an example home-network address (its port kept), for the warning.
 * @param {string} url
 */
export function homeNetworkExample(url) {
  const u = new URL(url);
  return `${u.protocol}//192.168.1.20${u.port ? `:${u.port}` : ''}`;
}

/** The invite box. @param {TableState} s @param {Actions} actions */
export function inviteBox(s, actions) {
  const url = inviteUrl(s.tableId);
  const local = onlyThisComputer(url);
  return h('div', { class: 'invite' },
    h('label', { for: 'invite-link' }, t('invite.link')),
    h('div', { class: 'row' },
      h('input', {
        id: 'invite-link', readonly: true, value: url, 'aria-describedby': local ? 'invite-local' : null,
        onfocus: (/** @type {any} */ e) => e.target.select(),
      }),
      h('button', { type: 'button', id: 'copy-invite', 'data-focus': 'copy-invite', onclick: () => actions.copyInvite(url) },
        s.copied ? t('invite.copied') : t('invite.copy'))),
    h('p', { class: 'hint' }, t('invite.send')),
    local ? h('p', { class: 'invite-local', id: 'invite-local', role: 'note' },
      h('strong', {}, t('invite.local')), ' ',
      tParts('invite.local_how', {
        addr: h('code', {}, '--addr 0.0.0.0:8080'),
        docker: h('code', {}, 'PARLOR_BIND=0.0.0.0 docker compose up -d'),
        example: h('code', {}, homeNetworkExample(url)),
      })) : null);
}
