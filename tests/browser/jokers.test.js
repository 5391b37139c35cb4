// Spades with jokers in the browser: the big joker in our hand is drawn as a joker (its letters
// and a star, in red), named "Big joker" for screen readers, and laid out after the ace of
// spades, where the rules rank it; the how-to-play page explains the option.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { screenshot, useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

test('a joker in the hand is drawn, named and sorted as the highest spade', async () => {
  // Seed 3's first deal gives seat 0 the big joker (worked out from the fair-deal recipe).
  const created = await createByApi(server.url, {
    variant: 'spades', options: { jokers: true }, table_options: { bot_delay_ms: 0 }, seed: 3,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await until(() => page.evaluate(() => (window.__parlor?.view?.hand || []).length === 13), 30000, 'our hand');
  const hand = await page.evaluate(() => window.__parlor.view.hand);
  assert.ok(hand.includes('BJ'), `seed 3 deals seat 0 the big joker: ${hand}`);
  assert.ok(!hand.includes('2C') && !hand.includes('2D'));

  const joker = page.locator('.hand [data-card="BJ"]');
  // Named by what it shows first, then in words (voice control and screen readers agree).
  assert.equal(await joker.getAttribute('aria-label'), 'BJ★, Big joker');
  assert.match(await joker.getAttribute('class'), /\bjoker\b.*\bjoker-big\b/);
  assert.equal((await joker.locator('.corner').textContent()).trim(), 'BJ★');
  const colour = await joker.evaluate((el) => getComputedStyle(el).color);
  const red = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--red').trim());
  assert.ok(colour !== 'rgb(0, 0, 0)' && red, `the big joker is red: ${colour}`);

  // Laid out as the highest spade: after every spade in the hand, before the hearts.
  const order = await page.locator('.hand [data-card]').evaluateAll((els) => els.map((e) => e.dataset.card));
  const at = order.indexOf('BJ');
  const spades = order.filter((c) => c[1] === 'S');
  assert.ok(spades.every((c) => order.indexOf(c) < at), `after the spades: ${order}`);
  assert.ok(order.slice(at + 1).every((c) => c[1] === 'H' || c === 'LJ' || c === 'BJ'), `before the hearts: ${order}`);
  await screenshot(page, 'spades-jokers-hand');

  // How to play says what the jokers are at this table.
  await page.locator('#howto-button').click();
  const howto = await page.locator('#howto-dialog[open]').textContent();
  assert.match(howto, /The big and the little joker replace the 2♣ and the 2♦/);
  assert.deepEqual(errors, []);
  await context.close();
});
