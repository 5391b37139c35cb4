// Driving the page the way a person does: clicking buttons and cards.

/** Polls `check` (an async predicate) every 100 ms until true; fails after `ms`. */
export async function until(check, ms = 60000, what = 'condition') {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Creates a table from the lobby (saving `name` first when asked) and lands seated at it. */
export async function createFromLobby(page, url, variant, name, options = {}) {
  await page.goto(url);
  const nameInput = page.locator('#name-input');
  await page.locator('#name-input, .playing-as').first().waitFor();
  if (await nameInput.count()) {
    await nameInput.fill(name);
    await page.getByRole('button', { name: 'Save name' }).click();
  }
  await page.locator(`input[name="variant"][value="${variant}"]`).check();
  for (const [key, value] of Object.entries(options)) {
    const el = page.locator(`[name="${key}"]`);
    if (typeof value === 'boolean') await el.setChecked(value);
    else if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption(String(value));
    else await el.fill(String(value));
  }
  await page.locator('#create-table').click();
  await page.waitForURL(/\/t\/[^/]+$/);
  await page.locator('.seats-panel').waitFor();
  return page.url().split('/t/')[1];
}

/** Opens an invite link, gives a name and sits in `seat`. */
export async function sitByInvite(page, inviteUrl, name, seat) {
  await page.goto(inviteUrl);
  await page.locator('#join-name').fill(name);
  // The join page's own seat buttons, by seat rather than their words: any language.
  await page.locator(`.join-page button[data-seat="${seat}"]`).click();
  try {
    await page.locator('.seats-panel, .felt').first().waitFor();
  } catch (e) {
    // Say what the page shows instead (a refused join, a missing name, still connecting).
    const shown = await page.locator('#app').innerText().catch(() => '(unreadable)');
    throw new Error(`${e.message}\nsitting down as ${name} in seat ${seat}; the page shows: ${shown.replace(/\s*\n\s*/g, ' | ')}`);
  }
}

/** Host: puts a computer player of `strategy` in every empty seat. */
export async function fillWithBots(page, strategy = 'heuristic') {
  await page.locator('.seats-panel .seat-row.me').waitFor();
  for (;;) {
    const buttons = page.locator('button.add-bot');
    const n = await buttons.count();
    if (n === 0) return;
    const seat = await buttons.first().getAttribute('data-seat');
    await page.locator(`#bot-${seat}`).selectOption(strategy);
    await buttons.first().click();
    await until(async () => (await page.locator('button.add-bot').count()) < n, 10000, 'the bot to sit down');
  }
}

/** Host: starts the match and waits for the table. */
export async function startMatch(page) {
  await page.locator('#start-button:not([disabled])').click();
  await page.locator('.felt').waitFor();
}

/**
 * Keeps every page of `context` in the direction `dir` ('rtl'), whatever its language sets:
 * right to left is checked in a language the catalogues have.
 * @param {import('playwright-core').BrowserContext} context @param {'rtl' | 'ltr'} dir
 */
export async function forceDir(context, dir) {
  await context.addInitScript((d) => {
    const keep = () => {
      const root = document.documentElement;
      root.dir = d;
      new MutationObserver(() => { if (root.dir !== d) root.dir = d; }).observe(root, { attributes: true, attributeFilter: ['dir'] });
    };
    // A frame's document may not have its root element yet.
    if (document.documentElement) keep();
    else document.addEventListener('readystatechange', keep, { once: true });
  }, dir);
}

/**
 * Two people at a table made by `created`: the host sits first, then the guest, each on a page
 * of its own with its own viewport (and, if given, the browser's language and the page's
 * direction); computers of `strategy` fill the rest and the host starts.
 * Script errors of both pages are collected in `errors`.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the server's address
 * @param {{ invite: string }} created
 * @param {{ name: string, seat: number, viewport: { width: number, height: number }, locale?: string, dir?: 'rtl' }[]} people host first
 */
export async function twoPeopleAndComputers(browser, url, created, people, strategy = 'heuristic') {
  const errors = [];
  const pages = [];
  for (const person of people) {
    const context = await browser.newContext({ viewport: person.viewport, locale: person.locale });
    if (person.dir) await forceDir(context, person.dir);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await sitByInvite(page, `${url}${created.invite}`, person.name, person.seat);
    pages.push(page);
  }
  await fillWithBots(pages[0], strategy);
  await startMatch(pages[0]);
  await pages[1].locator('.felt').waitFor();
  return { pages, errors };
}

/** The cards in the hand shown on the page, in order. */
export async function handCards(page) {
  return page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.dataset.card));
}

/** The cards on the table, with who played them. */
export async function trickCards(page) {
  return page.locator('.trick .played').evaluateAll((els) => els.map((e) => `${e.dataset.seat}:${e.dataset.card}`));
}

/**
 * Answers a bid prompt in the bid box: by clicking a number and the Bid button (`how:
 * 'click'`), or by keys (`'keyboard'`: Home, an arrow, Enter, from wherever the page put the
 * focus, which is the box). Bids 1 where it may (or else the first number it may), and waits for
 * the box to go. Returns the number bid.
 */
export async function bidOnce(page, how = 'click') {
  const box = page.locator('.hand-area.active #bid-box');
  const allowed = await box.locator('.bid-option:not(.forbidden)').evaluateAll((els) => els.map((e) => Number(e.dataset.bid)));
  if (!allowed.length) throw new Error('a bid box without a number to bid');
  let bid;
  if (how === 'keyboard') {
    const focused = await page.evaluate(() => document.activeElement?.classList.contains('bid-option'));
    if (!focused) {
      const where = await page.evaluate(() => `${document.activeElement?.outerHTML.slice(0, 60)} ${JSON.stringify({ ...window.__parlor.view, hand: 0, history: 0, tricks: 0, options: 0 })} ${document.querySelector('#score-dialog').open}`);
      throw new Error(`the bid box does not have the keyboard focus (it is on ${where})`);
    }
    // Home goes to the lowest number allowed, an arrow to the next allowed one.
    await page.keyboard.press('Home');
    bid = allowed[0];
    if (allowed.length > 1) {
      await page.keyboard.press('ArrowRight');
      bid = allowed[1];
    }
    const chosen = await page.evaluate(() => document.activeElement?.getAttribute('data-bid'));
    if (Number(chosen) !== bid) throw new Error(`the keys chose ${chosen}, not ${bid}`);
    await page.keyboard.press('Enter');
  } else {
    bid = allowed.includes(1) ? 1 : allowed[0];
    await box.locator(`.bid-option[data-bid="${bid}"]`).click({ timeout: 5000 });
    await page.locator('#bid-button:not([disabled])').click({ timeout: 5000 });
  }
  try {
    await until(async () => (await page.locator('#bid-box').count()) === 0, 10000, `the bid of ${bid} to be taken`);
  } catch (e) {
    const shown = await page.locator('#play-error').textContent().catch(() => '');
    throw new Error(`${e.message}; the page says "${shown}"`);
  }
  return bid;
}

/**
 * Does what the page asks of us, once: picks three cards and passes, bids (see `bidOnce`, `how`
 * it bids), or plays the first highlighted card. Returns 'passed', 'bid', 'played' or null when
 * nothing was asked; or 'done' when `stopBefore` (an async predicate, asked once something is
 * asked of us) is already true.
 */
export async function actOnce(page, stopBefore = null, how = 'click') {
  const bidBox = page.locator('.hand-area.active #bid-box');
  if (await bidBox.count()) {
    if (stopBefore && await stopBefore()) return 'done';
    await bidOnce(page, how);
    return 'bid';
  }
  const pass = page.locator('#pass-button');
  if (await pass.count()) {
    const cards = page.locator('.hand .card:not(.selected)');
    while ((await page.locator('.hand .card.selected').count()) < 3) await cards.first().click({ timeout: 5000 });
    await pass.click({ timeout: 5000 });
    await until(async () => (await page.locator('#pass-button').count()) === 0, 10000, 'the pass to be taken');
    return 'passed';
  }
  const legal = page.locator('.hand-area.active .hand .card.legal');
  if (await legal.count()) {
    // Asked once our turn is shown, not only before looking: a turn that arrives between a
    // look at `done` and this one is seen, not played through (a phone test once played a
    // whole hand this way and waited on the score sheet until it timed out).
    if (stopBefore && await stopBefore()) return 'done';
    const card = await legal.first().getAttribute('data-card');
    const handNumber = () => page.evaluate(() => window.__parlor?.view?.hand_number);
    const before = await handNumber();
    await legal.first().click({ timeout: 5000 });
    try {
      // The card leaves the hand, or it was the hand's last and a new deal has begun (which
      // may hold that same card again).
      await until(async () => (await page.locator(`.hand .card[data-card="${card}"]`).count()) === 0
        || (await handNumber()) !== before, 10000, `${card} to leave the hand`);
    } catch (e) {
      const shown = await page.locator('#play-error').textContent().catch(() => '');
      const state = await page.evaluate(() => JSON.stringify(window.__parlor?.view)).catch(() => '');
      throw new Error(`${e.message}; the page says "${shown}"; view ${state}`);
    }
    return 'played';
  }
  return null;
}

/** Plays (passing and bidding included, bids made `how`: see `bidOnce`) until `done()` is true. */
export async function playUntil(page, done, ms = 120000, how = 'click') {
  const dialogOpen = async () => (await page.locator('#score-dialog[open]').count()) > 0;
  await until(async () => {
    if (await done()) return true;
    if (await dialogOpen()) return false;
    try {
      if (await actOnce(page, done, how) === 'done') return true;
    } catch (e) {
      // The hand can end between looking and clicking: the score sheet then covers the table,
      // which is not a failure; `done` decides what comes next.
      if (!(await dialogOpen())) throw e;
    }
    return false;
  }, ms, 'the game to reach the wanted point');
}

/**
 * Plays a whole match: every move asked of us (bids made `how`: see `bidOnce`), each hand's
 * score sheet closed with Continue, until the sheet names the winners. `look` (async) is
 * called before each move, to check the page on the way. Returns how many hands' sheets were
 * closed on the way.
 */
export async function playMatch(page, { ms = 120000, how = 'click', look = null } = {}) {
  let sheets = 0;
  await playUntil(page, async () => {
    if ((await page.locator('#score-dialog[open]').count()) === 0) {
      if (look) await look();
      return false;
    }
    if (await page.locator('#score-dialog[open] #winners').count()) return true;
    await page.locator('#score-dialog[open] #dialog-close').click({ timeout: 5000 });
    sheets += 1;
    return false;
  }, ms, how);
  return sheets;
}

/** Reads the client's model (for choosing the moment of a check, not for the check itself). */
export function model(page) {
  return page.evaluate(() => {
    const s = window.__parlor;
    return s && s.view ? { tricks: s.view.tricks.length, plays: s.view.trick.plays.length, legal: s.view.legal.type, phase: s.view.phase, seat: s.seat } : null;
  });
}

/** Creates a table through the API (no one seated yet). */
export async function createByApi(url, body) {
  const res = await fetch(`${url}/api/tables`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST /api/tables: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Plays at each of `pages` in turn (passing included) until `done()` is true: for several people
 * at one table, where each waits for the others' moves.
 */
export async function playAll(pages, done, ms = 120000) {
  const dialogOpen = async (page) => (await page.locator('#score-dialog[open]').count()) > 0;
  await until(async () => {
    if (await done()) return true;
    for (const page of pages) {
      if (await dialogOpen(page)) continue;
      try {
        if (await actOnce(page, done) === 'done') return true;
      } catch (e) {
        // As in `playUntil`: a hand that ends between looking and clicking is no failure.
        if (!(await dialogOpen(page))) throw e;
      }
    }
    return false;
  }, ms, 'the players to reach the wanted point');
}
