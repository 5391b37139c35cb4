// @ts-check
// The seats panel before and between matches: who sits where, computer players for the host
// to add or remove, "Sit here" for someone watching, and the start button.
//
// Owns: that panel. May not touch: the state (clicks go through the actions).

import { h, replaceChildren } from '../dom.js';
import { isHost, isMe, occupantText, partnerships, seatLabel, STRATEGY_TEXT, TEAM_NAMES } from './names.js';
import { part } from './part.js';
import { inviteText, remoteName, remoteValue } from './remote-bots.js';
import { variantEntry } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./actions.js').Actions} Actions */

/** The label of a seat in this list: "Seat 2", or "East (East–West)". @param {TableState} s @param {number} seat */
function rowLabel(s, seat) {
  return partnerships(s) ? `${seatLabel(s, seat)} (${TEAM_NAMES[seat % 2]})` : seatLabel(s, seat);
}

/** A registered bot in the seat menu: its name, owner and rating when it has one. @param {any} bot */
function remoteLabel(bot) {
  const rating = typeof bot.rating === 'number' ? `, rating ${Math.round(bot.rating)}` : '';
  return `${bot.name} (by ${bot.owner}${rating})`;
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
  const builtIn = strategies.map((/** @type {string} */ st) => h('option', { value: st, selected: st === choice }, STRATEGY_TEXT[/** @type {keyof STRATEGY_TEXT} */ (st)] || st));
  const options = remote.length === 0 ? builtIn : [
    h('optgroup', { label: 'Computer players' }, builtIn),
    h('optgroup', { label: 'Bots online' }, remote.map((/** @type {any} */ b) =>
      h('option', { value: remoteValue(b.name), selected: remoteValue(b.name) === choice }, remoteLabel(b)))),
  ];
  const status = inviteText(s.invites?.[seat]);
  return h('span', { class: 'bot-controls' },
    h('label', { for: id, class: 'sr-only' }, `Computer player for ${label}`),
    h('select', { id, 'data-focus': `bot-select-${seat}`, onchange: (/** @type {any} */ e) => actions.chooseBot(seat, e.target.value) }, options),
    h('button', {
      type: 'button', class: inviting === null ? 'add-bot' : 'invite-bot', 'data-seat': seat, 'data-focus': `add-bot-${seat}`,
      onclick: () => (inviting === null ? actions.addBot(seat, choice) : actions.inviteBot(seat, inviting)),
    }, inviting === null ? 'Add computer player' : 'Invite bot'),
    status ? h('span', { class: 'hint invite-status', role: 'status' }, status) : null);
}

/** One line of the seat list. @param {TableState} s @param {Actions} actions @param {any} info a SeatInfo */
function seatRow(s, actions, info) {
  const label = rowLabel(s, info.seat);
  const host = isHost(s);
  const me = isMe(s, info.seat);
  let controls = null;
  if (host && info.occupant === 'empty') {
    controls = botControls(s, actions, info.seat, label);
  } else if (host && info.occupant === 'bot') {
    controls = h('button', { type: 'button', class: 'remove-bot', 'data-seat': info.seat, 'data-focus': `remove-bot-${info.seat}`, onclick: () => actions.removeBot(info.seat) }, 'Remove');
  } else if (s.role === 'spectator' && info.occupant === 'empty' && s.table.status !== 'finished') {
    // Someone watching can still sit down while a seat is free.
    controls = h('button', { type: 'button', class: 'primary', 'data-seat': info.seat, onclick: () => actions.sit(info.seat) }, 'Sit here');
  }
  return h('li', { class: `seat-row occ-${info.occupant}${me ? ' me' : ''}` },
    h('span', { class: 'seat-label' }, label),
    h('span', { class: 'seat-who' }, me ? `${info.name || 'You'} (you)` : occupantText(info),
      s.table.host === info.seat ? h('span', { class: 'badge host' }, 'host') : null),
    controls);
}

/** Start button for the host, or what everyone else waits for. @param {TableState} s @param {Actions} actions */
function footer(s, actions) {
  const full = s.table.seats.every((/** @type {any} */ x) => x.occupant !== 'empty');
  if (!isHost(s)) {
    return h('p', { class: 'hint', role: 'status' }, full ? 'Waiting for the host to start the match.' : 'Waiting for the seats to fill.');
  }
  return h('div', { class: 'row start-row' },
    h('button', { type: 'button', class: 'primary big', id: 'start-button', 'data-focus': 'start-button', disabled: !full, onclick: () => actions.startMatch() },
      s.table.status === 'finished' ? 'Play again' : 'Start the match'),
    full ? null : h('span', { class: 'hint' }, 'Fill every seat (invite people or add computer players) to start.'));
}

/** The seats panel. @param {Actions} actions */
export function seatsPart(actions) {
  const el = h('section', { class: 'panel seats-panel', 'aria-labelledby': 'seats-title' });
  return part(el, (s) => [s.table, s.role, s.seat, s.hostFlag, s.botChoice, s.error, s.variants, s.remoteBots, s.invites],
    (_, s) => {
      if (!s.table) {
        el.className = 'panel';
        el.removeAttribute('aria-labelledby');
        replaceChildren(el, h('p', { class: 'hint' }, 'Loading the table…'));
        return;
      }
      el.className = 'panel seats-panel';
      el.setAttribute('aria-labelledby', 'seats-title');
      replaceChildren(el,
        h('h2', { id: 'seats-title' }, 'Seats'),
        h('ul', { class: 'seat-list' }, s.table.seats.map((/** @type {any} */ info) => seatRow(s, actions, info))),
        footer(s, actions),
        s.error ? h('p', { class: 'error', role: 'alert' }, s.error) : null,
        s.role === 'player' ? h('button', { type: 'button', class: 'link', onclick: () => actions.leave() }, 'Leave this table') : null);
    });
}
