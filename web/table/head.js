// @ts-check
// The top of the table page: the game's name, whether you watch, the facts of the hand (its
// number, trump, face-up cards, the prize pool, whether hearts are broken), a practice table's
// badge, and the invite box until the match starts.
//
// Owns: that section. Which facts show depends on the variant's facts (`trump`, `prize`,
// `partnerships`...), never on its name. May not touch: the state.

import { cardName, cardShort, suitLabel, suitOf } from '../cards.js';
import { h, replaceChildren } from '../dom.js';
import { variantTitle } from '../lobby.js';
import { inviteBox } from './invite.js';
import { seatName, TEAM_NAMES } from './names.js';
import { part } from './part.js';
import { factsOf, variantName } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('../view-model.js').VariantFacts} VariantFacts */
/** @typedef {import('./actions.js').Actions} Actions */

/**
 * Whether the page says if hearts are broken: in games where hearts are penalty cards and no
 * trump suit outranks them.
 * @param {VariantFacts} facts
 */
function heartsMatter(facts) {
  return (facts.low_score_wins || facts.two_totals) && facts.trump === 'none';
}

/** The facts of the hand in play. @param {TableState} s @param {PlayerView} v @param {VariantFacts} facts */
function handFacts(s, v, facts) {
  const out = [h('span', { class: 'fact' }, `Hand ${v.hand_number + 1}`)];
  if (v.trump) {
    out.push(h('span', { class: `fact trump suit-${v.trump}`, id: 'trump' }, 'Trump: ', h('strong', {}, suitLabel(v.trump))));
  }
  if (facts.trump === 'dealer_last') {
    out.push(v.face_up.length
      ? h('span', { class: 'fact face-up', id: 'face-up' }, `${seatName(s, v.dealer)} (dealer) shows `,
        v.face_up.map((c) => h('strong', { class: `suit-${suitOf(c)}` }, cardShort(c), h('span', { class: 'sr-only' }, ` (${cardName(c)})`))))
      : h('span', { class: 'fact' }, `Dealer: ${seatName(s, v.dealer)}`));
  }
  if (facts.partnerships) {
    const won = (/** @type {number} */ t) => v.tricks_won[t] + v.tricks_won[t + 2];
    out.push(h('span', { class: 'fact', id: 'team-tricks' }, 'Tricks: ',
      h('strong', { class: 'team-0-text' }, `${TEAM_NAMES[0]} ${won(0)}`), ' · ',
      h('strong', { class: 'team-1-text' }, `${TEAM_NAMES[1]} ${won(1)}`)));
  }
  if (facts.trump === 'undealt' && v.face_up.length) {
    out.push(h('span', { class: 'fact face-up', id: 'face-up' }, 'Left over: ',
      v.face_up.map((c) => h('strong', { class: `suit-${suitOf(c)}` }, cardShort(c), ' '))));
  }
  if (facts.prize > 0) out.push(h('span', { class: 'fact', id: 'pool' }, 'Prize pool: ', h('strong', {}, String(v.pool))));
  if (heartsMatter(facts)) out.push(h('span', { class: 'fact' }, v.hearts_broken ? 'Hearts broken' : 'Hearts not broken'));
  return out;
}

/** The table's heading: the name its host gave it and its game, or just the game. @param {TableState} s */
export function tableTitle(s) {
  const game = variantTitle(variantName(s));
  const named = s.table?.table_options?.name;
  return named ? `${named} · ${game}` : game;
}

/** The head of the table page. @param {Actions} actions */
export function headPart(actions) {
  return part(h('section', { class: 'table-head' }), (s) => {
    const v = s.view;
    return [variantName(s), s.table?.table_options?.name, s.role, s.table?.status, s.table?.seats, s.copied, factsOf(s), v?.hand_number, v?.trump,
      v?.face_up, v?.dealer, v?.tricks_won, v?.pool, v?.hearts_broken, s.seat, s.table?.practice];
  }, (el, s) => {
    const v = s.view;
    const facts = factsOf(s);
    replaceChildren(el,
      h('div', { class: 'title-row' },
        h('h1', {}, tableTitle(s)),
        s.role === 'spectator' ? h('span', { class: 'badge watch', id: 'spectating' }, 'You are watching') : null,
        // Never silent: whoever chose a practice table's seed can know every deal.
        s.table?.practice ? h('span', { class: 'badge practice', id: 'practice', title: 'Whoever created this table chose the seed its cards are dealt from, so they can know every hand. Do not play for anything here.' },
          // On a small screen only "Practice" shows (the rest is in the title), so the game keeps its height.
          'Practice', h('span', { class: 'practice-more' }, ': deals chosen by its creator')) : null,
        h('div', { class: 'facts' }, v && facts ? handFacts(s, v, facts) : [])),
      s.table?.status === 'playing' ? null : inviteBox(s, actions));
  });
}
