// The page's reconnection backoff, run in Node: the same module the page loads. Exponential,
// capped, with full jitter drawn from an injected random source.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffDelay } from '../../web/connection.js';

test('the ceiling doubles from half a second up to the cap', () => {
  const top = () => 1; // the largest draw: the ceiling itself
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoffDelay(n, top)), [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  assert.equal(BACKOFF_BASE_MS, 500);
  assert.equal(BACKOFF_CAP_MS, 10000);
});

test('the wait is the draw times the ceiling, whole milliseconds', () => {
  assert.equal(backoffDelay(0, () => 0), 0);
  assert.equal(backoffDelay(2, () => 0.25), 500);
  assert.equal(backoffDelay(3, () => 0.3333), 1333);
  assert.equal(backoffDelay(1000, () => 0.5), 5000, 'a huge attempt count stays at the cap');
  assert.equal(backoffDelay(-1, () => 1), 500, 'a negative one counts as the first');
});

test('the draws spread over the whole range (full jitter)', () => {
  // A small seeded generator (mulberry32), so the test is the same on every run.
  let seed = 7;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const draws = Array.from({ length: 2000 }, () => backoffDelay(4, random));
  assert.ok(draws.every((d) => d >= 0 && d <= 8000));
  assert.ok(Math.min(...draws) < 100 && Math.max(...draws) > 7900, 'near nothing and near the ceiling');
  const inRange = (d) => d >= 0 && d <= 8000;
  assert.ok(Array.from({ length: 100 }, () => backoffDelay(4)).every(inRange), 'Math.random by default');
});
