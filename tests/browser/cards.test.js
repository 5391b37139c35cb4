// The web client's card syntax is the protocol's: the schema's `Card` pattern, run in Node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { CARD_PATTERN, isCard } from '../../web/cards.js';

const schema = JSON.parse(
  readFileSync(new URL('../../docs/protocol.schema.json', import.meta.url), 'utf8'),
);

test('isCard accepts exactly what the schema pattern accepts', () => {
  const pattern = new RegExp(schema.client_to_server.$defs.Card.pattern);
  assert.equal(CARD_PATTERN.source, pattern.source);
  for (let a = 32; a < 127; a++) {
    for (let b = 32; b < 127; b++) {
      const text = String.fromCharCode(a, b);
      assert.equal(isCard(text), pattern.test(text), text);
      const ten = `10${String.fromCharCode(b)}`;
      assert.equal(isCard(ten), pattern.test(ten), ten);
    }
  }
  for (const good of ['QS', 'qs', 'TD', '10H', '10h']) assert.equal(isCard(good), true, good);
  for (const bad of ['Q♠', ' QS', 'QS\n', '010H', '', null, 12]) {
    assert.equal(isCard(bad), false, String(bad));
  }
});

test('the jokers are spades above the ace, named and drawn as jokers', async () => {
  const { cardName, cardShort, isJoker, sortEngine, sortHand, suitOf, cardClasses } = await import('../../web/cards.js');
  for (const good of ['LJ', 'BJ', 'lj', 'bJ']) assert.equal(isCard(good), true, good);
  for (const bad of ['JJ', 'LS', 'BJJ', 'XJ']) assert.equal(isCard(bad), false, bad);
  assert.equal(cardName('BJ'), 'Big joker');
  assert.equal(cardName('LJ'), 'Little joker');
  assert.equal(cardName('AS'), 'Ace of spades');
  assert.equal(cardShort('BJ'), 'BJ★');
  assert.equal(isJoker('BJ') && !isJoker('JS'), true);
  assert.equal(suitOf('LJ'), 'S');
  assert.deepEqual(cardClasses('BJ'), ['suit-S', 'joker', 'joker-big']);
  assert.deepEqual(cardClasses('QH'), ['suit-H']);
  // The server's order: spades 2 to ace, then the little and the big joker.
  assert.deepEqual(sortEngine(['BJ', '3C', 'AS', 'LJ', '2S']), ['3C', '2S', 'AS', 'LJ', 'BJ']);
  assert.deepEqual(sortHand(['BJ', '2H', 'LJ', 'KS', '3C']), ['3C', 'KS', 'LJ', 'BJ', '2H']);
});
