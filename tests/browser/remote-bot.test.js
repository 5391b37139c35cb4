// Bot accounts in the web client: the host's seat menu lists the registered bots online for the
// table's variant next to the built-in strategies; inviting one that declines says so and leaves
// the seat free; inviting one that accepts seats it (with its account), and the match is played
// to the end with it; then the leaderboard ranks it by its account with that one match, and its
// page links the match's table and replays. The bots are small programs running in a second
// browser page, speaking the protocol over their own WebSockets.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { launchBrowser, startParlor } from './lib/harness.js';
import { createByApi, fillWithBots, playUntil, sitByInvite, startMatch, until } from './lib/play.js';

const KEY = 'browser-key';
let server;
let browser;

before(async () => {
  server = await startParlor({ args: ['--admin-key', KEY] });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Registers a bot over the admin API; its token. */
async function register(name) {
  const res = await fetch(`${server.url}/api/admin/bots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, owner: 'tests' }),
  });
  assert.equal(res.status, 201);
  return (await res.json()).token;
}

/**
 * Runs a registered bot in `page`: available for every variant; it declines every invitation
 * when `decline`, else accepts on a new connection and plays its first legal card each turn.
 */
async function runBot(page, token, decline) {
  await page.goto(`${server.url}/healthz`);
  await page.evaluate(({ url, token, decline }) => {
    const ws = new WebSocket(url);
    window.botLog = [];
    ws.onopen = () => ws.send(JSON.stringify({ type: 'available', token, max_tables: 2 }));
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      window.botLog.push(msg.type);
      if (msg.type !== 'invitation') return;
      if (decline) {
        ws.send(JSON.stringify({ type: 'decline', invitation: msg.invitation }));
        return;
      }
      const seat = new WebSocket(url);
      seat.onopen = () => seat.send(JSON.stringify({ type: 'accept', invitation: msg.invitation, token }));
      seat.onmessage = (f) => {
        const m = JSON.parse(f.data);
        if (m.type !== 'your_turn') return;
        const legal = m.legal;
        if (legal.type === 'play') seat.send(JSON.stringify({ type: 'play', card: legal.cards[0], seq: m.seq }));
        if (legal.type === 'pass') seat.send(JSON.stringify({ type: 'pass', cards: legal.from.slice(0, legal.count), seq: m.seq }));
      };
    };
  }, { url: `${server.url.replace('http', 'ws')}/ws`, token, decline });
  await until(() => page.evaluate(() => window.botLog.includes('available')), 10000, 'the bot to be online');
}

/** Chooses `bot` in seat 3's menu (once the menu lists it) and invites it. */
async function invite(page, bot) {
  const option = page.locator('#bot-3 option', { hasText: bot });
  await option.waitFor({ state: 'attached', timeout: 20000 });
  await page.locator('#bot-3').selectOption(await option.getAttribute('value'));
  await page.locator('button.invite-bot[data-seat="3"]').click();
}

test('the host invites an online bot from the seat menu; a decline is shown, an accept seats it for the match', async () => {
  const botPage = await browser.newPage();
  const nayPage = await browser.newPage();
  await runBot(botPage, await register('Page Bee'), false);
  await runBot(nayPage, await register('Nay Sayer'), true);

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Listed: a match at a private table is on the bot's page without its table or replays.
  const { id } = await createByApi(server.url, { variant: 'tricks', options: { target: 2 }, table_options: { listed: true } });
  await sitByInvite(page, `${server.url}/t/${id}`, 'Grandma', 0);

  // The menu offers both bots beside the built-in strengths.
  const menu = page.locator('#bot-3');
  await menu.locator('optgroup[label="Bots online"] option', { hasText: 'Nay Sayer' }).waitFor({ state: 'attached', timeout: 20000 });
  assert.ok(await menu.locator('optgroup[label="Computer players"] option').count() >= 2, 'the built-in strengths are still there');
  assert.match(await menu.locator('option', { hasText: 'Page Bee' }).textContent(), /Page Bee \(by tests\)/);

  await invite(page, 'Nay Sayer');
  await page.locator('.seat-row .invite-status', { hasText: 'Nay Sayer declined.' }).waitFor({ timeout: 20000 });
  assert.equal(await page.evaluate(() => window.__parlor.table.seats[3].occupant), 'empty', 'the seat stays free');

  await invite(page, 'Page Bee');
  await until(() => page.evaluate(() => window.__parlor.table.seats[3].account === 'Page Bee'), 20000, 'the bot to take the seat');
  assert.match(await page.locator('.seat-row').nth(3).textContent(), /Page Bee/);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await playUntil(page, async () => (await page.locator('#score-dialog[open] #play-again').count()) > 0);
  const table = await (await fetch(`${server.url}/api/tables/${id}`)).json();
  assert.equal(table.matches_played, 1);
  assert.equal(table.seats[3].account, 'Page Bee');

  // The leaderboard rates the bot by its account, with its owner and its one match.
  await page.goto(`${server.url}/leaderboard?variant=tricks`);
  const row = page.locator('#leaderboard tbody tr[data-name="Page Bee"]');
  await row.waitFor({ timeout: 20000 });
  assert.equal(await row.getAttribute('data-kind'), 'bot');
  assert.equal((await row.locator('td').nth(3).innerText()).trim(), '1', 'one match played');
  assert.match(await row.innerText(), /by tests/);
  assert.equal(await page.locator('#leaderboard tbody tr[data-name="Nay Sayer"]').count(), 0, 'a bot that declined played nothing');

  // Its page lists that match, linking the table and the replays of its hands.
  await row.getByRole('link', { name: /Page Bee/ }).click();
  await page.locator('#player-title').waitFor();
  assert.match(await page.locator('#player-title').innerText(), /Page Bee/);
  const recent = page.locator('#recent-matches li');
  assert.equal(await recent.count(), 1);
  assert.equal(await recent.first().locator('a', { hasText: 'table' }).getAttribute('href'), `t/${id}`);
  const replays = await recent.first().locator('a.replays').getAttribute('href');
  assert.equal(replays, `api/tables/${id}/hands`);
  const hands = await page.request.get(`${server.url}/${replays}`);
  assert.equal(hands.status(), 200);
  assert.ok((await hands.json()).length >= 1, 'the replays hold the match\'s hands');
  assert.deepEqual(errors, []);
  await context.close();
  await botPage.close();
  await nayPage.close();
});
