// @ts-check
// The seats panel before and between matches: who sits where, computer players for the host
// to add or remove, "Sit here" for someone watching, and the start button.
//
// Owns: that panel. May not touch: the state (clicks go through the actions).

import { h, replaceChildren } from '../dom.js';
import { isHost, isMe, occupantText, partnerships, seatLabel, STRATEGY_TEXT, TEAM_NAMES } from './names.js';
import { part } from './part.js';
import { variantEntry } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./actions.js').Actions} Actions */

/** The label of a seat in this list: "Seat 2", or "East (East–West)". @param {TableState} s @param {number} seat */
function rowLabel(s, seat) {
  return partnerships(s) ? `${seatLabel(s, seat)} (${TEAM_NAMES[seat % 2]})` : seatLabel(s, seat);
}

/** The host's choice of strength and button for an empty seat. @param {TableState} s @param {Actions} actions @param {number} seat @param {string} label */
function botControls(s, actions, seat, label) {
  const strategies = variantEntry(s)?.strategies || ['random', 'heuristic', 'strong'];
  const choice = s.botChoice[seat] || (strategies.includes('heuristic') ? 'heuristic' : strategies[0]);
  const id = `bot-${seat}`;
  return h('span', { class: 'bot-controls' },
    h('label', { for: id, class: 'sr-only' }, `Computer strength for ${label}`),
    h('select', { id, 'data-focus': `bot-select-${seat}`, onchange: (/** @type {any} */ e) => actions.chooseBot(seat, e.target.value) },
      strategies.map((/** @type {string} */ st) => h('option', { value: st, selected: st === choice }, STRATEGY_TEXT[/** @type {keyof STRATEGY_TEXT} */ (st)] || st))),
    h('button', {
      type: 'button', class: 'add-bot', 'data-seat': seat, 'data-focus': `add-bot-${seat}`,
      onclick: () => actions.addBot(seat, s.botChoice[seat] || choice),
    }, 'Add computer player'));
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
  return part(el, (s) => [s.table, s.role, s.seat, s.hostFlag, s.botChoice, s.error, s.variants],
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
