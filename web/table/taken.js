// @ts-check
// Running points during a hand: the penalty cards each seat has taken so far (hearts, and Q♠
// where it scores), counted from the hand's finished tricks, which every seat sees. Shown on the
// name plates in games whose points can be counted while the hand is played
// (`facts.points_in_hand`), except where each trick is itself the point (`facts.trick_points`).
//
// Owns: that count. Which cards score comes from the variant's facts (`card_points`). May not
// touch: the DOM or the state.

import { suitOf } from '../cards.js';

/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('../view-model.js').VariantFacts} VariantFacts */

/**
 * Per seat, the hearts taken this hand and whether the queen of spades was; null when the
 * variant does not count points this way.
 * @param {PlayerView} v @param {VariantFacts | null} facts
 * @returns {{ hearts: number, queen: boolean }[] | null}
 */
export function penaltiesTaken(v, facts) {
  if (!facts || !facts.points_in_hand || facts.trick_points) return null;
  const scores = (/** @type {string} */ card) => Boolean(facts.card_points?.[card]);
  const out = Array.from({ length: v.players }, () => ({ hearts: 0, queen: false }));
  for (const trick of v.tricks) {
    const seat = out[trick.winner];
    if (!seat) continue;
    for (const card of trick.cards) {
      if (!scores(card)) continue;
      if (suitOf(card) === 'H') seat.hearts += 1;
      else if (card === 'QS') seat.queen = true;
    }
  }
  return out;
}
