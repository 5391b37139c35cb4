// The page against a scripted server: the protocol messages are pushed by the test, so each
// behaviour of the client's state machine is checked on its own, in a real browser.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { createRequire } from 'node:module';

import { fakeSocketScript, launchBrowser, screenshot, scrollsSideways, startStatic } from './lib/harness.js';
import { VARIANTS } from './lib/variants.js';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Accessibility problems axe-core rates serious or critical on the page as it is now. */
async function axeProblems(page) {
  await page.addScriptTag({ path: axePath });
  // A card's name starts with what it shows ("Q♠, Queen of spades"), so voice control finds it:
  // the check that a name repeats the visible text is on (axe-core has it off by default).
  const result = await page.evaluate(() => window.axe.run(document, {
    resultTypes: ['violations'],
    rules: { 'label-content-name-mismatch': { enabled: true } },
  }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')})`);
}

function seatsOf(names, host = 0) {
  return names.map((name, seat) => ({
    seat,
    occupant: name === null ? 'empty' : seat === 0 ? 'human' : 'bot',
    name,
    ...(name !== null && seat !== 0 ? { strategy: 'heuristic' } : {}),
    connected: name !== null,
    bot_playing: false,
  })).map((s) => ({ ...s, host }));
}

function tableInfo(id, variant, names, status) {
  const seats = seatsOf(names).map(({ host: _h, ...s }) => s);
  return {
    id, variant, options: variant === 'hearts' ? { target: 100, passing: true, moon: 'add' } : { target: 5 },
    status, seats, host: 0, table_options: { bot_timeout_ms: 10000, grace_ms: 30000, bot_delay_ms: 600 },
    spectators: 0, matches_played: 0,
  };
}

const HAND = ['2C', '7C', 'KC', '4D', '9D', 'JD', '3S', '8S', 'QS', '5H', 'TH', 'AH'];

function midHand(seat = 0) {
  return {
    variant: 'hearts', options: { target: 100, passing: true, moon: 'add' }, seat, players: 4,
    phase: 'playing', hand_number: 1, dealer: 3, hand: seat === null ? [] : HAND, hand_sizes: [12, 11, 11, 12],
    trump: null, face_up: [], trick: { leader: 1, plays: [{ seat: 1, card: 'AC' }, { seat: 2, card: '3C' }, { seat: 3, card: 'TC' }] },
    tricks: [{ leader: 2, cards: ['5D', 'KD', 'AD', '2D'], winner: 0 }], tricks_won: [1, 0, 0, 0],
    hearts_broken: false, pass: { direction: 'right', given: ['AS', 'KH', 'QH'], received: ['2C', '7C', 'QS'], waiting: [] },
    totals: [6, 20, 0, 0], negatives: [0, 0, 0, 0], pool: 0,
    history: [{ hand: 0, points: [6, 20, 0, 0], penalties: [0, 0, 0, 0], tricks: [3, 5, 2, 3], totals: [6, 20, 0, 0], pool_carried: 0, moon: null }],
    to_act: [0], legal: seat === null ? { type: 'wait' } : { type: 'play', cards: ['2C', '7C', 'KC'] }, winners: [],
  };
}

let browser;
let web;
let slowCalls = 0;
let releaseSlow = null;

before(async () => {
  browser = await launchBrowser();
  web = await startStatic({
    '/api/variants': VARIANTS,
    '/api/tables': [tableInfo('abc', 'hearts', ['Grandma', null, null, null], 'waiting')],
    '/api/tables/abc': tableInfo('abc', 'hearts', ['Grandma', null, null, null], 'waiting'),
    '/api/tables/slow': async () => {
      // The second and later answers are slow: they arrive after the page has sat down.
      slowCalls += 1;
      if (slowCalls > 1) await new Promise((r) => { releaseSlow = r; });
      return tableInfo('slow', 'hearts', [null, null, null, null], 'waiting');
    },
  });
});

after(async () => {
  await browser?.close();
  await web?.stop();
});

async function seatedPage(viewport, { seat = 0, token = 'tok-1' } = {}) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(fakeSocketScript);
  await context.addInitScript(([tok, s]) => {
    if (tok) localStorage.setItem('parlor.seat.t1', JSON.stringify({ token: tok, seat: s }));
    localStorage.setItem('parlor.name', 'Ann');
  }, [token, seat]);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(`${web.url}/t/t1`);
  if (token) await page.waitForFunction(() => window.__sent.length > 0);
  return { context, page, errors };
}

async function push(page, ...msgs) {
  for (const msg of msgs) await page.evaluate((m) => window.__push(m), msg);
}

test('lobby lists the games with descriptions, the options of the chosen one and open tables', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(web.url);
  await page.getByLabel('Your name, as the others will see it').fill('Grandma');
  await page.getByRole('button', { name: 'Save name' }).click();
  await page.getByText('You play as').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('parlor.name')), 'Grandma');
  await page.getByText('Classic Hearts: pass three cards').waitFor();
  // The options are folded away until asked for.
  assert.equal(await page.getByText('Hearts options').isVisible(), false);
  await page.getByText('Change the rules').click();
  await page.getByText('Hearts options').waitFor();
  assert.equal(await page.getByLabel('Points to end the match').inputValue(), '100');
  await page.getByRole('radio', { name: /Whist/ }).check();
  await page.getByText('Whist options').waitFor();
  assert.equal(await page.getByLabel('Points to end the match').inputValue(), '5');
  assert.equal(await page.getByLabel('Pass cards before each hand').count(), 0);
  await page.locator('.table-item').first().getByRole('link', { name: 'Join' }).waitFor();
  await page.reload();
  await page.getByText('You play as').waitFor();
  await context.close();
});

test('on a phone the lobby starts with creating a table, then the tables I sit at, then open ones; finished ones are left out', async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  await context.addInitScript(() => {
    localStorage.setItem('parlor.name', 'Grandma');
    localStorage.setItem('parlor.seat.mine', JSON.stringify({ token: 'tok-9', seat: 0 }));
  });
  const page = await context.newPage();
  const finished = tableInfo('done', 'hearts', ['Old', 'B', 'C', 'D'], 'finished');
  const mine = tableInfo('mine', 'hearts', ['Grandma', 'B', 'C', 'D'], 'playing');
  const open = tableInfo('open', 'whist', ['Dad', null, null, null], 'waiting');
  // A table is private unless listed: this browser's own is asked for by its id.
  /** @type {any} */
  let posted = null;
  await page.route('**/api/tables', (route) => {
    if (route.request().method() !== 'POST') return route.fulfill({ json: [finished, open] });
    posted = route.request().postDataJSON();
    return route.fulfill({ status: 503, json: { code: 'too_many_tables', message: 'full' } });
  });
  await page.route('**/api/tables/mine', (route) => route.fulfill({ json: mine }));
  await page.goto(web.url);
  await page.locator('#my-tables .table-item').first().waitFor();
  assert.deepEqual(await page.locator('#my-tables .table-item').evaluateAll((els) => els.map((e) => e.dataset.table)), ['mine']);
  assert.deepEqual(await page.locator('#open-tables .table-item').evaluateAll((els) => els.map((e) => e.dataset.table)), ['open']);
  assert.equal(await page.locator('.table-item[data-table="done"]').count(), 0, 'a finished table is not listed');
  // A table is called after its host.
  assert.match(await page.locator('.table-item[data-table="open"] .variant-name').textContent(), /Dad’s table · Whist/);
  const top = (sel) => page.locator(sel).evaluate((e) => e.getBoundingClientRect().top);
  const [create, my, others] = [await top('#create-title'), await top('#my-tables-title'), await top('#tables-title')];
  assert.ok(create < my && my < others, `create ${create}, my tables ${my}, open tables ${others}`);
  assert.ok(create < 740, 'creating a table is on the first screen');
  assert.ok(await top('#create-table') < 2 * 740, 'its button is near: two screens at most');
  assert.equal(await scrollsSideways(page), false);

  // A shorter match for a family evening, beside the rules' own length: tricks to 10, not 1000.
  await page.getByRole('radio', { name: /Tricks/ }).check();
  await page.getByText('Change the rules').click();
  await page.getByText('Tricks options').waitFor();
  assert.equal(await page.getByLabel('Points to end the match').inputValue(), '1000');
  await page.getByRole('radio', { name: /A family evening/ }).check();
  await page.getByText('Tricks options').waitFor();
  assert.equal(await page.getByLabel('Points to end the match').inputValue(), '10');
  assert.equal(await page.locator('#opt-bad_card').inputValue(), 'reject');
  await page.getByRole('radio', { name: /The full game/ }).check();
  assert.equal(await page.getByLabel('Points to end the match').inputValue(), '1000');

  // Listing the table is the host's choice, off unless ticked.
  const listIt = page.getByLabel('List this table under "Open tables"');
  assert.equal(await listIt.isChecked(), false);
  await listIt.check();
  await page.locator('#create-table').click();
  await page.getByRole('alert').waitFor();
  assert.equal(posted?.table_options?.listed, true, JSON.stringify(posted));
  await context.close();
});

test('the host may name a table and let watchers chat; the lists show the name', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addInitScript(() => { localStorage.setItem('parlor.name', 'Grandma'); });
  const page = await context.newPage();
  const named = tableInfo('named', 'hearts', ['Dad', null, null, null], 'waiting');
  named.table_options = { ...named.table_options, name: 'Sunday hearts' };
  /** @type {any[]} */
  const posted = [];
  await page.route('**/api/tables', (route) => {
    if (route.request().method() === 'POST') {
      posted.push(route.request().postDataJSON());
      return route.fulfill({ status: 201, json: { id: 'new-one' } });
    }
    return route.fulfill({ json: [named] });
  });
  await page.route('**/t/new-one', (route) => route.fulfill({ body: 'the table' }));
  await page.goto(web.url);
  assert.match(await page.locator('.table-item[data-table="named"] .variant-name').textContent(), /^Sunday hearts · Hearts$/);
  await page.getByText('Name the table, let watchers chat').click();
  await page.getByLabel('Table name (optional)').fill('  Grandma’s evening  ');
  await page.getByLabel('Watchers may chat').check();
  await page.locator('#create-table').click();
  await page.waitForURL('**/t/new-one');
  assert.equal(posted.length, 1);
  assert.equal(posted[0].table_options.name, 'Grandma’s evening');
  assert.equal(posted[0].table_options.spectator_chat, true);
  assert.equal(posted[0].table_options.hints, true);
  await context.close();
});

test('mid-hand: the hand is sorted buttons with spoken names, legal cards stand out, a click plays', async () => {
  const { context, page, errors } = await seatedPage({ width: 1440, height: 900 });
  const hello = await page.evaluate(() => window.__sent[0]);
  assert.deepEqual(hello, { type: 'join', table: 't1', token: 'tok-1', name: 'Ann' });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'Bot Bea', 'Bot Cy', 'Bot Di'], 'playing') },
    { type: 'state', seq: 20, view: midHand(0) });
  const cards = page.locator('.hand button.card');
  assert.equal(await cards.count(), 12);
  const labels = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.equal(labels[0], '2♣, Two of clubs');
  assert.ok(labels.includes('Q♠, Queen of spades'));
  // What each shows begins its name (voice control: "click Q♠").
  const shown = await cards.evaluateAll((els) => els.map((e) => e.textContent.replace(/\s+/g, '')));
  labels.forEach((label, i) => assert.ok(label.startsWith(`${shown[i].slice(0, -1)}`), `${label} begins with ${shown[i]}`));
  assert.deepEqual(await page.locator('.hand .card.legal').evaluateAll((els) => els.map((e) => e.dataset.card)), ['2C', '7C', 'KC']);
  assert.equal(await page.locator('.hand .card.dimmed').count(), 9);
  await page.locator('#turn', { hasText: 'Your turn' }).waitFor();
  assert.match(await page.title(), /^▶ Your turn · Hearts/);
  assert.equal(await page.locator('.trick .played').count(), 3);
  assert.equal(await page.locator('.trick .played[data-seat="3"] [aria-label="Dido: Ten of clubs"]').count(), 1);
  // The score sheet from the history.
  assert.equal(await page.locator('.score-sheet.side tr.hand-row td[data-seat="1"]').getAttribute('data-points'), '20');
  assert.equal(await scrollsSideways(page), false);
  await screenshot(page, 'scripted-desktop-mid-hand');

  // Keyboard: focus the first card, arrow to the next, Enter plays it.
  await cards.first().focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.evaluate(() => window.__sent.at(-1)), { type: 'play', card: '7C' });
  // The server refuses with words, shown next to the hand.
  await push(page, { type: 'error', code: 'must_follow_suit', message: 'You must follow suit: you hold a club.' });
  await page.locator('.hand-area #play-error', { hasText: 'You must follow suit' }).waitFor();
  await push(page, { type: 'event', seq: 21, event: { kind: 'played', seat: 0, card: '7C' } });
  assert.equal(await cards.count(), 11);
  assert.equal(await page.locator('#play-error').textContent(), '');
  await push(page, { type: 'event', seq: 22, event: { kind: 'trick_won', winner: 1, cards: ['AC', '3C', 'TC', '7C'] } });
  await page.locator('#trick-caption', { hasText: 'Bert took the trick' }).waitFor();
  await page.locator('#last-trick').click();
  await page.locator('#trick-caption', { hasText: 'Last trick: Bert took it' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone "Last trick" and "Score sheet" wait under "More", named as in the row and worked by the keyboard', async () => {
  const { context, page, errors } = await seatedPage({ width: 320, height: 568 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'Bert', 'Cleo', 'Dido'], 'playing') },
    { type: 'state', seq: 20, view: midHand(0) },
    { type: 'event', seq: 21, event: { kind: 'played', seat: 0, card: '7C' } },
    { type: 'event', seq: 22, event: { kind: 'trick_won', winner: 1, cards: ['AC', '3C', 'TC', '7C'] } });
  await page.locator('#trick-caption', { hasText: 'Bert took the trick' }).waitFor();
  // The row holds neither; each is one button in the list, with the row's name.
  assert.equal(await page.locator('#last-trick').isVisible(), false);
  assert.equal(await page.locator('#scores-button').isVisible(), false);
  const summary = page.locator('#hand-more > summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  const last = page.getByRole('button', { name: 'Last trick', exact: true });
  const scores = page.getByRole('button', { name: 'Score sheet', exact: true });
  await last.waitFor();
  assert.equal(await last.getAttribute('id'), 'more-last-trick');
  assert.equal(await scores.getAttribute('id'), 'more-scores-button');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'more-last-trick');
  await page.keyboard.press('Enter');
  await page.locator('#trick-caption', { hasText: 'Last trick: Bert took it' }).waitFor();
  // The choice shuts the list, and the keyboard is on "More" again.
  assert.equal(await page.locator('#hand-more').evaluate((d) => d.open), false);
  assert.equal(await page.evaluate(() => document.activeElement?.matches('#hand-more > summary')), true);
  await page.keyboard.press('Enter');
  const back = page.getByRole('button', { name: 'Back to this trick', exact: true });
  assert.equal(await back.getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'more-scores-button');
  await page.keyboard.press('Enter');
  await page.locator('#score-dialog[open]').waitFor();
  await page.keyboard.press('Escape');
  await page.locator('#score-dialog:not([open])').waitFor({ state: 'attached' });
  assert.equal(await page.evaluate(() => document.activeElement?.matches('#hand-more > summary')), true, 'the keyboard is back on "More"');

  // A wide screen has room: the row has them, the list only the settings.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.locator('#last-trick').waitFor();
  assert.equal(await page.locator('#scores-button').isVisible(), true);
  await summary.click();
  await page.locator('#four-colour').waitFor();
  assert.equal(await page.locator('#hand-more .folded').evaluateAll((els) => els.filter((e) => e.checkVisibility()).length), 0);
  assert.equal(await page.getByRole('button', { name: 'Score sheet', exact: true }).count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a card the prompt allows is on the table at the tap, before the server answers; a refusal puts it back', async () => {
  const { context, page, errors } = await seatedPage({ width: 390, height: 844 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing') },
    { type: 'state', seq: 20, view: midHand(0) });
  const onTable = () => page.locator('.trick .played').evaluateAll((els) => els.map((e) => e.dataset.card));
  const inHand = () => page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.dataset.card));
  // A tap, and nothing from the server yet: the card is on the table and out of the hand.
  await page.locator('.hand .card[data-card="7C"]').click();
  assert.deepEqual(await page.evaluate(() => window.__sent.at(-1)), { type: 'play', card: '7C' });
  assert.deepEqual(await onTable(), ['AC', '3C', 'TC', '7C']);
  assert.ok(!(await inHand()).includes('7C'));
  // The server says no (the turn clock had played for us, say): the card comes back.
  await push(page, { type: 'error', code: 'not_your_turn', message: 'It is not your turn.' });
  assert.deepEqual(await onTable(), ['AC', '3C', 'TC']);
  assert.ok((await inHand()).includes('7C'));
  assert.equal(await page.evaluate(() => window.__parlor.view.legal.type), 'play', 'the prompt is back');
  // Again, and the server's event confirms it: the card is on the table once, said once.
  await page.locator('.hand .card[data-card="7C"]').click();
  await push(page, { type: 'event', seq: 21, event: { kind: 'played', seat: 0, card: '7C' } });
  assert.deepEqual(await onTable(), ['AC', '3C', 'TC', '7C']);
  assert.equal((await inHand()).length, 11);
  assert.equal(await page.evaluate(() => window.__parlor.seq), 21);
  assert.equal((await page.locator('#announcements').textContent()).match(/You played Seven of clubs\./g)?.length, 1);
  // A card the prompt does not allow is not drawn ahead of the server.
  await push(page, { type: 'event', seq: 22, event: { kind: 'trick_won', winner: 0, cards: ['AC', '3C', 'TC', '7C'] } },
    { type: 'your_turn', legal: { type: 'play', cards: ['2C', 'KC'] } });
  await page.waitForFunction(() => window.__parlor.trickHold === null, null, { timeout: 10000 });
  await page.locator('.hand .card[data-card="QS"]').click({ force: true });
  assert.deepEqual(await page.evaluate(() => window.__sent.at(-1)), { type: 'play', card: 'QS' });
  assert.ok((await inHand()).includes('QS'));
  assert.ok(!(await onTable()).includes('QS'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('passing: exactly three cards, a labelled button, then waiting', async () => {
  const { context, page } = await seatedPage({ width: 1280, height: 900 });
  const view = {
    ...midHand(0), phase: 'passing', hand: [...HAND, 'AS'], hand_sizes: [13, 13, 13, 13], trick: { leader: 1, plays: [] },
    tricks: [], tricks_won: [0, 0, 0, 0], pass: { direction: 'across', given: [], received: [], waiting: [0, 1, 2, 3] }, to_act: [0, 1, 2, 3],
    legal: { type: 'pass', count: 3, direction: 'across', from: [...HAND, 'AS'] },
  };
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 5, table: tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing') },
    { type: 'state', seq: 5, view });
  const pass = page.locator('#pass-button');
  assert.equal(await pass.textContent(), 'Pass across (0 of 3 chosen)');
  assert.equal(await pass.isDisabled(), true);
  for (const card of ['AS', 'QS', 'AH']) await page.locator(`.hand .card[data-card="${card}"]`).click();
  await page.locator('.hand .card[data-card="2C"]').click(); // a fourth is refused
  await page.locator('#play-error', { hasText: 'exactly 3' }).waitFor();
  assert.equal(await page.locator('.hand .card.selected').count(), 3);
  assert.equal(await page.locator('.hand .card[data-card="AS"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await pass.textContent(), 'Pass across');
  await pass.click();
  const sent = await page.evaluate(() => window.__sent.at(-1));
  assert.equal(sent.type, 'pass');
  assert.deepEqual([...sent.cards].sort(), ['AH', 'AS', 'QS']);
  await push(page, { type: 'event', seq: 6, event: { kind: 'pass_chosen', seat: 0 } });
  await page.locator('#turn', { hasText: 'waiting for Bert, Cleo, Dido' }).waitFor();
  assert.equal(await page.locator('#pass-button').count(), 0);
  await context.close();
});

test('a lost connection shows a banner, reconnects with the token and says when it is back', async () => {
  const { context, page } = await seatedPage({ width: 800, height: 800 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing') },
    { type: 'state', seq: 20, view: midHand(0) });
  await page.evaluate(() => window.__drop());
  await page.locator('#banner', { hasText: 'Connection lost' }).waitFor();
  await page.waitForFunction(() => window.__sockets.length === 2 && window.__sent.length === 2);
  assert.deepEqual(await page.evaluate(() => window.__sent[1]), { type: 'join', table: 't1', token: 'tok-1', name: 'Ann' });
  // The socket opening is not enough: only the server's welcome means the seat is back.
  assert.match(await page.locator('#banner').textContent(), /Connection lost/);
  await push(page, { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true });
  await page.locator('#banner', { hasText: 'Connected again' }).waitFor();
  // Events already in the snapshot are skipped; a gap (events private to other seats) is normal.
  await push(page,
    { type: 'state', seq: 20, view: midHand(0) },
    { type: 'event', seq: 20, event: { kind: 'played', seat: 0, card: '2C' } },
    { type: 'event', seq: 23, event: { kind: 'played', seat: 0, card: 'KC' } });
  assert.deepEqual(await page.locator('.trick .played').evaluateAll((els) => els.map((e) => e.dataset.card)), ['AC', '3C', 'TC', 'KC']);
  assert.equal(await page.locator('.hand .card').count(), 11);
  assert.equal(await page.evaluate(() => window.__sockets.length), 2);
  // A seat played by a bot while its person is away is marked.
  const table = tableInfo('t1', 'hearts', ['Ann', 'Bob', 'C', 'D'], 'playing');
  table.seats[1] = { ...table.seats[1], occupant: 'human', connected: false, bot_playing: true };
  await push(page, { type: 'table', seq: 20, table });
  await page.locator('.plate[data-seat="1"] .badge.away', { hasText: 'computer plays' }).waitFor();
  await context.close();
});

test('a spectator sees the table and no hand; a whist table shows trump, dealer card and partners', async () => {
  const { context, page } = await seatedPage({ width: 360, height: 740 }, { token: null });
  await page.getByRole('button', { name: 'Just watch' }).click();
  await page.waitForFunction(() => window.__sent.length > 0);
  assert.deepEqual(await page.evaluate(() => window.__sent[0]), { type: 'watch', table: 't1' });
  const view = {
    ...midHand(null), variant: 'whist', options: { target: 5 }, hand: [], dealer: 1, trump: 'D', face_up: ['7D'],
    pass: null, hand_sizes: [12, 12, 11, 12], legal: { type: 'wait' }, to_act: [3],
    trick: { leader: 2, plays: [{ seat: 2, card: 'KS' }] }, history: [], totals: [1, 0, 1, 0],
  };
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: null, token: null, host: false },
    { type: 'table', seq: 9, table: tableInfo('t1', 'whist', ['Ann', 'B', 'C', 'D'], 'playing') },
    { type: 'state', seq: 9, view });
  await page.locator('#trump', { hasText: 'diamonds' }).waitFor();
  await page.locator('#face-up', { hasText: '7♦' }).waitFor();
  assert.equal(await page.locator('.hand .card').count(), 0);
  assert.equal(await page.locator('#spectating').count(), 1);
  assert.equal(await page.locator('.plate.team-0').count(), 2);
  assert.match(await page.locator('.score-sheet.side thead').textContent(), /North–South \(Ann & Cleo\).*East–West \(Bert & Dido\)/);
  assert.equal(await scrollsSideways(page), false);
  await context.close();
});

test('at 360 px the whole hand fits without sideways scrolling', async () => {
  const { context, page } = await seatedPage({ width: 360, height: 740 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'Bot Bea', 'Bot Cy', 'Bot Di'], 'playing') },
    { type: 'state', seq: 20, view: { ...midHand(0), hand: [...HAND, 'AS'] } });
  assert.equal(await scrollsSideways(page), false);
  const boxes = await page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  assert.equal(boxes.length, 13);
  for (const b of boxes) assert.ok(b.left >= 0 && b.right <= 360, `card at ${b.left}..${b.right}`);
  await screenshot(page, 'scripted-phone-mid-hand');
  await context.close();
});

test('on a phone the connection banner stays on screen however far the page is scrolled', async () => {
  const { context, page } = await seatedPage({ width: 360, height: 740 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'Bot Bea', 'Bot Cy', 'Bot Di'], 'playing') },
    { type: 'state', seq: 20, view: midHand(0) });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  assert.ok(await page.evaluate(() => window.scrollY > 100), 'the page is scrolled down');
  await page.evaluate(() => window.__drop());
  await page.locator('#banner', { hasText: 'Connection lost' }).waitFor();
  const box = await page.evaluate(() => document.getElementById('banner').getBoundingClientRect().toJSON());
  assert.ok(box.top >= 0 && box.bottom <= 740 && box.height > 10, `the banner is on screen: ${JSON.stringify(box)}`);
  await context.close();
});

/** The contrast ratio of two CSS colours "rgb(r, g, b)". */
function contrast(a, b) {
  const lum = (css) => {
    const [r, g, bl] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((c) => {
      const x = c / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('cards that cannot be played are dimmed, yet their rank and suit keep 4.5:1 contrast', async () => {
  const { context, page } = await seatedPage({ width: 390, height: 844 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'Bot Bea', 'Bot Cy', 'Bot Di'], 'playing') },
    { type: 'state', seq: 20, view: midHand(0) });
  for (const deck of ['two colours', 'four colours']) {
    if (deck === 'four colours') {
      await page.locator('#hand-more summary').click();
      await page.locator('#four-colour').check();
    }
    const dimmed = await page.locator('.hand .card.dimmed').evaluateAll((els) => els.map((el) => {
      const style = getComputedStyle(el);
      return { card: el.dataset.card, color: getComputedStyle(el.querySelector('.rank')).color, background: style.backgroundColor, opacity: style.opacity, filter: style.filter };
    }));
    assert.equal(dimmed.length, 9);
    for (const d of dimmed) {
      assert.equal(d.opacity, '1', `${d.card} is not faded (${deck})`);
      assert.equal(d.filter, 'none', `${d.card} is not filtered (${deck})`);
      const ratio = contrast(d.color, d.background);
      assert.ok(ratio >= 4.5, `${d.card} has ${ratio.toFixed(2)}:1 (${d.color} on ${d.background}, ${deck})`);
    }
    // Cards are at least 44 px wide on a phone.
    const widths = await page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    assert.ok(widths.every((w) => w >= 44), `card widths ${widths}`);
  }
  // axe-core agrees, checking the hand's text as it is drawn.
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(() => window.axe.run(document, {
    runOnly: ['color-contrast'],
    resultTypes: ['violations'],
  }));
  const inHand = result.violations.flatMap((v) => v.nodes).map((n) => n.target.join(' ')).filter((t) => t.includes('card'));
  assert.deepEqual(inHand, []);
  await context.close();
});

test('on a phone the match-over dialog opens with its headline and the winners in view', async () => {
  const { context, page } = await seatedPage({ width: 360, height: 740 });
  const history = Array.from({ length: 12 }, (_, hand) => ({
    hand, points: [2, 8, 10, 6], penalties: [0, 0, 0, 0], tricks: [3, 3, 4, 3],
    totals: [2 * (hand + 1), 8 * (hand + 1), 10 * (hand + 1), 6 * (hand + 1)], pool_carried: 0, moon: null,
  }));
  const last = history[history.length - 1];
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'Bot Bea', 'Bot Cy', 'Bot Di'], 'finished') },
    { type: 'state', seq: 20, view: {
      ...midHand(0), phase: 'match_over', hand: [], hand_sizes: [0, 0, 0, 0], trick: { leader: 0, plays: [] }, tricks: [],
      history, totals: last.totals, to_act: [], legal: { type: 'wait' }, winners: [0],
    } });
  await page.locator('#score-dialog[open] #winners').waitFor();
  const boxes = await page.evaluate(() => ['#dialog-title', '#winners'].map((sel) => document.querySelector(sel).getBoundingClientRect().toJSON()));
  for (const b of boxes) assert.ok(b.top >= 0 && b.bottom <= 740, `the headline is in view: ${JSON.stringify(b)}`);
  assert.ok(await page.evaluate(() => document.getElementById('score-dialog').scrollHeight > document.getElementById('score-dialog').clientHeight), 'the dialog is longer than the screen');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'dialog-close', 'the button still has the focus');
  await context.close();
});

test('in tricks with the 100-point fine, a dimmed card is explained and not sent', async () => {
  const { context, page } = await seatedPage({ width: 1024, height: 800 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: { ...tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing'), variant: 'tricks' } },
    { type: 'state', seq: 20, view: { ...midHand(0), variant: 'tricks', options: { target: 1000, bad_card: 'penalty' }, pass: null } });
  const sentBefore = await page.evaluate(() => window.__sent.length);
  await page.locator('.hand .card[data-card="QS"]').click({ force: true });
  await page.locator('#play-error', { hasText: 'costs 100 points' }).waitFor();
  assert.equal(await page.evaluate(() => window.__sent.length), sentBefore);
  await page.locator('.hand .card[data-card="KC"]').click();
  assert.deepEqual(await page.evaluate(() => window.__sent.at(-1)), { type: 'play', card: 'KC' });
  await context.close();
});

test('when another window takes the seat back, this one stops and offers to play here', async () => {
  const { context, page } = await seatedPage({ width: 1024, height: 800 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing') },
    { type: 'state', seq: 20, view: midHand(0) },
    { type: 'error', code: 'replaced', message: 'this seat is now played from another window or device' });
  await page.getByText('This seat is open in another window').waitFor();
  // A reconnection would come after 0.5 s of backoff; give it more than that to show up.
  await page.waitForTimeout(1200);
  assert.equal(await page.evaluate(() => window.__sockets.length), 1, 'no reconnection fight');
  await page.locator('#play-here').click();
  await page.waitForFunction(() => window.__sockets.length === 2 && window.__sent.length === 2);
  assert.deepEqual(await page.evaluate(() => window.__sent[1]), { type: 'join', table: 't1', token: 'tok-1', name: 'Ann' });
  await context.close();
});

test('lobby, seats, a hand in play and the score sheet have no serious accessibility problems', async () => {
  const lobby = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const lp = await lobby.newPage();
  await lp.goto(web.url);
  await lp.getByText('Classic Hearts').waitFor();
  assert.deepEqual(await axeProblems(lp), [], 'lobby');
  await lobby.close();

  const { context, page } = await seatedPage({ width: 1280, height: 900 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 1, table: tableInfo('t1', 'hearts', ['Ann', 'Bot', null, null], 'waiting') });
  await page.locator('.seats-panel').waitFor();
  assert.deepEqual(await axeProblems(page), [], 'seats');
  await push(page,
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing') },
    { type: 'state', seq: 20, view: midHand(0) });
  await page.locator('.hand .card').first().waitFor();
  assert.deepEqual(await axeProblems(page), [], 'playing');
  await page.locator('#scores-button').click();
  await page.locator('#score-dialog[open]').waitFor();
  assert.deepEqual(await axeProblems(page), [], 'score sheet');
  await context.close();
});

test('someone watching a table that waits for players can sit down', async () => {
  const { context, page } = await seatedPage({ width: 1024, height: 800 }, { token: null });
  await page.getByRole('button', { name: 'Just watch' }).click();
  await page.waitForFunction(() => window.__sent.length > 0);
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: null, token: null, host: false },
    { type: 'table', seq: 1, table: tableInfo('t1', 'hearts', ['Ann', null, null, null], 'waiting') });
  await page.locator('.seats-panel button[data-seat="2"]', { hasText: 'Sit here' }).click();
  await page.waitForFunction(() => window.__sockets.length === 2 && window.__sent.length === 2);
  assert.deepEqual(await page.evaluate(() => window.__sent[1]), { type: 'join', table: 't1', seat: 2, name: 'Ann' });
  await context.close();
});

test('a table list fetched before sitting down does not overwrite the seats the server sent', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  await context.addInitScript(fakeSocketScript);
  await context.addInitScript(() => localStorage.setItem('parlor.name', 'Ann'));
  const page = await context.newPage();
  await page.goto(`${web.url}/t/slow`);
  await page.locator('button[data-seat="0"]', { hasText: 'Sit here' }).waitFor();
  // Wait for the page's next poll to be under way, then sit down before it is answered.
  while (!releaseSlow) await new Promise((r) => setTimeout(r, 50));
  await page.locator('button[data-seat="0"]', { hasText: 'Sit here' }).click();
  await page.waitForFunction(() => window.__sent.length > 0);
  const seated = tableInfo('slow', 'hearts', ['Ann', null, null, null], 'waiting');
  await push(page,
    { type: 'welcome', protocol: 1, table: 'slow', seat: 0, token: 'tok-s', host: true },
    { type: 'table', seq: 0, table: seated });
  await page.locator('.seat-row.me', { hasText: 'Ann (you)' }).waitFor();
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/tables/slow'));
  releaseSlow();
  await answered;
  // Anything that makes the page draw again (here a refused-message notice).
  await push(page, { type: 'error', code: 'rate_limited', message: 'Slow down a little.' });
  await page.locator('.seats-panel .error', { hasText: 'Slow down' }).waitFor();
  assert.equal(await page.locator('.seat-row.me', { hasText: 'Ann (you)' }).count(), 1);
  assert.equal(await page.locator('button.add-bot[data-seat="0"]').count(), 0);
  await context.close();
});

test('a name typed before the seats arrive survives the page drawing them, and is the one sent', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  await context.addInitScript(fakeSocketScript);
  const page = await context.newPage();
  // The table's seats are held back until the name is half typed, so the page draws them (and
  // the "Sit here" buttons) while the name box has focus and an unsaved value.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/\/api\/tables\/held$/, async (route) => {
    await held;
    await route.fulfill({ json: tableInfo('held', 'hearts', [null, null, null, null], 'waiting') });
  });
  await page.goto(`${web.url}/t/held`);
  await page.locator('#join-name').fill('Bo');
  release();
  await page.locator('button[data-seat="1"]', { hasText: 'Sit here' }).waitFor();
  assert.equal(await page.locator('#join-name').inputValue(), 'Bo');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'join-name', 'the name box keeps the focus');
  await page.keyboard.type('b');
  assert.equal(await page.locator('#join-name').inputValue(), 'Bob');
  await page.locator('button[data-seat="1"]', { hasText: 'Sit here' }).click();
  await page.waitForFunction(() => window.__sent.length > 0);
  assert.deepEqual(await page.evaluate(() => window.__sent[0]), { type: 'join', table: 'held', seat: 1, name: 'Bob' });
  await context.close();
});

test('a computer player’s strength is the strategy its seat names, and left out when none is named', async () => {
  const { context, page } = await seatedPage({ width: 1024, height: 800 });
  const table = tableInfo('t1', 'hearts', ['Ann', 'random bot', 'Cy', null], 'waiting');
  // The name says "random": the strength shown is the seat's strategy, not a guess from the name.
  table.seats[1] = { ...table.seats[1], strategy: 'strong' };
  delete table.seats[2].strategy;
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 1, table });
  await page.locator('.seats-panel').waitFor();
  const who = await page.locator('.seat-row .seat-who').evaluateAll((els) => els.map((e) => e.textContent));
  assert.equal(who[1], 'Bert (computer, strong)');
  assert.equal(who[2], 'Cleo (computer)');
  await context.close();
});

test('during a hand each plate shows the penalty cards its seat has taken so far', async () => {
  const { context, page } = await seatedPage({ width: 1280, height: 800 });
  const view = midHand(0);
  view.tricks = [
    { leader: 2, cards: ['5D', 'KD', 'AD', '2D'], winner: 0 },
    { leader: 0, cards: ['3S', 'QS', '4H', '9H'], winner: 2 },
  ];
  view.trick = { leader: 1, plays: [{ seat: 1, card: 'AC' }, { seat: 2, card: '3C' }, { seat: 3, card: '8H' }] };
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing') },
    { type: 'state', seq: 20, view });
  const plate = page.locator('.plate[data-seat="2"] .taken');
  assert.equal(await plate.getAttribute('data-hearts'), '2');
  assert.equal(await plate.getAttribute('data-queen'), 'true');
  assert.match(await plate.textContent(), /♥2 Q♠.*took 2 hearts and the queen of spades this hand/);
  assert.equal(await page.locator('.plate[data-seat="0"] .taken').count(), 0, 'no penalty cards, nothing shown');
  // The trick on the table, with a heart in it, goes to seat 1: its plate shows it at once.
  assert.equal(await page.locator('.plate[data-seat="1"] .taken').count(), 0);
  await push(page,
    { type: 'event', seq: 21, event: { kind: 'played', seat: 0, card: '2C' } },
    { type: 'event', seq: 22, event: { kind: 'trick_won', winner: 1, cards: ['AC', '3C', '8H', '2C'] } });
  assert.equal(await page.locator('.plate[data-seat="1"] .taken').getAttribute('data-hearts'), '1');
  await context.close();
});

/** Stands in for the page being in a background tab, and records sounds and animations. */
function cuesScript() {
  window.__hidden = false;
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => window.__hidden });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (window.__hidden ? 'hidden' : 'visible') });
  window.__setHidden = (on) => {
    window.__hidden = on;
    document.dispatchEvent(new Event('visibilitychange'));
  };
  window.__tones = 0;
  class FakeAudio {
    constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
    createOscillator() { return { type: '', frequency: { value: 0 }, connect: (g) => g, start: () => { window.__tones += 1; }, stop() {} }; }
    createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d }; }
    resume() { return Promise.resolve(); }
  }
  window.AudioContext = FakeAudio;
  window.__anims = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.__anims.push(options?.id || '?');
    return animate.call(this, frames, options);
  };
}

const waiting = () => ({ ...midHand(0), to_act: [1], legal: { type: 'wait' }, trick: { leader: 1, plays: [] } });

test('in a background tab, my turn changes the title and the tab icon and chimes, unless sound is off (remembered)', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(fakeSocketScript);
  await context.addInitScript(cuesScript);
  await context.addInitScript(() => {
    localStorage.setItem('parlor.seat.t1', JSON.stringify({ token: 'tok-1', seat: 0 }));
    localStorage.setItem('parlor.name', 'Ann');
  });
  const page = await context.newPage();
  const start = async () => {
    await page.goto(`${web.url}/t/t1`);
    await page.waitForFunction(() => window.__sent.length > 0);
    await push(page,
      { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
      { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing') },
      { type: 'state', seq: 20, view: waiting() });
    await page.locator('.hand .card').first().waitFor();
  };
  await start();
  assert.equal(await page.locator('#sound').isChecked(), true, 'sound is on at first');
  assert.doesNotMatch(await page.title(), /Your turn/);
  await page.evaluate(() => window.__setHidden(true));
  await push(page, { type: 'state', seq: 21, view: midHand(0) });
  assert.match(await page.title(), /^▶ Your turn/);
  assert.ok(await page.evaluate(() => window.__tones) > 0, 'a chime');
  assert.equal(await page.locator('link[rel="icon"]').getAttribute('data-turn'), 'true');
  // Back to the page: the icon is the usual one again.
  await page.evaluate(() => window.__setHidden(false));
  assert.equal(await page.locator('link[rel="icon"]').getAttribute('data-turn'), 'false');

  // Sound off is remembered after a reload, and then the turn comes silently.
  await page.locator('#hand-more summary').click();
  await page.locator('#sound').uncheck();
  assert.equal(await page.evaluate(() => localStorage.getItem('parlor.sound')), '0');
  await start();
  assert.equal(await page.locator('#sound').isChecked(), false, 'sound stays off');
  await page.evaluate(() => window.__setHidden(true));
  await push(page, { type: 'state', seq: 21, view: midHand(0) });
  assert.match(await page.title(), /^▶ Your turn/);
  assert.equal(await page.evaluate(() => window.__tones), 0, 'no chime');
  await context.close();
});

for (const reduce of [false, true]) {
  test(`a played card moves to the table and a finished trick stays, then goes to its taker${reduce ? ': nothing moves with reduced motion' : ''}`, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: reduce ? 'reduce' : 'no-preference' });
    await context.addInitScript(fakeSocketScript);
    await context.addInitScript(cuesScript);
    await context.addInitScript(() => {
      localStorage.setItem('parlor.seat.t1', JSON.stringify({ token: 'tok-1', seat: 0 }));
      localStorage.setItem('parlor.name', 'Ann');
    });
    const page = await context.newPage();
    await page.goto(`${web.url}/t/t1`);
    await page.waitForFunction(() => window.__sent.length > 0);
    await push(page,
      { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
      { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing') },
      { type: 'state', seq: 20, view: midHand(0) });
    await page.locator('.hand .card').first().waitFor();
    assert.deepEqual(await page.evaluate(() => window.__anims), [], 'nothing moves when the page is drawn');
    // My card (it flies in the frame after it is drawn), then the trick to Bert, who leads at
    // once: in the same moment the finished trick is still on the table.
    const flew = await page.evaluate(async () => {
      window.__push({ type: 'event', seq: 21, event: { kind: 'played', seat: 0, card: '2C' } });
      await new Promise((r) => { requestAnimationFrame(r); });
      return [...window.__anims];
    });
    const shown = await page.evaluate(() => {
      window.__push({ type: 'event', seq: 22, event: { kind: 'trick_won', winner: 1, cards: ['AC', '3C', 'TC', '2C'] } });
      window.__push({ type: 'event', seq: 23, event: { kind: 'played', seat: 1, card: 'KD' } });
      return { done: document.querySelector('.trick').classList.contains('done'), caption: document.querySelector('#trick-caption')?.textContent };
    });
    assert.deepEqual(flew, reduce ? [] : ['card-to-table']);
    assert.equal(shown.done, true, 'the finished trick stays on the table');
    assert.equal(shown.caption, 'Bert took the trick');
    // Then the new trick shows, with Bert's lead.
    await page.locator('.trick:not(.done) .played[data-card="KD"]').waitFor();
    const anims = await page.evaluate(() => window.__anims);
    if (reduce) assert.deepEqual(anims, []);
    else assert.ok(anims.includes('trick-to-winner') && anims.filter((a) => a === 'card-to-table').length === 2, `animations ${anims}`);
    await context.close();
  });
}

test('an event draws again only the parts of the page it changes', async () => {
  const { context, page } = await seatedPage({ width: 1440, height: 900 });
  await push(page,
    { type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'tok-1', host: true },
    { type: 'table', seq: 20, table: tableInfo('t1', 'hearts', ['Ann', 'B', 'C', 'D'], 'playing') },
    { type: 'state', seq: 20, view: midHand(0) });
  // Mark the nodes inside each part, then play a card: seat 2's plate, the head and the score
  // sheet show nothing that changes, while my plate, the trick and the hand do.
  const mark = () => page.evaluate(() => {
    for (const sel of ['.plate[data-seat="2"] .plate-name', '.table-head h1', '.score-sheet.side table', '.plate[data-seat="0"] .plate-name', '.center .trick']) {
      document.querySelector(sel).dataset.mark = '1';
    }
  });
  const marked = () => page.evaluate(() => [...document.querySelectorAll('[data-mark]')].map((e) => e.closest('[data-seat], .table-head, .score-sheet, .center').className));
  await mark();
  await push(page, { type: 'event', seq: 21, event: { kind: 'played', seat: 0, card: '7C' } });
  assert.deepEqual(await page.locator('.trick .played').evaluateAll((els) => els.map((e) => e.dataset.card)), ['AC', '3C', 'TC', '7C']);
  assert.deepEqual(await marked(), ['table-head', 'plate pos-top', 'score-sheet side']);
  await context.close();
});
