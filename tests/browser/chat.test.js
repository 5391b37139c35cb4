// Table talk in Debian's Chromium against the real `parlor serve`: two players at one table
// exchange a line and a quick reaction, a spectator reads them but cannot write, an HTML line
// shows as text (no element made from it), and a reloaded page gets the recent lines back.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';
import { createByApi, sitByInvite, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

/** A page in its own browser profile, collecting script errors. */
async function person(viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Opens the chat panel of `page`. */
async function openChat(page) {
  await page.locator('#chat-toggle').click();
  await page.locator('#chat-panel').waitFor();
}

/** The lines the chat log of `page` shows, as text. */
async function lines(page) {
  return page.locator('#chat-log .chat-line').allInnerTexts();
}

/** Waits until the chat log of `page` shows `n` lines and returns them. */
async function linesAtLeast(page, n) {
  await until(async () => (await lines(page)).length >= n, 15000, `${n} chat lines`);
  return lines(page);
}

test('two players chat, a spectator reads, HTML is text, a reload brings the lines back', async () => {
  const created = await createByApi(server.url, { variant: 'hearts' });
  const invite = `${server.url}${created.invite}`;
  const ann = await person();
  const bob = await person({ width: 390, height: 844 });
  await sitByInvite(ann.page, invite, 'Ann', 0);
  await sitByInvite(bob.page, invite, 'Bob', 1);
  const eve = await person();
  await eve.page.goto(invite);
  await eve.page.locator('#watch-button').click();
  await eve.page.locator('#chat-toggle').waitFor();

  await openChat(ann.page);
  await ann.page.locator('#chat-input').fill('hello <b>table</b> <script>window.__chatted = 1</script>');
  await ann.page.locator('#chat-send').click();
  await openChat(bob.page);
  await bob.page.locator('.chat-reaction', { hasText: '👍' }).click();

  const expected = ['Ann: hello <b>table</b> <script>window.__chatted = 1</script>', 'Bob: 👍'];
  for (const who of [ann, bob, eve]) {
    assert.deepEqual(await linesAtLeast(who.page, 2), expected);
    // The markup arrived as text: no element was made from it and no script ran.
    assert.equal(await who.page.locator('#chat-log b, #chat-log script').count(), 0);
    assert.equal(await who.page.evaluate(() => window.__chatted), undefined);
  }
  // The spectator's badge counts the lines it has not seen yet; the box is read-only for it.
  assert.equal(await eve.page.locator('.chat-unread').innerText(), '2');
  await openChat(eve.page);
  assert.ok(await eve.page.locator('#chat-input').isDisabled());
  assert.ok(await eve.page.locator('.chat-reaction').first().isDisabled());

  // Too long is refused before it is sent, in words.
  await ann.page.locator('#chat-input').evaluate((el) => { el.removeAttribute('maxlength'); });
  await ann.page.locator('#chat-input').fill('x'.repeat(201));
  await ann.page.locator('#chat-send').click();
  await until(async () => (await ann.page.locator('#chat-error').innerText()).includes('200'), 5000, 'the length error');

  // A reload (a reconnect with the seat token) gets the recent lines again, once each.
  await bob.page.reload();
  await bob.page.locator('#chat-toggle').waitFor();
  await openChat(bob.page);
  assert.deepEqual(await linesAtLeast(bob.page, 2), expected);
  await ann.page.locator('.chat-reaction', { hasText: 'nice trick' }).click();
  assert.deepEqual(await linesAtLeast(bob.page, 3), [...expected, 'Ann: nice trick']);

  for (const who of [ann, bob, eve]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});
