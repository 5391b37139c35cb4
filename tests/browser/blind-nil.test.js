// Spades with blind nil, in the browser against the real server, with three computer players.
// After a first hand that leaves our side behind, our cards come face down: the page shows
// none of them, and asks "Blind nil" or "See my cards". We bid blind nil (by click at one
// table, by keys at another, by typing in the table in words at a third), then give our
// partner two cards of our choice in the exchange, and the plates, the score sheet and the
// live log say "blind nil". At a fourth we look at our cards by typing, in German.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { screenshot, useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, playUntil, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const view = (page) => page.evaluate(() => window.__parlor.view);

/** Seats us at a new blind nil table with heuristic players and plays its first hand. */
async function afterFirstHand(seed) {
  const created = await createByApi(server.url, {
    variant: 'spades', options: { target: 500, blind_nil: true, blind_nil_behind: 1 },
    table_options: { bot_delay_ms: 0 }, seed,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await playUntil(page, async () => (await page.locator('#score-dialog[open]').count()) > 0);
  await page.locator('#score-dialog[open] #dialog-close').click();
  return { context, page, errors };
}

/** Waits for the blind nil prompt and checks that the page shows none of our cards. */
async function checkFaceDown(page) {
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'blind'), 30000, 'the blind nil prompt');
  const v = await view(page);
  assert.ok(v.totals[0] < v.totals[1], `our side is behind: ${v.totals}`);
  assert.deepEqual(v.hand, [], 'no card of our hand reached the page');
  assert.equal(v.hand_sizes[0], 13);
  assert.equal(await page.locator('.hand .card').count(), 0);
  assert.equal(await page.locator('#face-down').textContent(), 'Your 13 cards are face down.');
  assert.match(await page.locator('#turn').textContent(), /blind nil, or see your cards/);
  assert.equal(await page.locator('#blind-nil-button').textContent(), 'Blind nil');
  assert.equal(await page.locator('#see-cards-button').textContent(), 'See my cards');
}

/** Gives two cards (the two first shown) when the exchange asks for them; returns them. */
async function exchangeTwo(page) {
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'exchange'), 30000, 'our exchange prompt');
  const v = await view(page);
  assert.equal(v.legal.count, 2);
  assert.equal(v.legal.to, 2, 'we give to our partner');
  // Our partner gave first: we hold fifteen cards, two of them from our partner.
  assert.equal(v.hand.length, 15);
  assert.equal(v.blind.received.length, 2);
  const button = page.locator('#exchange-button');
  assert.equal(await button.isDisabled(), true);
  const cards = page.locator('.hand .card');
  const chosen = [await cards.nth(0).getAttribute('data-card'), await cards.nth(1).getAttribute('data-card')];
  await cards.nth(0).click();
  await cards.nth(1).click();
  assert.match(await button.textContent(), /^Give 2 cards to /);
  await button.click();
  await until(async () => (await view(page)).phase === 'playing', 10000, 'play to start after the exchange');
  const after = await view(page);
  assert.equal(after.hand.length, 13);
  assert.deepEqual([...after.blind.given].sort(), [...chosen].sort());
  for (const card of chosen) assert.ok(!after.hand.includes(card), `${card} went to our partner`);
  return chosen;
}

test('blind nil by click: the hand is face down, then the exchange, the plates and the score sheet', async () => {
  const { context, page, errors } = await afterFirstHand(17);
  await checkFaceDown(page);
  await screenshot(page, 'spades-blind-nil-choice');
  await page.locator('#blind-nil-button').click();
  await until(async () => (await page.locator('#blind-box').count()) === 0, 10000, 'the blind nil to be taken');
  await page.locator('.plate[data-seat="0"] .stat.bid.blind', { hasText: '0/Blind nil' }).waitFor();
  // The live log says the blind nil in words, as it says bids, and not again as a bid of nil.
  const log = await page.locator('#announcements').textContent();
  assert.match(log, /You bid blind nil\./);
  assert.doesNotMatch(log, /You bid Nil\./);
  await exchangeTwo(page);
  assert.match(await page.locator('#announcements').textContent(), /gives you 2 cards\..*You give 2 cards to /s);
  // The rest of the hand, then the score sheet names the blind nil.
  await playUntil(page, async () => (await page.locator('#score-dialog[open]').count()) > 0);
  const line = page.locator('#score-dialog[open] .nil-line[data-blind="true"]').first();
  assert.match(await line.textContent(), /blind nil (made|failed)/);
  assert.match(await page.locator('#score-dialog[open]').textContent(), /Blind nil/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('blind nil by keys: the choice has the focus, the arrows move in it, Enter bids', async () => {
  const { context, page, errors } = await afterFirstHand(17);
  await checkFaceDown(page);
  // The page puts the focus on the choice that risks nothing.
  await until(() => page.evaluate(() => document.activeElement?.id === 'see-cards-button'), 5000, 'the focus on See my cards');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'blind-nil-button');
  await page.keyboard.press('Enter');
  await until(async () => (await view(page)).blind.bid.includes(0), 10000, 'the blind nil to be taken');
  await exchangeTwo(page);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Types `words` in the table-in-words box and presses Enter; returns the answer it reads. */
async function type(page, words) {
  await page.locator('#command').fill(words);
  await page.locator('#command').press('Enter');
  return page.locator('#command-answer').textContent();
}

/** "qs" for "QS", "10h" for "TH": a card as people type it. */
const typed = (card) => card.toLowerCase().replace(/^t/, '10');

test('blind nil by typing: the hand is said face down, blind nil is typed, and so is the exchange', async () => {
  const { context, page, errors } = await afterFirstHand(17);
  await checkFaceDown(page);
  await page.locator('body').press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'command');
  assert.equal(await type(page, 'hand'), 'Your 13 cards are face down.');
  assert.equal(await page.locator('#text-hand').textContent(), 'Your 13 cards are face down.');
  assert.match(await type(page, 'help'), /type blind nil to bid blind nil without looking, or see to look at your cards/);
  // Neither a bid nor a card can be meant while the cards are face down.
  assert.equal(await type(page, '3'), 'Your cards are face down: type blind nil to bid blind nil, or see to look at your cards first.');
  assert.equal(await type(page, 'give'), 'There are no cards to give now.');
  assert.equal((await view(page)).legal.type, 'blind', 'nothing was sent');
  assert.equal(await type(page, 'Blind nil'), '');
  await until(async () => (await view(page)).blind.bid.includes(0), 10000, 'the blind nil to be taken');
  assert.equal(await type(page, 'see'), 'There is no blind nil to choose now.');
  assert.match(await page.locator('#announcements').textContent(), /You bid blind nil\./);

  // The exchange by typing: two cards chosen (one put back on the way), then "give".
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'exchange'), 30000, 'our exchange prompt');
  const v = await view(page);
  assert.match(await type(page, 'whose turn'), /^Choose 2 cards to give /);
  const [first, second] = v.hand;
  const name = async (card) => page.locator(`.hand .card[data-card="${card}"]`).getAttribute('title');
  assert.equal(await type(page, typed(first)), `Chosen to give: ${await name(first)}, 1 of 2.`);
  assert.equal(await type(page, 'give'), 'You have chosen 1 of 2 cards to give.');
  assert.equal(await type(page, typed(first)), `Put back: ${await name(first)}, 0 of 2 chosen.`);
  assert.equal(await type(page, typed(first)), `Chosen to give: ${await name(first)}, 1 of 2.`);
  assert.equal(await type(page, typed(second)), `Chosen to give: ${await name(second)}, 2 of 2.`);
  assert.equal(await type(page, 'give'), '');
  await until(async () => (await view(page)).phase === 'playing', 10000, 'play to start after the exchange');
  const after = await view(page);
  assert.deepEqual([...after.blind.given].sort(), [first, second].sort());
  assert.equal(after.hand.length, 13);
  assert.match(await page.locator('#announcements').textContent(), /You give 2 cards to /);
  assert.deepEqual(errors, []);
  await context.close();
});

test('seeing the cards by typing, in German: "ansehen" turns the hand face up', async () => {
  const { context, page, errors } = await afterFirstHand(17);
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'blind'), 30000, 'the blind nil prompt');
  // The language switch's way: the choice saved, the page loaded again (the seat comes back).
  await page.evaluate(() => localStorage.setItem('parlor.lang', 'de'));
  await page.reload();
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'blind'), 30000, 'the blind nil prompt again');
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  await page.locator('body').press('/');
  assert.equal(await type(page, 'blatt'), 'Deine 13 Karten liegen verdeckt.');
  assert.equal(await type(page, 'ansehen'), '');
  await until(async () => (await view(page)).hand.length === 13, 10000, 'our cards to be seen');
  const v = await view(page);
  assert.ok(!v.blind.face_down.includes(0), 'no longer face down');
  assert.deepEqual(v.blind.bid, [], 'no blind nil bid');
  assert.equal(await page.locator('.hand .card').count(), 13);
  assert.match(await type(page, 'blatt'), /^(Kreuz|Karo|Herz|Pik): /);
  assert.deepEqual(errors, []);
  await context.close();
});
