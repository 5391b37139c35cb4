// One screen, no scrolling: at every common screen size and on the smallest phone (320×568),
// while passing, bidding and playing, the player's whole hand, the trick, whose turn it is and
// the pass button (or the bid box and its button, or Bridge's bidding box and the auction) and
// the buttons under the hand are on screen at the top of the page, and so is all of Bridge's
// dummy; nothing overlaps a name plate, nothing scrolls sideways, and what is tapped is at least
// 44 px. Each phase is checked at every size before it fails, which names all the sizes that do. Real server, seeded tables with computer players in every variant from three seats to
// seven (Bridge on a practice deal, with a person as partner for a long auction). Bridge's
// phases (bidding, declarer, defender, and a claim: declarer's form, a defender's answer,
// declarer waiting on it) are checked in English, German, French and right to left.
// Screenshots of each size go to artifacts/ (or $PARLOR_SHOTS).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { artifactsDir, scrollsSideways, useServerAndBrowser } from './lib/harness.js';
import { actOnce, createByApi, fillWithBots, forceDir, sitByInvite, startMatch, twoPeopleAndComputers, until } from './lib/play.js';
import { BRIDGE_DEAL, bridgeCall, southBidsSevenNoTrump } from './lib/bridge.js';
import { MATRIX, resizeTo } from './lib/sizes.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

/** Where each must-see thing is, and every tap target's size, with the page at its top. */
function measure() {
  window.scrollTo(0, 0);
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height };
  };
  const one = (sel) => {
    const el = document.querySelector(sel);
    return el ? box(el) : null;
  };
  return {
    width: window.innerWidth,
    height: window.innerHeight,
    cards: [...document.querySelectorAll('.hand .card')].map((el) => ({ card: el.dataset.card, ...box(el) })),
    trick: one('.center .trick:not(.bidding)'),
    center: one('.center'),
    played: [...document.querySelectorAll('.trick .played .card')].map(box),
    playedRanks: [...document.querySelectorAll('.trick .played .card .rank')].map((el) => parseFloat(getComputedStyle(el).fontSize)),
    caption: one('#trick-caption'),
    // The rows the buttons under the hand take (a suggestion's words and the pass button aside).
    actionRows: new Set([...document.querySelectorAll('.hand-actions > button:not(.big), .hand-actions > .hand-more')]
      .filter((el) => el.getClientRects().length > 0).map((el) => Math.round(el.getBoundingClientRect().top))).size,
    turn: one('#turn'),
    pass: one('#pass-button'),
    bid: one('#bid-button'),
    bids: [...document.querySelectorAll('#bid-box .bid-option')].map((el) => ({ what: `bid ${el.dataset.bid}`, ...box(el) })),
    // Bridge: the bidding box's calls and the bids of its lowest open level (the levels above
    // scroll in their box), the auction so far, and dummy's cards at dummy's place.
    biddingBox: one('#bidding-box'),
    bridgeCalls: [...document.querySelectorAll('#bidding-box .bridge-call, #bidding-box .bid-level:not(.spent) .bridge-bid')]
      .filter((el) => el.getClientRects().length > 0 && (el.classList.contains('bridge-call') || el.parentElement === document.querySelector('#bidding-box .bid-level:not(.spent)')))
      .map((el) => ({ what: `call ${el.dataset.call || `${el.dataset.level}${el.dataset.strain}`}`, ...box(el) })),
    auction: one('#auction'),
    dummy: [...document.querySelectorAll('#dummy-cards .dummy-card')].map((el) => ({ card: el.dataset.card, ...box(el) })),
    dummyRanks: [...document.querySelectorAll('#dummy-cards .dummy-card')].map((el) => parseFloat(getComputedStyle(el).fontSize)),
    // Bridge's claim: declarer's form under the hand, a defender's box with Accept and Reject
    // and declarer's faced cards, and the claim while it waits (under declarer's hand, in the middle for the others).
    claimForm: [...document.querySelectorAll('#claim-form > *')].map((el) => ({ what: `the claim form's ${el.id || el.tagName.toLowerCase()}`, ...box(el) })),
    claimBox: [...document.querySelectorAll('#claim-text, #claim-answers, #claim-cards .dummy-card, #claim-accept, #claim-reject')].filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ what: `the claim box's ${el.id || el.dataset.card}`, ...box(el) })),
    claimRanks: [...document.querySelectorAll('#claim-cards .dummy-card, #claim-note-cards .dummy-card')].map((el) => parseFloat(getComputedStyle(el).fontSize)),
    claimNote: one('#claim-note'),
    turnPlate: one('.plate.turn'),
    plates: [...document.querySelectorAll('.plate')].map(box),
    // What is shown (a phone hides the secondary buttons while you bid).
    // The buttons under the hand that are shown (a phone hides some while you bid).
    actions: [...document.querySelectorAll('.hand-actions > button, .hand-actions > .hand-more')]
      .filter((el) => el.getClientRects().length > 0).map((el) => ({ what: el.id || el.textContent.trim(), ...box(el) })),
    taps: [...document.querySelectorAll('.hand-actions button, .hand-actions label:not(#claim-form label), #claim-form select, .hand .card, #bid-box .bid-option, #bidding-box button, button.dummy-card, #claim-box button')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ what: el.id || el.dataset.card || el.textContent.trim(), ...box(el) })),
  };
}

/** Asserts that `b` is wholly inside the window. */
function onScreen(m, b, what, size) {
  assert.ok(b, `${what} is shown at ${size}`);
  assert.ok(b.x >= 0 && b.y >= 0 && b.right <= m.width + 0.5 && b.bottom <= m.height + 0.5,
    `${what} is on screen at ${size}: ${JSON.stringify(b)}`);
}

/**
 * Checks every size of `sizes` in the phase the page is in now, with a hand of `cards` (and, at
 * Bridge, `dummy` of dummy's cards shown at dummy's place).
 */
async function checkSizes(page, phase, cards = 13, game = '', sizes = MATRIX, dummy = null) {
  const dir = process.env.PARLOR_SHOTS || artifactsDir;
  mkdirSync(dir, { recursive: true });
  // A trick just taken stays a moment, then slides away: measure the table after it.
  await page.waitForFunction(() => window.__parlor.trickHold === null, null, { timeout: 10000 });
  // Every size is checked; what fails is told for all of them at once.
  const failures = [];
  for (const [width, height] of sizes) {
    try {
      await checkSize(page, phase, cards, game, dir, width, height, dummy);
    } catch (e) {
      failures.push(e instanceof Error ? e.message : String(e));
    }
  }
  assert.deepEqual(failures, [], `${phase} fits at every size`);
}

/** Checks one size, `width`×`height`, of {@link checkSizes}. */
async function checkSize(page, phase, cards, game, dir, width, height, dummy) {
  const size = `${width}×${height} (${phase})`;
  await resizeTo(page, width, height);
  await page.screenshot({ path: path.join(dir, `layout-${game ? `${game}-` : ''}${phase}-${width}x${height}.png`) });
  assert.equal(await scrollsSideways(page), false, `nothing scrolls sideways at ${size}`);
  const m = await page.evaluate(measure);
  assert.equal(m.cards.length, cards, `the whole hand is drawn at ${size}`);
  for (const c of m.cards) onScreen(m, c, `card ${c.card}`, size);
  if (phase === 'bidding') {
    // No trick yet: the middle of the table (whose turn, the bids so far) stands for it.
    assert.equal(m.trick, null, `no empty trick takes room while bidding at ${size}`);
    m.trick = m.center;
  }
  onScreen(m, m.trick, 'the trick', size);
  for (const c of m.played) onScreen(m, c, 'a card on the table', size);
  onScreen(m, m.turn, 'whose turn it is', size);
  // The middle of the table is not drawn over the name plates.
  const overlaps = (a, b) => a.x < b.right - 1 && b.x < a.right - 1 && a.y < b.bottom - 1 && b.y < a.bottom - 1;
  for (const p of m.plates) {
    assert.ok(!overlaps(m.turn, p) && !overlaps(m.trick, p), `the trick and the turn clear the plates at ${size}: ${JSON.stringify({ turn: m.turn, trick: m.trick, plate: p })}`);
    for (const c of m.played) assert.ok(!overlaps(c, p), `a card on the table clears the plates at ${size}: ${JSON.stringify({ card: c, plate: p })}`);
    if (m.caption) assert.ok(!overlaps(m.caption, p), `who took the trick clears the plates at ${size}`);
  }
  m.plates.forEach((p, i) => m.plates.slice(i + 1).forEach((q) => assert.ok(!overlaps(p, q), `the plates do not overlap at ${size}: ${JSON.stringify([p, q])}`)));
  // The trick is as readable as the hand: a rank of at least 14 px on a card at least 40 px wide.
  for (const r of m.playedRanks) assert.ok(r >= 14, `a rank on the table is at least 14 px at ${size}: ${r}`);
  for (const c of m.played) assert.ok(c.w >= 40, `a card on the table is at least 40 px wide at ${size}: ${c.w}`);
  for (const b of m.actions) onScreen(m, b, `the button ${b.what} under the hand`, size);
  assert.ok(m.actionRows <= 2, `the buttons under the hand take at most two rows at ${size}: ${m.actionRows}`);
  if (phase === 'passing') onScreen(m, m.pass, 'the pass button', size);
  else onScreen(m, m.turnPlate, 'the plate of the seat to play', size);
  if (phase === 'bidding' && m.biddingBox) {
    // Bridge: every call and the lowest bids open, and the auction so far, on the screen.
    assert.ok(m.bridgeCalls.length >= 6, `the bidding box's calls and lowest bids are shown at ${size}: ${m.bridgeCalls.length}`);
    for (const b of m.bridgeCalls) onScreen(m, b, b.what, size);
    onScreen(m, m.auction, 'the auction', size);
    for (const p of m.plates) assert.ok(!overlaps(m.auction, p), `the auction clears the plates at ${size}: ${JSON.stringify({ auction: m.auction, plate: p })}`);
  } else if (phase === 'bidding') {
    onScreen(m, m.bid, 'the bid button', size);
    assert.ok(m.bids.length > 1, `the bid box is shown at ${size}`);
    for (const b of m.bids) onScreen(m, b, b.what, size);
  }
  // Bridge: dummy's cards, all of them on screen and readable, beside the trick, not over it.
  for (const c of m.dummy) {
    onScreen(m, c, `dummy's ${c.card}`, size);
    assert.ok(!overlaps(c, m.trick) && !overlaps(c, m.turn), `dummy's ${c.card} clears the trick and the turn at ${size}: ${JSON.stringify({ card: c, trick: m.trick, turn: m.turn })}`);
  }
  for (const r of m.dummyRanks) assert.ok(r >= 14, `a rank of dummy's is at least 14 px at ${size}: ${r}`);
  // Bridge's claim: what declarer fills in, and what a defender reads and answers, on screen.
  if (phase === 'claiming') assert.ok(m.claimForm.length >= 4, `the claim form is shown at ${size}`);
  for (const b of m.claimForm) onScreen(m, b, b.what, size);
  if (phase === 'answering') assert.ok(m.claimBox.length > 3, `the claim box is shown at ${size}`);
  for (const b of m.claimBox) onScreen(m, b, b.what, size);
  for (const r of m.claimRanks) assert.ok(r >= 14, `a rank of declarer's faced cards is at least 14 px at ${size}: ${r}`);
  if (phase === 'claimed') assert.ok(m.claimNote, `the claim is shown at ${size}`);
  if (m.claimNote) {
    onScreen(m, m.claimNote, 'the claim', size);
    for (const p of m.plates) assert.ok(!overlaps(m.claimNote, p), `the claim clears the plates at ${size}: ${JSON.stringify({ claim: m.claimNote, plate: p })}`);
    for (const c of m.dummy) assert.ok(!overlaps(c, m.claimNote), `dummy's ${c.card} clears the claim at ${size}`);
  }
  if (dummy !== null) assert.equal(m.dummy.length, dummy, `all of dummy's cards are drawn at ${size}`);
  for (const t of m.taps) {
    assert.ok(t.w >= 44 && t.h >= 44, `${t.what} is at least 44×44 px at ${size}: ${Math.round(t.w)}×${Math.round(t.h)}`);
  }
}

test('the hand, the trick, the turn and the pass button fit on one screen at every size', async () => {
  const created = await createByApi(server.url, {
    variant: 'hearts', options: {}, table_options: { bot_delay_ms: 0 }, seed: 2024,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A name long enough to wrap, to see it does so between words.
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma Josephine Wilhelmina', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);

  await page.locator('#pass-button').waitFor();
  // Two cards chosen: the button still says how many are missing (its longest text).
  await page.locator('.hand .card').nth(0).click();
  await page.locator('.hand .card').nth(5).click();
  await checkSizes(page, 'passing');

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.locator('.hand .card.selected').first().click();
  assert.equal(await actOnce(page), 'passed');
  // Our turn to play, with the passed cards in the hand (so 13 cards, before we play one).
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'play'), 30000, 'our turn to play');
  await checkSizes(page, 'playing');
  assert.deepEqual(errors, []);
  await context.close();
});

test('spades: the hand, the bid box and its button fit on one screen at every size, and so does play', async () => {
  const created = await createByApi(server.url, {
    variant: 'spades', options: {}, table_options: { bot_delay_ms: 0 }, seed: 2024,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma Josephine Wilhelmina', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'bid'), 30000, 'our bid');
  await checkSizes(page, 'bidding', 13, 'spades');
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.equal(await actOnce(page), 'bid');
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'play'), 30000, 'our turn to play');
  await checkSizes(page, 'playing', 13, 'spades');
  assert.deepEqual(errors, []);
  await context.close();
});

test('oh hell with seven seats: every plate, the hand, the bid box and the trick fit at every size', async () => {
  const created = await createByApi(server.url, {
    variant: 'ohhell', options: { players: 7 }, table_options: { bot_delay_ms: 0 }, seed: 2024,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma Josephine Wilhelmina', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'bid'), 30000, 'our bid');
  assert.equal(await page.locator('.plate').count(), 7);
  // Seven players: seven cards each in the first hand (51 / 7).
  await checkSizes(page, 'bidding', 7, 'ohhell7');
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.equal(await actOnce(page), 'bid');
  // Play until the others' cards are on the table and it is our turn again, a trick in.
  await until(async () => {
    const v = await page.evaluate(() => window.__parlor?.view);
    if (v?.legal?.type === 'play' && v.tricks.length >= 1 && v.trick.plays.length >= 3) return true;
    if (v?.legal?.type === 'play') await actOnce(page);
    return false;
  }, 60000, 'our turn with cards on the table');
  const cards = await page.evaluate(() => window.__parlor.view.hand.length);
  await checkSizes(page, 'playing', cards, 'ohhell7');
  // A suggestion's words take a line of their own under the buttons.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.locator('#hint-button').click();
  await page.locator('#hint-note:not(:empty)').waitFor();
  await checkSizes(page, 'suggested', cards, 'ohhell7');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Sits at a new table of `variant` with computers and plays until it is our turn with cards on the table. */
async function seatedWithCardsOnTable(variant, options = {}) {
  const created = await createByApi(server.url, { variant, options, table_options: { bot_delay_ms: 0 }, seed: 2024 });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma Josephine Wilhelmina', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await until(async () => {
    const v = await page.evaluate(() => window.__parlor?.view);
    if (v?.legal?.type === 'play' && v.trick.plays.length >= Math.min(2, v.players - 1)) return true;
    if (v && v.legal?.type !== 'wait') await actOnce(page);
    return false;
  }, 60000, 'our turn with cards on the table');
  return { page, context, errors };
}

for (const [variant, options, name] of [
  ['filippa', {}, 'filippa'], ['hearts5', {}, 'hearts5'], ['tricks', {}, 'tricks'], ['whist', {}, 'whist'],
  ['ohhell', { players: 3 }, 'ohhell3'], ['ohhell', { players: 5 }, 'ohhell5'],
]) {
  test(`${name}: the trick is readable and clear of the plates at every size, before and after "Suggest a card", and the last trick`, async () => {
    const { page, context, errors } = await seatedWithCardsOnTable(variant, options);
    const cards = await page.evaluate(() => window.__parlor.view.hand.length);
    await checkSizes(page, 'playing', cards, name);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('#hint-button').click();
    await page.locator('#hint-note:not(:empty)').waitFor();
    await checkSizes(page, 'suggested', cards, name);
    // A trick later, the last trick shown again with who took it under it: the most the middle
    // of the table holds (every seat's card, whose turn it is and a caption).
    await page.setViewportSize({ width: 1280, height: 800 });
    await until(async () => {
      const v = await page.evaluate(() => window.__parlor?.view);
      if (v?.legal?.type === 'play' && v.tricks.length >= 1) return true;
      if (v && v.legal?.type !== 'wait') await actOnce(page);
      return false;
    }, 60000, 'our turn a trick later');
    await page.waitForFunction(() => window.__parlor.trickHold === null, null, { timeout: 10000 });
    await page.locator('#last-trick').click();
    await page.locator('#trick-caption').waitFor();
    const left = await page.evaluate(() => window.__parlor.view.hand.length);
    await checkSizes(page, 'last-trick', left, name);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('on a phone the lobby opens with its level-one heading and "Create table" on the first screen', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.locator('#create-table').waitFor();
  // The games are listed once /api/variants answers: the form at its full length.
  await page.locator('input[name="variant"][value="ohhell"]').waitFor();
  const where = await page.evaluate(() => {
    window.scrollTo(0, 0);
    const button = document.querySelector('#create-table');
    const r = button.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { top: r.top, bottom: r.bottom, height: window.innerHeight, tappable: button.contains(hit), h1: document.querySelectorAll('h1').length };
  });
  assert.equal(where.h1, 1, 'one level-one heading');
  assert.ok(where.top >= 0 && where.bottom <= where.height, `"Create table" is on the first screen: ${JSON.stringify(where)}`);
  assert.ok(where.tappable, '"Create table" is not covered');
  await context.close();
});

test('euchre: the turned card, the call box, the discard and a lone hand’s trick of three fit at every size', async () => {
  const created = await createByApi(server.url, {
    variant: 'euchre', options: { target: 5 }, table_options: { bot_delay_ms: 0 }, seed: 41,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma Josephine Wilhelmina', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  // We call first in the first hand: the turned card in the middle, the box under the hand.
  await until(() => page.evaluate(() => window.__parlor?.view?.legal?.type === 'call'), 30000, 'our call');
  await checkSizes(page, 'calling', 5, 'euchre');
  const dir = process.env.PARLOR_SHOTS || artifactsDir;
  for (const [width, height] of MATRIX) {
    const size = `${width}×${height} (calling)`;
    await page.setViewportSize({ width, height });
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    const m = await page.evaluate(() => {
      window.scrollTo(0, 0);
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return { what: el.dataset.call || el.id, x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height };
      };
      return {
        width: window.innerWidth,
        height: window.innerHeight,
        calls: [...document.querySelectorAll('#call-box .call-option')].map(box),
        turned: document.querySelector('#turned-up .card') && box(document.querySelector('#turned-up .card')),
      };
    });
    assert.ok(m.calls.length >= 2, `the call box is shown at ${size}`);
    for (const c of m.calls) {
      onScreen(m, c, `the call ${c.what}`, size);
      assert.ok(c.w >= 44 && c.h >= 44, `${c.what} is at least 44×44 px at ${size}`);
    }
    onScreen(m, m.turned, 'the turned-up card', size);
  }
  await page.screenshot({ path: path.join(dir, 'layout-euchre-call-box.png') });
  // We go alone: our partner sits out, and the tricks have three cards.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.locator('#call-box .call-option[data-call="order_up-alone"]').click();
  await until(async () => {
    const v = await page.evaluate(() => window.__parlor.view);
    if (v.legal.type === 'discard') {
      await page.locator('.hand .card').first().click();
      await page.locator('#discard-button:not([disabled])').click();
      return false;
    }
    if (v.legal.type === 'play' && v.trick.plays.length === 0) {
      await actOnce(page);
      return false;
    }
    return v.legal.type === 'play' && v.trick.plays.length > 0 && v.calling.out.length === 1;
  }, 30000, 'our turn to play in our lone hand, the others’ cards on the table');
  assert.equal(await page.locator('.plate.sits-out').count(), 1);
  await checkSizes(page, 'playing', await page.evaluate(() => window.__parlor.view.hand.length), 'euchre-alone');
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * The languages Bridge's layout is checked in: English, the two catalogues with the longest
 * Bridge words (German, French), and English laid out right to left.
 */
const BRIDGE_LANGUAGES = [
  { lang: 'en', locale: 'en-US' },
  { lang: 'de', locale: 'de-DE' },
  { lang: 'fr', locale: 'fr-FR' },
  { lang: 'rtl', locale: 'en-US', dir: /** @type {'rtl'} */ ('rtl') },
];

for (const { lang, locale, dir } of BRIDGE_LANGUAGES) {
  const game = lang === 'en' ? 'bridge' : `bridge-${lang}`;
  /** The people of a Bridge table in this language. */
  const person = (name, seat) => ({ name, seat, viewport: { width: 1280, height: 800 }, locale, dir });

  test(`bridge (${lang}): the hand, the bidding box and a long auction fit at every size; declarer’s hand, dummy and the trick too`, async () => {
    const created = await createByApi(server.url, {
      variant: 'bridge', options: { hands: 1, deal: BRIDGE_DEAL, board: 13 }, table_options: { bot_delay_ms: 0, turn_clock_ms: 0 }, seed: 5,
    });
    const { pages: [north, south], errors } = await twoPeopleAndComputers(browser, server.url, created, [
      person('Nora', 0), person('Grandma Josephine Wilhelmina', 2),
    ]);
    const legalOf = (p) => p.evaluate(() => window.__parlor?.view?.legal?.type);
    // South bids up the suits, North answers, the computers (with little) pass: a long auction.
    // South names no trump first, then bids the grand slam in it and declares.
    const southCalls = ['1C', '1H', '1NT', '2D', '7NT'];
    const northCalls = ['pass', '1D', '1S', '2C', '2H'];
    let southTurns = 0;
    await until(async () => {
      const v = await south.evaluate(() => window.__parlor.view);
      if (v.bridge?.contract) return true;
      if (v.legal.type === 'call') {
        if (southTurns === 0) await checkSizes(south, 'bidding', 13, game, MATRIX);
        if (southTurns === 3) await checkSizes(south, 'bidding', 13, `${game}-long`, MATRIX);
        await south.setViewportSize({ width: 1280, height: 800 });
        await bridgeCall(south, southCalls[southTurns] ?? 'pass');
        southTurns += 1;
      } else if ((await legalOf(north)) === 'call') {
        await bridgeCall(north, northCalls.shift() ?? 'pass');
      }
      return false;
    }, 90000, 'the auction to end');
    assert.equal((await south.evaluate(() => window.__parlor.view.bridge.contract)).declarer, 2, 'South declares');
    // West leads; declarer plays from dummy, all thirteen of its cards across the table.
    await until(async () => south.evaluate(() => window.__parlor.view.legal.type === 'play'), 20000, 'the opening lead');
    await south.locator('#dummy-cards .dummy-card.legal').first().waitFor();
    await checkSizes(south, 'dummy', 13, game, MATRIX, 13);
    await south.setViewportSize({ width: 1280, height: 800 });
    await south.locator('#dummy-cards .dummy-card.legal').first().click();
    // East plays: South's own turn, three cards on the table.
    await until(async () => south.evaluate(() => {
      const v = window.__parlor.view;
      return v.legal.type === 'play' && v.trick.plays.length === 3;
    }), 20000, 'South’s own turn');
    await checkSizes(south, 'declarer', 13, game, MATRIX, 12);
    assert.deepEqual(errors, []);
    for (const p of [south, north]) await p.context().close();
  });

  test(`bridge (${lang}): a defender’s hand, dummy’s cards beside the table and the trick fit at every size`, async () => {
    // The same deal seen by East: South (a computer) declares, West leads, dummy (North) shows.
    const created = await createByApi(server.url, {
      variant: 'bridge', options: { hands: 1, deal: BRIDGE_DEAL, board: 1 }, table_options: { bot_delay_ms: 0, turn_clock_ms: 0 }, seed: 5,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
    if (dir) await forceDir(context, dir);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma Josephine Wilhelmina', 1);
    await fillWithBots(page, 'heuristic');
    await startMatch(page);
    await until(async () => {
      const v = await page.evaluate(() => window.__parlor.view);
      if (v.legal.type === 'play' && v.bridge?.dummy && v.trick.plays.length >= 1) return true;
      if (v.legal.type === 'call') await bridgeCall(page, 'pass');
      else if (v.legal.type === 'play') await actOnce(page);
      return false;
    }, 60000, 'our turn to play as a defender, dummy shown');
    const v = await page.evaluate(() => window.__parlor.view);
    assert.notEqual(v.bridge.contract.declarer % 2, 1, 'North–South declare');
    await checkSizes(page, 'defending', v.hand.length, game, MATRIX, v.bridge.dummy.cards.length);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`bridge (${lang}): declarer’s claim form, a defender’s claim box and the claim waiting fit at every size`, async () => {
    // South (a person) declares 7NT with every high card; East (a person) defends. After West's
    // lead South opens the claim form, then claims all thirteen tricks: the computer West
    // accepts, East is asked.
    const created = await createByApi(server.url, {
      variant: 'bridge', options: { hands: 1, deal: BRIDGE_DEAL, board: 1 }, table_options: { bot_delay_ms: 0, turn_clock_ms: 0 }, seed: 5,
    });
    const { pages: [south, east], errors } = await twoPeopleAndComputers(browser, server.url, created, [
      person('Grandma Josephine Wilhelmina', 2), person('Eve', 1),
    ]);
    const legalOf = (p) => p.evaluate(() => window.__parlor?.view?.legal?.type);
    await southBidsSevenNoTrump(south, east);
    assert.equal((await south.evaluate(() => window.__parlor.view.bridge.contract)).declarer, 2, 'South declares');
    await until(async () => south.evaluate(() => window.__parlor.view.legal.type === 'play'), 20000, 'the opening lead');
    await south.locator('#claim-button').click();
    await south.locator('#claim-form').waitFor();
    await checkSizes(south, 'claiming', 13, game, MATRIX, 13);
    await south.setViewportSize({ width: 1280, height: 800 });
    await south.locator('#claim-send').click();
    await until(async () => (await legalOf(east)) === 'answer_claim', 10000, 'East to be asked');
    // West (a computer) accepts first: East's box then stays as it is until East answers.
    await until(async () => east.evaluate(() => window.__parlor.view.bridge.claim?.accepted.length === 1), 10000, 'West to accept');
    await east.locator('#claim-cards .dummy-card').first().waitFor();
    await checkSizes(east, 'answering', 13, game, MATRIX, 13);
    await checkSizes(south, 'claimed', 13, game, MATRIX, 13);
    await east.setViewportSize({ width: 1280, height: 800 });
    await east.locator('#claim-accept').click();
    await until(async () => south.evaluate(() => window.__parlor.view.history.length > 0), 10000, 'the board to end on the claim');
    assert.deepEqual(errors, []);
    for (const p of [south, east]) await p.context().close();
  });
}
