// The games that bid, played whole in the browser against the real server: Spades with three
// computer players at a laptop's size and a phone's, bids made by clicking; Oh Hell with five
// players, bids made with the keyboard. On the way: the bid box (numbers from the prompt's min
// to max, nil, the dealer's forbidden number), the bids on the plates, trump, the turned-up
// card and the hand's size at the top, and bids, nil and bags on the score sheet.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { screenshot, scrollsSideways, useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, playMatch, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

async function newPage(viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

const view = (page) => page.evaluate(() => window.__parlor.view);

/** Waits for our bid prompt and checks the bid box against it. */
async function checkBidBox(page, { nil }) {
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'bid'), 30000, 'our bid prompt');
  const v = await view(page);
  const options = await page.locator('#bid-box .bid-option').evaluateAll((els) => els.map((e) => ({
    bid: Number(e.dataset.bid), text: e.textContent, forbidden: e.classList.contains('forbidden'),
    w: e.getBoundingClientRect().width, h: e.getBoundingClientRect().height,
  })));
  assert.deepEqual(options.map((o) => o.bid), Array.from({ length: v.legal.max - v.legal.min + 1 }, (_, i) => v.legal.min + i),
    'a button per number from the prompt’s min to its max');
  assert.equal(options[0].text, nil ? 'Nil' : String(v.legal.min));
  for (const o of options) assert.ok(o.w >= 44 && o.h >= 44, `bid ${o.bid} is at least 44×44: ${o.w}×${o.h}`);
  assert.match(await page.locator('#turn').textContent(), /Your bid/);
  // Nothing chosen yet: the Bid button waits for a number.
  assert.equal(await page.locator('#bid-button').isDisabled(), true);
  return v;
}

async function spadesMatch(viewport, name) {
  const created = await createByApi(server.url, {
    variant: 'spades', options: { target: 100 }, table_options: { bot_delay_ms: 0 }, seed: 17,
  });
  const { context, page, errors } = await newPage(viewport);
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);

  await checkBidBox(page, { nil: true });
  assert.match(await page.locator('#trump').textContent(), /Trump: ♠ spades/);
  assert.equal(await page.locator('#spades-broken').textContent(), 'Spades not broken');
  assert.equal(await scrollsSideways(page), false, `bidding at ${name}`);
  await screenshot(page, `spades-bidding-${name}`);
  // A suggestion marks a number; nothing is bid for us.
  await page.locator('#hint-button', { hasText: 'Suggest a bid' }).click();
  await page.locator('#bid-box .bid-option.suggested').waitFor();
  const suggested = await page.locator('#bid-box .bid-option.suggested').textContent();
  assert.equal(await page.locator('#hint-note').textContent(), `Suggested: bid ${suggested}`);
  assert.equal((await view(page)).legal.type, 'bid');
  // A click chooses, the button under the hand bids.
  await page.locator('#bid-box .bid-option[data-bid="2"]').click();
  assert.equal(await page.locator('#bid-box .bid-option[data-bid="2"]').getAttribute('aria-pressed'), 'true');
  await page.locator('#bid-button', { hasText: 'Bid 2' }).click();
  await until(async () => (await page.locator('#bid-box').count()) === 0, 10000, 'the bid to be taken');
  // Our plate reads "tricks taken / bid".
  await page.locator('.plate[data-seat="0"] .stat.bid', { hasText: '0/2' }).waitFor();
  // Once everyone has bid, each plate shows its bid and the top the partnerships' contracts.
  await until(async () => (await view(page)).phase === 'playing', 30000, 'the bidding to end');
  const bids = (await view(page)).bids;
  for (const seat of [1, 2, 3]) {
    const text = await page.locator(`.plate[data-seat="${seat}"] .stat.bid`).textContent();
    assert.match(text, new RegExp(`^0/${bids[seat] === 0 ? 'Nil' : bids[seat]}`), `seat ${seat}'s plate`);
  }
  const contract = (t) => [t, t + 2].reduce((sum, s) => sum + bids[s], 0);
  assert.match(await page.locator('#team-tricks').textContent(), new RegExp(`North–South 0 of ${contract(0)} · East–West 0 of ${contract(1)}`));

  const sheets = await playMatch(page, { ms: 150000, how: 'click' });
  assert.match(await page.locator('#winners').textContent(), /win/);
  await screenshot(page, `spades-over-${name}`);
  const final = await view(page);
  // The sheet: two partnership columns, each line with the bids and tricks, the bags, and nil
  // results where someone bid nil.
  const rows = page.locator('#score-dialog tr.hand-row');
  assert.equal(await rows.count(), final.history.length);
  assert.equal(sheets + 1, final.history.length, 'a sheet closed after every hand but the last');
  for (const [i, line] of final.history.entries()) {
    const cells = rows.nth(i).locator('td');
    assert.equal(await cells.count(), 2);
    for (const t of [0, 1]) {
      const cell = cells.nth(t);
      const shown = (b) => (b === 0 ? 'Nil' : String(b));
      assert.equal(await cell.locator('.bid-line').textContent(),
        `bid ${shown(line.bids[t])} + ${shown(line.bids[t + 2])} · took ${line.tricks[t] + line.tricks[t + 2]}`);
      assert.equal(await cell.locator('.bags-line:not(.penalty)').textContent(), `bags ${line.bags[t]}`);
      const nils = [t, t + 2].filter((s) => line.nil && line.nil[s] !== null).length;
      assert.equal(await cell.locator('.nil-line').count(), nils);
    }
  }
  const tops = Math.max(...final.totals);
  assert.ok(tops >= 100 || Math.min(...final.totals) <= -200, `the match ended by its target or the mercy rule: ${final.totals}`);
  assert.deepEqual(final.totals[0], final.totals[2], 'partners alike');
  assert.deepEqual(errors, []);
  await context.close();
}

test('a whole match of spades at a laptop’s size, bids made by clicking', async () => {
  await spadesMatch({ width: 1366, height: 768 }, 'laptop');
});

test('a whole match of spades on a phone (390×844), bids made by clicking', async () => {
  await spadesMatch({ width: 390, height: 844 }, 'phone');
});

test('a whole match of oh hell with five players, bids made with the keyboard', async () => {
  const created = await createByApi(server.url, {
    variant: 'ohhell', options: { players: 5, schedule: 'down' }, table_options: { bot_delay_ms: 0 }, seed: 29,
  });
  const { context, page, errors } = await newPage({ width: 1280, height: 800 });
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandpa', 0);
  assert.equal(await page.locator('.seats-panel .seat-row').count(), 5, 'five seats');
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  assert.equal(await page.locator('.plate').count(), 5);

  const v = await checkBidBox(page, { nil: false });
  // The first hand is the largest: ten cards each for five players, and a card turned up.
  assert.equal(v.legal.max, 10);
  assert.equal(await page.locator('#hand-size').textContent(), '10 cards each');
  assert.match(await page.locator('#face-up').textContent(), /Turned up: (10|[2-9JQKA])[♣♦♥♠]/);
  assert.match(await page.locator('#trump').textContent(), /Trump: . (clubs|diamonds|hearts|spades)/);
  // The keyboard starts in the box.
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('bid-option')), true);
  await screenshot(page, 'ohhell-bidding');

  // Every hand: bids by keys; when we deal, the number we may not bid is marked and explained.
  const forbidden = [];
  const look = async () => {
    const box = page.locator('.hand-area.active #bid-box');
    if (!(await box.count())) return;
    const v = await view(page);
    if (v.legal.type !== 'bid' || v.legal.forbidden === null || forbidden.includes(v.hand_number)) return;
    forbidden.push(v.hand_number);
    assert.equal(v.dealer, 0, 'only the dealer is held back');
    const button = box.locator(`.bid-option[data-bid="${v.legal.forbidden}"]`);
    assert.equal(await button.getAttribute('aria-disabled'), 'true');
    const why = `The dealer may not bid ${v.legal.forbidden}: the bids would add up to the tricks (${v.legal.max}).`;
    assert.equal(await page.locator('#bid-note').textContent(), why);
    assert.equal(await button.getAttribute('title'), why);
    // Clicking it anyway (it is only marked disabled, so it can say why) explains, and bids nothing.
    await button.click({ force: true });
    assert.equal(await page.locator('#play-error').textContent(), why);
    assert.equal(await page.locator('#bid-button').isDisabled(), true);
    await box.locator('.bid-option:not(.forbidden)').first().focus();
    if (forbidden.length === 1) await screenshot(page, 'ohhell-hook');
  };
  const sheets = await playMatch(page, { ms: 150000, how: 'keyboard', look });
  assert.ok(forbidden.length > 0, 'we dealt, and the hook held a number back');
  const final = await view(page);
  const sizes = final.history.map((line) => line.tricks.reduce((a, b) => a + b, 0));
  assert.deepEqual(sizes, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 'hands from ten cards down to one');
  assert.equal(sheets + 1, final.history.length);
  assert.match(await page.locator('#winners').textContent(), /wins?!/);
  // The sheet: a column per seat, each line the tricks against the bid (short, for five).
  const rows = page.locator('#score-dialog tr.hand-row');
  assert.equal(await rows.count(), 10);
  for (const [i, line] of final.history.entries()) {
    for (let seat = 0; seat < 5; seat += 1) {
      const shown = rows.nth(i).locator('td').nth(seat).locator('.bid-line [aria-hidden]');
      assert.equal(await shown.textContent(), `${line.tricks[seat]}/${line.bids[seat]}`);
    }
  }
  assert.equal(await page.locator('#score-dialog #bid-legend').textContent(), 'Under each score: tricks taken / bid.');
  assert.equal(await page.locator('#score-dialog .bags-line').count(), 0, 'no bags in oh hell');
  await screenshot(page, 'ohhell-over');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the lobby offers spades and oh hell with their options; oh hell’s player count sets the seats', async () => {
  const { context, page, errors } = await newPage({ width: 1280, height: 900 });
  await page.goto(server.url);
  await page.locator('#name-input').fill('Grandma');
  await page.getByRole('button', { name: 'Save name' }).click();
  const variants = await (await fetch(`${server.url}/api/variants`)).json();
  const ohhell = variants.find((v) => v.name === 'ohhell');
  const counts = ohhell.facts.player_counts;
  await page.locator('input[name="variant"][value="spades"]').check();
  await page.locator('.variant.chosen', { hasText: 'Spades · 4 players' }).waitFor();
  await page.getByText('Change the rules').click();
  for (const name of ['target', 'mercy', 'nil', 'bag_limit', 'bag_penalty', 'spades_broken']) {
    assert.equal(await page.locator(`.create-form [name="${name}"]`).count(), 1, `spades offers ${name}`);
  }
  await page.locator('input[name="variant"][value="ohhell"]').check();
  await page.locator('.variant.chosen', { hasText: `Oh Hell · ${counts.min}–${counts.max} players` }).waitFor();
  const players = page.locator('.create-form input[name="players"]');
  assert.equal(await players.getAttribute('min'), String(counts.min));
  assert.equal(await players.getAttribute('max'), String(counts.max));
  assert.deepEqual(await page.locator('.create-form select[name="schedule"] option').evaluateAll((os) => os.map((o) => o.value)),
    ohhell.options.find((o) => o.name === 'schedule').values);
  await players.fill('6');
  await page.locator('.create-form select[name="schedule"]').selectOption('down');
  await page.locator('#create-table').click();
  await page.waitForURL(/\/t\/[^/]+$/);
  await page.locator('.seats-panel .seat-row.me').waitFor();
  assert.equal(await page.locator('.seats-panel .seat-row').count(), 6, 'a table of six seats');
  const table = await page.evaluate(() => window.__parlor.table);
  assert.equal(table.options.players, 6);
  assert.equal(table.options.schedule, 'down');
  assert.deepEqual(errors, []);
  await context.close();
});
