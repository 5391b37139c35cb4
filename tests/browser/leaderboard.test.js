// The leaderboard against the real `parlor serve`: after a match with computer players, the
// lobby links to the leaderboard, which ranks them with a 95% interval, their recent form and a
// chart of their ratings; a player's page lists its recent matches with working replay links.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { scrollsSideways, useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, playUntil, sitByInvite, startMatch } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const matchOver = async (page) => (await page.locator('#score-dialog[open] #play-again').count()) > 0;

test('after a match the leaderboard ranks the computer players, and each has its recent matches', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A listed table: its matches link to it from the leaderboard (a private one's do not).
  const { id } = await createByApi(server.url, {
    variant: 'tricks', options: { target: 2 }, table_options: { listed: true },
  });
  await sitByInvite(page, `${server.url}/t/${id}`, 'Grandma', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await playUntil(page, () => matchOver(page));

  await page.goto(server.url);
  await page.locator('#leaderboard-link').click();
  await page.waitForURL('**/leaderboard');
  await page.getByRole('link', { name: 'Tricks' }).click();
  const rows = page.locator('#leaderboard tbody tr');
  await rows.first().waitFor();
  // Three seats, one strategy: one entry, rated once; the person is not rated.
  assert.equal(await rows.count(), 1);
  assert.equal(await rows.first().getAttribute('data-name'), 'heuristic');
  assert.match(await rows.first().locator('.rating').innerText(), /^\d+\.\d ± \d+\.\d$/);
  assert.equal(await rows.first().locator('.form-place').count(), 1);
  assert.equal(await page.locator('svg.totals-chart polyline.chart-line').count(), 1);
  assert.equal(await scrollsSideways(page), false);
  // Hearts has nobody yet.
  await page.getByRole('link', { name: 'Hearts', exact: true }).click();
  await page.locator('#no-ratings').waitFor();

  await page.goto(`${server.url}/leaderboard?variant=tricks`);
  await page.locator('#leaderboard tbody tr a').first().click();
  await page.locator('#player-title').waitFor();
  const replays = page.locator('#recent-matches a.replays');
  assert.equal(await replays.count(), 1);
  const href = await replays.first().getAttribute('href');
  assert.equal(href, `api/tables/${id}/hands`);
  const answer = await page.request.get(`${server.url}/${href}`);
  assert.equal(answer.status(), 200);
  assert.deepEqual(errors, []);
  await context.close();
});
