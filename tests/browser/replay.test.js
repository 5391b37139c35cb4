// Downloading a finished hand from the score sheet, against the real `parlor serve`: the link
// appears only once the hand is over, and what it gives is the whole hand face up.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { screenshot, scrollsSideways, startParlor, useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, model, playUntil, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

async function newPage(viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

const downloadLinks = (page) => page.locator('a.download');

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Serious or critical accessibility problems axe-core finds in the score sheet dialog. */
async function dialogProblems(page) {
  // Evaluated through the browser's debugger: the page's Content-Security-Policy rightly
  // refuses an injected inline script tag.
  await page.evaluate(readFileSync(axePath, 'utf8'));
  const result = await page.evaluate(() => window.axe.run('#score-dialog', { resultTypes: ['violations'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

test('a finished hand of hearts can be downloaded from the score sheet, every card face up', async () => {
  const created = await createByApi(server.url, {
    variant: 'hearts', table_options: { bot_delay_ms: 0 }, seed: 17,
  });
  const { context, page, errors } = await newPage();
  await sitByInvite(page, `${server.url}${created.invite}`, 'Ida', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);

  // While the hand is played, nothing can be downloaded (and the server lists no hand).
  let looked = 0;
  await playUntil(page, async () => {
    if ((await page.locator('#score-dialog[open] tr.hand-row[data-hand="0"]').count()) > 0) return true;
    const m = await model(page);
    if (m && m.phase !== 'match_over' && (await page.locator('tr.hand-row').count()) === 0) {
      assert.equal(await downloadLinks(page).count(), 0, `a download link in the middle of the hand (${m.tricks} tricks)`);
      looked += 1;
    }
    return false;
  });
  assert.ok(looked > 3, 'the page was looked at during the hand');

  // The score sheet that opens at the end of the hand offers the download, by name, folded away
  // under the sheet (not on every line).
  const row = page.locator('#score-dialog tr.hand-row[data-hand="0"]');
  await page.locator('#score-dialog .downloads summary').click();
  const link = page.locator('#score-dialog').getByRole('link', { name: 'Download hand 1' });
  await link.waitFor();
  assert.equal(await row.locator('a.download').count(), 0);
  assert.equal(await page.locator('#score-dialog .downloads a.download[data-hand="0"]').count(), 1);
  const href = await link.getAttribute('href');
  assert.equal(href, `api/tables/${created.id}/hands/0`, 'relative, so it works under a sub-path');
  assert.equal(await link.getAttribute('download'), `parlor-${created.id}-hand-1.json`);
  await screenshot(page, 'hand-over-download');
  assert.deepEqual(await dialogProblems(page), []);

  // With the keyboard: focus the link, press Enter, and a file comes down.
  await link.focus();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.equal(download.suggestedFilename(), `parlor-${created.id}-hand-1.json`);
  const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));

  // The same URL fetched by the page gives the same hand.
  const replay = await page.evaluate(async (url) => (await fetch(url)).json(), href);
  assert.deepEqual(saved, replay);

  // Every card face up: 52 dealt, passed three by three, 13 tricks of four using each card once.
  assert.equal(replay.table, created.id);
  assert.equal(replay.variant, 'hearts');
  assert.equal(replay.number, 0);
  assert.equal(replay.hand, 0);
  const dealt = replay.dealt.flat();
  assert.equal(replay.dealt.length, 4);
  assert.ok(replay.dealt.every((cards) => cards.length === 13));
  assert.equal(new Set(dealt).size, 52, 'fifty-two different cards dealt');
  assert.equal(replay.pass, 'left');
  assert.equal(replay.passes.length, 4);
  assert.ok(replay.passes.every((p) => p.cards.length === 3 && p.to === (p.from + 1) % 4));
  assert.equal(replay.tricks.length, 13);
  assert.ok(replay.tricks.every((t) => t.plays.length === 4 && t.winner !== null));
  const played = replay.tricks.flatMap((t) => t.plays.map((p) => p.card));
  assert.deepEqual([...played].sort(), [...dealt].sort(), 'each dealt card played once');
  assert.equal(replay.tricks[0].plays[0].card, '2C', 'the two of clubs leads');

  // The points: 26 handed out, or a moon (26 to each of the three others with `add`), and the
  // same as the score sheet shows.
  const points = replay.result.points;
  const sum = points.reduce((a, b) => a + b, 0);
  if (replay.result.moon !== null) {
    assert.equal(sum, 78);
    assert.deepEqual([...points].sort((a, b) => a - b), [0, 26, 26, 26]);
  } else {
    assert.equal(sum, 26, `points ${points}`);
  }
  const shown = await row.locator('td').evaluateAll((tds) => tds.map((td) => Number(td.dataset.points)));
  assert.deepEqual(shown, points);

  // After the dialog, the side score sheet keeps the link; the next hand has none until it ends.
  await page.locator('#dialog-close').click();
  await page.locator('.score-sheet.side .downloads summary').click();
  await page.locator('.score-sheet.side a.download[data-hand="0"]').waitFor();
  await page.locator('#pass-button', { hasText: 'Pass right' }).waitFor();
  const side = page.locator('.score-sheet.side a.download');
  assert.equal(await side.count(), 1);
  assert.equal(await side.getAttribute('href'), href);
  assert.equal(await side.getAttribute('download'), `parlor-${created.id}-hand-1.json`);
  await screenshot(page, 'second-hand-download');
  // On a phone the sheet with its link still fits the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.locator('.score-sheet.side a.download').scrollIntoViewIfNeeded();
  assert.equal(await scrollsSideways(page), false, 'the score sheet on a phone');
  const box = await page.locator('.score-sheet.side a.download').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 360, 'the link is within the screen');
  await screenshot(page, 'phone-download');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a server that keeps no history shows the score sheet without download links', async () => {
  const bare = await startParlor({ args: ['--no-store'] });
  const { context, page, errors } = await newPage();
  try {
    const created = await createByApi(bare.url, {
      variant: 'hearts', options: { passing: false }, table_options: { bot_delay_ms: 0 }, seed: 23,
    });
    const listing = await fetch(`${bare.url}/api/tables/${created.id}/hands`);
    assert.equal(listing.status, 404);
    assert.equal((await listing.json()).code, 'no_storage');

    await sitByInvite(page, `${bare.url}${created.invite}`, 'Jo', 0);
    await fillWithBots(page, 'heuristic');
    await startMatch(page);
    await playUntil(page, async () => (await page.locator('#score-dialog[open] tr.hand-row[data-hand="0"]').count()) > 0);
    // The page asked, learnt there is no history, and shows the sheet as it always did.
    await until(() => page.evaluate(() => window.__parlor.handsOff), 10000, 'the page to learn there is no history');
    assert.equal(await page.locator('#score-dialog tr.hand-row').count(), 1);
    assert.equal(await downloadLinks(page).count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await bare.stop();
  }
});
