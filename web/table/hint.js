// @ts-check
// The "Suggest a card" button: on your turn, asks the server what the `heuristic` computer
// player would do in your place, and marks the suggested card(s) in your hand (or the
// suggested bid in the bid box). Nothing is played or chosen for you.
//
// Owns: its button (put under the hand after each redraw), the `suggested` mark on card and
// bid buttons and the line naming the suggestion. May not touch: the state beyond clearing a
// suggestion that no longer fits, or the hand's own drawing.

import { t } from '../i18n/index.js';
import { cardName } from '../cards.js';
import { h } from '../dom.js';
import { bidText } from './bid.js';
import { callText } from './calls.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./state.js').Store} Store */
/** @typedef {import('./session.js').Session} Session */

/** The cards an action names. @param {any} action @returns {string[]} */
function cardsOf(action) {
  if (!action) return [];
  if (action.type === 'pass' || action.type === 'exchange') return action.cards;
  if (action.type === 'discard') return [action.card];
  return action.type === 'play' ? [action.card] : [];
}

/** What the page is asked to suggest for now, or null. @param {TableState} s */
function turnKey(s) {
  const v = s.view;
  if (s.role !== 'player' || !v || v.phase === 'match_over' || v.legal.type === 'wait') return null;
  if (s.table?.table_options?.hints === false) return null;
  return `${v.legal.type}:${v.hand.length}`;
}

/** The listener that keeps the button and the marks in step. @param {Store} store @param {Session} session */
export function hintButton(store, session) {
  /** The turn a suggestion was asked for: one asked on an earlier turn is dropped. */
  let askedFor = /** @type {string | null} */ (null);
  const button = h('button', {
    type: 'button', id: 'hint-button', 'data-focus': 'hint-button',
    onclick: () => {
      askedFor = turnKey(store.state);
      session.send({ type: 'hint' });
    },
  }, t('hint.card'));
  const note = h('span', { class: 'hint-note', id: 'hint-note', role: 'status' });
  return (/** @type {TableState} */ s) => {
    const key = turnKey(s);
    if (s.hint && key !== askedFor) {
      store.set({ hint: null });
      return;
    }
    const actions = document.querySelector('.hand-area .hand-actions');
    if (!key || !actions) {
      button.remove();
      note.remove();
    } else {
      const type = s.view?.legal.type;
      button.textContent = type === 'pass' ? t('hint.pass') : type === 'exchange' ? t('hint.exchange')
        : type === 'bid' || type === 'blind' ? t('hint.bid') : t('hint.card');
      // After the pass (or bid) button, if there is one: on a phone the button takes a row and
      // the smaller buttons share the next.
      if (button.parentElement !== actions) {
        const big = actions.querySelector(':scope > button.big');
        if (big) big.after(button);
        else actions.prepend(button);
      }
      if (note.parentElement !== actions) button.after(note);
      if (type === 'call' || type === 'discard') button.textContent = t(type === 'call' ? 'hint.call' : 'hint.discard');
      if (/** @type {string | undefined} */ (type) === 'answer_claim') button.textContent = t('bridge.hint.answer');
    }
    const suggested = new Set(key && s.hint ? cardsOf(s.hint.action) : []);
    const bid = key && s.hint?.action?.type === 'bid' && s.view ? s.hint.action.tricks : null;
    const call = key && s.hint?.action?.type === 'call' ? s.hint.action : null;
    const blind = key && s.hint?.action?.type === 'blind_nil' ? t('hint.suggested_blind_nil')
      : key && s.hint?.action?.type === 'see_cards' ? t('hint.suggested_see_cards')
        : call ? t('hint.suggested', { what: callText(call, true) })
          : key && s.hint?.action?.type === 'answer_claim' ? t(s.hint.action.accept ? 'bridge.hint.accept' : 'bridge.hint.reject') : '';
    // A suggested call marks its button in the call box (a suit named alone, the suit's).
    const callKey = call ? `${call.call}${call.suit ? `-${call.suit}` : ''}${call.alone && !call.suit ? '-alone' : ''}` : null;
    for (const el of document.querySelectorAll('.call-option')) {
      el.classList.toggle('suggested', callKey !== null && /** @type {HTMLElement} */ (el).dataset.call === callKey);
    }
    note.textContent = suggested.size ? t('hint.suggested', { what: [...suggested].map(cardName).join(', ') })
      : bid !== null ? t('hint.suggested_bid', { bid: bidText(/** @type {any} */ (s.view), bid) }) : blind;
    // Bridge: a suggested bid or call marks its button in the bidding box.
    for (const el of document.querySelectorAll('#bidding-box button')) {
      const b = /** @type {HTMLElement} */ (el).dataset;
      const same = call !== null && (call.call === 'bid' ? b.level === String(call.level) && b.strain === call.strain : b.call === call.call);
      el.classList.toggle('suggested', same);
    }
    for (const el of document.querySelectorAll('.hand .card, .dummy-cards .dummy-card')) {
      el.classList.toggle('suggested', suggested.has(/** @type {HTMLElement} */ (el).dataset.card || ''));
    }
    for (const el of document.querySelectorAll('.bid-option')) {
      el.classList.toggle('suggested', bid !== null && /** @type {HTMLElement} */ (el).dataset.bid === String(bid));
    }
  };
}
