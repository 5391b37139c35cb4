// @ts-check
// What a screen reader hears as the game goes: one line per event (a play, a trick taken, a
// bid, a hand's score, your turn), added in order to a polite live log that is not shown on
// screen, so nothing is read twice and nothing is skipped when events come quickly.
//
// Owns: the page's `#announcements` log and the words of each event. May not touch: the state.

import { cardName, suitName } from '../cards.js';
import { h } from '../dom.js';
import { listText, t } from '../i18n/index.js';
import { isBlindNil } from '../view-model.js';
import { bidText } from './bid.js';
import { boardText, contractText, isAuctionTable } from './auction.js';
import { seatCallText } from './calls.js';
import { handWords } from './text-view.js';
import { playsDummy } from './dummy.js';
import { callPrompt } from './felt.js';
import { directionText, isMe, seatName, teamName, winnersText } from './names.js';
import { factsOf } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */

/** Lines kept in the log: enough to read back the last trick or two. */
const KEPT = 40;

/** The words for one event, or "" for an event people need not hear. @param {TableState} s @param {any} event */
export function eventWords(s, event) {
  const v = s.view;
  if (!v) return '';
  const who = (/** @type {number} */ seat) => seatName(s, seat);
  switch (event.kind) {
    case 'hand_started':
      return t('say.hand_started', { n: event.hand + 1, dealer: who(event.dealer) });
    case 'trump_shown':
      return event.trump ? t('say.trump', { suit: suitName(event.trump) }) : '';
    case 'cards_passed':
      return event.to === s.seat && s.role === 'player'
        ? t('say.passed_you', { name: who(event.from), cards: listText(event.cards.map(cardName)) }) : '';
    case 'dealt_face_down':
      return t('say.face_down', { names: listText(event.seats.map(who)), count: event.seats.length });
    case 'cards_seen':
      // A blind nil bidder is shown their cards for the exchange: that is no choice to tell.
      if (isBlindNil(v, event.seat)) return '';
      return t(isMe(s, event.seat) ? 'say.you_cards_seen' : 'say.cards_seen', { name: who(event.seat) });
    case 'blind_nil':
      return t(isMe(s, event.seat) ? 'say.you_blind_nil' : 'say.blind_nil', { name: who(event.seat) });
    case 'bid':
      // A blind nil was said in words already; its bid of 0 that follows is not said again.
      if (event.tricks === 0 && isBlindNil(v, event.seat)) return '';
      return t(isMe(s, event.seat) ? 'say.you_bid' : 'say.bid', { name: who(event.seat), bid: bidText(v, event.tricks) });
    case 'exchanged':
      return t(isMe(s, event.to) ? 'say.exchanged_you' : isMe(s, event.from) ? 'say.you_exchanged' : 'say.exchanged',
        { from: who(event.from), to: who(event.to), count: event.count });
    case 'played':
      return t(isMe(s, event.seat) ? 'say.you_played' : 'say.played', { name: who(event.seat), card: cardName(event.card) });
    case 'trick_won':
      return t(isMe(s, event.winner) ? 'say.you_took' : 'say.took', { name: who(event.winner) });
    case 'bad_card':
      return t('notice.bad_card', { name: who(event.seat), card: cardName(event.card), count: event.penalty });
    case 'hand_scored':
      return t('say.hand_scored', { n: event.hand + 1, scores: scoresText(s, event.points, event.totals) });
    case 'match_over':
      return t('turn.match_over', { winners: winnersText(s, event.winners) });
    case 'turned_up':
      return t('say.turned_up', { card: listText(event.cards.map(cardName)), name: who(v.dealer) });
    case 'called':
      return `${seatCallText(s, event.seat, event)}.`;
    case 'trump_made':
      return t(event.alone ? 'say.trump_made_alone' : 'say.trump_made', { suit: suitName(event.trump), name: who(event.maker) });
    case 'sits_out':
      return t(isMe(s, event.seat) ? 'say.you_sit_out' : 'say.sits_out', { name: who(event.seat) });
    case 'picked_up':
      return t(isMe(s, event.seat) ? 'say.you_picked_up' : 'say.picked_up', { name: who(event.seat), card: cardName(event.card) });
    case 'discarded':
      return isMe(s, event.seat) ? '' : t('say.discarded', { name: who(event.seat) });
    case 'discarded_card':
      return isMe(s, event.seat) ? t('say.you_discarded', { card: cardName(event.card) }) : '';
    case 'thrown_in':
      return t(isAuctionTable(s) ? 'bridge.say.passed_out' : 'say.thrown_in');
    case 'board':
      return t('bridge.say.board', { line: boardText(event), dealer: who(v.dealer) });
    case 'contract':
      return t('bridge.say.contract', { contract: contractText(s, event.contract) });
    case 'dummy_shown':
      return t('bridge.say.dummy', { name: who(event.seat), cards: handWords({ ...v, hand: event.cards }) });
    case 'claimed':
      return t('bridge.say.claimed', { name: who(event.seat), count: event.tricks });
    case 'claim_answered':
      return t(event.accept ? 'bridge.say.accepted' : 'bridge.say.rejected', { name: who(event.seat) });
    default:
      return '';
  }
}

/**
 * "Ann 5 (total 12), Bert 0 (total 3)": per seat, or per partnership.
 * @param {TableState} s @param {number[]} points @param {number[]} totals
 */
export function scoresText(s, points, totals) {
  const teams = Boolean(factsOf(s)?.partnerships);
  const columns = teams ? [0, 1] : points.map((_, i) => i);
  return columns.map((c) => t('say.score', { name: teams ? teamName(s, c) : seatName(s, c), points: points[c], total: totals[c] })).join(', ');
}

/** What a prompt asks, in words. @param {TableState} s @param {any} legal */
export function promptWords(s, legal) {
  if (legal.type === 'play' && s.view && playsDummy(s, { ...s.view, legal })) return t('bridge.turn.you_play_dummy');
  if (legal.type === 'play') return t('turn.you_play');
  if (legal.type === 'bid') return t('turn.you_bid');
  if (legal.type === 'blind') return t('turn.you_blind');
  if (legal.type === 'exchange') return t('turn.choose_exchange', { count: legal.count, name: seatName(s, legal.to) });
  if (legal.type === 'pass') return t('turn.choose_pass', { count: legal.count, dir: directionText(legal.direction) });
  if (legal.type === 'call') return isAuctionTable(s) ? t('bridge.turn.you_call') : callPrompt(legal);
  if (legal.type === 'answer_claim') return t('bridge.turn.answer_claim', { name: seatName(s, s.view?.bridge?.claim?.seat ?? 0), count: legal.tricks });
  if (legal.type === 'discard') return t('turn.you_discard');
  return '';
}

/** The polite log of announcements, added to the page once. */
export class Announcer {
  constructor() {
    this.el = document.getElementById('announcements') || h('div', {
      id: 'announcements', class: 'sr-only', role: 'log', 'aria-live': 'polite', 'aria-label': t('say.label'),
    });
    if (!this.el.isConnected) document.body.append(this.el);
  }

  /** Adds a line to be read. @param {string} text */
  say(text) {
    if (!text) return;
    this.el.append(h('p', {}, text));
    while (this.el.childElementCount > KEPT) this.el.firstElementChild?.remove();
  }
}
