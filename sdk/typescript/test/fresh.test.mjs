// protocol.d.ts is what generate.mjs makes from docs/protocol.schema.json today: a schema
// change without `npm run generate` fails here, as a stale schema fails the Rust tests.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { generate, OUTPUT } from '../generate.mjs';

test('protocol.d.ts is generated from the current schema', async () => {
  const fresh = await generate();
  const committed = readFileSync(OUTPUT, 'utf8');
  assert.ok(
    committed === fresh,
    'sdk/typescript/protocol.d.ts is stale: run `npm run generate` in sdk/typescript',
  );
});

test('every message type of the schema is a member of the generated unions', async () => {
  const schema = JSON.parse(
    readFileSync(new URL('../../../docs/protocol.schema.json', import.meta.url), 'utf8'),
  );
  const text = readFileSync(OUTPUT, 'utf8');
  for (const side of ['client_to_server', 'server_to_client']) {
    for (const variant of schema[side].oneOf) {
      const type = variant.properties.type.const;
      assert.ok(text.includes(`type: '${type}';`), `${side}: ${type}`);
    }
  }
});
