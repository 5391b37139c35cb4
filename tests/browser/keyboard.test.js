// Playing without a mouse and without seeing the table, against the real server: a whole Hearts
// match played by keyboard alone (arrows and Enter on the cards, Tab to the buttons), the focus
// never dropped to the page's body; the announcements of a trick heard as a sequence, once
// each; and the same match's moves made by typing in the table in words.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { screenshot, useServerAndBrowser } from './lib/harness.js';
import { createByApi, fillWithBots, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const view = (page) => page.evaluate(() => window.__parlor.view);
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return { body: !el || el === document.body, id: el?.id || '', card: el?.dataset?.card || '', tag: el?.tagName || '' };
});

/** Presses Tab (forward) until `wanted(focus)` holds; fails after `max` presses. */
async function tabTo(page, wanted, what, max = 80, key = 'Tab') {
  for (let i = 0; i < max; i += 1) {
    const f = await focused(page);
    if (wanted(f)) return f;
    await page.keyboard.press(key);
  }
  throw new Error(`Tab never reached ${what}`);
}

/** With a card focused, moves along the hand with the arrows to `card`. */
async function arrowTo(page, card) {
  const order = await page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.dataset.card));
  for (let i = 0; i < 60; i += 1) {
    const f = await focused(page);
    if (f.card === card) return;
    const here = order.indexOf(f.card);
    assert.ok(here >= 0, `a card has the focus, not ${JSON.stringify(f)}`);
    await page.keyboard.press(order.indexOf(card) > here ? 'ArrowRight' : 'ArrowLeft');
  }
  throw new Error(`the arrows never reached ${card}`);
}

/** Takes the focus to the hand by keyboard (Tab) if it is not on a card already. */
async function toHand(page) {
  const f = await focused(page);
  if (f.card) return;
  // From below the hand (the buttons under it keep the focus once the hand is played out), back.
  const below = await page.evaluate(() => {
    const hand = document.querySelector('.hand');
    const el = document.activeElement;
    return Boolean(hand && el && el !== document.body && (hand.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
  });
  await tabTo(page, (x) => Boolean(x.card), 'a card', 80, below ? 'Shift+Tab' : 'Tab');
}

test('a whole Hearts match by keyboard alone: the focus never drops to the body', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { id } = await createByApi(server.url, { variant: 'hearts', options: { target: 1 }, table_options: { bot_delay_ms: 0, turn_clock_ms: 0 } });
  await sitByInvite(page, `${server.url}/t/${id}`, 'Ann', 0);
  await fillWithBots(page, 'random');
  await startMatch(page);
  // Whatever the page draws, the focus must never be left on the body once play starts.
  await page.evaluate(() => {
    window.__lostFocus = [];
    document.addEventListener('focusout', (e) => {
      const from = /** @type {HTMLElement} */ (e.target);
      const what = `${from.id || from.dataset.card || from.className} in ${window.__parlor.view?.phase}`;
      setTimeout(() => {
        if (document.activeElement === document.body && !document.querySelector('dialog[open]')) window.__lostFocus.push(what);
      }, 0);
    });
  });
  await toHand(page);
  let passes = 0;
  let plays = 0;
  let dialogs = 0;
  for (let step = 0; step < 400; step += 1) {
    await until(async () => {
      const v = await view(page);
      return v.legal.type !== 'wait' || v.phase === 'match_over' || (await page.locator('#score-dialog[open]').count()) > 0;
    }, 30000, 'a prompt, the score sheet or the end');
    if (await page.locator('#score-dialog[open]').count()) {
      const f = await focused(page);
      assert.ok(['dialog-close', 'play-again'].includes(f.id), `the dialog has the focus: ${JSON.stringify(f)}`);
      if ((await view(page)).phase === 'match_over') break;
      dialogs += 1;
      await tabTo(page, (x) => x.id === 'dialog-close', 'Continue');
      await page.keyboard.press('Enter');
      await until(async () => (await page.locator('#score-dialog[open]').count()) === 0, 5000, 'the dialog to close');
      const after = await focused(page);
      assert.equal(after.body, false, 'after the dialog the focus is back on the page');
      continue;
    }
    const v = await view(page);
    if (v.phase === 'match_over') break;
    await toHand(page);
    if (v.legal.type === 'pass') {
      for (const card of v.legal.from.slice(0, v.legal.count)) {
        await arrowTo(page, card);
        await page.keyboard.press('Enter');
        const f = await focused(page);
        assert.equal(f.card, card, 'choosing a card to pass keeps the focus on it');
      }
      await tabTo(page, (x) => x.id === 'pass-button', 'the pass button');
      await page.keyboard.press('Enter');
      await until(async () => (await view(page)).legal.type !== 'pass', 10000, 'the pass to go');
      assert.equal((await focused(page)).body, false, `after passing the focus stays on the page: ${await page.evaluate(() => window.__lostFocus.join(', '))}`);
      passes += 1;
    } else if (v.legal.type === 'play') {
      const card = v.legal.cards[0];
      await arrowTo(page, card);
      await page.keyboard.press('Enter');
      await until(async () => !(await view(page)).hand.includes(card), 10000, 'the card to be played');
      assert.equal((await focused(page)).body, false, `after playing the focus stays on the page: ${await page.evaluate(() => window.__lostFocus.join(', '))}`);
      plays += 1;
    }
  }
  await page.locator('#winners').waitFor();
  assert.ok(passes >= 1 && plays >= 13, `passed ${passes}, played ${plays}, dialogs ${dialogs}`);
  assert.deepEqual(await page.evaluate(() => window.__lostFocus), [], 'the focus never fell to the body');
  await screenshot(page, 'keyboard-match-over');
  assert.deepEqual(errors, []);
  await context.close();
});

test('each trick is announced once, in order: the plays, then who took it; and typing plays', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { id } = await createByApi(server.url, { variant: 'hearts', options: { target: 1, passing: false }, table_options: { bot_delay_ms: 0, turn_clock_ms: 0 } });
  await sitByInvite(page, `${server.url}/t/${id}`, 'Ann', 0);
  await fillWithBots(page, 'random');
  await startMatch(page);
  // Every line said, as it is added (the log on the page keeps only the latest).
  await page.evaluate(() => {
    window.__heard = [...document.querySelectorAll('#announcements p')].map((p) => p.textContent);
    new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes) window.__heard.push(n.textContent);
    }).observe(document.getElementById('announcements'), { childList: true });
  });
  const said = () => page.evaluate(() => window.__heard);

  // The table in words answers questions typed in its box ("/" takes the keyboard there).
  await until(async () => (await view(page)).legal.type === 'play' || (await view(page)).tricks.length > 0, 30000, 'play');
  await page.locator('body').press('/');
  assert.equal((await focused(page)).id, 'command');
  assert.ok(await page.locator('#text-view').isVisible(), 'the text view shows while the keyboard is in it');
  await page.keyboard.type('hand');
  await page.keyboard.press('Enter');
  const hand = await page.locator('#command-answer').textContent();
  assert.match(hand, /^(Clubs|Diamonds|Spades|Hearts): /, hand);
  assert.equal((await said()).at(-1), hand, 'the answer is read aloud');
  await page.keyboard.type('zz');
  await page.keyboard.press('Enter');
  assert.match(await page.locator('#command-answer').textContent(), /not a card or a command/);

  // Play the match by typing cards; refusals are read from the error line, with the rule.
  let refused = '';
  for (let i = 0; i < 200; i += 1) {
    await until(async () => {
      const v = await view(page);
      return v.legal.type === 'play' || v.phase === 'match_over' || (await page.locator('#score-dialog[open]').count()) > 0;
    }, 30000, 'our turn');
    if (await page.locator('#score-dialog[open]').count()) break;
    const v = await view(page);
    if (v.phase === 'match_over') break;
    const bad = v.hand.find((c) => !v.legal.cards.includes(c));
    if (!refused && bad && v.trick.plays.length > 0 && bad[1] !== v.trick.plays[0].card[1] && v.hand.some((c) => c[1] === v.trick.plays[0].card[1])) {
      await page.locator('#command').fill(`${bad[0] === 'T' ? '10' : bad[0]}${bad[1]}`.toLowerCase());
      await page.locator('#command').press('Enter');
      await page.locator('#play-error:not(.empty)').waitFor();
      refused = await page.locator('#play-error').textContent();
      assert.equal(await page.locator('#play-error').getAttribute('role'), 'alert', 'read aloud');
    }
    const card = v.legal.cards[0];
    await page.locator('#command').fill(card.toLowerCase().replace(/^t/, '10'));
    await page.locator('#command').press('Enter');
    await until(async () => !(await view(page)).hand.includes(card), 10000, `${card} to be played`);
  }
  if (refused) assert.match(refused, /You must follow suit: you hold an? \w+\./);

  // The first trick, as it was heard: four plays in order, then its winner, each said once.
  const trick = (await view(page)).tricks[0];
  assert.ok(trick, 'a trick was played');
  const lines = await said();
  const rank = { 2: 'Two', 3: 'Three', 4: 'Four', 5: 'Five', 6: 'Six', 7: 'Seven', 8: 'Eight', 9: 'Nine', T: 'Ten', J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' };
  const suit = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
  const name = (c) => `${rank[c[0]]} of ${suit[c[1]]}`;
  // Seat 0 is "you"; the computer players are named by seat.
  const who = ['You', 'Bert', 'Cleo', 'Dido'];
  const expected = [
    ...trick.cards.map((card, i) => {
      const seat = (trick.leader + i) % 4;
      return seat === 0 ? `You played ${name(card)}.` : `${who[seat]} played ${name(card)}.`;
    }),
    trick.winner === 0 ? 'You took the trick.' : `${who[trick.winner]} took the trick.`,
  ];
  const start = lines.indexOf(expected[0]);
  assert.ok(start >= 0, `the first play is said: ${lines.join(' | ')}`);
  // Between the plays only our prompt and the answers to what we typed may come.
  const heard = lines.slice(start).filter((l) => / played | took the trick/.test(l)).slice(0, expected.length);
  assert.deepEqual(heard, expected);
  // Once per event: each card played is said once, each trick taken once.
  for (const line of expected.slice(0, -1)) assert.equal(lines.filter((l) => l === line).length, 1, `said once: ${line}`);
  const hands = (await view(page)).history.length;
  assert.equal(lines.filter((l) => l.endsWith('took the trick.')).length, 13 * hands, 'a line per trick taken');
  assert.equal(lines.filter((l) => l.startsWith('Hand 1 scored')).length, 1, 'the hand’s score, once');
  assert.deepEqual(errors, []);
  await context.close();
});
