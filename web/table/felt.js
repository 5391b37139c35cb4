// @ts-check
// The felt: a name plate per seat around the table (with its bid and tricks, where players
// bid) and, in the middle, the trick, whose turn it is, who took the last trick, the bids so
// far, the cards passed to you and any notice.
//
// Owns: that section, with one part per plate and one for the middle, each drawn again only
// when what it shows changed. May not touch: the state.

import { cardName, cardShort, sortHand, SUIT_SYMBOLS, suitName, suitOf } from '../cards.js';
import { t, tParts } from '../i18n/index.js';
import { h, replaceChildren } from '../dom.js';
import { dealtSize, passSteps, trickOnTable } from '../view-model.js';
import { staticCard } from './card-view.js';
import { bidStat } from './bid.js';
import { auctionTable, isAuctionTable, isVulnerable } from './auction.js';
import { seatCallText } from './calls.js';
import { claimNote, dummyCards, playsDummy } from './dummy.js';
import { flyIn } from './motion.js';
import {
  botStrength, directionText, isHost, isMe, minus, nameInLine, partnerships, plural, position, seatInfo, seatName, winnersText,
} from './names.js';
import { part } from './part.js';
import { factsOf } from './state.js';
import { penaltiesTaken } from './taken.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('./part.js').Part<TableState>} Part */
/** @typedef {import('./actions.js').Actions} Actions */

/** The badges of a plate: host, computer, away, dealer, partner. @param {TableState} s @param {PlayerView} v @param {number} seat */
function badges(s, v, seat) {
  const info = seatInfo(s, seat);
  const out = [];
  if (s.table?.host === seat) out.push(h('span', { class: 'badge host' }, t('badge.host')));
  if (info?.occupant === 'bot') out.push(h('span', { class: 'badge bot', title: botStrength(info) || null }, t('badge.computer')));
  if (info?.bot_playing) out.push(h('span', { class: 'badge away' }, info.connected ? t('badge.computer_for_now') : t('badge.away_computer')));
  else if (info && info.occupant === 'human' && !info.connected) out.push(h('span', { class: 'badge away' }, t('badge.away')));
  if (seat === v.dealer) out.push(h('span', { class: 'badge dealer', title: t('badge.dealer_title') }, t('badge.dealer')));
  out.push(...callBadges(v, seat));
  out.push(...bridgeBadges(v, seat));
  if (partnerships(s) && !isMe(s, seat)) {
    const mine = s.role === 'player' && s.seat !== null && seat % 2 === s.seat % 2;
    out.push(h('span', { class: `badge team team-${seat % 2} ${mine ? 'partner' : 'opponent'}` }, mine ? t('badge.partner') : t('badge.opponent')));
  }
  return out;
}

/**
 * Euchre's badges: who made trump (and in which suit, alone or not), who defends alone.
 * @param {PlayerView} v @param {number} seat
 */
function callBadges(v, seat) {
  const made = v.calling?.made;
  if (!made) return [];
  const out = [];
  if (made.maker === seat) {
    out.push(h('span', { class: `badge maker suit-${made.trump}`, id: `maker-${seat}`, title: t('badge.maker_title', { suit: suitName(made.trump) }) },
      `${t(made.alone ? 'badge.maker_alone' : 'badge.maker')} ${SUIT_SYMBOLS[made.trump]}`));
  }
  if (made.defender_alone === seat) out.push(h('span', { class: 'badge maker defender' }, t('badge.defends_alone')));
  return out;
}

/**
 * Bridge's badges: declarer and dummy once the contract is made, and a seat vulnerable on the
 * board (its plate is red too).
 * @param {PlayerView} v @param {number} seat
 */
function bridgeBadges(v, seat) {
  const bridge = v.bridge;
  if (!bridge) return [];
  const out = [];
  const contract = bridge.contract;
  if (contract?.declarer === seat) out.push(h('span', { class: 'badge declarer' }, t('bridge.declarer')));
  if (contract && (contract.declarer + 2) % v.players === seat) out.push(h('span', { class: 'badge dummy' }, t('bridge.dummy')));
  if (isVulnerable(bridge.vulnerability, seat)) out.push(h('span', { class: 'badge vulnerable' }, t('bridge.vulnerable')));
  return out;
}

/**
 * What can be done about a seat during a match: the host lets a computer play a person's seat
 * for now, or opens a seat given up to a newcomer; a player a computer stands in for plays
 * again.
 * @param {TableState} s @param {PlayerView} v @param {number} seat @param {Actions | undefined} actions
 */
function plateActions(s, v, seat, actions) {
  const info = seatInfo(s, seat);
  if (!actions || !info || v.phase === 'match_over' || s.table?.status !== 'playing') return null;
  if (isMe(s, seat)) {
    return info.bot_playing
      ? h('button', { type: 'button', class: 'plate-action', id: 'play-myself', onclick: () => actions.back() }, t('plate.play_myself'))
      : null;
  }
  if (!isHost(s)) return null;
  if ((info.occupant === 'human' || info.occupant === 'remote_bot') && !info.bot_playing) {
    if (s.standInAsk === seat) {
      // Asked first: a person's seat is not handed to a computer by one slip of a finger.
      return h('span', { class: 'plate-confirm', role: 'group', 'aria-label': t('plate.stand_in_ask', { name: seatName(s, seat) }) },
        h('button', { type: 'button', class: 'plate-action primary', id: 'stand-in-yes', 'data-stand-in-yes': seat, onclick: () => actions.standIn(seat) },
          t('plate.stand_in_yes', { name: seatName(s, seat) })),
        h('button', { type: 'button', class: 'plate-action', id: 'stand-in-no', onclick: () => actions.askStandIn(null) }, t('plate.stand_in_no')));
    }
    return h('button', { type: 'button', class: 'plate-action', 'data-stand-in': seat, onclick: () => actions.askStandIn(seat) }, t('plate.stand_in'));
  }
  if (info.occupant === 'empty' && info.bot_playing && !info.open) {
    return h('button', { type: 'button', class: 'plate-action', 'data-open-seat': seat, onclick: () => actions.openSeat(seat) }, t('plate.open_seat'));
  }
  return null;
}

/** A seat's score on its plate: points, or prize and penalty in a game of two totals. @param {TableState} s @param {PlayerView} v @param {number} seat */
function score(s, v, seat) {
  if (factsOf(s)?.two_totals) {
    return h('span', { class: 'stat', title: t('plate.two_totals_title') },
      h('span', { class: 'plus' }, `+${v.totals[seat]}`, h('span', { class: 'sr-only' }, ` ${t('plate.prize')}`)), ' / ',
      h('span', { class: 'minus' }, minus(v.negatives[seat]), h('span', { class: 'sr-only' }, ` ${t('plate.penalty')}`)));
  }
  return h('span', { class: 'stat' }, t('plate.points', { count: v.totals[seat] }));
}

/** The penalty cards `seat` has taken this hand, or null. @param {TableState} s @param {PlayerView} v @param {number} seat */
function taken(s, v, seat) {
  const mine = penaltiesTaken(v, factsOf(s))?.[seat];
  if (!mine || (!mine.hearts && !mine.queen)) return null;
  const words = [mine.hearts ? plural(mine.hearts, 'heart') : '', mine.queen ? t('plate.the_queen') : ''].filter((w) => w);
  return h('span', { class: 'stat taken', 'data-hearts': mine.hearts, 'data-queen': String(mine.queen), title: t('plate.taken_title') },
    h('span', { 'aria-hidden': 'true' }, [mine.hearts ? `♥${mine.hearts}` : '', mine.queen ? 'Q♠' : ''].filter((w) => w).join(' ')),
    h('span', { class: 'sr-only' }, t('plate.took', { cards: words.join(` ${t('common.and')} `) })));
}

/**
 * "Sam (you)" on your own plate: on a phone the name may be cut short (it says itself whole in
 * its title), the words around it never are.
 * @param {string} name
 */
function ownName(name) {
  return tParts('seat.you_named', { name: h('span', { class: 'own-name', title: name }, name) })
    .map((p) => (typeof p === 'string' ? h('span', { class: 'own-tag' }, p) : p));
}

/** The name plate of `seat`. @param {number} seat @param {Actions | undefined} actions @returns {Part} */
function platePart(seat, actions) {
  // Only this seat's own numbers count: a card played elsewhere leaves this plate alone.
  return part(h('div', { 'data-seat': seat, role: 'group' }), (s) => {
    const v = /** @type {PlayerView} */ (s.view);
    const took = penaltiesTaken(v, factsOf(s))?.[seat];
    return [s.table, s.role, s.seat, s.hostFlag, s.variants, v.players, v.to_act.includes(seat), v.phase, v.dealer === seat,
      v.totals[seat], v.negatives[seat], v.hand_sizes[seat], v.tricks_won[seat], v.pass?.waiting.includes(seat), took?.hearts, took?.queen,
      v.bids?.[seat], v.options, s.standInAsk === seat, v.calling?.made, v.calling?.out,
      // Bridge: the board and contract; dummy's cards and the prompt only on dummy's plate.
      v.bridge?.vulnerability, v.bridge?.contract, ...(v.bridge?.dummy?.seat === seat ? [v.bridge.dummy, v.legal] : [null, null])];
  }, (el, s) => {
    const v = /** @type {PlayerView} */ (s.view);
    const me = isMe(s, seat);
    const turn = v.to_act.includes(seat) && v.phase !== 'match_over';
    // A seat sitting the hand out (Euchre's lone hands) is dimmed and plays no card.
    const out = v.calling?.out.includes(seat) ?? false;
    const vulnerable = v.bridge ? isVulnerable(v.bridge.vulnerability, seat) : false;
    const dummy = dummyCards(s, v, seat, actions);
    el.className = `plate pos-${position(s, seat)}${turn ? ' turn' : ''}${me ? ' me' : ''}${partnerships(s) ? ` team-${seat % 2}` : ''}${out ? ' sits-out' : ''}${vulnerable ? ' vulnerable' : ''}${dummy ? ' has-dummy' : ''}`;
    const phase = /** @type {string} */ (v.phase);
    const toDo = phase === 'bidding' ? 'plate.to_bid' : phase === 'calling' ? 'plate.to_call' : phase === 'discarding' ? 'plate.to_discard' : 'plate.to_play';
    el.setAttribute('aria-label', turn ? t(toDo, { name: seatName(s, seat) }) : out ? t('plate.sits_out_label', { name: seatName(s, seat) }) : seatName(s, seat));
    const passed = v.phase === 'passing' && v.pass && !v.pass.waiting.includes(seat);
    // Where players bid, the tricks taken read against the bid ("2/3") once it is made.
    const tricks = bidStat(v, seat) || h('span', { class: 'stat' }, plural(v.tricks_won[seat], 'trick'));
    replaceChildren(el,
      // A phone may cut another's name short on its plate: the title says it whole.
      h('div', { class: 'plate-name', title: me ? null : seatName(s, seat) }, me ? ownName(seatInfo(s, seat)?.name || t('seat.you')) : seatName(s, seat)),
      h('div', { class: 'plate-badges' }, badges(s, v, seat)),
      h('div', { class: 'plate-stats' },
        h('span', { class: 'stat' }, plural(v.hand_sizes[seat], 'card')),
        tricks,
        taken(s, v, seat),
        score(s, v, seat)),
      passed ? h('div', { class: 'plate-note' }, t('plate.passed')) : null,
      out ? h('div', { class: 'plate-note sits-out-note' }, t('plate.sits_out')) : null,
      dummy,
      plateActions(s, v, seat, actions));
  });
}

/** What a call prompt asks, by the calls it allows. @param {any} legal */
export function callPrompt(legal) {
  if (legal.defend_alone) return t('turn.you_defend');
  if (legal.order_up) return t('turn.you_call');
  return t(legal.pass ? 'turn.you_name' : 'turn.you_must_name');
}

/** What the middle of the table says about whose turn it is. @param {TableState} s @param {PlayerView} v */
export function turnText(s, v) {
  const player = s.role === 'player';
  if (v.phase === 'match_over') return t('turn.match_over', { winners: winnersText(s, v.winners) });
  if (v.phase === 'passing' && v.pass) {
    const dir = directionText(v.pass.direction);
    if (player && v.legal.type === 'pass') return t('turn.choose_pass', { count: v.legal.count, dir });
    const waiting = v.pass.waiting.map((seat) => seatName(s, seat));
    return waiting.length ? t('turn.passing_wait', { dir, names: waiting.join(', ') }) : t('turn.passing', { dir });
  }
  if (player && s.seat !== null && seatInfo(s, s.seat)?.bot_playing && s.table?.status === 'playing') return t('turn.computer_plays');
  if (player && playsDummy(s, v)) return t('bridge.turn.you_play_dummy');
  if (player && v.legal.type === 'play') return t('turn.you_play');
  if (player && v.legal.type === 'bid') return t('turn.you_bid');
  if (player && v.legal.type === 'blind') return t('turn.you_blind');
  if (player && v.legal.type === 'exchange') return t('turn.choose_exchange', { count: v.legal.count, name: seatName(s, v.legal.to) });
  const legalType = /** @type {string} */ (v.legal.type);
  if (player && legalType === 'call' && isAuctionTable(s)) return t('bridge.turn.you_call');
  if (player && legalType === 'call') return callPrompt(v.legal);
  if (player && legalType === 'answer_claim') return t('bridge.turn.answer_claim', { name: seatName(s, v.bridge?.claim?.seat ?? 0), count: /** @type {any} */ (v.legal).tricks });
  if (v.bridge?.claim) return t('bridge.turn.claim_wait', { names: v.to_act.map((seat) => seatName(s, seat)).join(', ') });
  if (player && legalType === 'discard') return t('turn.you_discard');
  const phase = /** @type {string} */ (v.phase);
  const next = v.to_act.find((seat) => !(player && seat === s.seat));
  if (next !== undefined && phase === 'calling') return t('turn.their_call', { name: seatName(s, next) });
  if (next !== undefined && phase === 'discarding') return t('turn.their_discard', { name: seatName(s, next) });
  if (next !== undefined && v.phase === 'exchanging') return t('turn.exchanging', { name: seatName(s, next) });
  const contract = v.bridge?.contract;
  if (next !== undefined && contract && next === contract.declarer && v.phase === 'playing') {
    // Declarer's turn for dummy: "Ada plays from dummy".
    const plays = v.trick.plays;
    const seatToPlay = plays.length ? (plays[plays.length - 1].seat + 1) % v.players : v.trick.leader;
    if (seatToPlay === (contract.declarer + 2) % v.players) return t('bridge.turn.declarer_plays_dummy', { name: seatName(s, next) });
  }
  if (next !== undefined) return t(v.phase === 'bidding' ? 'turn.their_bid' : 'turn.theirs', { name: seatName(s, next) });
  if (factsOf(s)?.first_lead === 'two_of_clubs' && v.tricks.length === 0 && v.trick.plays.length === 0) {
    return t('turn.wait_two_clubs');
  }
  return t('turn.waiting');
}

/**
 * The turn's line as drawn: the words of `turnText`, with a claimant's name (long names make
 * the question of a claim run to three lines on a phone) as an element a phone may cut short.
 * @param {TableState} s @param {PlayerView} v
 */
function turnParts(s, v) {
  const text = turnText(s, v);
  const legal = /** @type {any} */ (v.legal);
  const claim = v.bridge?.claim;
  if (!claim || legal.type !== 'answer_claim') return text;
  const name = seatName(s, claim.seat);
  if (text !== t('bridge.turn.answer_claim', { name, count: legal.tricks })) return text;
  return tParts('bridge.turn.answer_claim', { name: nameInLine(name), count: legal.tricks });
}

/**
 * The bids so far against the tricks of the hand, while the players bid (the plates keep each
 * bid after): "Bids: 7 for 10 tricks".
 * @param {PlayerView} v
 */
function bidsNote(v) {
  if (!v.bids || v.phase !== 'bidding') return null;
  const made = v.bids.filter((b) => b !== null);
  if (!made.length) return null;
  const sum = made.reduce((a, b) => a + /** @type {number} */ (b), 0);
  return h('p', { class: 'trick-caption', id: 'bids-note' }, t('felt.bids_note', { sum, tricks: plural(dealtSize(v), 'trick') }));
}

/** "Bert passed you 2♣ 7♣ Q♠", before the first trick. @param {TableState} s @param {PlayerView} v */
function receivedNote(s, v) {
  const got = v.pass?.received || [];
  if (s.role !== 'player' || !got.length || !v.pass || v.tricks.length > 0 || v.phase !== 'playing' || s.seat === null) return null;
  const from = (s.seat - passSteps(v.pass.direction, v.players) + v.players) % v.players;
  return h('p', { class: 'trick-caption', id: 'received' }, tParts('felt.received', {
    name: seatName(s, from),
    cards: h('span', {}, sortHand(got).map((c) => h('strong', { class: `suit-${suitOf(c)} received-card` }, cardShort(c)))),
  }));
}

/** The trick shown in the middle and its caption. @param {TableState} s @param {PlayerView} v */
function shownTrick(s, v) {
  const last = s.lastTrick;
  if (s.showLast && last) {
    return { plays: last.plays, winner: last.winner, done: true, caption: t('felt.last_trick', { name: seatName(s, last.winner) }) };
  }
  const held = s.trickHold;
  if (held) {
    // Just finished: it stays a moment before the next trick shows (motion.js).
    return { plays: held.plays, winner: held.winner, done: true, caption: t('felt.took', { name: seatName(s, held.winner) }) };
  }
  const shown = trickOnTable(v);
  return { ...shown, caption: shown.done && shown.winner !== null ? t('felt.took', { name: seatName(s, shown.winner) }) : '' };
}

/**
 * Euchre's turned-up card, in the middle at the dealer's place while trump is being made (and
 * nothing else is on the table).
 * @param {TableState} s @param {PlayerView} v @param {boolean} busy cards are on the table
 */
function turnedUp(s, v, busy) {
  const card = v.face_up[0];
  if (busy || !card || !v.calling || /** @type {string} */ (v.phase) !== 'calling') return null;
  return h('div', { class: `played turned-up pos-${position(s, v.dealer)}`, id: 'turned-up', 'data-card': card },
    staticCard(card, t('felt.turned_up_label', { card: cardName(card), name: seatName(s, v.dealer) })),
    h('span', { class: 'played-by' }, t('felt.turned_up')));
}

/**
 * The calls so far while trump is made, and then who made it: "Ada: passes · Bert: orders up".
 * @param {TableState} s @param {PlayerView} v
 */
function callsNote(s, v) {
  const calling = v.calling;
  const phase = /** @type {string} */ (v.phase);
  if (!calling || (phase !== 'calling' && phase !== 'discarding') || !calling.calls.length || isAuctionTable(s)) return null;
  return h('p', { class: 'trick-caption', id: 'calls-note' },
    calling.calls.slice(-4).map((c) => seatCallText(s, c.seat, /** @type {any} */ (c))).join(' · '));
}

/**
 * Bridge's lines in the middle: the auction while it lasts (the board, the contract and the
 * auction folded away are in the head during play), and a pending claim.
 * @param {TableState} s @param {PlayerView} v
 */
function bridgeLines(s, v) {
  if (!v.bridge) return null;
  const calling = /** @type {string} */ (v.phase) === 'calling';
  return h('div', { class: 'bridge-info' }, calling ? auctionTable(s, v, false) : null, claimNote(s, v));
}

/** The middle of the table. @returns {Part} */
function centerPart() {
  return part(h('div', { class: 'center' }), (s) => {
    const v = /** @type {PlayerView} */ (s.view);
    return [s.table, s.role, s.seat, s.variants, s.showLast, s.notice, v.trick, v.tricks, v.legal, v.to_act, v.phase,
      v.pass, v.winners, v.players, s.trickHold, s.lastTrick, v.bids, v.calling, v.face_up, v.bridge];
  }, (el, s) => {
    const v = /** @type {PlayerView} */ (s.view);
    const shown = shownTrick(s, v);
    // Nothing flies on the first drawing (a page loaded mid-trick): only cards played since.
    const first = !el.querySelector('.trick');
    const before = new Set([...el.querySelectorAll('.trick:not(.done) .played')].map((p) => `${/** @type {HTMLElement} */ (p).dataset.seat}:${/** @type {HTMLElement} */ (p).dataset.card}`));
    // While the players bid there is no trick yet: the middle leaves its room to the words.
    const bidding = (v.phase === 'bidding' || (/** @type {string} */ (v.phase) === 'calling' && Boolean(v.bridge))) && shown.plays.length === 0;
    const trick = h('div', { class: `trick${shown.done ? ' done' : ''}${bidding ? ' bidding' : ''}`, role: 'group', 'aria-label': shown.done ? shown.caption : t('felt.cards_on_table') },
      turnedUp(s, v, shown.plays.length > 0),
      shown.plays.map((p) => h('div', { class: `played pos-${position(s, p.seat)}${shown.winner === p.seat ? ' winner' : ''}`, 'data-seat': p.seat, 'data-card': p.card },
        staticCard(p.card, t('felt.played_by', { name: seatName(s, p.seat), card: cardName(p.card) })),
        h('span', { class: 'played-by', title: seatName(s, p.seat) }, seatName(s, p.seat)))));
    const you = s.role === 'player' && v.legal.type !== 'wait';
    replaceChildren(el,
      bridgeLines(s, v),
      trick,
      // Not a live region: the announcements' log says each turn once (announcer.js).
      h('p', { class: `turn-text${you ? ' you' : ''}`, id: 'turn' }, turnParts(s, v), ' ', h('span', { class: 'turn-clock', id: 'turn-clock', hidden: true })),
      shown.caption ? h('p', { class: 'trick-caption', id: 'trick-caption' }, shown.caption) : null,
      bidsNote(v),
      callsNote(s, v),
      receivedNote(s, v),
      s.notice ? h('p', { class: 'notice' }, s.notice) : null);
    if (!first) flyIn(trick, before, s.role === 'player' ? s.seat : null);
  });
}

/** The felt with its plates and middle. @param {Actions} [actions] @returns {Part} */
export function feltPart(actions) {
  const el = h('section', { 'aria-label': t('felt.label') });
  /** @type {Part[]} */
  let plates = [];
  const center = centerPart();
  return {
    el,
    update(s) {
      const n = /** @type {PlayerView} */ (s.view).players;
      if (plates.length !== n) {
        plates = Array.from({ length: n }, (_, seat) => platePart(seat, actions));
        el.className = `felt players-${n}`;
        el.replaceChildren(...plates.map((p) => p.el), center.el);
      }
      for (const p of plates) p.update(s);
      center.update(s);
    },
  };
}
