// @ts-check
// Bridge's play: dummy's cards face up at dummy's seat once the opening lead is made (declarer
// plays them by click, tap or keys when the prompt asks for dummy's cards), the note dummy's
// own player sees, declarer's claim (how many of the tricks left) and the defenders' answer
// to it, with declarer's cards faced.
//
// Owns: the markup of dummy's cards, of the claim control and of the claim's answer. May not
// touch: the state (clicks and keys go through the actions).

import { cardClasses, cardLabel, cardName, HAND_SUIT_ORDER, rankLabel, sortHand, SUIT_SYMBOLS, suitName, suitOf } from '../cards.js';
import { h } from '../dom.js';
import { t } from '../i18n/index.js';
import { dealtSize } from '../view-model.js';
import { seatName } from './names.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('./actions.js').Actions} Actions */

/** Whether the viewer is declarer and the prompt asks for one of dummy's cards. @param {TableState} s @param {PlayerView} v */
export function playsDummy(s, v) {
  const dummy = v.bridge?.dummy;
  const legal = v.legal;
  if (!dummy || s.role !== 'player' || dummy.seat === s.seat || legal.type !== 'play' || !legal.cards.length) return false;
  return legal.cards.every((c) => dummy.cards.includes(c));
}

/** Whether the viewer is the declarer of the contract being played. @param {TableState} s @param {PlayerView} v */
export function isDeclarer(s, v) {
  const contract = v.bridge?.contract;
  return Boolean(contract) && s.role === 'player' && s.seat === contract?.declarer;
}

/** Tricks still to be played this hand. @param {PlayerView} v */
export function tricksLeft(v) {
  return Math.max(0, dealtSize(v) - v.tricks.length);
}

/** Arrow keys move along dummy's cards. @param {KeyboardEvent} e */
function dummyKeys(e) {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const all = [...document.querySelectorAll('.dummy-cards .dummy-card')];
  const i = all.indexOf(/** @type {Element} */ (e.target));
  const next = /** @type {HTMLElement | undefined} */ (all[i + (e.key === 'ArrowRight' ? 1 : -1)]);
  if (next) {
    next.focus();
    e.preventDefault();
  }
}

/**
 * Cards grouped by suit, a suit a line: its symbol, then each card. `card` draws one card.
 * @param {string[]} cards @param {(card: string) => HTMLElement} card
 */
function bySuit(cards, card) {
  const sorted = sortHand(cards);
  return HAND_SUIT_ORDER.filter((suit) => sorted.some((c) => suitOf(c) === suit)).map((suit) => h('div', { class: `dummy-suit suit-${suit}`, 'data-suit': suit },
    h('span', { class: 'dummy-pip', 'aria-hidden': 'true' }, SUIT_SYMBOLS[suit]),
    h('span', { class: 'sr-only' }, `${suitName(suit)}:`),
    sorted.filter((c) => suitOf(c) === suit).map(card)));
}

/** A faced card too small to be a card face: its rank, in its suit's colour. @param {string} card */
function shownCard(card) {
  return h('span', { class: `dummy-card shown ${cardClasses(card).join(' ')}`, 'data-card': card, title: cardName(card) },
    h('span', { 'aria-hidden': 'true' }, rankLabel(card), h('span', { class: 'card-pip' }, SUIT_SYMBOLS[suitOf(card)])), h('span', { class: 'sr-only' }, cardName(card)));
}

/**
 * Dummy's cards at dummy's plate, for everyone but dummy's own player (who holds them below):
 * buttons for declarer, playable when the prompt asks for dummy's cards; faced ranks for the
 * others.
 * @param {TableState} s @param {PlayerView} v @param {number} seat @param {Actions | undefined} actions
 */
export function dummyCards(s, v, seat, actions) {
  const dummy = v.bridge?.dummy;
  if (!dummy || dummy.seat !== seat || (s.role === 'player' && s.seat === seat)) return null;
  const declarer = isDeclarer(s, v) && actions;
  const playable = playsDummy(s, v) ? new Set(v.legal.type === 'play' ? v.legal.cards : []) : null;
  const card = (/** @type {string} */ c) => {
    if (!declarer) return shownCard(c);
    const legal = playable?.has(c) ?? false;
    return h('button', {
      type: 'button',
      class: `dummy-card ${cardClasses(c).join(' ')}${playable ? (legal ? ' legal' : ' dimmed') : ''}`,
      'data-card': c, 'data-focus': `dummy-${c}`, title: cardName(c), 'aria-label': cardLabel(c),
      'aria-disabled': playable && legal ? null : 'true',
      onclick: () => actions.clickDummyCard(c),
      onkeydown: dummyKeys,
    }, h('span', { 'aria-hidden': 'true' }, rankLabel(c), h('span', { class: 'card-pip' }, SUIT_SYMBOLS[suitOf(c)])));
  };
  return h('div', { class: `dummy-cards${playable ? ' active' : ''}`, id: 'dummy-cards', role: 'group', 'aria-label': t('bridge.dummy_label', { name: seatName(s, seat) }) },
    bySuit(dummy.cards, card));
}

/** Moves the focus to dummy's first playable card. */
export function focusDummy() {
  /** @type {HTMLElement | null} */ (document.querySelector('.dummy-cards .dummy-card.legal'))?.focus({ preventScroll: true });
}

/** The line dummy's own player reads under their hand: declarer plays their cards. @param {TableState} s @param {PlayerView} v */
export function dummyNote(s, v) {
  const contract = v.bridge?.contract;
  if (!contract || s.role !== 'player' || s.seat !== (contract.declarer + 2) % v.players || v.phase !== 'playing') return null;
  return h('p', { class: 'dummy-note', id: 'dummy-note' }, t('bridge.you_are_dummy', { name: seatName(s, contract.declarer) }));
}

/**
 * Declarer's claim control during play, on declarer's or dummy's turn: "Claim…", then how many
 * of the tricks left (all of them unless changed) and "Claim".
 * @param {TableState} s @param {PlayerView} v @param {Actions} actions
 */
export function claimControl(s, v, actions) {
  if (!isDeclarer(s, v) || v.legal.type !== 'play' || v.bridge?.claim) return null;
  const left = tricksLeft(v);
  if (left === 0) return null;
  if (!s.claimOpen) {
    return h('button', { type: 'button', id: 'claim-button', 'data-focus': 'claim-button', onclick: () => actions.openClaim(true) }, t('bridge.claim_button'));
  }
  const select = /** @type {HTMLSelectElement} */ (h('select', { id: 'claim-tricks', 'data-focus': 'claim-tricks' },
    Array.from({ length: left + 1 }, (_, n) => h('option', { value: n, selected: n === left }, String(n)))));
  return h('form', {
    class: 'claim-form', id: 'claim-form', 'aria-label': t('bridge.claim_label'),
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      actions.claim(Number(select.value));
    },
  },
  h('label', { for: 'claim-tricks' }, t('bridge.claim_how_many', { count: left })), select,
  h('button', { type: 'submit', class: 'primary', id: 'claim-send', 'data-focus': 'claim-send' }, t('bridge.claim_send')),
  h('button', { type: 'button', id: 'claim-cancel', 'data-focus': 'claim-cancel', onclick: () => actions.openClaim(false) }, t('bridge.cancel')));
}

/** "Ada claims 3 of the 5 tricks left" (declarer reads "You claim…"). @param {TableState} s @param {PlayerView} v */
function claimWords(s, v) {
  const claim = v.bridge?.claim;
  if (!claim) return '';
  const args = { name: seatName(s, claim.seat), count: claim.tricks, left: tricksLeft(v) };
  return isDeclarer(s, v) ? t('bridge.you_claim', args) : t('bridge.claims', args);
}

/** "Accepted by Dido." once a defender has, else that the defenders are answering. @param {TableState} s @param {{ accepted: number[] }} claim */
function claimAnswers(s, claim) {
  const accepted = claim.accepted.map((seat) => seatName(s, seat));
  return accepted.length ? t('bridge.accepted_by', { names: accepted.join(', ') }) : t('bridge.claim_waiting');
}

/** Declarer's faced cards with a claim, a suit a line. @param {string[]} cards @param {string} id */
function facedCards(cards, id) {
  return h('div', { class: 'dummy-cards faced', id, role: 'group', 'aria-label': t('bridge.claim_cards') }, bySuit(cards, shownCard));
}

/**
 * A defender's answer to a claim (an `answer_claim` prompt): the claim, who accepted it, and
 * declarer's cards under the hand; Accept and Reject are in the row of buttons under it
 * (`claimAnswerButtons`), so that on a phone the answer and the hint share one row.
 * @param {TableState} s @param {PlayerView} v
 */
export function claimAnswerBox(s, v) {
  const legal = /** @type {any} */ (v.legal);
  const claim = v.bridge?.claim;
  if (legal.type !== 'answer_claim' || !claim) return null;
  return h('div', { class: 'bid-box claim-box', id: 'claim-box', role: 'group', 'aria-label': t('bridge.answer_label') },
    h('p', { class: 'claim-line' },
      h('span', { class: 'claim-text', id: 'claim-text' }, claimWords(s, v)),
      claim.accepted.length ? [' ', h('span', { class: 'claim-answers', id: 'claim-answers' }, claimAnswers(s, claim))] : null),
    facedCards(claim.cards, 'claim-cards'));
}

/** Accept and Reject, for the row under the hand while a claim is to be answered. @param {PlayerView} v @param {Actions} actions */
export function claimAnswerButtons(v, actions) {
  if (/** @type {any} */ (v.legal).type !== 'answer_claim' || !v.bridge?.claim) return [];
  return [
    h('button', { type: 'button', class: 'primary claim-answer', id: 'claim-accept', 'data-focus': 'claim-accept', onclick: () => actions.answerClaim(true) }, t('bridge.accept')),
    h('button', { type: 'button', class: 'claim-answer', id: 'claim-reject', 'data-focus': 'claim-reject', onclick: () => actions.answerClaim(false) }, t('bridge.reject')),
  ];
}

/**
 * The pending claim in the middle of the table: who claims what, who accepted, and declarer's
 * faced cards, for those who see them nowhere else. Declarer reads the claim under the hand,
 * where it was made (`claimStatus`), and the defender asked reads all of it in the answer box
 * there: the middle keeps its room for the trick, which a phone has little of.
 * @param {TableState} s @param {PlayerView} v
 */
export function claimNote(s, v) {
  const claim = v.bridge?.claim;
  if (!claim || /** @type {any} */ (v.legal).type === 'answer_claim' || isDeclarer(s, v)) return null;
  return h('div', { class: 'claim-note', id: 'claim-note' },
    h('p', { class: 'trick-caption' }, claimWords(s, v), ' ', claimAnswers(s, claim)),
    facedCards(claim.cards, 'claim-note-cards'));
}

/** Declarer's pending claim under the hand, in place of the claim form: "You claim 13 of the 13 tricks left." @param {TableState} s @param {PlayerView} v */
export function claimStatus(s, v) {
  const claim = v.bridge?.claim;
  if (!claim || !isDeclarer(s, v)) return null;
  return h('p', { class: 'claim-status', id: 'claim-note' }, claimWords(s, v), ' ', claimAnswers(s, claim));
}
