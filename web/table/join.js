// @ts-check
// The pages shown before you are at the table: the invite page (your name, the seats with
// "Sit here", "Just watch") and the page that says your seat is open in another window.
//
// Owns: those two pages. The name box is one element for the page's lifetime: the page is
// drawn again when the seats arrive and on every poll, and a new box would lose what was typed
// so far (and the keyboard focus) before "Sit here" reads it. May not touch: the state.

import { h, replaceChildren } from '../dom.js';
import { languageSwitch, t } from '../i18n/index.js';
import { variantTitle } from '../lobby.js';
import { loadName, saveName } from '../store.js';
import { occupantText, seatLabel } from './names.js';
import { part } from './part.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./state.js').TableInfo} TableInfo */
/** @typedef {import('./actions.js').Actions} Actions */
/** @typedef {import('./part.js').Part<TableState>} Part */

/** The seats with "Sit here" on the empty ones. @param {TableState} s @param {Actions} actions @param {HTMLInputElement} nameInput */
function seatList(s, actions, nameInput) {
  // Drawn once the table's seats are known.
  const table = /** @type {TableInfo} */ (s.table);
  return h('ul', { class: 'seat-list' }, table.seats.map((/** @type {any} */ info) => h('li', { class: 'seat-row' },
    h('span', { class: 'seat-label' }, seatLabel(s, info.seat)),
    h('span', { class: 'seat-who' }, occupantText(info)),
    info.occupant === 'empty' && table.status !== 'finished'
      ? h('button', { type: 'button', class: 'primary', 'data-seat': info.seat, onclick: () => { saveName(nameInput.value); actions.sit(info.seat); } }, t('seats.sit'))
      : null)));
}

/** The invite page. @param {Actions} actions @returns {Part} */
export function joinPart(actions) {
  const nameInput = /** @type {HTMLInputElement} */ (h('input', {
    id: 'join-name', value: loadName(), maxlength: 32, autocomplete: 'nickname', placeholder: t('lobby.name_placeholder'),
    onchange: (/** @type {any} */ e) => { saveName(e.target.value); },
  }));
  return part(h('div', { class: 'join-page' }), (s) => [s.table, s.role, s.joinInfoError, s.variants], (el, s) => {
    const table = s.table;
    // Drawing again moves the name box, which takes the focus from it: give it back to
    // someone typing there.
    const typing = document.activeElement === nameInput;
    replaceChildren(el, h('section', { class: 'panel' },
      h('h2', {}, table ? t('join.title', { game: variantTitle(table.variant) }) : t('join.joining')),
      s.role === 'joining' ? h('p', { class: 'hint', role: 'status' }, t('join.connecting')) : null,
      s.role === 'none' ? [
        h('div', { class: 'option' }, h('label', { for: 'join-name' }, t('lobby.name_label')), nameInput),
        table ? seatList(s, actions, nameInput) : null,
        h('div', { class: 'row' },
          h('button', { type: 'button', id: 'watch-button', onclick: () => actions.watch() }, t('join.watch')),
          h('a', { class: 'button link', href: './' }, t('join.back')),
          h('label', { class: 'language', for: 'language' }, t('lang.switch'), languageSwitch())),
      ] : null,
      s.joinInfoError ? h('p', { class: 'error', role: 'alert' }, s.joinInfoError) : null));
    if (typing && nameInput.isConnected) nameInput.focus();
  });
}

/** The page shown when another window took the seat. @param {Actions} actions */
export function elsewherePage(actions) {
  return h('div', { class: 'join-page' }, h('section', { class: 'panel', role: 'alert' },
    h('h2', {}, t('join.elsewhere')),
    h('p', {}, t('join.elsewhere_text')),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', id: 'play-here', onclick: () => actions.playHere() }, t('join.use_here')),
      h('a', { class: 'button link', href: './' }, t('join.back')))));
}
