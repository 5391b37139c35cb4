// The `/api/variants` entries, facts included, for tests that script the server themselves:
// taken from the view fixtures the engine records (tests/fixtures/views/*.json), so they are the
// very entries the real server sends and cannot drift from it.

import { readFileSync } from 'node:fs';

const FIXTURES = new URL('../../fixtures/views/', import.meta.url);

/** @param {string} variant */
function entry(variant) {
  return JSON.parse(readFileSync(new URL(`${variant}.json`, FIXTURES), 'utf8')).info;
}

/** The list `/api/variants` answers with. */
export const VARIANTS = ['hearts', 'filippa', 'hearts5', 'tricks', 'whist', 'spades', 'ohhell'].map(entry);

/** Facts per variant, as `/api/variants` gives them. */
export const FACTS = Object.fromEntries(VARIANTS.map((v) => [v.name, v.facts]));
