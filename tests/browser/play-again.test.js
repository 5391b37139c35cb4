// "Play again": at the end of a match the host starts the next one with the same people and
// computer players in the same seats, the deal moves one seat on, and the score sheet keeps the finished match, with a
// chart of its running totals (one line per seat).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, playUntil, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const seats = (page) => page.evaluate(() => window.__parlor.table.seats.map((s) => `${s.occupant}:${s.name}`));
const matchOver = async (page) => (await page.locator('#score-dialog[open] #play-again').count()) > 0;

test('play again keeps the seats, starts a second match and keeps the first one\'s chart', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A short match: the first to take two tricks wins.
  const { id } = await createByApi(server.url, { variant: 'tricks', options: { target: 2 } });
  await sitByInvite(page, `${server.url}/t/${id}`, 'Grandma', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  const before = await seats(page);
  assert.equal(before.length, 4);
  const firstDealer = await page.evaluate(() => window.__parlor.view.dealer);

  await playUntil(page, () => matchOver(page));
  // The match's own chart: a line per seat.
  const dialog = page.locator('#score-dialog[open]');
  await dialog.locator('.match-history svg.totals-chart').first().waitFor();
  assert.equal(await dialog.locator('.match-history > .chart polyline.chart-line').count(), 4, 'a line per seat');
  assert.equal(await dialog.locator('.past-match').count(), 0, 'no earlier match yet');

  await page.locator('#play-again').click();
  await until(async () => page.evaluate(() => window.__parlor.view?.phase !== 'match_over'
    && window.__parlor.table?.status === 'playing' && window.__parlor.table?.matches_played === 1), 30000, 'the second match');
  assert.deepEqual(await seats(page), before, 'the same people and computer players in the same seats');
  assert.equal(await page.evaluate(() => window.__parlor.view.hand_number), 0, 'the new match\'s first hand');
  assert.equal(await page.evaluate(() => window.__parlor.view.dealer), (firstDealer + 1) % 4, 'the deal moves one seat on');

  // The finished match is still on the sheet, with its chart.
  await page.locator('#scores-button').click();
  const past = page.locator('#score-dialog[open] .past-match[data-match="1"]');
  await past.waitFor();
  assert.match(await past.locator('summary').textContent(), /^Match 1: ★ .+ wins?!/);
  assert.equal(await past.locator('polyline.chart-line').count(), 4, 'the earlier match has a line per seat');
  const points = await past.locator('polyline.chart-line').first().getAttribute('points');
  assert.ok(points.split(' ').length >= 2, 'a line from the start to the end of the match');
  assert.deepEqual(errors, []);
  await context.close();
});
