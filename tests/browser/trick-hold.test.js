// Every trick seen: a finished trick stays on the table after its last card (while a computer
// that took it leads the next, and while the next hand is dealt), the score sheet opens only
// once the hand's last trick has been shown, and "Last trick" shows the previous hand's last
// trick after the deal. Checked on what the page draws, event by event, never by the clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';
import { actOnce, createByApi, fillWithBots, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

/** Records, after each change of the page, the trick drawn and what the view knows then. */
function watchTable() {
  const seen = [];
  window.__seen = seen;
  new MutationObserver(() => {
    const v = window.__parlor.view;
    if (!v) return;
    const trick = document.querySelector('.trick');
    seen.push({
      hand: v.hand_number,
      tricks: v.tricks.map((k) => k.cards.join(' ')),
      leadPlays: v.trick.plays.length,
      mine: v.trick.plays.some((p) => p.seat === window.__parlor.seat),
      done: Boolean(trick?.classList.contains('done')),
      shown: [...document.querySelectorAll('.trick .played')].map((p) => p.dataset.card).join(' '),
      dialog: Boolean(document.querySelector('#score-dialog[open]')),
    });
  }).observe(document.body, { childList: true, subtree: true, attributes: true });
}

test('every trick stays on the table after its last card, the last of a hand too, and "Last trick" shows it in the next hand', async () => {
  const created = await createByApi(server.url, {
    variant: 'hearts', options: {}, table_options: { bot_delay_ms: 0 }, seed: 2024,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await sitByInvite(page, `${server.url}${created.invite}`, 'Ann', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await page.evaluate(watchTable);
  // Play the first hand to its end (and nothing of the second): the score sheet opens by itself.
  await until(async () => {
    if (await page.evaluate(() => window.__parlor.view.hand_number === 1)) return true;
    await actOnce(page).catch(() => null);
    return false;
  }, 120000, 'the second deal');
  await page.locator('#score-dialog[open]').waitFor({ timeout: 30000 });
  const seen = await page.evaluate(() => window.__seen);
  const first = seen.filter((x) => x.hand === 0);
  const tricks = first[first.length - 1].tricks;
  assert.equal(tricks.length, 13, 'the whole first hand was watched');

  // Each trick's four cards were on the table, as a finished trick, once it was taken.
  for (const cards of tricks) {
    assert.ok(seen.some((x) => x.done && x.shown === cards), `the trick ${cards} was shown once taken`);
  }
  // When a computer takes a trick and leads the next at once, the taken trick is still drawn
  // as the lead card reaches the view.
  for (let i = 0; i + 1 < tricks.length; i += 1) {
    const led = seen.find((x) => x.hand === 0 && x.tricks.length === i + 1 && x.leadPlays > 0);
    // (Our own lead ends the hold: we have seen the trick.)
    if (led && !led.mine) assert.equal(led.shown, tricks[i], `trick ${i + 1} is still on the table when the next is led`);
  }
  // The last trick of the hand is still on the table when the next hand is dealt, and the
  // score sheet opened only after it was shown.
  const dealt = seen.find((x) => x.hand === 1);
  assert.ok(dealt, 'the second deal was seen');
  assert.ok(dealt.done && dealt.shown === tricks[12], `the hand's last trick is on the table at the next deal: ${JSON.stringify(dealt)}`);
  const opened = seen.findIndex((x) => x.dialog);
  const lastShown = seen.findIndex((x) => x.done && x.shown === tricks[12]);
  assert.ok(lastShown >= 0 && lastShown < opened, 'the last trick was shown before the score sheet opened');

  // In the next hand, "Last trick" shows the previous hand's last trick.
  await page.locator('#dialog-close').click();
  await until(async () => (await page.locator('#score-dialog[open]').count()) === 0, 10000, 'the score sheet to close');
  await until(() => page.evaluate(() => window.__parlor.trickHold === null), 10000, 'the held trick to go');
  const button = page.locator('#last-trick');
  assert.equal(await button.isDisabled(), false, '"Last trick" can be used before the first trick of the new hand');
  await button.click();
  const shown = await page.locator('.trick.done .played').evaluateAll((els) => els.map((e) => e.dataset.card).join(' '));
  assert.equal(shown, tricks[12], '"Last trick" shows the last trick of the hand before');
  assert.equal(await button.getAttribute('aria-pressed'), 'true');
  assert.deepEqual(errors, []);
  await context.close();
});
