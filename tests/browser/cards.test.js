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
