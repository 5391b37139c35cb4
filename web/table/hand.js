// @ts-check
// Your hand: a button per card (the same button for the same card for as long as you hold it,
// so a click is never lost to a redraw), the bid box when it is your bid, the error line, and
// the buttons under the hand (pass, bid, last trick, score sheet) and "More" (four-colour deck,
// sound; on a phone last trick and score sheet too).
//
// Owns: that section. May not touch: the state (clicks go through the actions).

import { cardClasses, cardLabel, cardName, sortHand } from '../cards.js';
import { h, keepFocus, replaceChildren } from '../dom.js';
import { bidBox, bidButton, blindBox, focusBidBox, focusBlindBox } from './bid.js';
import { biddingBox, focusBiddingBox, isAuctionTable } from './auction.js';
import { callBox, discardButton, focusCallBox } from './calls.js';
import { claimAnswerBox, claimAnswerButtons, claimControl, claimStatus, dummyNote, focusDummy, playsDummy } from './dummy.js';
import { cardFace } from './card-view.js';
import { t } from '../i18n/index.js';
import { directionText, seatName } from './names.js';
import { part, setOrRemove } from './part.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('./actions.js').Actions} Actions */

/** Arrow keys move along the hand. @param {KeyboardEvent} e */
function handKeys(e) {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const all = [...document.querySelectorAll('.hand .card')];
  const i = all.indexOf(/** @type {Element} */ (e.target));
  const next = /** @type {HTMLElement | undefined} */ (all[i + (e.key === 'ArrowRight' ? 1 : -1)]);
  if (next) {
    next.focus();
    e.preventDefault();
  }
}

/** The buttons of the cards, kept per card. */
class CardButtons {
  /** @param {Actions} actions */
  constructor(actions) {
    this.actions = actions;
    /** @type {Map<string, HTMLElement>} */
    this.buttons = new Map();
  }

  /** The buttons for the hand as it is now, in the order they are shown. @param {TableState} s @param {PlayerView} v */
  draw(s, v) {
    const legal = v.legal;
    // The dealer's discard chooses its card as a pass does.
    const passing = legal.type === 'pass' || legal.type === 'exchange' || /** @type {any} */ (legal).type === 'discard';
    const playable = legal.type === 'play' ? new Set(legal.cards) : null;
    const received = new Set(v.pass?.received || []);
    const out = sortHand(v.hand).map((card) => {
      const isLegal = passing || (playable ? playable.has(card) : false);
      const selected = s.selected.has(card);
      const fresh = received.has(card) && v.tricks.length === 0;
      const cls = ['card', ...cardClasses(card)];
      if (playable || passing) cls.push(isLegal ? 'legal' : 'dimmed');
      if (selected) cls.push('selected');
      if (fresh && v.trick.plays.length === 0) cls.push('received');
      const button = this.button(card);
      button.className = cls.join(' ');
      button.setAttribute('aria-label', fresh ? t('hand.passed_to_you', { card: cardLabel(card) }) : cardLabel(card));
      setOrRemove(button, 'aria-pressed', passing ? String(selected) : null);
      setOrRemove(button, 'aria-disabled', playable && !isLegal ? 'true' : null);
      return button;
    });
    for (const card of [...this.buttons.keys()]) if (!v.hand.includes(card)) this.buttons.delete(card);
    return out;
  }

  /** The card's button, made the first time. @param {string} card @returns {HTMLElement} */
  button(card) {
    const known = this.buttons.get(card);
    if (known) return known;
    const button = h('button', {
      type: 'button', 'data-card': card, 'data-focus': `card-${card}`, title: cardName(card),
      onclick: () => this.actions.clickCard(card),
      onkeydown: handKeys,
    }, cardFace(card));
    this.buttons.set(card, button);
    return button;
  }
}

/** The buttons under the hand. @param {TableState} s @param {PlayerView} v @param {Actions} actions */
function handActions(s, v, actions) {
  const legal = v.legal;
  const out = [];
  if (legal.type === 'pass') {
    const dir = directionText(legal.direction);
    const n = s.selected.size;
    out.push(h('button', {
      type: 'button', class: 'primary big', id: 'pass-button', disabled: n !== legal.count, 'data-focus': 'pass-button',
      onclick: () => actions.passSelected(),
    }, n === legal.count ? t('hand.pass', { dir }) : t('hand.pass_chosen', { dir, n, count: legal.count })));
  }
  if (legal.type === 'exchange') {
    const n = s.selected.size;
    const to = seatName(s, legal.to);
    out.push(h('button', {
      type: 'button', class: 'primary big', id: 'exchange-button', disabled: n !== legal.count, 'data-focus': 'exchange-button',
      onclick: () => actions.exchangeSelected(),
    }, n === legal.count ? t('hand.give', { count: legal.count, name: to }) : t('hand.give_chosen', { count: legal.count, name: to, n })));
  }
  if (legal.type === 'bid') out.push(bidButton(s, v, actions));
  const discard = discardButton(s, v, actions);
  if (discard) out.push(discard);
  const claim = claimControl(s, v, actions);
  if (claim) out.push(claim);
  out.push(...claimAnswerButtons(v, actions));
  out.push(...foldingButtons(s, actions, 'row'));
  return out;
}

/**
 * "Last trick" and "Score sheet", for the row under the hand (`row`) or for the "More" list
 * (`more`, whose `close` shuts the list first). Both copies are drawn and the style sheet shows
 * one: on a phone the list's, so that the row keeps to what the turn needs (in German,
 * "Karte vorschlagen" and Bridge's claim leave no room for them at 360 px).
 * @param {TableState} s @param {Actions} actions @param {'row' | 'more'} where
 * @param {() => void} [close]
 */
function foldingButtons(s, actions, where, close = () => {}) {
  const id = (/** @type {string} */ name) => (where === 'row' ? name : `more-${name}`);
  const cls = where === 'row' ? 'folds' : 'folded';
  return [
    h('button', {
      type: 'button', class: cls, id: id('last-trick'), 'data-focus': id('last-trick'), disabled: !s.lastTrick, 'aria-pressed': String(s.showLast),
      onclick: () => { close(); actions.toggleLast(); },
    }, s.showLast ? t('hand.back_to_trick') : t('hand.last_trick')),
    h('button', {
      type: 'button', class: cls, id: id('scores-button'), 'data-focus': id('scores-button'),
      onclick: () => { close(); actions.openScores(true); },
    }, t('hand.score_sheet')),
  ];
}

/**
 * The settings folded under "More", so the row under the hand stays short on a phone (and,
 * on a phone "Last trick" and "Score sheet" too).
 * @param {TableState} s @param {Actions} actions @param {() => void} close shuts the list
 */
function moreSettings(s, actions, close) {
  const out = [...foldingButtons(s, actions, 'more', close)];
  out.push(h('label', { class: 'check small' },
    h('input', {
      type: 'checkbox', id: 'four-colour', checked: s.fourColour, 'data-focus': 'four-colour',
      onchange: (/** @type {any} */ e) => actions.setFourColour(e.target.checked),
    }), ` ${t('hand.four_colour')}`));
  out.push(h('label', { class: 'check small', title: t('hand.sound_title') },
    h('input', {
      type: 'checkbox', id: 'sound', checked: s.sound, 'data-focus': 'sound',
      onchange: (/** @type {any} */ e) => actions.setSound(e.target.checked),
    }), ` ${t('hand.sound')}`));
  return out;
}

/**
 * Puts `buttons` in `hand` in order, moving only those out of place: a button moved loses the
 * keyboard focus, and moving many lays the page out again.
 * @param {HTMLElement} hand @param {HTMLElement[]} buttons
 */
function placeCards(hand, buttons) {
  const keep = new Set(buttons);
  for (const child of [...hand.children]) if (!keep.has(/** @type {HTMLElement} */ (child))) child.remove();
  buttons.forEach((button, i) => {
    if (hand.children[i] !== button) hand.insertBefore(button, hand.children[i] || null);
  });
}

/** Your hand and what you can do with it. @param {Actions} actions */
export function handPart(actions) {
  const cards = new CardButtons(actions);
  /** The bid (or blind) prompt the box was last opened for, so the focus moves into it once. */
  let bidPrompt = /** @type {unknown} */ (null);
  // Kept across redraws, so it stays open while the table moves on.
  const moreList = h('div', { class: 'hand-more-list' });
  // Its own focus key, so that a redraw (which moves it to the new row) keeps the keyboard on it.
  const summary = h('summary', { 'data-focus': 'hand-more' }, t('hand.more'));
  const more = /** @type {HTMLDetailsElement} */ (h('details', { class: 'hand-more', id: 'hand-more' }, summary, moreList));
  // A choice in the list shuts it, and the keyboard stays on "More" rather than on nothing.
  const closeMore = () => {
    more.open = false;
    summary.focus({ preventScroll: true });
  };
  const hand = h('div', { class: 'hand', role: 'group' });
  return part(h('section', { 'aria-label': t('hand.label') }), (s) => {
    const v = /** @type {PlayerView} */ (s.view);
    return [v.hand, v.legal, v.pass, v.blind, v.tricks.length, v.trick.plays.length === 0, s.lastTrick, s.selected, s.bidChoice, v.options, s.error, s.showLast, s.fourColour, s.sound,
      v.bridge, v.phase, s.claimOpen];
  }, (el, s) => {
    // Dummy's cards are on the felt: the focus goes there once the hand's own focus is kept.
    let toDummy = false;
    keepFocus(el, () => {
      const v = /** @type {PlayerView} */ (s.view);
      const legal = v.legal;
      const calling = /** @type {any} */ (legal).type === 'call';
      const auction = calling && isAuctionTable(s);
      el.className = `hand-area${legal.type !== 'wait' ? ' active' : ''}${legal.type === 'bid' || legal.type === 'blind' || calling ? ' bidding' : ''}${/** @type {any} */ (legal).type === 'answer_claim' ? ' answering' : ''}${s.claimOpen || v.bridge?.claim ? ' claim' : ''}`;
      hand.setAttribute('aria-label', legal.type === 'pass' ? t('hand.label_pass', { count: legal.count })
        : legal.type === 'exchange' ? t('hand.label_exchange', { count: legal.count })
          : /** @type {any} */ (legal).type === 'discard' ? t('call.hand_discard') : t('hand.label'));
      placeCards(hand, cards.draw(s, v));
      // The cards are sized to fit the hand in a row (or two): hands of more than 13 need more room.
      hand.style.setProperty('--cards', String(v.hand.length));
      // On a narrow screen, two rows: seven cards a row, or half of a larger hand.
      hand.style.setProperty('--row', String(Math.max(7, Math.ceil(v.hand.length / 2))));
      replaceChildren(moreList, moreSettings(s, actions, closeMore));
      // A blind nil candidate's cards stay face down: the hand is hidden, a line says so.
      const faceDown = s.seat !== null && (v.blind?.face_down.includes(s.seat) ?? false);
      hand.hidden = faceDown;
      // The hand stays in place; what follows it is drawn anew.
      if (el.firstChild !== hand) el.prepend(hand);
      while (hand.nextSibling) hand.nextSibling.remove();
      el.append(
        ...[
          faceDown ? h('p', { class: 'face-down', id: 'face-down' }, t('hand.face_down', { count: v.hand_sizes[s.seat ?? 0] })) : null,
          bidBox(s, v, actions),
          callBox(s, v, actions),
          biddingBox(s, v, actions),
          claimAnswerBox(s, v),
          claimStatus(s, v),
          dummyNote(s, v),
          blindBox(v, actions),
        ].filter((x) => x !== null),
        s.error ? h('p', { class: 'error', role: 'alert', id: 'play-error' }, s.error) : h('p', { class: 'error empty', role: 'alert', id: 'play-error' }),
        h('div', { class: 'hand-actions' }, handActions(s, v, actions), more));
      if (legal.type === 'bid' && bidPrompt !== legal) {
        // A new bid prompt: the keyboard goes to the box, unless it is busy elsewhere (the chat).
        const active = document.activeElement;
        if (!active || active === document.body || el.contains(active)) focusBidBox(v, s.bidChoice);
      }
      if (legal.type === 'blind' && bidPrompt !== legal) {
        // The same for the blind nil choice: the keyboard goes to the choice that risks nothing.
        const active = document.activeElement;
        if (!active || active === document.body || el.contains(active)) focusBlindBox();
      }
      if (calling && bidPrompt !== legal) {
        // And to the call box's first call.
        const active = document.activeElement;
        if (!active || active === document.body || el.contains(active)) {
          if (auction) focusBiddingBox();
          else focusCallBox();
        }
      }
      const answering = /** @type {any} */ (legal).type === 'answer_claim';
      if (answering && bidPrompt !== legal) {
        // A claim to answer: the keyboard goes to Accept.
        const active = document.activeElement;
        if (!active || active === document.body || el.contains(active)) document.getElementById('claim-accept')?.focus({ preventScroll: true });
      }
      if (playsDummy(s, v) && bidPrompt !== legal) {
        // Declarer's turn for dummy: the keyboard goes from the hand to dummy's cards.
        const active = document.activeElement;
        if (!active || active === document.body || el.contains(active)) toDummy = true;
      }
      bidPrompt = legal.type === 'bid' || legal.type === 'blind' || calling || answering || legal.type === 'play' ? legal : null;
    });
    if (toDummy) focusDummy();
  });
}
