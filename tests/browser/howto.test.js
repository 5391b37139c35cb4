// "How to play": the table page explains its own game, with the numbers of `/api/variants`
// (and of this table's options), not numbers typed into the page.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { launchBrowser, startParlor } from './lib/harness.js';
import { createByApi, sitByInvite } from './lib/play.js';

let browser;
let server;
let variants;

before(async () => {
  server = await startParlor();
  browser = await launchBrowser();
  variants = await (await fetch(`${server.url}/api/variants`)).json();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const usual = (variant, option) => variants.find((v) => v.name === variant).options.find((o) => o.name === option).default;
const facts = (variant) => variants.find((v) => v.name === variant).facts;

/** Sits at table `id` (on a phone) and opens the "How to play" dialog; returns its text. */
async function howTo(id) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await sitByInvite(page, `${server.url}/t/${id}`, 'Grandma', 0);
  await page.locator('#howto-button').click();
  const dialog = page.locator('#howto-dialog[open]');
  await dialog.waitFor();
  // The headline is in view on a phone.
  const box = await dialog.locator('h2').boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 844, 'the headline is on screen');
  const text = await dialog.textContent();
  await page.locator('#howto-close').click();
  assert.equal(await page.locator('#howto-dialog[open]').count(), 0, 'it closes');
  assert.deepEqual(errors, []);
  await context.close();
  return text;
}

test('hearts: the passing, the queen of spades and the usual target', async () => {
  const { id } = await createByApi(server.url, { variant: 'hearts' });
  const text = await howTo(id);
  assert.match(text, /How to play Hearts/);
  assert.match(text, new RegExp(`chooses ${facts('hearts').pass_count} cards to pass`));
  assert.match(text, new RegExp(`queen of spades ${facts('hearts').card_points.QS}`));
  assert.match(text, new RegExp(`reaches ${usual('hearts', 'target')} points; the lowest total wins`));
});

test('tricks with a short target: this table\'s target beside the usual one, and the bad-card fine', async () => {
  const { id } = await createByApi(server.url, { variant: 'tricks', options: { target: 20 } });
  const text = await howTo(id);
  assert.match(text, /each trick is a point/);
  assert.match(text, new RegExp(`costs ${facts('tricks').bad_card_penalty} points`));
  assert.match(text, new RegExp(`The first to 20 points \\(the usual match is ${usual('tricks', 'target')}\\) wins`));
});

test('every variant has its own words', async () => {
  const seen = new Set();
  for (const v of variants) {
    const { id } = await createByApi(server.url, { variant: v.name });
    const text = await howTo(id);
    assert.ok(!seen.has(text), `${v.name} is explained differently from the others`);
    assert.doesNotMatch(text, /undefined|NaN/, v.name);
    seen.add(text);
  }
});

test('spades: partners, bids and nil, trump, bags and the target, from this table’s options', async () => {
  const { id } = await createByApi(server.url, { variant: 'spades', options: { target: 300, bag_limit: 5, bag_penalty: 50 } });
  const text = await howTo(id);
  assert.match(text, /How to play Spades/);
  assert.match(text, new RegExp(`Everyone holds ${facts('spades').hand_size} cards`));
  assert.match(text, /bids how many tricks they expect to take/);
  assert.match(text, /A bid of nil means you will take no trick/);
  assert.match(text, /Spades are always trump/);
  assert.match(text, /Spades may not be led until one has been played/);
  assert.ok(text.includes(facts('spades').scoring), 'the scoring as the rules state it');
  assert.match(text, /every 5 bags a side collects cost 50 points/);
  assert.match(text, new RegExp(`The first side to 300 points \\(the usual match is ${usual('spades', 'target')}\\) wins; a side at minus ${usual('spades', 'mercy')} or below loses`));
  const plain = await howTo((await createByApi(server.url, { variant: 'spades', options: { nil: false, spades_broken: false, bag_limit: 0 } })).id);
  assert.match(plain, /There are no nil bids at this table/);
  assert.doesNotMatch(plain, /may not be led/);
  assert.match(plain, /Bags \(tricks over the bid\) cost nothing at this table/);
});

test('oh hell: the players, the hand sizes, the turned-up trump, the hook and the scoring chosen', async () => {
  const { id } = await createByApi(server.url, { variant: 'ohhell', options: { players: 6, schedule: 'up', scoring: 'tricks_plus_ten' } });
  const text = await howTo(id);
  assert.match(text, /How to play Oh Hell/);
  assert.match(text, /6 players, each for themselves/);
  assert.match(text, /the first hand is a single card, each next one has a card more/);
  assert.match(text, /turned face up for everyone: its suit is trump/);
  assert.match(text, /The dealer bids last and may not make the bids add up/);
  assert.match(text, /Every trick taken is a point/);
  const usualText = await howTo((await createByApi(server.url, { variant: 'ohhell', options: { hook: false } })).id);
  assert.match(usualText, new RegExp(`${usual('ohhell', 'players')} players`));
  assert.doesNotMatch(usualText, /may not make the bids add up/);
  assert.ok(usualText.includes(facts('ohhell').scoring), 'the standard scoring as the rules state it');
});

test('euchre: the turned card, ordering up and naming, bowers, going alone and the target, from this table’s options', async () => {
  const { id } = await createByApi(server.url, { variant: 'euchre', options: { target: 5, stick_the_dealer: true, defend_alone: true } });
  const text = await howTo(id);
  assert.match(text, /How to play Euchre/);
  assert.match(text, /Partners sit opposite each other/);
  assert.match(text, /A deck of 24 cards/);
  assert.match(text, /may order up the turned card/);
  assert.match(text, /the dealer must name a suit \(stick the dealer\)/);
  assert.match(text, /right bower/);
  assert.match(text, /may go alone: their partner sits the hand out/);
  assert.match(text, /a defender may defend alone/);
  assert.match(text, new RegExp(`The first side to 5 points \\(the usual match is ${usual('euchre', 'target')}\\) wins`));
  const usualText = await howTo((await createByApi(server.url, { variant: 'euchre', options: { alone: false } })).id);
  assert.match(usualText, /the hand is thrown in/);
  assert.doesNotMatch(usualText, /go alone/);
  assert.doesNotMatch(usualText, /defend alone/);
  assert.match(usualText, new RegExp(`The first side to ${usual('euchre', 'target')} points wins`));
});
