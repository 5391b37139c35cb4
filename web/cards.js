// @ts-check
// Card names, symbols and ordering. Cards travel as two ASCII letters: rank then suit ("QS"),
// or "LJ" / "BJ" for the little / big joker, which are spades above the ace.

import { t } from './i18n/index.js';

/** Suits in the order the hand is laid out: colours alternate black, red, black, red. */
export const HAND_SUIT_ORDER = ['C', 'D', 'S', 'H'];

/** Rank letters, lowest first. */
export const RANKS = '23456789TJQKA';

/**
 * The protocol's one card syntax (docs/PROTOCOL.md, the schema's `Card`): a rank (T or 10 for
 * ten) then a suit, or LJ / BJ for a joker, in either case. The server accepts exactly this and
 * always writes two capitals with T for ten, as the client does.
 */
export const CARD_PATTERN = /^(?:(?:10|[2-9TJQKAtjqka])[CDHScdhs]|[LBlb][Jj])$/;

/** The jokers' marks on a card face: a star, hollow for the little one. */
/** @type {Record<string, string>} */
const JOKER_PIPS = { LJ: '☆', BJ: '★' };

/** True for the little and the big joker. @param {string} card */
export function isJoker(card) {
  return card === 'LJ' || card === 'BJ';
}

/** True when `text` is a card as the protocol writes it. @param {unknown} text */
export function isCard(text) {
  return typeof text === 'string' && CARD_PATTERN.test(text);
}

/** A suit's name as people say it, in the plural ("hearts"): the catalogue's `suit.<letter>`. @param {string} suit */
export function suitName(suit) {
  return t(`suit.${suit}`);
}

/** The suit symbols shown on cards. */
/** @type {Record<string, string>} */
export const SUIT_SYMBOLS = { C: '♣', D: '♦', H: '♥', S: '♠' };

/** The rank letter of a card. @param {string} card */
export function rankOf(card) {
  return card[0];
}

/** The suit letter of a card (a joker is a spade). @param {string} card */
export function suitOf(card) {
  return isJoker(card) ? 'S' : card[1];
}

/** Where a card's rank sorts within its suit: 0 for the two, 12 for the ace, then the little
 * and the big joker. @param {string} card */
function rankOrder(card) {
  if (isJoker(card)) return card === 'LJ' ? 13 : 14;
  return RANKS.indexOf(rankOf(card));
}

/** The rank as printed on a card face: "10" rather than "T", "LJ" / "BJ" for a joker. @param {string} card */
export function rankLabel(card) {
  if (isJoker(card)) return card;
  return card[0] === 'T' ? '10' : card[0];
}

/** The mark in a card's corner and middle: its suit's symbol, or a joker's star. @param {string} card */
export function pipOf(card) {
  return isJoker(card) ? JOKER_PIPS[card] : SUIT_SYMBOLS[card[1]];
}

/** The classes that colour a card: its suit's, and a joker's own. @param {string} card */
export function cardClasses(card) {
  if (!isJoker(card)) return [`suit-${suitOf(card)}`];
  return ['suit-S', 'joker', card === 'BJ' ? 'joker-big' : 'joker-little'];
}

/** How a screen reader says the card: "Queen of spades", "Big joker" (`card.name` of
 * `rank.<letter>` and `suit.of.<letter>`, `card.<joker>`). @param {string} card */
export function cardName(card) {
  if (isJoker(card)) return t(`card.${card}`);
  return t('card.name', { rank: t(`rank.${card[0]}`), suit: t(`suit.of.${card[1]}`) });
}

/** Short text for people: "Q♠", "10♥", "BJ★". @param {string} card */
export function cardShort(card) {
  return rankLabel(card) + pipOf(card);
}

/** A card button's name: what it shows, then how it is said ("Q♠, Queen of spades"), so voice control and screen readers agree. @param {string} card */
export function cardLabel(card) {
  return t('card.label', { short: cardShort(card), name: cardName(card) });
}

/** A suit's name with its symbol: "♥ hearts". @param {string} suit */
export function suitLabel(suit) {
  return `${SUIT_SYMBOLS[suit]} ${suitName(suit)}`;
}

/** Suits in the engine's order: how the server lists a set of cards. */
export const ENGINE_SUIT_ORDER = ['C', 'D', 'H', 'S'];

/** A copy of `cards` in the engine's order (clubs, diamonds, hearts, spades; 2 up to A; then the little and the big joker). @param {string[]} cards */
export function sortEngine(cards) {
  const key = (/** @type {string} */ c) => ENGINE_SUIT_ORDER.indexOf(suitOf(c)) * 15 + rankOrder(c);
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** A copy of `cards` sorted by suit (alternating colours), then rank from low to high (the jokers after the ace of spades). @param {string[]} cards */
export function sortHand(cards) {
  const key = (/** @type {string} */ c) => HAND_SUIT_ORDER.indexOf(suitOf(c)) * 15 + rankOrder(c);
  return [...cards].sort((a, b) => key(a) - key(b));
}
