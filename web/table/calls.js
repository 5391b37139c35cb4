// @ts-check
// Making trump (Euchre): the call box on a `call` prompt ("Order up", "Order up alone", a
// suit to name with "Go alone", "Defend alone", "Pass"), the dealer's discard on a `discard`
// prompt (a card chosen in the hand, then "Discard"), how calls read (on the felt, in the
// announcements, on the score sheet), and the calls typed in the table in words ("pass",
// "order up", "alone", "hearts" or "h", "discard 9c").
//
// Owns: the call box's markup and keys, and the words of calls. What may be called comes from
// the prompt alone (its `order_up`, `name`, `except`, `pass`, `alone`, `defend_alone`). May not
// touch: the state (clicks and keys go through the actions).

import { cardName, isCard, SUIT_SYMBOLS, suitLabel, suitName } from '../cards.js';
import { h } from '../dom.js';
import { t } from '../i18n/index.js';
import { bridgeCallText, bridgeCommand, isAuctionTable } from './auction.js';
import { seatName } from './names.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('./actions.js').Actions} Actions */
/** @typedef {{ call: string, suit?: string, alone?: boolean }} Call a call as sent and as told */

/** Suits in the order the box offers them. */
const SUITS = ['C', 'D', 'H', 'S'];

/** The "Go alone" box, per prompt: ticked for this prompt only. */
let aloneFor = /** @type {unknown} */ (null);

/**
 * The calls a `call` prompt allows, as the buttons offer them: pass first, then ordering up
 * (alone too), naming each suit but the turned one, defending alone.
 * @param {any} legal @returns {Call[]}
 */
export function allowedCalls(legal) {
  if (!legal || legal.type !== 'call') return [];
  /** @type {Call[]} */
  const out = [];
  if (legal.order_up) {
    out.push({ call: 'order_up', alone: false });
    if (legal.alone) out.push({ call: 'order_up', alone: true });
  }
  if (legal.name) {
    for (const suit of SUITS) {
      if (suit === legal.except) continue;
      out.push({ call: 'trump', suit, alone: false });
      if (legal.alone) out.push({ call: 'trump', suit, alone: true });
    }
  }
  if (legal.defend_alone) out.push({ call: 'defend_alone' });
  if (legal.pass) out.push({ call: 'pass' });
  return out;
}

/** Whether the prompt allows `call`. @param {any} legal @param {Call} call */
export function callAllowed(legal, call) {
  return allowedCalls(legal).some((c) => c.call === call.call && (c.suit ?? null) === (call.suit ?? null) && Boolean(c.alone) === Boolean(call.alone));
}

/**
 * A call in words, as said by its caller: "passes", "orders up, alone", "names hearts".
 * @param {Call} call @param {boolean} you the viewer made it
 */
export function callText(call, you) {
  // Bridge's bids, doubles and redoubles (its pass reads as Euchre's).
  const bridge = bridgeCallText(/** @type {any} */ (call), you);
  if (bridge !== null) return bridge;
  const p = you ? 'call.you.' : 'call.';
  if (call.call === 'order_up') return t(`${p}${call.alone ? 'order_up_alone' : 'order_up'}`);
  if (call.call === 'trump') return t(`${p}${call.alone ? 'name_alone' : 'name'}`, { suit: suitName(/** @type {string} */ (call.suit)) });
  if (call.call === 'defend_alone') return t(`${p}defend_alone`);
  return t(`${p}pass`);
}

/** "Ada: passes", a call told with its caller. @param {TableState} s @param {number} seat @param {Call} call */
export function seatCallText(s, seat, call) {
  const you = s.role === 'player' && s.seat === seat;
  return t('call.said', { name: seatName(s, seat), call: callText(call, you) });
}

/**
 * Keys in the call box: the arrows move along its buttons (Home and End to the first and
 * last); Enter and Space press them, as on any button.
 * @param {KeyboardEvent} e
 */
function callKeys(e) {
  const all = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('#call-box .call-option')]);
  const i = all.indexOf(/** @type {HTMLElement} */ (e.target));
  if (i < 0) return;
  let next = -1;
  if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = Math.min(all.length - 1, i + 1);
  else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = Math.max(0, i - 1);
  else if (e.key === 'Home') next = 0;
  else if (e.key === 'End') next = all.length - 1;
  else return;
  e.preventDefault();
  all[next]?.focus();
}

/**
 * One button of the call box; `call` is read at the click (a suit is named alone when the box
 * "Go alone" is ticked then).
 * @param {string} label @param {() => Call} call @param {string} key @param {string} cls @param {Actions} actions @param {string} [suit]
 */
function callButton(label, call, key, cls, actions, suit) {
  return h('button', {
    type: 'button',
    class: `call-option ${cls}${suit ? ` suit-${suit}` : ''}`,
    'data-call': key,
    'data-focus': `call-${key}`,
    onclick: () => actions.call(call()),
    onkeydown: callKeys,
  }, label);
}

/**
 * The call box for a `call` prompt: only the calls the prompt allows.
 * @param {TableState} s @param {PlayerView} v @param {Actions} actions
 */
export function callBox(s, v, actions) {
  const legal = /** @type {any} */ (v.legal);
  // At a Bridge table the bidding box asks instead (auction.js).
  if (legal.type !== 'call' || isAuctionTable(s)) return null;
  const buttons = [];
  if (legal.order_up) {
    const turned = v.face_up[0];
    buttons.push(callButton(t('call.button.order_up'), () => ({ call: 'order_up', alone: false }), 'order_up', 'primary', actions));
    if (legal.alone) buttons.push(callButton(t('call.button.order_up_alone'), () => ({ call: 'order_up', alone: true }), 'order_up-alone', '', actions));
    if (turned) buttons.unshift(h('span', { class: 'call-note' }, t('call.turned', { card: cardName(turned) })));
  }
  const alone = legal.name && legal.alone && aloneFor === legal;
  if (legal.name) {
    for (const suit of SUITS) {
      if (suit === legal.except) continue;
      buttons.push(callButton(suitLabel(suit), () => ({ call: 'trump', suit, alone: namingAlone(legal) }), `trump-${suit}`, 'primary', actions, suit));
    }
  }
  if (legal.defend_alone) buttons.push(callButton(t('call.button.defend_alone'), () => ({ call: 'defend_alone' }), 'defend_alone', 'primary', actions));
  if (legal.pass) buttons.push(callButton(t('call.button.pass'), () => ({ call: 'pass' }), 'pass', '', actions));
  const note = legal.name && !legal.pass ? h('p', { class: 'bid-note', id: 'call-note' }, t('call.must_name')) : null;
  return h('div', { class: 'bid-box call-box', id: 'call-box', role: 'group', 'aria-label': t('call.box_label') },
    h('div', { class: 'bid-options' }, buttons),
    legal.name && legal.alone ? h('label', { class: 'check small call-alone' },
      h('input', {
        type: 'checkbox', id: 'call-alone', 'data-focus': 'call-alone', checked: alone,
        onchange: (/** @type {any} */ e) => {
          aloneFor = e.target.checked ? legal : null;
        },
      }), ` ${t('call.go_alone')}`) : null,
    note);
}

/** The alone box's state when a suit is named: ticked, it is named alone. @param {any} legal */
export function namingAlone(legal) {
  return Boolean(legal?.alone) && aloneFor === legal;
}

/** Moves the focus into the call box (its first button). */
export function focusCallBox() {
  /** @type {HTMLElement | null} */ (document.querySelector('#call-box .call-option'))?.focus({ preventScroll: true });
}

/** The button that discards the chosen card, under the hand. @param {TableState} s @param {PlayerView} v @param {Actions} actions */
export function discardButton(s, v, actions) {
  if (v.legal.type !== /** @type {any} */ ('discard')) return null;
  const chosen = [...s.selected][0];
  return h('button', {
    type: 'button', class: 'primary big', id: 'discard-button', 'data-focus': 'discard-button', disabled: !chosen,
    onclick: () => actions.discardSelected(),
  }, chosen ? t('call.discard', { card: cardName(chosen) }) : t('call.choose_discard'));
}

/** What a suit typed names: "hearts", "h", "♥" (in English or the page's language), or null. @param {string} said */
function suitTyped(said) {
  for (const suit of SUITS) {
    const names = [suitName(suit), t(`suit.of.${suit}`), SUIT_SYMBOLS[suit], suit.toLowerCase(), ['clubs', 'diamonds', 'hearts', 'spades'][SUITS.indexOf(suit)]];
    if (names.some((n) => n.toLocaleLowerCase() === said)) return suit;
  }
  return null;
}

/** The words of the typed calls, in English and the page's language. @param {string} key @param {string[]} english */
function typed(key, english) {
  return [...t(key).split('|'), ...english].map((w) => w.toLocaleLowerCase());
}

/**
 * A call or discard typed in the table in words, when one is asked for: "pass", "order up",
 * "order up alone" (or "alone"), a suit ("hearts", "h"), that suit "alone", "defend alone",
 * "discard 9c". Returns the words to read ("" when the move was sent), or null when the line
 * is not a call (other commands then read it).
 * @param {string} text @param {TableState} s @param {Actions} actions
 * @returns {string | null}
 */
export function callCommand(text, s, actions) {
  const v = s.view;
  const legal = /** @type {any} */ (v?.legal);
  const said = text.trim().toLocaleLowerCase().replace(/\s+/g, ' ');
  // Help at a table that makes trump says how to call too.
  if (v?.calling && typed('cmd.help', ['help', '?']).includes(said)) return `${t('text.help')} ${t(isAuctionTable(s) ? 'text.help_bridge' : 'text.help_calls')}`;
  if (!v || s.role !== 'player' || !legal) return null;
  if (legal.type === 'discard') {
    const words = said.split(' ');
    const discard = typed('cmd.discard', ['discard']);
    const card = words.length === 2 && discard.includes(words[0]) ? words[1] : null;
    if (card === null || !isCard(card)) return discard.includes(said) ? t('call.discard_how') : null;
    const wire = (card.length === 3 ? 'T' : card[0].toUpperCase()) + card[card.length - 1].toUpperCase();
    if (!v.hand.includes(wire)) return t('error.card_not_held', { card: cardName(wire) });
    actions.discard(wire);
    return '';
  }
  if (legal.type !== 'call') return null;
  if (isAuctionTable(s)) return bridgeCommand(said, s, actions);
  const aloneWords = typed('cmd.alone', ['alone']);
  const parts = said.split(' ');
  const alone = parts.length > 1 && aloneWords.includes(parts[parts.length - 1]);
  const head = alone ? parts.slice(0, -1).join(' ') : said;
  /** @type {Call | null} */
  let call = null;
  if (typed('cmd.call_pass', ['pass']).includes(said)) call = { call: 'pass' };
  else if (typed('cmd.defend_alone', ['defend alone', 'defend']).includes(said)) call = { call: 'defend_alone' };
  else if (typed('cmd.order_up', ['order up', 'order', 'up']).includes(head)) call = { call: 'order_up', alone };
  else if (aloneWords.includes(said) && legal.order_up) call = { call: 'order_up', alone: true };
  else if (legal.name && suitTyped(head)) call = { call: 'trump', suit: /** @type {string} */ (suitTyped(head)), alone };
  if (!call) return null;
  if (!callAllowed(legal, call)) return t('call.not_allowed', { call: callText(call, true) });
  actions.call(call);
  return '';
}
