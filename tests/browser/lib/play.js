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
  await page.locator(`button[data-seat="${seat}"]`, { hasText: 'Sit here' }).click();
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

/** The cards in the hand shown on the page, in order. */
export async function handCards(page) {
  return page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.dataset.card));
}

/** The cards on the table, with who played them. */
export async function trickCards(page) {
  return page.locator('.trick .played').evaluateAll((els) => els.map((e) => `${e.dataset.seat}:${e.dataset.card}`));
}

/**
 * Does what the page asks of us, once: picks three cards and passes, or plays the first
 * highlighted card. Returns 'passed', 'played' or null when nothing was asked; or 'done' when
 * `stopBefore` (an async predicate, asked once something is asked of us) is already true.
 */
export async function actOnce(page, stopBefore = null) {
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

/** Plays (passing included) until `done()` is true. */
export async function playUntil(page, done, ms = 120000) {
  const dialogOpen = async () => (await page.locator('#score-dialog[open]').count()) > 0;
  await until(async () => {
    if (await done()) return true;
    if (await dialogOpen()) return false;
    try {
      if (await actOnce(page, done) === 'done') return true;
    } catch (e) {
      // The hand can end between looking and clicking: the score sheet then covers the table,
      // which is not a failure; `done` decides what comes next.
      if (!(await dialogOpen())) throw e;
    }
    return false;
  }, ms, 'the game to reach the wanted point');
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
