// "Suggest a card": on the player's turn the button asks the server for the `heuristic`
// computer player's move and the page marks exactly the suggested cards, without playing or
// choosing them; a table created with hints off shows no button.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';
import { actOnce, createFromLobby, fillWithBots, handCards, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

/** A page that records the `hint` frames the server sends it. */
async function newPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  const hints = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    const msg = JSON.parse(String(payload));
    if (msg.type === 'hint') hints.push(msg.action);
  }));
  return { context, page, errors, hints };
}

const suggested = (page) => page.locator('.hand .card.suggested').evaluateAll((els) => els.map((e) => e.dataset.card));

test('the suggested cards are the ones the server suggested, marked but not played', async () => {
  const { context, page, errors, hints } = await newPage();
  await createFromLobby(page, server.url, 'hearts', 'Grandma');
  await fillWithBots(page, 'heuristic');
  await startMatch(page);

  // Passing: three cards suggested, none chosen.
  await page.locator('#hint-button', { hasText: 'Suggest cards to pass' }).click();
  await until(async () => hints.length === 1, 10000, 'the hint');
  await until(async () => (await suggested(page)).length === 3, 10000, 'three cards marked');
  assert.deepEqual((await suggested(page)).sort(), [...hints[0].cards].sort());
  assert.match(await page.locator('#hint-note').textContent(), /^Suggested: /);
  assert.equal(await page.locator('.hand .card.selected').count(), 0, 'nothing is chosen for you');
  assert.equal(await page.locator('#pass-button').textContent(), 'Pass left (0 of 3 chosen)');
  assert.equal(await actOnce(page), 'passed');
  assert.equal((await suggested(page)).length, 0, 'the suggestion goes with the turn');

  // Playing: one legal card suggested; the hand keeps it.
  await page.waitForFunction(() => window.__parlor?.view?.legal?.type === 'play', null, { timeout: 60000 });
  const before = await handCards(page);
  await page.locator('#hint-button', { hasText: 'Suggest a card' }).click();
  await until(async () => hints.length === 2, 10000, 'the second hint');
  await until(async () => (await suggested(page)).length === 1, 10000, 'one card marked');
  assert.deepEqual(await suggested(page), [hints[1].card]);
  assert.ok(await page.locator(`.hand .card.suggested.legal[data-card="${hints[1].card}"]`).count(), 'a legal card');
  assert.deepEqual(await handCards(page), before, 'nothing was played');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a table created with "Allow hints" off has no suggest button', async () => {
  const { context, page, errors } = await newPage();
  await createFromLobby(page, server.url, 'hearts', 'Grandpa', { hints: false });
  await fillWithBots(page, 'random');
  await startMatch(page);
  await page.locator('#pass-button').waitFor();
  assert.equal(await page.evaluate(() => window.__parlor.table.table_options.hints), false);
  assert.equal(await page.locator('#hint-button').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
