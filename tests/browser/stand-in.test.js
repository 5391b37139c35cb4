// No stalls at a family table: the host lets a computer play a seat whose player has stopped
// playing (the plate's "Let a computer play", asked twice), that player is told a computer plays
// for them, sees "Play myself again" and takes the seat back with it.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const seat1 = (page) => page.evaluate(() => window.__parlor.table?.seats[1]);

test('the host lets a computer play a seat for now, and its player takes it back', async () => {
  const hostContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const otherContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const host = await hostContext.newPage();
  const other = await otherContext.newPage();
  const errors = [];
  for (const page of [host, other]) page.on('pageerror', (e) => errors.push(e.message));
  const { id } = await createByApi(server.url, { variant: 'whist', options: { target: 1 }, table_options: { turn_clock_ms: 0 } });
  await sitByInvite(host, `${server.url}/t/${id}`, 'Grandma', 0);
  await sitByInvite(other, `${server.url}/t/${id}`, 'Sam', 1);
  await fillWithBots(host, 'random');
  await startMatch(host);
  await other.locator('.felt').waitFor();

  // Only the host sees the action, on the other player's plate.
  assert.equal(await other.locator('[data-stand-in]').count(), 0);
  await host.locator('[data-stand-in="1"]').click();
  // Asked first, with the keyboard on the answer: "Cancel" leaves the seat to its player.
  assert.equal(await host.evaluate(() => document.activeElement?.id), 'stand-in-yes');
  assert.match(await host.locator('#stand-in-yes').textContent(), /Sam/);
  await host.locator('#stand-in-no').click();
  assert.equal(await host.evaluate(() => document.activeElement?.dataset.standIn), '1', 'the keyboard is back on the button');
  assert.equal((await seat1(host))?.bot_playing, false);
  await host.locator('[data-stand-in="1"]').click();
  await host.locator('#stand-in-yes').click();
  await until(async () => (await seat1(host))?.bot_playing === true, 30000, 'a computer playing seat 1');
  // The player is told plainly, on screen and aloud, and how to take the seat back.
  await other.locator('#turn', { hasText: 'A computer is playing for you' }).waitFor();
  await until(() => other.locator('#announcements p', { hasText: 'Play myself again' }).count(), 10000, 'said aloud');
  await other.locator('#play-myself').click();
  await until(async () => (await seat1(other))?.bot_playing === false, 30000, 'Sam playing again');
  assert.equal(await other.locator('#play-myself').count(), 0);
  assert.equal((await seat1(host)).name, 'Sam');
  assert.deepEqual(errors, []);
  await hostContext.close();
  await otherContext.close();
});
