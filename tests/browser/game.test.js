// The web client against the real `parlor serve`, in Debian's Chromium: whole hands, invites,
// refreshes, spectators and a phone-sized screen.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { screenshot, scrollsSideways, useServerAndBrowser } from './lib/harness.js';
import {
  actOnce, createByApi, createFromLobby, fillWithBots, handCards, model, playUntil, sitByInvite,
  startMatch, trickCards, until,
} from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

async function newPage(viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

test('one person and three computer players play a whole hand of hearts, passing included', async () => {
  const { context, page, errors } = await newPage();
  await createFromLobby(page, server.url, 'hearts', 'Grandma');
  assert.equal(await page.locator('.seat-row.me .badge.host').count(), 1, 'the creator is the host');
  assert.equal(await page.locator('#practice').count(), 0, 'a table made in the lobby deals from the server alone');
  await fillWithBots(page, 'heuristic');
  await startMatch(page);

  // Passing: three cards and a button that says where they go (the first hand passes left).
  await page.locator('#pass-button', { hasText: 'Pass left (0 of 3 chosen)' }).waitFor();
  assert.equal(await actOnce(page), 'passed');

  let shot = false;
  await playUntil(page, async () => {
    const m = await model(page);
    if (!shot && m && m.tricks >= 4) {
      // Our own turn always comes (we play to every trick): wait for it, then take the picture.
      await page.waitForFunction(() => window.__parlor?.view?.legal?.type === 'play', null, { timeout: 60000 });
      shot = true;
      await screenshot(page, 'desktop-mid-hand');
    }
    // Done once the next hand is dealt (nothing of it played): the hand's last trick stays a
    // moment on the table before the score sheet opens.
    return (await page.evaluate(() => window.__parlor.view.hand_number)) >= 1;
  });
  assert.ok(shot, 'a mid-hand screenshot was taken');
  await page.locator('#score-dialog[open] tr.hand-row[data-hand="0"]').waitFor({ timeout: 30000 });

  // The score sheet: 26 penalty points handed out in all, or a moon (26 to each other player).
  const row = page.locator('#score-dialog tr.hand-row[data-hand="0"]');
  const points = await row.locator('td').evaluateAll((tds) => tds.map((td) => Number(td.dataset.points)));
  const totals = await row.locator('td').evaluateAll((tds) => tds.map((td) => Number(td.dataset.total)));
  assert.equal(points.length, 4);
  const moon = (await row.locator('.moon').count()) > 0;
  const sum = points.reduce((a, b) => a + b, 0);
  if (moon) assert.deepEqual([...points].sort((a, b) => a - b), [0, 26, 26, 26]);
  else assert.equal(sum, 26, `points ${points}`);
  assert.deepEqual(totals, points, 'after one hand the totals are that hand');
  await page.locator('#dialog-close').click();
  assert.equal(await page.locator('#score-dialog[open]').count(), 0);
  // The next hand passes right.
  await page.locator('#pass-button', { hasText: 'Pass right' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('two people join through the invite link and each sees only their own hand', async () => {
  const host = await newPage({ width: 1280, height: 900 });
  const guest = await newPage({ width: 1280, height: 900 });
  const frames = { host: [], guest: [] };
  for (const [who, p] of [['host', host.page], ['guest', guest.page]]) {
    p.on('websocket', (ws) => ws.on('framereceived', (f) => frames[who].push(String(f.payload))));
  }
  await createFromLobby(host.page, server.url, 'hearts', 'Ann');
  const invite = await host.page.locator('#invite-link').inputValue();
  assert.match(invite, /\/t\/[^/]+$/);
  await host.page.locator('#copy-invite').click();

  await sitByInvite(guest.page, invite, 'Bob', 2);
  await host.page.locator('.seat-row', { hasText: 'Bob' }).waitFor();
  assert.equal(await guest.page.locator('#start-button').count(), 0, 'only the host starts');
  await fillWithBots(host.page, 'random');
  await startMatch(host.page);
  await guest.page.locator('.felt').waitFor();
  await until(async () => (await handCards(host.page)).length === 13 && (await handCards(guest.page)).length === 13, 10000, 'both hands');

  const mine = await handCards(host.page);
  const theirs = await handCards(guest.page);
  assert.equal(new Set([...mine, ...theirs]).size, 26, 'two different hands');
  // Nothing the host's browser received or shows names one of the guest's cards, and the other
  // way round (nothing has been passed or played yet).
  const shows = (p) => p.evaluate(() => document.body.innerHTML);
  for (const [page, received, other] of [[host.page, frames.host, theirs], [guest.page, frames.guest, mine]]) {
    const html = await shows(page);
    const text = received.join('\n');
    for (const card of other) {
      assert.ok(!text.includes(`"${card}"`), `${card} was sent to the wrong player`);
      assert.ok(!html.includes(`data-card="${card}"`), `${card} is shown to the wrong player`);
    }
  }
  // Each passes; both still hold 13 cards of their own and the game goes on.
  assert.equal(await actOnce(host.page), 'passed');
  assert.equal(await actOnce(guest.page), 'passed');
  await until(async () => {
    const m = await model(host.page);
    return m && m.phase === 'playing';
  }, 15000, 'the passing to end');
  // The host's page having seen the exchange says nothing of where the guest's page is: the
  // guest receives the cards passed to it before it hands its own on, so it is read once it
  // has both.
  const guestHolds = async () => (await handCards(guest.page)).length
    + (await guest.page.locator('.trick .played[data-seat="2"]').count());
  await until(async () => (await guestHolds()) === 13, 10000, 'the guest to hold 13 cards after the exchange');
  await host.context.close();
  await guest.context.close();
});

test('a refresh in the middle of a trick brings back the hand, the trick and the turn', async () => {
  const created = await createByApi(server.url, {
    variant: 'hearts', options: { passing: false }, table_options: { bot_delay_ms: 50 }, seed: 7,
  });
  const { context, page, errors } = await newPage({ width: 1024, height: 800 });
  await sitByInvite(page, `${server.url}${created.invite}`, 'Carol', 0);
  // A seeded table says so to everyone at it: its creator can know every deal.
  assert.match(await page.locator('#practice').textContent(), /Practice: deals chosen by its creator/);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  // Play until it is our turn with cards already on the table (not leading), a few tricks in.
  // On the way, try a card that is not allowed: the server's refusal is shown in words.
  let refused = '';
  await playUntil(page, async () => {
    const m = await model(page);
    if (!refused && m?.legal === 'play' && (await page.locator('.hand .card.dimmed').count()) > 0) {
      const size = (await handCards(page)).length;
      // Dimmed cards are marked aria-disabled but stay clickable, so the server can say why not.
      await page.locator('.hand .card.dimmed').first().click({ force: true });
      await page.locator('#play-error:not(.empty)').waitFor();
      refused = await page.locator('#play-error').textContent();
      assert.equal((await handCards(page)).length, size, 'the refused card stays in the hand');
    }
    return m && m.tricks >= 2 && m.plays >= 1 && m.legal === 'play';
  });
  assert.match(refused, /\w+ \w+/, 'a sentence explains the refusal');
  // The trick taken before stays a moment: compare the one being played.
  await until(() => page.evaluate(() => window.__parlor.trickHold === null), 10000, 'the taken trick to go');
  const before = { hand: await handCards(page), trick: await trickCards(page), turn: await page.locator('#turn').textContent() };
  assert.ok(before.trick.length >= 1);
  assert.match(before.turn, /Your turn/);
  const legalBefore = await page.locator('.hand .card.legal').evaluateAll((els) => els.map((e) => e.dataset.card));
  await page.reload();
  await page.locator('.hand .card').first().waitFor();
  await page.locator('#turn', { hasText: 'Your turn' }).waitFor();
  assert.deepEqual(await handCards(page), before.hand);
  assert.deepEqual(await trickCards(page), before.trick);
  assert.deepEqual(await page.locator('.hand .card.legal').evaluateAll((els) => els.map((e) => e.dataset.card)), legalBefore);
  // And the game goes on from there.
  assert.equal(await actOnce(page), 'played');
  assert.deepEqual(errors, []);
  await context.close();
});

test('whist shows trump, the dealer card and partnerships; a spectator sees no hand', async () => {
  const created = await createByApi(server.url, { variant: 'whist', table_options: { bot_delay_ms: 50 }, seed: 3 });
  const invite = `${server.url}${created.invite}`;
  const player = await newPage({ width: 1280, height: 900 });
  await sitByInvite(player.page, invite, 'Dora', 0);
  await fillWithBots(player.page, 'heuristic');
  await startMatch(player.page);
  await player.page.locator('#trump').waitFor();
  const trump = await player.page.locator('#trump').textContent();
  assert.match(trump, /Trump: . (clubs|diamonds|hearts|spades)/);
  // Partners: seats 0 and 2 against 1 and 3.
  assert.equal(await player.page.locator('.plate[data-seat="2"] .badge', { hasText: 'partner' }).count(), 1);
  assert.equal(await player.page.locator('.plate[data-seat="1"] .badge', { hasText: 'opponent' }).count(), 1);
  assert.match(await player.page.locator('.score-sheet.side thead').textContent(), /North–South \(You & .*\).*East–West/);
  assert.match(await player.page.locator('#team-tricks').textContent(), /North–South 0 · East–West 0/);

  const watcher = await newPage({ width: 1280, height: 900 });
  await watcher.page.goto(invite);
  await watcher.page.getByRole('button', { name: 'Just watch' }).click();
  await watcher.page.locator('.felt').waitFor();
  await watcher.page.locator('#spectating').waitFor();
  assert.equal(await watcher.page.locator('#trump').textContent(), trump);
  assert.equal(await watcher.page.locator('.hand .card').count(), 0, 'no hand for a spectator');
  assert.equal(await watcher.page.locator('.plate').count(), 4);
  // The dealer's face-up card, while the dealer still holds it, is shown to everyone.
  const faceUp = player.page.locator('#face-up');
  if (await faceUp.count()) assert.match(await faceUp.textContent(), /dealer/);
  // The player plays a card: the spectator sees it on the table, still without a hand.
  await playUntil(player.page, async () => (await model(player.page))?.tricks >= 1);
  // Cards on the table, or a trick already counted (the table may be between tricks).
  const seesPlay = async () => (await watcher.page.locator('.trick .played').count()) > 0
    || !/North–South 0 · East–West 0/.test(await watcher.page.locator('#team-tricks').textContent());
  await until(seesPlay, 10000, 'the spectator to see cards');
  assert.equal(await watcher.page.locator('.hand .card').count(), 0);
  await player.context.close();
  await watcher.context.close();
});

test('a phone-sized screen (360×740) shows the whole hand without sideways scrolling', async () => {
  const created = await createByApi(server.url, { variant: 'hearts', table_options: { bot_delay_ms: 50 }, seed: 11 });
  const { context, page, errors } = await newPage({ width: 360, height: 740 });
  await sitByInvite(page, `${server.url}${created.invite}`, 'Eve', 0);
  assert.equal(await scrollsSideways(page), false, 'seats page');
  await fillWithBots(page, 'strong');
  await startMatch(page);
  await page.locator('#pass-button').waitFor();
  assert.equal((await handCards(page)).length, 13);
  const inView = async () => {
    const boxes = await page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
    return boxes.every((b) => b.left >= 0 && b.right <= 360);
  };
  assert.ok(await inView(), 'every card of the 13 is within the screen');
  assert.equal(await scrollsSideways(page), false, 'passing');
  await playUntil(page, async () => {
    const m = await model(page);
    return m && m.tricks >= 3 && m.plays >= 1 && m.legal === 'play';
  });
  assert.ok(await inView());
  assert.equal(await scrollsSideways(page), false, 'playing');
  await screenshot(page, 'phone-mid-hand');
  assert.deepEqual(errors, []);
  await context.close();
});

test('at the end of a match the winners are shown and the host plays again', async () => {
  // A target of 1 point ends the match after the first hand.
  const created = await createByApi(server.url, {
    variant: 'hearts', options: { target: 1, passing: false }, table_options: { bot_delay_ms: 0 }, seed: 5,
  });
  const { context, page, errors } = await newPage({ width: 1280, height: 900 });
  await sitByInvite(page, `${server.url}${created.invite}`, 'Fay', 0);
  await fillWithBots(page, 'random');
  await startMatch(page);
  await playUntil(page, async () => (await page.locator('#score-dialog[open] #winners').count()) > 0);
  assert.match(await page.locator('#winners').textContent(), /wins?!/);
  await page.locator('#dialog-title', { hasText: 'The match is over' }).waitFor();
  await page.locator('#play-again').click();
  // A new match: a fresh hand of 13 cards and an empty score sheet.
  await until(async () => (await handCards(page)).length === 13, 10000, 'the new deal');
  await until(async () => (await page.locator('.score-sheet.side tr.hand-row').count()) === 0, 10000, 'an empty score sheet');
  assert.equal(await page.locator('#score-dialog[open]').count(), 0);
  await page.locator('.fact', { hasText: 'Hand 1' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('a lost connection: a banner, a computer plays the seat meanwhile, then the seat comes back', async () => {
  const created = await createByApi(server.url, {
    variant: 'hearts', options: { passing: false }, table_options: { bot_delay_ms: 50, grace_ms: 200 }, seed: 21,
  });
  const invite = `${server.url}${created.invite}`;
  const { context, page, errors } = await newPage({ width: 1280, height: 900 });
  // The page's WebSocket goes through the test, which can cut it and refuse new ones.
  let blocked = false;
  const sockets = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (blocked) {
      ws.close();
      return;
    }
    sockets.push(ws);
    ws.connectToServer();
  });
  await sitByInvite(page, invite, 'Gus', 0);
  await fillWithBots(page, 'random');
  await startMatch(page);
  const watcher = await newPage({ width: 1280, height: 900 });
  await watcher.page.goto(invite);
  await watcher.page.getByRole('button', { name: 'Just watch' }).click();
  await watcher.page.locator('.felt').waitFor();

  await playUntil(page, async () => (await model(page))?.tricks >= 1);
  const cardsBefore = (await handCards(page)).length;
  blocked = true;
  await sockets.at(-1).close();
  await page.locator('#banner', { hasText: 'Connection lost' }).waitFor();
  // While away, a computer plays the seat, and the others see it marked.
  await watcher.page.locator('.plate[data-seat="0"] .badge.away', { hasText: 'computer plays' }).waitFor({ timeout: 20000 });
  await until(async () => {
    const sizes = await watcher.page.evaluate(() => window.__parlor.view.hand_sizes[0]);
    return sizes < cardsBefore;
  }, 20000, 'the computer to play for the absent seat');
  blocked = false;
  await page.locator('#banner', { hasText: 'Connected again' }).waitFor({ timeout: 20000 });
  // Back in the seat: the hand as it is now, the mark gone, and the game goes on.
  await until(async () => (await handCards(page)).length < cardsBefore, 10000, 'the hand to be current');
  await until(async () => (await watcher.page.locator('.plate[data-seat="0"] .badge.away').count()) === 0, 10000, 'the mark to go');
  assert.equal(await page.evaluate(() => window.__parlor.seat), 0);
  const size = (await handCards(page)).length;
  await playUntil(page, async () => (await handCards(page)).length < size);
  assert.deepEqual(errors, []);
  await context.close();
  await watcher.context.close();
});

test('filippa shows the prize pool and two totals; hearts5 offers the UVa 181 bot and shows trump', async () => {
  const filippa = await createByApi(server.url, { variant: 'filippa', table_options: { bot_delay_ms: 50, listed: true }, seed: 2 });
  const { context, page, errors } = await newPage({ width: 1280, height: 900 });
  // The lobby lists the open table; its Join link opens it.
  await page.goto(server.url);
  await page.locator(`.table-item a[href="t/${filippa.id}"]`).click();
  await page.waitForURL(`**/t/${filippa.id}`);
  await page.locator('#join-name').fill('Hal');
  await page.locator('button[data-seat="0"]', { hasText: 'Sit here' }).click();
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await page.locator('#pool', { hasText: 'Prize pool: 36' }).waitFor();
  assert.match(await page.locator('.plate[data-seat="1"] .plate-stats').textContent(), /\+0 prize \/ 0 penalty/);

  const h5 = await createByApi(server.url, { variant: 'hearts5', table_options: { bot_delay_ms: 50 }, seed: 4 });
  await page.goto(`${server.url}${h5.invite}`);
  await page.locator('button[data-seat="0"]', { hasText: 'Sit here' }).click();
  await page.locator('.seats-panel .seat-row.me').waitFor();
  const offered = await page.locator('#bot-1 option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(offered.includes('uva181'), `strengths offered: ${offered}`);
  await page.locator('#bot-1').selectOption('uva181');
  await page.locator('button.add-bot[data-seat="1"]').click();
  await page.locator('.seat-row .seat-who', { hasText: 'computer, old-school' }).waitFor();
  await fillWithBots(page, 'random');
  await startMatch(page);
  await page.locator('#trump').waitFor();
  await page.locator('#face-up', { hasText: 'Left over' }).waitFor();
  assert.equal(await page.locator('.plate').count(), 5);
  await until(async () => (await handCards(page)).length === 10, 10000, 'ten cards');
  assert.deepEqual(errors, []);
  await context.close();
});
