// @ts-check
// Bidding: the bid box on a `bid` prompt (a button per number from the prompt's `min` to its
// `max`, the one the dealer may not bid marked and explained), the choice on a `blind` prompt
// ("Blind nil" or "See my cards", while the hand is face down), and how a bid reads on the
// plates and the score sheet ("2/3": tricks taken of the bid; "Nil"; "Blind nil").
//
// Owns: the bid box's markup and keys, and the words of bids. What may be bid comes from the
// prompt alone; whether 0 is nil comes from the table's `nil` option. May not touch: the state
// (clicks and keys go through the actions).

import { h } from '../dom.js';
import { t } from '../i18n/index.js';
import { isBlindNil, isNil } from '../view-model.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('./actions.js').Actions} Actions */

/** A bid in words: "3", or "Nil". @param {PlayerView} v @param {number} bid */
export function bidText(v, bid) {
  return isNil(v, bid) ? t('bid.nil') : String(bid);
}

/**
 * Why the prompt does not allow `tricks` (a sentence), or "" when it does.
 * @param {PlayerView} v @param {number} tricks
 */
export function bidRefusal(v, tricks) {
  const legal = v.legal;
  if (legal.type !== 'bid') return t('bid.not_your_turn');
  if (tricks === legal.forbidden) return forbiddenText(v);
  if (tricks < legal.min || tricks > legal.max) return t('bid.range', { min: bidText(v, legal.min), max: legal.max });
  return '';
}

/** What the dealer's forbidden bid is about, or "" when no bid is forbidden. @param {PlayerView} v */
export function forbiddenText(v) {
  const legal = v.legal;
  if (legal.type !== 'bid' || legal.forbidden === null || legal.forbidden === undefined) return '';
  // The prompt's `max` is the cards in hand: the tricks of this hand.
  return t('error.bids_would_add_up', { bid: legal.forbidden, tricks: legal.max });
}

/** The numbers that may be bid now, lowest first. @param {PlayerView} v @returns {number[]} */
function allowed(v) {
  const legal = v.legal;
  if (legal.type !== 'bid') return [];
  const out = [];
  for (let n = legal.min; n <= legal.max; n += 1) if (n !== legal.forbidden) out.push(n);
  return out;
}

/**
 * Keys on a bid button: the arrows choose the next or previous number (Home and End the first
 * and last), Enter bids the number that has the focus.
 * @param {KeyboardEvent} e @param {PlayerView} v @param {Actions} actions
 */
function bidKeys(e, v, actions) {
  const target = /** @type {HTMLElement} */ (e.target);
  const here = Number(target.dataset.bid);
  if (e.key === 'Enter') {
    e.preventDefault();
    actions.bid(here);
    return;
  }
  const ok = allowed(v);
  if (!ok.length) return;
  /** @type {number | undefined} */
  let next;
  if (e.key === 'ArrowRight' || e.key === 'ArrowUp') next = ok.find((n) => n > here) ?? ok[ok.length - 1];
  else if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') next = [...ok].reverse().find((n) => n < here) ?? ok[0];
  else if (e.key === 'Home') next = ok[0];
  else if (e.key === 'End') next = ok[ok.length - 1];
  else return;
  e.preventDefault();
  actions.chooseBid(next);
  /** @type {HTMLElement | null} */ (document.querySelector(`.bid-option[data-bid="${next}"]`))?.focus();
}

/**
 * The bid box for a `bid` prompt: a button per number (choosing it), the dealer's forbidden
 * number marked and explained.
 * @param {TableState} s @param {PlayerView} v @param {Actions} actions
 */
export function bidBox(s, v, actions) {
  const legal = v.legal;
  if (legal.type !== 'bid') return null;
  const note = forbiddenText(v);
  const buttons = [];
  for (let n = legal.min; n <= legal.max; n += 1) {
    const forbidden = n === legal.forbidden;
    const chosen = s.bidChoice === n;
    const text = bidText(v, n);
    buttons.push(h('button', {
      type: 'button',
      class: `bid-option${forbidden ? ' forbidden' : ''}${chosen ? ' chosen' : ''}`,
      'data-bid': n,
      'data-focus': `bid-${n}`,
      'aria-pressed': String(chosen),
      'aria-disabled': forbidden ? 'true' : null,
      'aria-label': forbidden ? t('bid.not_allowed', { bid: text }) : isNil(v, n) ? t('bid.nil_label') : t('count.trick', { count: n }),
      'aria-describedby': forbidden ? 'bid-note' : null,
      title: forbidden ? note : null,
      onclick: () => actions.chooseBid(n),
      onkeydown: (/** @type {KeyboardEvent} */ e) => bidKeys(e, v, actions),
    }, text));
  }
  return h('div', { class: 'bid-box', id: 'bid-box', role: 'group', 'aria-label': t('bid.box_label') },
    h('div', { class: 'bid-options' }, buttons),
    // Once the error line says the same (the forbidden number was clicked), it says it alone.
    note ? h('p', { class: 'bid-note', id: 'bid-note', hidden: s.error === note }, note) : null);
}

/** The button that sends the chosen bid, under the hand. @param {TableState} s @param {PlayerView} v @param {Actions} actions */
export function bidButton(s, v, actions) {
  const chosen = s.bidChoice;
  const ok = chosen !== null && allowed(v).includes(chosen);
  return h('button', {
    type: 'button', class: 'primary big', id: 'bid-button', 'data-focus': 'bid-button', disabled: !ok,
    onclick: () => actions.bidChosen(),
  }, ok ? t('bid.send', { bid: bidText(v, /** @type {number} */ (chosen)) }) : t('bid.choose'));
}

/** Moves the focus into the bid box (the chosen number, or the first allowed one). @param {PlayerView} v @param {number | null} chosen */
export function focusBidBox(v, chosen) {
  const first = chosen !== null && allowed(v).includes(chosen) ? chosen : allowed(v)[0];
  /** @type {HTMLElement | null} */ (document.querySelector(`.bid-option[data-bid="${first}"]`))?.focus({ preventScroll: true });
}

/** Moves the focus into a bid box on the page, if one is open (the chosen number, or the first allowed one; or "See my cards"; or Euchre's first call). */
export function focusIdleBidBox() {
  const button = document.querySelector('.hand-area.active .bid-option.chosen') || document.querySelector('.hand-area.active .bid-option:not(.forbidden)')
    || document.querySelector('.hand-area.active #see-cards-button') || document.querySelector('.hand-area.active #call-box .call-option');
  /** @type {HTMLElement | null} */ (button)?.focus({ preventScroll: true });
}

/**
 * Keys in the blind nil choice: the arrows move between its two buttons (Enter and Space press
 * them, as on any button).
 * @param {KeyboardEvent} e
 */
function blindKeys(e) {
  if (!/^Arrow(Left|Right|Up|Down)$/.test(e.key)) return;
  e.preventDefault();
  const other = /** @type {HTMLElement} */ (e.target).id === 'blind-nil-button' ? 'see-cards-button' : 'blind-nil-button';
  document.getElementById(other)?.focus();
}

/**
 * The choice on a `blind` prompt, while the hand is still face down: bid blind nil without
 * looking, or see the cards (and then bid as usual).
 * @param {PlayerView} v @param {Actions} actions
 */
export function blindBox(v, actions) {
  if (v.legal.type !== 'blind') return null;
  return h('div', { class: 'bid-box blind-box', id: 'blind-box', role: 'group', 'aria-labelledby': 'blind-note' },
    h('p', { class: 'bid-note', id: 'blind-note' },
      t('bid.blind_note')),
    h('div', { class: 'bid-options' },
      h('button', {
        type: 'button', class: 'primary big', id: 'blind-nil-button', 'data-focus': 'blind-nil-button',
        onclick: () => actions.blindNil(), onkeydown: blindKeys,
      }, t('bid.blind_nil')),
      h('button', {
        type: 'button', class: 'big', id: 'see-cards-button', 'data-focus': 'see-cards-button',
        onclick: () => actions.seeCards(), onkeydown: blindKeys,
      }, t('bid.see_cards'))));
}

/** Moves the focus to "See my cards", the choice that risks nothing. */
export function focusBlindBox() {
  document.getElementById('see-cards-button')?.focus({ preventScroll: true });
}

/**
 * A seat's bid and tricks on its plate: "2/3" (taken of the bid), "1/Nil", "0/Blind nil"; null
 * before it bids.
 * @param {PlayerView} v @param {number} seat
 */
export function bidStat(v, seat) {
  const bid = v.bids?.[seat];
  if (bid === null || bid === undefined) return null;
  const took = v.tricks_won[seat];
  const blind = isBlindNil(v, seat);
  const nil = blind || isNil(v, bid);
  const text = blind ? t('bid.blind_nil') : bidText(v, bid);
  const spoken = blind ? t('bid.spoken_blind_nil', { took }) : isNil(v, bid) ? t('bid.spoken_nil', { took }) : t('sheet.bid_took_spoken', { bid, took });
  return h('span', { class: `stat bid${nil ? ' nil' : ''}${blind ? ' blind' : ''}`, 'data-bid': bid, 'data-took': took, title: t('bid.stat_title') },
    h('span', { 'aria-hidden': 'true' }, `${took}/${text}`),
    h('span', { class: 'sr-only' }, spoken));
}
