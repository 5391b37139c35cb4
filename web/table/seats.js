// @ts-check
// The seats panel before and between matches: who sits where, computer players for the host
// to add or remove, "Sit here" for someone watching, and the start button.
//
// Owns: that panel. May not touch: the state (clicks go through the actions).

import { h, replaceChildren } from '../dom.js';
import { t } from '../i18n/index.js';
import { isHost, isMe, occupantText, partnerships, seatLabel, strategyText, teamLabel } from './names.js';
import { part } from './part.js';
import { inviteText, remoteName, remoteValue } from './remote-bots.js';
import { variantEntry } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./state.js').TableInfo} TableInfo */
/** @typedef {import('./actions.js').Actions} Actions */

/** The label of a seat in this list: "Seat 2", or "East (East–West)". @param {TableState} s @param {number} seat */
function rowLabel(s, seat) {
  return partnerships(s) ? t('seats.row_team', { seat: seatLabel(s, seat), team: teamLabel(seat) }) : seatLabel(s, seat);
}

/** A registered bot in the seat menu: its name, owner and rating when it has one. @param {any} bot */
function remoteLabel(bot) {
  return typeof bot.rating === 'number' ? t('seats.remote_rated', { name: bot.name, owner: bot.owner, rating: Math.round(bot.rating) })
    : t('seats.remote', { name: bot.name, owner: bot.owner });
}

/** The host's choice of strength (or a registered bot online) and button for an empty seat. @param {TableState} s @param {Actions} actions @param {number} seat @param {string} label */
function botControls(s, actions, seat, label) {
  const strategies = variantEntry(s)?.strategies || ['random', 'heuristic', 'strong'];
  const remote = (s.remoteBots || []).filter((/** @type {any} */ b) => b.free > 0);
  const fallback = strategies.includes('heuristic') ? 'heuristic' : strategies[0];
  let choice = s.botChoice[seat] || fallback;
  const chosenRemote = remoteName(choice);
  if (chosenRemote !== null && !remote.some((/** @type {any} */ b) => b.name === chosenRemote)) choice = fallback;
  const inviting = remoteName(choice);
  const id = `bot-${seat}`;
  const builtIn = strategies.map((/** @type {string} */ st) => h('option', { value: st, selected: st === choice }, strategyText(st)));
  const options = remote.length === 0 ? builtIn : [
    h('optgroup', { label: t('seats.computers') }, builtIn),
    h('optgroup', { label: t('seats.bots_online') }, remote.map((/** @type {any} */ b) =>
      h('option', { value: remoteValue(b.name), selected: remoteValue(b.name) === choice }, remoteLabel(b)))),
  ];
  const status = inviteText(s.invites?.[seat]);
  return h('span', { class: 'bot-controls' },
    h('label', { for: id, class: 'sr-only' }, t('seats.computer_for', { seat: label })),
    h('select', { id, 'data-focus': `bot-select-${seat}`, onchange: (/** @type {any} */ e) => actions.chooseBot(seat, e.target.value) }, options),
    h('button', {
      type: 'button', class: inviting === null ? 'add-bot' : 'invite-bot', 'data-seat': seat, 'data-focus': `add-bot-${seat}`,
      onclick: () => (inviting === null ? actions.addBot(seat, choice) : actions.inviteBot(seat, inviting)),
    }, inviting === null ? t('seats.add_bot') : t('seats.invite_bot')),
    status ? h('span', { class: 'hint invite-status', role: 'status' }, status) : null);
}

/** One line of the seat list. @param {TableState} s @param {Actions} actions @param {any} info a SeatInfo */
function seatRow(s, actions, info) {
  const table = /** @type {TableInfo} */ (s.table);
  const label = rowLabel(s, info.seat);
  const host = isHost(s);
  const me = isMe(s, info.seat);
  let controls = null;
  if (host && info.occupant === 'empty') {
    controls = botControls(s, actions, info.seat, label);
  } else if (host && info.occupant === 'bot') {
    controls = h('button', { type: 'button', class: 'remove-bot', 'data-seat': info.seat, 'data-focus': `remove-bot-${info.seat}`, onclick: () => actions.removeBot(info.seat) }, t('seats.remove'));
  } else if (s.role === 'spectator' && info.occupant === 'empty' && table.status !== 'finished') {
    // Someone watching can still sit down while a seat is free.
    controls = h('button', { type: 'button', class: 'primary', 'data-seat': info.seat, onclick: () => actions.sit(info.seat) }, t('seats.sit'));
  }
  return h('li', { class: `seat-row occ-${info.occupant}${me ? ' me' : ''}` },
    h('span', { class: 'seat-label' }, label),
    h('span', { class: 'seat-who' }, me ? t('seat.you_named', { name: info.name || t('seat.you') }) : occupantText(info),
      table.host === info.seat ? h('span', { class: 'badge host' }, t('badge.host')) : null),
    controls);
}

/** Start button for the host, or what everyone else waits for. @param {TableState} s @param {Actions} actions */
function footer(s, actions) {
  const table = /** @type {TableInfo} */ (s.table);
  const full = table.seats.every((/** @type {any} */ x) => x.occupant !== 'empty');
  if (!isHost(s)) {
    return h('p', { class: 'hint', role: 'status' }, full ? t('seats.wait_host') : t('seats.wait_fill'));
  }
  return h('div', { class: 'row start-row' },
    h('button', { type: 'button', class: 'primary big', id: 'start-button', 'data-focus': 'start-button', disabled: !full, onclick: () => actions.startMatch() },
      table.status === 'finished' ? t('seats.play_again') : t('seats.start')),
    full ? null : h('span', { class: 'hint' }, t('seats.fill_hint')));
}

/** The seats panel. @param {Actions} actions */
export function seatsPart(actions) {
  const el = h('section', { class: 'panel seats-panel', 'aria-labelledby': 'seats-title' });
  return part(el, (s) => [s.table, s.role, s.seat, s.hostFlag, s.botChoice, s.error, s.variants, s.remoteBots, s.invites],
    (_, s) => {
      if (!s.table) {
        el.className = 'panel';
        el.removeAttribute('aria-labelledby');
        replaceChildren(el, h('p', { class: 'hint' }, t('seats.loading')));
        return;
      }
      el.className = 'panel seats-panel';
      el.setAttribute('aria-labelledby', 'seats-title');
      replaceChildren(el,
        h('h2', { id: 'seats-title' }, t('seats.title')),
        h('ul', { class: 'seat-list' }, s.table.seats.map((/** @type {any} */ info) => seatRow(s, actions, info))),
        footer(s, actions),
        s.error ? h('p', { class: 'error', role: 'alert' }, s.error) : null,
        s.role === 'player' ? h('button', { type: 'button', class: 'link', onclick: () => actions.leave() }, t('seats.leave')) : null);
    });
}
