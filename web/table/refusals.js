// @ts-check
// The server's refusals in the reader's language: each error frame carries a stable `code`
// (shared/src/protocol.rs `codes`, the rules' `RuleError::code`); its words are the catalogue's
// `error.<code>`, with arguments taken from what the page knows (the trick's led suit, the
// move just sent, the prompt). Without the words or the arguments, the server's English
// `message` is shown, so nothing is ever lost.
//
// Owns: that mapping. May not touch: the state or the DOM.

import { cardName } from '../cards.js';
import { t } from '../i18n/index.js';
import { refusalText } from '../lobby.js';
import { bidShort } from './auction.js';
import { tricksLeft } from './dummy.js';

/** @typedef {import('../view-model.js').PlayerView} PlayerView */

/**
 * The arguments a code's words need, or null when the page cannot know them.
 * @param {string} code @param {PlayerView | null} view @param {any} sent the last move sent
 * @returns {Record<string, unknown> | null}
 */
function argsFor(code, view, sent) {
  const led = view?.trick.plays[0]?.card[1];
  switch (code) {
    case 'must_follow_suit':
      return led ? { suit: t(`suit.one.${led}`) } : null;
    case 'must_trump':
      return view?.trump ? { suit: t(`suit.one.${view.trump}`) } : null;
    case 'card_not_held':
      return sent?.type === 'play' ? { card: cardName(sent.card) } : null;
    case 'duplicate_in_pass': {
      const cards = sent?.type === 'pass' ? /** @type {string[]} */ (sent.cards) : [];
      const twice = cards.find((c, i) => cards.indexOf(c) !== i);
      return twice ? { card: cardName(twice) } : null;
    }
    case 'wrong_pass_count':
      return view?.legal.type === 'pass' && sent?.type === 'pass' ? { count: view.legal.count, got: sent.cards.length } : null;
    case 'bid_out_of_range':
      return view?.legal.type === 'bid' ? { min: view.legal.min, max: view.legal.max } : null;
    case 'bids_would_add_up':
      return view?.legal.type === 'bid' && sent?.type === 'bid' ? { bid: sent.tricks, tricks: view.legal.max } : null;
    case 'bid_too_low': {
      const from = /** @type {any} */ (view?.legal)?.bid_from;
      return from ? { bid: bidShort(from) } : null;
    }
    case 'claim_too_large':
      return view ? { count: tricksLeft(view) } : null;
    case 'no_such_seat':
      return null;
    case 'turned_suit_passed': {
      const legal = /** @type {any} */ (view?.legal);
      return legal?.type === 'call' && legal.except ? { suit: t(`suit.${legal.except}`) } : null;
    }
    default:
      return {};
  }
}

/**
 * A refusal in words: by its code where the catalogue has it and the arguments are known,
 * else the server's sentence.
 * @param {{ code: string, message: string }} msg @param {PlayerView | null} view @param {any} [sent]
 */
export function refusalWords(msg, view, sent) {
  const args = argsFor(msg.code, view, sent);
  return args ? refusalText(msg, args) : msg.message;
}
