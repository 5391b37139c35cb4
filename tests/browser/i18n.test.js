// Every language on screen, against the real server: the browser's language chooses the
// catalogue; the lobby, a table in play, "How to play" and the score sheet render in it with no
// key left untranslated and nothing wider than a phone; the switch is remembered; the table
// holds together right to left; and axe-core finds nothing serious on the lobby, the table with
// the table in words open, "How to play" and the leaderboard, in German and right to left.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { rootDir, screenshot, scrollsSideways, useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const LANGUAGES = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', pl: 'pl-PL' };
const catalogue = async (lang) => (await import(pathToFileURL(path.join(rootDir, 'web', 'i18n', `${lang}.js`)).href)).default;
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Serious or critical axe-core findings on the page as it is now. */
async function axeProblems(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: axePath });
  // A card's name starts with what it shows ("Q♠, Queen of spades"): the visible-name check is on.
  const result = await page.evaluate(() => window.axe.run(document, {
    resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } },
  }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')})`);
}

/** A phone-sized page speaking `locale`, with the player's name saved. */
async function phonePage(locale, name = 'Ann') {
  // axe-core is added as an inline script, which the server's Content-Security-Policy refuses.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale, bypassCSP: true });
  await context.addInitScript((n) => { localStorage.setItem('parlor.name', n); }, name);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Sits in seat 0 of a new hearts table through its invite page (no words needed), fills it and starts. */
async function playingTable(page) {
  const { id } = await createByApi(server.url, { variant: 'hearts', options: { target: 1 }, table_options: { bot_delay_ms: 0, turn_clock_ms: 0 } });
  await page.goto(`${server.url}/t/${id}`);
  await page.locator('.join-page button[data-seat="0"]').click();
  await fillWithBots(page, 'random');
  await startMatch(page);
  await until(() => page.evaluate(() => window.__parlor.view?.legal.type === 'pass'), 30000, 'the pass prompt');
  return id;
}

for (const [lang, locale] of Object.entries(LANGUAGES)) {
  test(`${lang}: the lobby, a table, How to play and the score sheet in ${locale}, every word translated`, async () => {
    const words = await catalogue(lang);
    const { context, page, errors } = await phonePage(locale);
    await page.goto(server.url);
    await page.locator('.create-form').waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), lang);
    assert.equal(await page.getAttribute('html', 'dir'), 'ltr');
    assert.equal(await page.locator('#create-title').textContent(), words['lobby.create_title']);
    assert.equal(await page.locator('#create-table').textContent(), words['lobby.create']);
    assert.equal(await page.locator('.variant-name', { hasText: words['variant.hearts5'] }).count(), 1);
    assert.equal(await page.title(), words['page.title']);
    assert.equal(await scrollsSideways(page), false, 'the lobby fits a phone');

    await playingTable(page);
    assert.equal(await page.getAttribute('html', 'lang'), lang);
    const turn = await page.locator('#turn').textContent();
    assert.ok(turn.startsWith(words['turn.choose_pass'].other.split('{count}')[0]), `${turn}`);
    const firstCard = await page.locator('.hand .card').first().getAttribute('aria-label');
    assert.notEqual(firstCard, null);
    if (lang !== 'en') assert.doesNotMatch(firstCard, / of (clubs|diamonds|spades|hearts)$/, 'card names in the language');
    // On a phone "Last trick" and "Score sheet" are under "More", worded as in the row.
    await page.locator('#hand-more > summary', { hasText: words['hand.more'] }).click();
    await page.getByRole('button', { name: words['hand.last_trick'], exact: true }).waitFor();
    await page.locator('#hand-more > summary').click();
    assert.equal(await scrollsSideways(page), false, 'the table fits a phone');
    await page.locator('#howto-button').click();
    await page.locator('#howto-dialog[open] li').first().waitFor();
    assert.equal(await page.locator('#howto-close').textContent(), words['common.close']);
    await page.locator('#howto-close').click();
    await page.locator('#hand-more > summary').click();
    await page.getByRole('button', { name: words['hand.score_sheet'], exact: true }).click();
    await page.locator('#score-dialog[open]').waitFor();
    assert.equal(await page.locator('#score-dialog .score-sheet thead th').first().textContent(), words['sheet.hand_col']);
    await screenshot(page, `i18n-${lang}-table`);
    assert.deepEqual(await page.evaluate(() => [...window.__i18nMissing]), [], 'no key without words');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the language switch is remembered; the server’s refusals are worded in it', async () => {
  const { context, page, errors } = await phonePage('en-US');
  await page.goto(server.url);
  await page.locator('.create-form').waitFor();
  await Promise.all([page.waitForEvent('load'), page.locator('#language').selectOption('fr')]);
  await page.locator('.create-form').waitFor();
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  assert.equal(await page.locator('#create-title').textContent(), (await catalogue('fr'))['lobby.create_title']);
  await page.reload();
  await page.locator('.create-form').waitFor();
  assert.equal(await page.getAttribute('html', 'lang'), 'fr', 'remembered');
  // A refusal over HTTP is worded by its code: a table that does not exist.
  await page.goto(`${server.url}/t/nosuchtable`);
  await page.locator('.join-page .error').waitFor();
  assert.equal(await page.locator('.join-page .error').textContent(), (await catalogue('fr'))['join.no_table']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('right to left, the table holds together and is played; axe finds nothing serious in German or RTL', async () => {
  const { context, page, errors } = await phonePage('de-DE');
  await page.goto(server.url);
  await page.locator('.create-form').waitFor();
  assert.deepEqual(await axeProblems(page), [], 'lobby (de)');
  await page.evaluate(() => { document.documentElement.dir = 'rtl'; });
  assert.equal(await scrollsSideways(page), false, 'the lobby right to left fits');
  assert.deepEqual(await axeProblems(page), [], 'lobby (rtl)');

  await playingTable(page);
  await page.evaluate(() => { document.documentElement.dir = 'rtl'; });
  assert.equal(await scrollsSideways(page), false, 'the table right to left fits a phone');
  // The top bar's buttons and the hand stay on screen.
  for (const sel of ['#howto-button', '#chat-toggle', '.hand', '.felt', '#turn']) {
    const box = await page.locator(sel).first().evaluate((e) => e.getBoundingClientRect().toJSON());
    assert.ok(box.left >= -1 && box.right <= 391 && box.width > 0, `${sel} on screen: ${JSON.stringify(box)}`);
  }
  await screenshot(page, 'i18n-rtl-table');
  assert.deepEqual(await axeProblems(page), [], 'table passing (rtl)');
  // Play on, right to left: pass three cards by clicking.
  for (const card of (await page.evaluate(() => window.__parlor.view.legal.from)).slice(0, 3)) {
    await page.locator(`.hand .card[data-card="${card}"]`).click();
  }
  await page.locator('#pass-button').click();
  await until(() => page.evaluate(() => window.__parlor.view.legal.type !== 'pass'), 10000, 'the pass');
  // The table in words, open, with the keyboard in it.
  await page.locator('body').press('/');
  await page.locator('#text-view').waitFor({ state: 'visible' });
  assert.deepEqual(await axeProblems(page), [], 'the table in words (rtl)');
  await page.keyboard.press('Escape');
  await page.locator('#howto-button').click();
  await page.locator('#howto-dialog[open] li').first().waitFor();
  assert.deepEqual(await axeProblems(page), [], 'How to play (rtl)');
  await page.goto(`${server.url}/leaderboard`);
  await page.locator('.leaderboard-body :is(table, #no-ratings)').first().waitFor();
  assert.deepEqual(await axeProblems(page), [], 'leaderboard (de)');
  assert.deepEqual(errors, []);
  await context.close();
});
