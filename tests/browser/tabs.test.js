// Two tabs on one seat, against the real `parlor serve` in Debian's Chromium: the newer tab
// takes the seat, the older one says so and stays quiet, and its button takes the seat back.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';
import { createByApi, sitByInvite, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const NOTICE = 'This seat is open in another window';

/** A tab of `context` that counts the WebSockets it opens. */
async function tab(context) {
  const page = await context.newPage();
  const sockets = { opened: 0 };
  page.on('websocket', () => { sockets.opened += 1; });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, sockets, errors };
}

/** True when the page shows the seat list, playing the seat, and not the notice. */
async function playing(page) {
  return (await page.locator('.seats-panel').count()) > 0 && (await page.getByText(NOTICE).count()) === 0;
}

test('the newer tab takes the seat, the older one shows the notice and takes it back on request', async () => {
  const created = await createByApi(server.url, { variant: 'hearts' });
  // One browser profile: both tabs share the saved seat token, as two tabs of one person do.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const first = await tab(context);
  await sitByInvite(first.page, `${server.url}${created.invite}`, 'Ann', 0);

  // The same table in a second tab: it comes back to the saved seat with the token.
  const second = await tab(context);
  await second.page.goto(`${server.url}${created.invite}`);
  await second.page.locator('.seats-panel').waitFor();
  await first.page.getByText(NOTICE).waitFor();
  assert.equal(await first.page.locator('#play-here').textContent(), 'Use it here');

  // Settled: no fight. A reconnect would come after 0.5 s of backoff; give it more than that.
  await first.page.waitForTimeout(1500);
  assert.equal(first.sockets.opened, 1, 'the older tab never reconnects on its own');
  assert.equal(second.sockets.opened, 1, 'the newer tab was not disturbed');
  assert.ok(await playing(second.page), 'the newer tab plays the seat');
  assert.ok(await first.page.getByText(NOTICE).isVisible());

  // The button takes the seat back; now the other tab shows the notice.
  await first.page.locator('#play-here').click();
  await first.page.locator('.seats-panel').waitFor();
  await second.page.getByText(NOTICE).waitFor();
  await until(() => playing(first.page), 10000, 'the first tab to play the seat again');
  await first.page.waitForTimeout(1500);
  assert.equal(first.sockets.opened, 2, 'one new connection, on request');
  assert.equal(second.sockets.opened, 1, 'the tab that lost the seat does not reconnect');
  const seat = await first.page.evaluate(() => window.__parlor?.seat);
  assert.equal(seat, 0, 'the same seat');
  assert.deepEqual([...first.errors, ...second.errors], []);
  await context.close();
});
