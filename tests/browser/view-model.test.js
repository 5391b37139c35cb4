// The client's event-applying logic, run in Node: the same module the page loads.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { applyEvent, applyYourTurn, dealtSize, isNil, trickOnTable } from '../../web/view-model.js';
import { cardName, sortHand } from '../../web/cards.js';
import { FACTS } from './lib/variants.js';

function hearts(seat = 0) {
  return {
    variant: 'hearts', options: { target: 100, passing: true, moon: 'add' }, seat, players: 4,
    phase: 'passing', hand_number: 0, dealer: 3, hand: [], hand_sizes: [0, 0, 0, 0], trump: null,
    face_up: [], trick: { leader: 0, plays: [] }, tricks: [], tricks_won: [0, 0, 0, 0],
    hearts_broken: false, pass: null, totals: [0, 0, 0, 0], negatives: [0, 0, 0, 0], pool: 0,
    history: [], to_act: [], legal: { type: 'wait' }, winners: [],
  };
}

const apply = (view, ...events) => events.reduce((v, e) => applyEvent(v, e, FACTS[v.variant]), view);

test('a new hand deals my cards and opens the passing', () => {
  const v = apply(hearts(1),
    { kind: 'hand_started', hand: 0, dealer: 3, pass: 'left' },
    { kind: 'dealt', seat: 1, cards: ['2C', '3C', 'QS'] });
  assert.deepEqual(v.hand, ['2C', '3C', 'QS']);
  assert.equal(v.phase, 'passing');
  assert.equal(v.pass.direction, 'left');
  assert.deepEqual(v.pass.waiting, [0, 1, 2, 3]);
  assert.deepEqual(v.hand_sizes, [13, 3, 13, 13]);
});

test('applying an event never changes the view it was given', () => {
  const before = hearts(0);
  const copy = structuredClone(before);
  applyEvent(before, { kind: 'hand_started', hand: 0, dealer: 3, pass: null }, FACTS.hearts);
  assert.deepEqual(before, copy);
});

test('passing moves my cards out and the received ones in', () => {
  let v = apply(hearts(0),
    { kind: 'hand_started', hand: 0, dealer: 3, pass: 'left' },
    { kind: 'dealt', seat: 0, cards: ['2C', '3C', '4C', 'QS', 'AH'] });
  v = applyYourTurn(v, { type: 'pass', count: 3, direction: 'left', from: v.hand }, FACTS.hearts);
  assert.equal(v.legal.type, 'pass');
  v = apply(v, { kind: 'pass_chosen', seat: 0 });
  assert.equal(v.legal.type, 'wait');
  assert.deepEqual(v.pass.waiting, [1, 2, 3]);
  assert.equal(v.phase, 'passing');
  // The last choice ends the passing; the cards then change hands.
  v = apply(v, ...[1, 2, 3].map((seat) => ({ kind: 'pass_chosen', seat })));
  assert.equal(v.phase, 'playing');
  v = apply(v,
    { kind: 'cards_passed', from: 0, to: 1, cards: ['3C', 'QS', 'AH'] },
    { kind: 'cards_passed', from: 3, to: 0, cards: ['KD', '5S', '2H'] });
  assert.deepEqual(v.hand, ['2C', '4C', 'KD', '2H', '5S'], 'in the engine\u2019s order');
  assert.deepEqual(v.pass.given, ['3C', 'QS', 'AH']);
  assert.deepEqual(v.pass.received, ['KD', '5S', '2H']);
  assert.equal(v.phase, 'playing');
});

test('plays fill the trick, the winner collects it and leads', () => {
  let v = apply(hearts(2),
    { kind: 'hand_started', hand: 3, dealer: 2, pass: null },
    { kind: 'dealt', seat: 2, cards: ['2C', 'AH'] });
  v = apply(v, { kind: 'played', seat: 3, card: '2C' });
  assert.equal(v.trick.leader, 3);
  assert.deepEqual(v.to_act, [0]);
  v = apply(v,
    { kind: 'played', seat: 0, card: 'KC' },
    { kind: 'played', seat: 1, card: 'AH' });
  assert.equal(v.hearts_broken, true);
  v = applyYourTurn(v, { type: 'play', cards: ['AH'] }, FACTS.hearts);
  assert.deepEqual(v.to_act, [2]);
  v = apply(v, { kind: 'played', seat: 2, card: 'AH' });
  assert.deepEqual(v.hand, ['2C']);
  assert.equal(v.legal.type, 'wait');
  // The trick is full: on the table until someone says who won it.
  assert.equal(trickOnTable(v).plays.length, 4);
  v = apply(v, { kind: 'trick_won', winner: 0, cards: ['2C', 'KC', 'AH', 'AH'] });
  assert.deepEqual(v.trick.plays, []);
  assert.equal(v.trick.leader, 0);
  assert.deepEqual(v.tricks_won, [1, 0, 0, 0]);
  assert.deepEqual(v.to_act, [0]);
  assert.deepEqual(v.tricks[0], { leader: 3, cards: ['2C', 'KC', 'AH', 'AH'], winner: 0 });
  // While the next trick is empty, the one just won stays visible.
  const shown = trickOnTable(v);
  assert.equal(shown.done, true);
  assert.equal(shown.winner, 0);
  assert.deepEqual(shown.plays.map((p) => p.seat), [3, 0, 1, 2]);
});

test('a scored hand goes on the sheet and the match can end', () => {
  let v = hearts(0);
  v = apply(v, {
    kind: 'hand_scored', hand: 0, points: [0, 26, 0, 0], penalties: [0, 0, 0, 0], tricks: [4, 3, 3, 3],
    totals: [0, 26, 0, 0], pool_carried: 0, moon: null,
  });
  assert.equal(v.history.length, 1);
  assert.equal(v.history[0].kind, undefined);
  assert.deepEqual(v.totals, [0, 26, 0, 0]);
  v = apply(v, { kind: 'match_over', winners: [0, 2], totals: [0, 126, 0, 50] });
  assert.equal(v.phase, 'match_over');
  assert.deepEqual(v.winners, [0, 2]);
  // Playing again: hand 0 of a new match clears the sheet.
  v = apply(v, { kind: 'hand_started', hand: 0, dealer: 0, pass: 'left' });
  assert.deepEqual(v.history, []);
  assert.deepEqual(v.totals, [0, 0, 0, 0]);
  assert.deepEqual(v.winners, []);
  assert.equal(v.phase, 'passing');
});

test('whist shows the dealer card until it is played; filippa keeps two totals', () => {
  let v = { ...hearts(0), variant: 'whist' };
  v = apply(v,
    { kind: 'hand_started', hand: 0, dealer: 1, pass: null },
    { kind: 'trump_shown', trump: 'D', cards: ['7D'] });
  assert.equal(v.trump, 'D');
  assert.deepEqual(v.face_up, ['7D']);
  v = apply(v, { kind: 'played', seat: 1, card: '7D' });
  assert.deepEqual(v.face_up, []);
  assert.equal(v.trump, 'D');

  let f = { ...hearts(0), variant: 'filippa' };
  f = apply(f, {
    kind: 'hand_scored', hand: 0, points: [0, 0, 0, 0], penalties: [-10, -20, -3, -3], tricks: [3, 4, 3, 3],
    totals: [0, 0, 0, 0], pool_carried: 36, moon: null,
  }, { kind: 'hand_started', hand: 1, dealer: 0, pass: 'left' });
  assert.deepEqual(f.negatives, [-10, -20, -3, -3]);
  assert.equal(f.pool, 72);
});

test('cards have spoken names and hands sort by suit', () => {
  assert.equal(cardName('QS'), 'Queen of spades');
  assert.equal(cardName('TH'), 'Ten of hearts');
  assert.deepEqual(sortHand(['AH', '2S', 'KC', '3D', '2C']), ['2C', 'KC', '3D', '2S', 'AH']);
});

test('the first leader: the two of clubs in hearts (if it is mine), the dealer’s left elsewhere', () => {
  let v = apply(hearts(1),
    { kind: 'hand_started', hand: 3, dealer: 0, pass: null },
    { kind: 'dealt', seat: 1, cards: ['3C', 'AH'] });
  assert.deepEqual(v.to_act, [], 'someone else holds the two of clubs');
  v = apply(hearts(1),
    { kind: 'hand_started', hand: 0, dealer: 0, pass: 'left' },
    { kind: 'dealt', seat: 1, cards: ['3C', 'AH', 'KD'] },
    ...[0, 1, 2, 3].map((seat) => ({ kind: 'pass_chosen', seat })),
    { kind: 'cards_passed', from: 0, to: 1, cards: ['2C'] });
  assert.deepEqual(v.to_act, [1], 'the two of clubs was passed to me');
  v = apply(hearts(1),
    { kind: 'hand_started', hand: 0, dealer: 0, pass: 'left' },
    { kind: 'dealt', seat: 1, cards: ['2C', 'AH', 'KD'] },
    ...[0, 1, 2, 3].map((seat) => ({ kind: 'pass_chosen', seat })),
    { kind: 'cards_passed', from: 1, to: 2, cards: ['2C'] });
  assert.deepEqual(v.to_act, [2], 'I passed the two of clubs to my left');
  assert.equal(v.trick.leader, 2);
  const w = apply({ ...hearts(0), variant: 'whist' }, { kind: 'hand_started', hand: 2, dealer: 3, pass: null });
  assert.deepEqual(w.to_act, [0]);
});

test('bidding: the dealer’s left bids first, each bid moves the turn on, the dealer’s bid starts play', () => {
  const facts = FACTS.ohhell;
  let v = { ...hearts(0), variant: 'ohhell', options: { players: 3, schedule: 'down', hook: true, scoring: 'standard' }, players: 3,
    hand_sizes: [0, 0, 0], tricks_won: [0, 0, 0], totals: [0, 0, 0], negatives: [0, 0, 0] };
  v = apply(v,
    { kind: 'hand_started', hand: 4, dealer: 2, pass: null, hand_size: 5 },
    { kind: 'dealt', seat: 0, cards: ['2C', '3C', '4D', 'QS', 'AH'] },
    { kind: 'trump_shown', trump: 'D', cards: ['9D'] });
  assert.equal(v.phase, 'bidding');
  assert.deepEqual(v.hand_sizes, [5, 5, 5], 'the hand’s own size, not the variant’s largest');
  assert.deepEqual(v.bids, [null, null, null]);
  assert.deepEqual(v.to_act, [0]);
  assert.deepEqual(v.face_up, ['9D']);
  v = applyYourTurn(v, { type: 'bid', min: 0, max: 5, forbidden: null }, facts);
  assert.equal(v.legal.type, 'bid');
  assert.deepEqual(v.to_act, [0], 'a bid prompt leaves the trick alone');
  v = apply(v, { kind: 'bid', seat: 0, tricks: 2 });
  assert.equal(v.legal.type, 'wait');
  assert.deepEqual(v.to_act, [1]);
  v = apply(v, { kind: 'bid', seat: 1, tricks: 1 }, { kind: 'bid', seat: 2, tricks: 0 });
  assert.deepEqual(v.bids, [2, 1, 0]);
  assert.equal(v.phase, 'playing');
  assert.deepEqual(v.to_act, [0]);
  assert.equal(dealtSize(v), 5);
  v = apply(v, { kind: 'played', seat: 0, card: 'AH' });
  assert.equal(dealtSize(v), 5, 'a card on the table still counts');
  assert.equal(isNil(v, 0), false, 'no nil in oh hell');
  assert.equal(isNil({ ...v, options: { nil: true } }, 0), true);
  // A variant without bidding has no bids at all.
  const h = apply(hearts(0), { kind: 'hand_started', hand: 1, dealer: 0, pass: null });
  assert.equal('bids' in h, false);
});

/** Bridge's facts as `/api/variants` gives them (the parts the view logic reads). */
const BRIDGE = {
  hand_size: 13, pass_count: 0, prize: 0, partnerships: true, first_lead: 'declarers_left', trump: 'contract',
  bad_card_penalty: null, low_score_wins: false, two_totals: false, points_in_hand: false, trick_points: false, card_points: {},
};

test('bridge: the dealer calls first, a contract starts play at declarer’s left, declarer acts for dummy, claims', () => {
  const me = 1; // East, a defender
  const bridge = (v, ...events) => events.reduce((w, e) => applyEvent(w, e, BRIDGE, me), v);
  let v = bridge({ ...hearts(me), variant: 'bridge', options: { hands: 4, rubber: false }, pass: null },
    { kind: 'hand_started', hand: 2, dealer: 2 },
    { kind: 'board', board: 3, vulnerability: 'EastWest' });
  assert.equal(v.phase, 'calling');
  assert.deepEqual(v.to_act, [2], 'the dealer calls first');
  assert.equal(v.trick.leader, 2);
  assert.deepEqual(v.bridge, { board: 3, vulnerability: 'EastWest', contract: null, dummy: null, claim: null });
  v = bridge(v,
    { kind: 'called', seat: 2, call: 'bid', level: 1, strain: 'NT' },
    { kind: 'called', seat: 3, call: 'double' });
  assert.deepEqual(v.to_act, [0]);
  assert.deepEqual(v.calling.calls[0], { seat: 2, call: 'bid', level: 1, strain: 'NT' });
  v = bridge(v, { kind: 'called', seat: 0, call: 'pass' }, { kind: 'called', seat: 1, call: 'pass' }, { kind: 'called', seat: 2, call: 'pass' },
    { kind: 'contract', contract: { bid: { level: 1, strain: 'NT' }, doubled: 'doubled', declarer: 2 } });
  assert.equal(v.phase, 'playing');
  assert.equal(v.trump, null, 'no trump');
  assert.deepEqual(v.to_act, [3], 'declarer’s left leads');
  v = bridge(v, { kind: 'played', seat: 3, card: '5H' }, { kind: 'dummy_shown', seat: 0, cards: ['2C', 'AH', 'KS'] });
  assert.deepEqual(v.bridge.dummy, { seat: 0, cards: ['2C', 'AH', 'KS'] });
  assert.deepEqual(v.to_act, [2], 'dummy’s turn is declarer’s');
  v = bridge(v, { kind: 'played', seat: 0, card: 'AH' });
  assert.deepEqual(v.bridge.dummy.cards, ['2C', 'KS'], 'dummy’s card leaves dummy');
  assert.deepEqual(v.to_act, [1]);
  v = bridge(v, { kind: 'played', seat: 1, card: '2H' }, { kind: 'played', seat: 2, card: '3H' }, { kind: 'trick_won', winner: 0 });
  assert.deepEqual(v.to_act, [2], 'dummy won the trick: declarer leads from dummy');
  // Declarer asked for dummy's cards leads from dummy's seat.
  const declarerView = applyYourTurn({ ...v, seat: 2 }, { type: 'play', cards: ['2C', 'KS'] }, BRIDGE, 2);
  assert.equal(declarerView.trick.leader, 0);
  assert.deepEqual(declarerView.to_act, [2]);
  v = bridge(v, { kind: 'claimed', seat: 2, tricks: 12, cards: ['4D'] });
  assert.deepEqual(v.to_act, [1, 3], 'the defenders answer');
  assert.deepEqual(v.bridge.claim, { seat: 2, tricks: 12, cards: ['4D'], accepted: [] });
  v = bridge(v, { kind: 'claim_answered', seat: 3, accept: true });
  assert.deepEqual(v.bridge.claim.accepted, [3]);
  assert.deepEqual(v.to_act, [1]);
  v = bridge(v, { kind: 'claim_answered', seat: 1, accept: false });
  assert.equal(v.bridge.claim, null, 'a rejection withdraws the claim');
  assert.deepEqual(v.to_act, [2], 'play goes on: declarer, for dummy');
});
