// The turn clock, seen and heard: at a table with a clock, the time left for the move asked of
// you shows beside "Your turn"; when it runs out a computer plays for you, the page says so in
// plain words (on screen and aloud) with how to take the seat back, and "Play myself again"
// does. Against the real server.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

test('the clock runs beside the turn; when it runs out, a computer plays and the page says how to come back', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { id } = await createByApi(server.url, { variant: 'whist', options: { target: 5 }, table_options: { bot_delay_ms: 300, turn_clock_ms: 4000 } });
  await sitByInvite(page, `${server.url}/t/${id}`, 'Ann', 0);
  await fillWithBots(page, 'random');
  await startMatch(page);
  await until(() => page.evaluate(() => window.__parlor.view?.legal.type === 'play'), 30000, 'our turn');
  const clock = page.locator('#turn #turn-clock');
  await clock.waitFor({ state: 'visible' });
  assert.match(await clock.textContent(), /^0:0[0-4] left$/);
  // Nothing is played: the clock runs out and a computer plays for us.
  await until(() => page.evaluate(() => window.__parlor.table?.seats[0].bot_playing === true), 30000, 'the computer standing in');
  await page.locator('#turn', { hasText: /^A computer is playing for you for now\. .*“Play myself again”/ }).waitFor();
  const heard = await page.locator('#announcements p').allTextContents();
  assert.equal(heard.filter((l) => l.startsWith('A computer is playing for you')).length, 1, 'said once');
  assert.equal(heard.filter((l) => /seconds? left to play/.test(l)).length, 1, 'the last seconds were said once');
  await page.locator('#play-myself').click();
  await until(() => page.evaluate(() => window.__parlor.table?.seats[0].bot_playing === false), 30000, 'the seat back');
  assert.doesNotMatch(await page.locator('#turn').textContent(), /A computer is playing for you/);
  assert.deepEqual(errors, []);
  await context.close();
});
