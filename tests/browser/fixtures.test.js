// The web client's view logic against the engine's: every recorded stream of
// tests/fixtures/views/*.json (events and prompts one viewer saw, and the view the engine's
// `PlayerView::apply` gives after each) is replayed through web/view-model.js, which must give
// exactly the same views. No browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { applyEvent, applyYourTurn } from '../../web/view-model.js';
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'views');
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];

test('the engine recorded view fixtures to replay', () => {
  // Without them every check below would pass by checking nothing.
  assert.ok(files.length > 0, `no view fixtures in ${dir}: the workspace test that records them writes them there`);
});

for (const file of files) {
  test(`the views of ${file} come out of the client's event logic as the engine gives them`, () => {
    const fixture = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    const facts = fixture.info?.facts;
    assert.ok(facts, `${file}: the variant entry has its facts`);
    assert.equal(fixture.info.name, fixture.variant);
    assert.ok(fixture.streams.length > 0, `${file} holds no streams`);
    let steps = 0;
    for (const [s, stream] of fixture.streams.entries()) {
      let view = stream.start;
      for (const [i, step] of stream.steps.entries()) {
        const what = step.event ? `event ${JSON.stringify(step.event)}` : `prompt ${JSON.stringify(step.legal)}`;
        const previous = view;
        const untouched = structuredClone(previous);
        view = step.event
          ? applyEvent(previous, step.event, facts, stream.seat)
          : applyYourTurn(previous, step.legal, facts, stream.seat);
        assert.deepEqual(JSON.parse(JSON.stringify(view)), step.view,
          `${file}, stream ${s} (seat ${stream.seat}), step ${i}: ${what}`);
        // The page compares old and new views: the old one must not have been changed.
        assert.deepEqual(previous, untouched, `${file}, stream ${s}, step ${i} changed the view it was given`);
        steps += 1;
      }
    }
    assert.ok(steps > 0, `${file} holds no steps`);
  });
}
