// @ts-check
// The top of the table page: the game's name, whether you watch, the facts of the hand (its
// number and, where hands change size, its cards; trump, face-up or turned-up cards, the
// partnerships' tricks against their bids, the prize pool, whether hearts or spades are
// broken), a practice table's badge, and the invite box until the match starts.
//
// Owns: that section. Which facts show depends on the variant's facts (`trump`, `prize`,
// `partnerships`...), never on its name. May not touch: the state.

import { cardName, cardShort, suitLabel, suitOf } from '../cards.js';
import { h, replaceChildren } from '../dom.js';
import { variantTitle } from '../lobby.js';
import { t, tParts } from '../i18n/index.js';
import { auctionTable, boardText, contractParts } from './auction.js';
import { inviteBox } from './invite.js';
import { dealtSize, isNil } from '../view-model.js';
import { plural, seatName, teamLabel } from './names.js';
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


/**
 * Whether a spade has been played this hand, where spades may not be led before (the table's
 * `spades_broken` option); null where the rule is not played.
 * @param {PlayerView} v
 */
function spadesBroken(v) {
  if (v.options.spades_broken !== true || v.trump !== 'S') return null;
  const spade = (/** @type {string} */ c) => suitOf(c) === 'S';
  return v.tricks.some((t) => t.cards.some(spade)) || v.trick.plays.some((p) => spade(p.card));
}

/** A partnership's contract: its bids that are not nil, once both partners have bid. @param {PlayerView} v @param {number} team */
function contract(v, team) {
  const bids = [v.bids?.[team], v.bids?.[team + 2]];
  let sum = 0;
  for (const b of bids) {
    if (b === null || b === undefined) return null;
    if (!isNil(v, b)) sum += b;
  }
  return sum;
}

/**
 * Bridge's facts: the board and who is vulnerable, the contract once made ("3NT by North (Ada),
 * doubled"), and during play the auction, folded away until asked for.
 * @param {TableState} s @param {PlayerView} v
 */
function bridgeFacts(s, v) {
  const bridge = v.bridge;
  if (!bridge) return null;
  const contract = bridge.contract;
  const calls = v.calling?.calls.length ?? 0;
  return [
    h('span', { class: 'fact board-line', id: 'board-line', 'data-board': bridge.board, 'data-vulnerability': bridge.vulnerability }, boardText(bridge)),
    contract ? h('span', {
      class: `fact contract-line suit-${contract.bid.strain}`, id: 'contract',
      'data-contract': `${contract.bid.level}${contract.bid.strain}`, 'data-declarer': contract.declarer, 'data-doubled': contract.doubled,
    }, contractParts(s, contract)) : null,
    /** @type {string} */ (v.phase) !== 'calling' && calls ? h('details', { class: 'fact auction-details', id: 'auction-details' },
      h('summary', {}, t('bridge.auction')), auctionTable(s, v, true)) : null,
  ];
}

/** The facts of the hand in play. @param {TableState} s @param {PlayerView} v @param {VariantFacts} facts */
function handFacts(s, v, facts) {
  const out = [bridgeFacts(s, v) ?? h('span', { class: 'fact' }, t('head.hand', { n: v.hand_number + 1 }))];
  if (facts.hand_size_varies && v.phase !== 'match_over') {
    out.push(h('span', { class: 'fact', id: 'hand-size' }, t('head.each', { cards: plural(dealtSize(v), 'card') })));
  }
  // Bridge's trump is in its contract.
  if (v.trump && !v.bridge) {
    out.push(h('span', { class: `fact trump suit-${v.trump}`, id: 'trump' }, tParts('head.trump', { suit: h('strong', {}, suitLabel(v.trump)) })));
  } else if (facts.trump === 'turned_up' && v.phase !== 'match_over') {
    out.push(h('span', { class: 'fact trump', id: 'trump' }, t('head.no_trump')));
  }
  if (facts.trump === 'turned_up' && v.face_up.length) {
    out.push(h('span', { class: 'fact face-up', id: 'face-up' }, tParts('head.turned_up', {
      cards: h('span', {}, v.face_up.map((c) => h('strong', { class: `suit-${suitOf(c)}` }, cardShort(c), h('span', { class: 'sr-only' }, ` (${cardName(c)})`)))),
    })));
  }
  const broken = spadesBroken(v);
  if (broken !== null) out.push(h('span', { class: 'fact', id: 'spades-broken' }, broken ? t('head.spades_broken') : t('head.spades_not_broken')));
  if (facts.trump === 'dealer_last') {
    out.push(v.face_up.length
      ? h('span', { class: 'fact face-up', id: 'face-up' }, tParts('head.dealer_shows', {
        name: seatName(s, v.dealer),
        cards: h('span', {}, v.face_up.map((c) => h('strong', { class: `suit-${suitOf(c)}` }, cardShort(c), h('span', { class: 'sr-only' }, ` (${cardName(c)})`)))),
      }))
      : h('span', { class: 'fact' }, t('head.dealer', { name: seatName(s, v.dealer) })));
  }
  if (facts.partnerships) {
    const won = (/** @type {number} */ t) => v.tricks_won[t] + v.tricks_won[t + 2];
    // Where partners bid: their tricks against their contract, "North–South 3 of 7".
    const bid = (/** @type {number} */ t) => (v.bids ? contract(v, t) : null);
    const long = (/** @type {number} */ team) => (bid(team) === null ? t('head.team_tricks', { team: teamLabel(team), won: won(team) })
      : t('head.team_tricks_of', { team: teamLabel(team), won: won(team), bid: /** @type {number} */ (bid(team)) }));
    const short = (/** @type {number} */ team) => `${t(`team.short.${team}`)} ${won(team)}${bid(team) === null ? '' : `/${bid(team)}`}`;
    out.push(h('span', { class: 'fact', id: 'team-tricks' },
      // A small screen has the short form: "Tricks N–S 3/7 · E–W 2/5".
      h('span', { class: 'long-form' }, `${t('head.tricks')}: `,
        h('strong', { class: 'team-0-text' }, long(0)), ' · ',
        h('strong', { class: 'team-1-text' }, long(1))),
      h('span', { class: 'short-form', 'aria-hidden': 'true' }, `${t('head.tricks')} `,
        h('strong', { class: 'team-0-text' }, short(0)), ' · ',
        h('strong', { class: 'team-1-text' }, short(1)))));
  }
  if (facts.trump === 'undealt' && v.face_up.length) {
    out.push(h('span', { class: 'fact face-up', id: 'face-up' }, tParts('head.left_over', {
      cards: h('span', {}, v.face_up.map((c) => h('strong', { class: `suit-${suitOf(c)}` }, cardShort(c), h('span', { class: 'sr-only' }, ` (${cardName(c)})`), ' '))),
    })));
  }
  if (facts.prize > 0) out.push(h('span', { class: 'fact', id: 'pool' }, tParts('head.pool', { pool: h('strong', {}, String(v.pool)) })));
  if (heartsMatter(facts)) out.push(h('span', { class: 'fact' }, v.hearts_broken ? t('head.hearts_broken') : t('head.hearts_not_broken')));
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
      v?.face_up, v?.dealer, v?.tricks_won, v?.pool, v?.hearts_broken, s.seat, s.table?.practice, v?.bids, v?.phase,
      v && dealtSize(v), v && spadesBroken(v), v?.bridge, v?.calling?.calls];
  }, (el, s) => {
    const v = s.view;
    const facts = factsOf(s);
    // Bridge's auction, once opened, stays open as the head is drawn again.
    const open = /** @type {HTMLDetailsElement | null} */ (el.querySelector('#auction-details'))?.open ?? false;
    replaceChildren(el,
      h('div', { class: 'title-row' },
        h('h1', {}, tableTitle(s)),
        s.role === 'spectator' ? h('span', { class: 'badge watch', id: 'spectating' }, t('head.watching')) : null,
        // Never silent: whoever chose a practice table's seed can know every deal.
        s.table?.practice ? h('span', { class: 'badge practice', id: 'practice', title: t('head.practice_title') },
          // On a small screen only "Practice" shows (the rest is in the title), so the game keeps its height.
          t('head.practice'), h('span', { class: 'practice-more' }, t('head.practice_more'))) : null,
        h('div', { class: 'facts' }, v && facts ? handFacts(s, v, facts) : [])),
      s.table?.status === 'playing' ? null : inviteBox(s, actions));
    const details = /** @type {HTMLDetailsElement | null} */ (el.querySelector('#auction-details'));
    if (details && open) details.open = true;
  });
}
