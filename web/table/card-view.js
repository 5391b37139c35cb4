// @ts-check
// How a card looks: its corner, its big pip, its spoken name.
//
// Owns: the markup of a card face. May not touch: anything else.

import { cardClasses, cardName, pipOf, rankLabel } from '../cards.js';
import { h } from '../dom.js';

/** The inside of a card: rank and pip in the corner, a big pip in the middle (a joker: its
 * letters and a star). @param {string} card */
export function cardFace(card) {
  const symbol = pipOf(card);
  return [
    h('span', { class: 'corner', 'aria-hidden': 'true' }, h('span', { class: 'rank' }, rankLabel(card)), h('span', { class: 'pip' }, symbol)),
    h('span', { class: 'big-pip', 'aria-hidden': 'true' }, symbol),
  ];
}

/** A card that is only shown (on the table), named for screen readers by `label`. @param {string} card @param {string} label */
export function staticCard(card, label) {
  return h('div', { class: `card static ${cardClasses(card).join(' ')} `, role: 'img', 'aria-label': label, title: cardName(card) }, cardFace(card));
}
