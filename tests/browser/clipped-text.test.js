// No word cut off: in every language (German and Polish words are long) and at every size of
// the layout matrix (the tables on the smallest phone, 320×568, too), the lobby and a table
// (passing, playing; spades while bidding; Bridge's auction, play from dummy, a defender's view
// and a claim) show each visible piece of text whole. A text is cut off when a box that hides its overflow (overflow
// hidden or clip, an ellipsis) does not hold the text's whole line boxes, which is what the
// eye sees as a clipped label. A box that scrolls (the score sheet's table) is not a cut: its
// text can be scrolled to. A person's name shortened with an ellipsis is allowed where the
// element says the whole name in its `title`; words from the catalogue never are.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';
import { BRIDGE_DEAL, southBidsSevenNoTrump } from './lib/bridge.js';
import { actOnce, createByApi, fillWithBots, startMatch, twoPeopleAndComputers, until } from './lib/play.js';
import { MATRIX, SIZES, resizeTo } from './lib/sizes.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const LANGUAGES = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', pl: 'pl-PL' };

/** Every visible text on the page that a box hiding its overflow cuts, in the page. */
function clippedTexts() {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const scrolls = (v) => v === 'auto' || v === 'scroll';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('script, style, template, option, .sr-only, [hidden]')) continue;
    // The table in words is off screen until the keyboard is in it.
    if (el.closest('.text-view') && !el.closest('.text-view:focus-within')) continue;
    // Not drawn: hidden, or in a closed <details> (its content is laid out, never shown).
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!lines.length) continue;
    for (let box = el; box && box !== document.documentElement; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.display === 'contents') continue;
      const x = style.overflowX !== 'visible';
      const y = style.overflowY !== 'visible';
      if (!x && !y) continue;
      // What a scrolling box holds can be scrolled to: not cut.
      if (scrolls(style.overflowX) || scrolls(style.overflowY)) break;
      // A box of a pixel is there for screen readers only (a long form said, a short one shown).
      if (box.clientWidth <= 1 && box.clientHeight <= 1) break;
      const r = box.getBoundingClientRect();
      const left = r.left + box.clientLeft;
      const top = r.top + box.clientTop;
      const right = left + box.clientWidth;
      const bottom = top + box.clientHeight;
      const cut = lines.some((l) => (x && (l.left < left - 1 || l.right > right + 1)) || (y && (l.top < top - 1 || l.bottom > bottom + 1)));
      if (!cut) continue;
      // A name shortened on purpose says itself whole in a title.
      let named = false;
      for (let e = el; e && !named; e = e === box ? null : e.parentElement) named = (e.getAttribute('title') || '').includes(text);
      if (!named) {
        out.push({
          text,
          where: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')}`,
          box: `${box.tagName.toLowerCase()}.${[...box.classList].join('.')} ${Math.round(box.clientWidth)}×${Math.round(box.clientHeight)}`,
        });
      }
      break;
    }
  }
  return out;
}

/** Checks the page at every size of `sizes`, as it is now; `what` names the moment. */
async function checkSizes(page, what, lang, sizes = SIZES) {
  for (const [width, height] of sizes) {
    await resizeTo(page, width, height);
    const cut = await page.evaluate(clippedTexts);
    assert.deepEqual(cut, [], `no text cut off in ${lang}, ${what}, at ${width}×${height}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A page speaking `locale`, with the player's name (a long one) saved. */
async function pageIn(locale) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  await context.addInitScript(() => { localStorage.setItem('parlor.name', 'Grandma Josephine Wilhelmina'); });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Sits in seat 0 of a new table of `variant` with computer players and starts it. */
async function seated(page, variant, options = {}) {
  const created = await createByApi(server.url, { variant, options, table_options: { bot_delay_ms: 0 }, seed: 2024 });
  await page.goto(`${server.url}${created.invite}`);
  await page.locator('#join-name').fill('Grandma Josephine Wilhelmina');
  await page.locator('.join-page button[data-seat="0"]').click();
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
}

const legalIs = (page, type) => until(() => page.evaluate((t) => window.__parlor?.view?.legal?.type === t, type), 30000, `a ${type} prompt`);

for (const [lang, locale] of Object.entries(LANGUAGES)) {
  test(`${lang}: no text is cut off on the lobby or the table at any size`, async () => {
    const { context, page, errors } = await pageIn(locale);
    await page.goto(server.url);
    await page.locator('input[name="variant"][value="ohhell"]').waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), lang);
    await checkSizes(page, 'the lobby', lang);

    await seated(page, 'hearts');
    await legalIs(page, 'pass');
    // Two cards of three chosen: the pass button's longest words.
    await page.locator('.hand .card').nth(0).click();
    await page.locator('.hand .card').nth(5).click();
    await page.waitForFunction(() => window.__parlor.trickHold === null);
    await checkSizes(page, 'hearts while passing', lang, MATRIX);
    await page.locator('.hand .card.selected').first().click();
    assert.equal(await actOnce(page), 'passed');
    await until(async () => {
      const v = await page.evaluate(() => window.__parlor?.view);
      if (v?.legal?.type === 'play' && v.trick.plays.length >= 2) return true;
      if (v && v.legal?.type !== 'wait') await actOnce(page);
      return false;
    }, 60000, 'our turn with cards on the table');
    await page.waitForFunction(() => window.__parlor.trickHold === null);
    await checkSizes(page, 'hearts while playing', lang, MATRIX);

    await seated(page, 'spades');
    await legalIs(page, 'bid');
    await checkSizes(page, 'spades while bidding', lang, MATRIX);

    await seated(page, 'ohhell', { players: 7 });
    await legalIs(page, 'bid');
    await checkSizes(page, 'oh hell for seven while bidding', lang, MATRIX);
    await page.locator('#bid-box .bid-option:not(.forbidden)').first().click();
    await page.locator('#bid-button:not([disabled])').click();
    await until(async () => {
      const v = await page.evaluate(() => window.__parlor?.view);
      if (v?.legal?.type === 'play' && v.trick.plays.length >= 3) return true;
      if (v?.legal?.type === 'play') await actOnce(page);
      return false;
    }, 60000, 'our turn with cards on the table');
    await page.waitForFunction(() => window.__parlor.trickHold === null);
    await checkSizes(page, 'oh hell for seven while playing', lang, MATRIX);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const [lang, locale] of Object.entries(LANGUAGES)) {
  test(`${lang}: no text is cut off at Bridge (the auction, play from dummy, a defender's view, a claim) at any size`, async () => {
    // South (a person) bids 7NT with every high card and declares; East (a person) defends.
    // Both have long names, which the others' plates, the contract and the claim cut short.
    const created = await createByApi(server.url, {
      variant: 'bridge', options: { hands: 1, deal: BRIDGE_DEAL, board: 1 }, table_options: { bot_delay_ms: 0, turn_clock_ms: 0 }, seed: 5,
    });
    const person = (name, seat) => ({ name, seat, viewport: { width: 1280, height: 800 }, locale });
    const { pages: [south, east], errors } = await twoPeopleAndComputers(browser, server.url, created, [
      person('Grandma Josephine Wilhelmina', 2), person('Wilhelmina Josephine Grandma', 1),
    ]);
    assert.equal(await south.getAttribute('html', 'lang'), lang);
    // Every moment is checked; what is cut is told for all of them at once.
    const cuts = [];
    const check = (page, what, sizes = MATRIX) => checkSizes(page, what, lang, sizes).catch(async (e) => {
      cuts.push(`${e.message}: ${JSON.stringify(e.actual ?? '')}`);
      await page.setViewportSize({ width: 1280, height: 800 });
    });
    const checked = new Set();
    await southBidsSevenNoTrump(south, east, async (page) => {
      const who = page === south ? 'South' : 'East';
      if (checked.has(who)) return;
      checked.add(who);
      await check(page, `Bridge, ${who} to call`);
    });
    assert.equal((await south.evaluate(() => window.__parlor.view.bridge.contract)).declarer, 2, 'South declares');
    // West leads: South plays from dummy, East sees dummy's cards beside the table.
    await until(async () => south.evaluate(() => window.__parlor.view.legal.type === 'play'), 20000, 'the opening lead');
    await south.locator('#dummy-cards .dummy-card.legal').first().waitFor();
    await east.locator('#dummy-cards .dummy-card').first().waitFor();
    for (const page of [south, east]) await page.waitForFunction(() => window.__parlor.trickHold === null);
    // Declarer's row holds "Suggest a card" and the claim beside "More" on a phone ("Karte
    // vorschlagen" and "Podpowiedz kartę" are long): "Last trick" and "Score sheet" wait in "More".
    await check(south, 'Bridge, declarer to play from dummy');
    await check(east, 'Bridge, a defender waiting on dummy');
    // South claims all thirteen tricks: the form, East's question, the claim waiting.
    await south.locator('#claim-button').click();
    await south.locator('#claim-form').waitFor();
    await check(south, 'Bridge, the claim form');
    await south.locator('#claim-send').click();
    await until(async () => east.evaluate(() => window.__parlor.view.legal.type === 'answer_claim'), 10000, 'East to be asked');
    await until(async () => east.evaluate(() => window.__parlor.view.bridge.claim?.accepted.length === 1), 10000, 'West to accept');
    await east.locator('#claim-cards .dummy-card').first().waitFor();
    await check(east, 'Bridge, a defender asked about a claim');
    await check(south, 'Bridge, the claim waiting');
    assert.deepEqual(cuts, [], `no text cut off in ${lang} at Bridge`);
    assert.deepEqual(errors, []);
    for (const page of [south, east]) await page.context().close();
  });
}

test('the check finds a cut label, and lets a name shortened with its title through', async () => {
  const page = await browser.newPage();
  await page.setContent(`<main>
    <button id="cut" style="width: 60px; overflow: hidden; white-space: nowrap">Ansage wählen</button>
    <span id="name" title="Grandma Josephine" style="display: inline-block; width: 40px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap">Grandma Josephine</span>
    <div style="width: 60px; overflow-x: auto"><span style="white-space: nowrap">Scrolled to, not cut</span></div>
    <span class="sr-only" style="position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0, 0, 0, 0)">Said, not shown</span>
  </main>`);
  const cut = await page.evaluate(clippedTexts);
  assert.deepEqual(cut.map((c) => c.text), ['Ansage wählen']);
  await page.close();
});
