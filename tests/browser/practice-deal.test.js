// A Bridge practice table set up in the lobby from a board in Portable Bridge Notation, against
// the real server: the board pasted into "Practice a deal" (opened by the keyboard, on a
// phone) makes a practice table whose creator is dealt exactly their seat's hand of the
// board's Deal tag, as the board its Board tag names; a .pbn file chosen with the file picker
// is read into the box in the browser; and a broken board, in German, is refused in German
// under the form, the box marked and given the keyboard back, and no table is created.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { rootDir, screenshot, scrollsSideways, testDir, useServerAndBrowser } from './lib/harness.js';
import { fillWithBots, startMatch, until } from './lib/play.js';
import { boardsIn } from '../../web/practice-deal.js';
import { SMALLEST, resizeTo } from './lib/sizes.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Accessibility problems axe-core rates serious or critical in the lobby's form as it is now. */
async function axeProblems(page) {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(() => window.axe.run('.create-form', { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')})`);
}

const FIXTURE = path.join(testDir, 'fixtures', 'practice-board.pbn');
const BOARD = readFileSync(FIXTURE, 'utf8');

/** A board whose deal gives the ace of spades to two hands (and North fourteen cards). */
const BROKEN = `[Event "Broken"]
[Board "5"]
[Deal "N:AKQ2.K93.J84.A75 KJ9.QJT85.3.KQ92 T84.A4.AKQT72.J6 753.762.965.T843"]
`;

/** A catalogue of the client. @param {string} lang */
async function catalogue(lang) {
  return (await import(pathToFileURL(path.join(rootDir, 'web', 'i18n', `${lang}.js`)).href)).default;
}

/**
 * The four hands of a PBN `Deal` value, by seat (0 North … 3 West), each as card codes the
 * way the protocol writes them ("TD"): read here on its own, not by the server's reader.
 * @param {string} text a whole board
 */
function handsOf(text) {
  const deal = /\[Deal "([NESW]):([^"]+)"\]/.exec(text);
  assert.ok(deal, 'the fixture has a Deal tag');
  const first = 'NESW'.indexOf(deal[1]);
  const hands = [[], [], [], []];
  deal[2].trim().split(/\s+/).forEach((hand, i) => {
    hand.split('.').forEach((ranks, s) => {
      for (const rank of ranks) hands[(first + i) % 4].push(`${rank}${'SHDC'[s]}`);
    });
  });
  for (const hand of hands) assert.equal(hand.length, 13, 'thirteen cards a hand');
  return hands;
}

/** The Deal tag's line of a board. @param {string} text */
function handsLine(text) {
  return /\[Deal "[^"]+"\]/.exec(text)[0];
}

/** Saves the name by the keyboard (the form's submit), in whatever language the page speaks. */
async function saveName(page, name) {
  await page.locator('#name-input, .playing-as').first().waitFor();
  if (await page.locator('#name-input').count()) {
    await page.locator('#name-input').fill(name);
    await page.locator('#name-input').press('Enter');
    await page.locator('.playing-as').waitFor();
  }
}

/** Chooses Bridge and unfolds "Practice a deal" by the keyboard: focus on its summary, Enter. */
async function openPractice(page) {
  await page.locator('input[name="variant"][value="bridge"]').check();
  const summary = page.locator('#practice-deal > summary');
  await summary.waitFor();
  assert.equal(await page.locator('#practice-deal').evaluate((d) => d.open), false, 'folded away until asked for');
  await summary.focus();
  await page.keyboard.press('Enter');
  await page.locator('#pbn-text').waitFor({ state: 'visible' });
}

/** Its controls at this size: inside the screen, nothing sideways, each at least 44 px tall and wide. */
async function checkFits(page, where) {
  const boxes = await page.evaluate(() => ['#practice-deal > summary', '#pbn-text', '#pbn-file', '#create-table'].map((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return { sel, left: r.left, right: r.right, w: r.width, h: r.height };
  }));
  const width = await page.evaluate(() => window.innerWidth);
  for (const b of boxes) {
    assert.ok(b.left >= 0 && b.right <= width + 0.5, `${b.sel} fits the width at ${where}: ${JSON.stringify(b)}`);
    assert.ok(b.h >= 44 && b.w >= 44, `${b.sel} is at least 44 px at ${where}: ${JSON.stringify(b)}`);
  }
  assert.equal(await scrollsSideways(page), false, `nothing scrolls sideways at ${where}`);
}

test('a board pasted under "Practice a deal" deals the creator their seat’s hand of it, as its board', async () => {
  const en = await catalogue('en');
  // axe-core goes in as an inline script, which the server's Content-Security-Policy refuses.
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, bypassCSP: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await saveName(page, 'Grandma');
  await openPractice(page);

  // Labelled and described: the box is found by its label, and says what to paste.
  const box = page.getByLabel(en['lobby.pbn_label']);
  assert.equal(await box.evaluate((e) => e.id), 'pbn-text');
  const described = await box.evaluate((e) => e.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id)?.textContent));
  assert.deepEqual(described, [en['lobby.pbn_hint']]);
  assert.equal(await page.getByLabel(en['lobby.pbn_file']).evaluate((e) => e.type), 'file');
  for (const [w, h] of [SMALLEST, [360, 740], [740, 360]]) {
    await resizeTo(page, w, h);
    await checkFits(page, `${w}×${h}`);
  }
  await resizeTo(page, 360, 740);
  assert.deepEqual(await axeProblems(page), []);

  // Pasted, as a person would from another program: the text goes in at once, as one input.
  await box.focus();
  await page.keyboard.insertText(BOARD);
  assert.equal(await box.inputValue(), BOARD);
  await screenshot(page, 'practice-deal-pasted-360x740');

  let sent = null;
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/tables')) sent = r.postDataJSON(); });
  await page.locator('#create-table').click();
  await page.waitForURL(/\/t\/[^/]+$/);
  await page.locator('.seats-panel .seat-row.me').waitFor();
  assert.equal(sent?.variant, 'bridge');
  assert.equal(sent?.pbn, BOARD, 'the board is sent as `pbn`, as pasted');
  // Whoever pasted the board knows every hand: the table says it is a practice table.
  await page.locator('#practice').waitFor();
  await fillWithBots(page, 'heuristic');
  await startMatch(page);

  await until(async () => (await page.evaluate(() => window.__parlor.view?.hand?.length)) === 13, 15000, 'the hand to be dealt');
  const v = await page.evaluate(() => window.__parlor.view);
  assert.ok(Number.isInteger(v.seat), 'seated');
  const expected = handsOf(BOARD)[v.seat];
  assert.deepEqual([...v.hand].sort(), [...expected].sort(), `seat ${v.seat} holds its hand of the board`);
  const shown = await page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.dataset.card));
  assert.deepEqual(shown.sort(), [...expected].sort(), 'the page shows exactly that hand');
  // Board 3: South deals.
  assert.equal(v.dealer, 2, 'the Board tag sets the dealer (board 3: South)');
  assert.deepEqual(await page.evaluate(() => [...window.__i18nMissing]), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a .pbn file of several boards is read in the browser and the board chosen is the one sent', async () => {
  const en = await catalogue('en');
  // A match file as Parlor's download writes it: a header, then boards with an empty line between.
  const first = BOARD.replace('[Board "3"]', '[Board "1"]').replace('[Dealer "S"]', '[Dealer "N"]').replace('[Vulnerable "EW"]', '[Vulnerable "None"]')
    .replace(/\[Declarer[\s\S]*$/, '');
  const match = `% PBN 2.1\n% EXPORT\n${first}\n${BOARD}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parlor-pbn-'));
  const file = path.join(dir, 'club-night.pbn');
  writeFileSync(file, match);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await saveName(page, 'Bert');
  await openPractice(page);
  let sent = null;
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/tables')) sent = r.postDataJSON(); });
  await page.getByLabel(en['lobby.pbn_file']).setInputFiles(file);
  await until(async () => (await page.locator('#pbn-text').inputValue()) === match, 5000, 'the file to be read into the box');
  assert.equal(await page.locator('#pbn-file-note').textContent(), en['lobby.pbn_file_boards'].other.replace('{name}', 'club-night.pbn').replace('{count}', '2'));
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'pbn-text', 'the keyboard is in the box, to look the text over');
  assert.equal(sent, null, 'nothing is sent until the table is created');
  // Which board: chosen by the keyboard in a labelled list.
  const choice = page.getByLabel(en['lobby.pbn_which_board']);
  assert.deepEqual(await choice.locator('option').allTextContents(), ['1: board 1', '2: board 3']);
  await choice.focus();
  await page.keyboard.press('ArrowDown');
  await until(async () => (await page.locator('#pbn-board').inputValue()) === '1', 5000, 'the second board to be chosen');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'pbn-board', 'the keyboard stays on the list');
  await page.locator('#create-table').click();
  await page.waitForURL(/\/t\/[^/]+$/);
  assert.match(sent.pbn, /\[Board "3"\]/, 'the board chosen is sent');
  assert.ok(sent.pbn.includes(handsLine(BOARD)) && !sent.pbn.includes('[Board "1"]'), `only the board chosen is sent: ${sent.pbn}`);
  const id = page.url().split('/t/')[1];
  const info = await (await fetch(`${server.url}/api/tables/${id}`)).json();
  assert.equal(info.options.board, 3, 'the table plays the board chosen');
  assert.equal(info.practice, true);
  await context.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a broken board is refused in the person’s language and no table is created', async () => {
  const de = await catalogue('de');
  const context = await browser.newContext({ viewport: { width: 320, height: 568 }, locale: 'de-DE', bypassCSP: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  await saveName(page, 'Oma');
  await openPractice(page);
  // Listed, so that a table made by mistake would show in the lobby's list.
  await page.locator('#list-table').check();
  await page.locator('#pbn-text').fill(BROKEN);
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/tables'));
  await page.locator('#create-table').click();
  const res = await answered;
  assert.equal(res.status(), 400);
  const body = await res.json();
  assert.equal(body.code, 'bad_pbn');

  const notice = page.locator('#pbn-refusal[role="alert"]');
  await notice.waitFor();
  assert.equal(await notice.locator('p').first().textContent(), de['lobby.pbn_refused']);
  // The reader's own reason follows, marked as English (the server writes it in English).
  const reason = notice.locator('.pbn-reason [lang="en"]');
  const said = await reason.textContent();
  assert.ok(said.length > 0 && body.message.endsWith(said), `the reason is the server's: ${said} / ${body.message}`);
  assert.ok(!said.startsWith('bad PBN board'), 'the headline already says the board could not be read');
  assert.equal(await notice.locator('.pbn-reason').textContent(), de['lobby.pbn_reason'].replace('{reason}', said));
  // The box is marked, points to the refusal, has the keyboard, and keeps the text to mend.
  const boxState = await page.evaluate(() => {
    const el = document.getElementById('pbn-text');
    return { invalid: el.getAttribute('aria-invalid'), describedby: el.getAttribute('aria-describedby'), focused: document.activeElement === el, value: el.value };
  });
  assert.deepEqual(boxState, { invalid: 'true', describedby: 'pbn-desc pbn-refusal', focused: true, value: BROKEN });
  await checkFits(page, '320×568 with the refusal shown');
  assert.deepEqual(await axeProblems(page), []);
  // Right under the box and on the screen with it, not behind the sticky "Create table".
  const seen = await page.evaluate(() => {
    const box = document.getElementById('pbn-text').getBoundingClientRect();
    const note = document.getElementById('pbn-refusal');
    const r = note.getBoundingClientRect();
    const visible = [...note.querySelectorAll('p')].every((p) => {
      const pr = p.getBoundingClientRect();
      return note.contains(document.elementFromPoint(pr.left + 4, pr.top + pr.height / 2)) && note.contains(document.elementFromPoint(pr.left + 4, pr.bottom - 4));
    });
    return { gap: r.top - box.bottom, boxTop: box.top, visible, note: [r.top, r.bottom], screen: window.innerHeight, row: document.querySelector(".create-row").getBoundingClientRect().top };
  });
  assert.ok(seen.gap >= 0 && seen.gap < 20, `the refusal is right under the box: ${JSON.stringify(seen)}`);
  assert.ok(seen.visible && seen.boxTop >= 0, `the refusal and the box are on the screen, uncovered: ${JSON.stringify(seen)}`);
  await page.screenshot({ path: path.join(testDir, 'artifacts', 'practice-deal-refused-de-320x568-screen.png') });
  await screenshot(page, 'practice-deal-refused-de-320x568');

  // No table: still in the lobby, no seat to take, none listed.
  assert.equal(new URL(page.url()).pathname, '/');
  assert.equal(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('parlor.autosit')).length), 0);
  const tables = await (await fetch(`${server.url}/api/tables`)).json();
  assert.deepEqual(tables.filter((t) => t.variant === 'bridge'), [], 'no Bridge table was created');
  assert.equal(await page.locator('#create-table').isDisabled(), false, 'the form can be sent again');
  assert.deepEqual(await page.evaluate(() => [...window.__i18nMissing]), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a match file splits into its boards where a tag comes again; one board or none stays whole', () => {
  const second = BOARD.replace('[Board "3"]', '[Board "4"]');
  const match = `% PBN 2.1\n% EXPORT\n${BOARD}\n${second}`;
  const boards = boardsIn(match);
  assert.deepEqual(boards.map((b) => b.number), ['3', '4']);
  // Each board keeps its own tags and auction, and nothing of the other's.
  for (const b of boards) {
    assert.equal([...b.text.matchAll(/^\[Board /gm)].length, 1, b.text);
    assert.equal([...b.text.matchAll(/^Pass Pass$/gm)].length, 1, b.text);
  }
  // Without an empty line between them too.
  assert.equal(boardsIn(`${BOARD}${second}`).length, 2);
  assert.deepEqual(boardsIn(BOARD), [{ number: '', text: BOARD }]);
  assert.deepEqual(boardsIn(BROKEN), [{ number: '', text: BROKEN }]);
  assert.deepEqual(boardsIn(''), [{ number: '', text: '' }]);
});
