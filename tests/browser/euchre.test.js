// Euchre played whole in the browser against the real server: a person with three computer
// players, to 5 points, at a laptop's size (calls made by clicking, one typed in the table in
// words) and a phone's (calls made with the keyboard). On the way: the turned-up card in the
// middle while trump is made, a call box offering exactly the calls the prompt allows, the
// dealer's discard chosen in the hand, the maker's badge and the trump at the top, a lone
// hand (we go alone at our first chance) whose partner's plate says it sits out and whose
// tricks of three cards lie at the seats that played them, and a score sheet saying who made
// trump, alone or not, and how it ended.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { screenshot, scrollsSideways, useServerAndBrowser } from './lib/harness.js';
import { actOnce, createByApi, fillWithBots, sitByInvite, startMatch, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const view = (page) => page.evaluate(() => window.__parlor.view);
const SUITS = ['C', 'D', 'H', 'S'];

/** The call box's buttons a `call` prompt should show, by their `data-call`, in order. */
function expectedCalls(legal) {
  const out = [];
  if (legal.order_up) {
    out.push('order_up');
    if (legal.alone) out.push('order_up-alone');
  }
  if (legal.name) for (const s of SUITS) if (s !== legal.except) out.push(`trump-${s}`);
  if (legal.defend_alone) out.push('defend_alone');
  if (legal.pass) out.push('pass');
  return out;
}

/** The seat after `seat` that plays this hand (seats in `out` sit it out). */
function nextPlaying(seat, out) {
  let next = (seat + 1) % 4;
  while (out.includes(next)) next = (next + 1) % 4;
  return next;
}

/**
 * Answers a call prompt: checks the box against the prompt, then makes `want` (a `data-call`)
 * by a click, by keys (Home, arrows, Enter), or typed in the table in words.
 */
async function call(page, how, want, alone = false) {
  const box = page.locator('.hand-area.active #call-box');
  // Taken once our call is in the view's list (the next prompt may be a call again at once).
  const mine = (v) => `${v.hand_number}:${v.calling.calls.filter((c) => c.seat === v.seat).length}`;
  const before = mine(await view(page));
  if (how === 'keyboard') {
    const focused = await page.evaluate(() => document.activeElement?.classList.contains('call-option'));
    assert.ok(focused, `a new call prompt puts the keyboard in the call box (it is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))})`);
    if (alone) {
      await page.focus('#call-alone');
      await page.keyboard.press('Space');
      await page.focus('#call-box .call-option');
    }
    await page.keyboard.press('Home');
    const keys = await box.locator('.call-option').evaluateAll((els) => els.map((e) => e.dataset.call));
    for (let i = 0; i < keys.indexOf(want); i += 1) await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.call), want, 'the arrows reach the call');
    await page.keyboard.press('Enter');
  } else if (how === 'typed') {
    const words = { pass: 'pass', order_up: 'order up', 'order_up-alone': 'order up alone' }[want]
      ?? `${{ C: 'clubs', D: 'd', H: 'hearts', S: 's' }[want.slice(-1)]}${alone ? ' alone' : ''}`;
    await page.focus('#command');
    await page.keyboard.type(words);
    await page.keyboard.press('Enter');
  } else {
    if (alone) await page.locator('#call-alone').check();
    await box.locator(`.call-option[data-call="${want}"]`).click({ timeout: 5000 });
  }
  try {
    await until(async () => mine(await view(page)) !== before, 10000, `the call ${want} to be taken`);
  } catch (e) {
    const shown = await page.locator('#play-error').textContent().catch(() => '');
    throw new Error(`${e.message}; the page says "${shown}"`);
  }
}

/** Discards a card of the hand (the dealer, after picking up), by a click or the keys. */
async function discard(page, how, typed) {
  const v = await view(page);
  assert.equal(await page.locator('.hand .card').count(), 6, 'the dealer holds six cards after picking up');
  assert.ok(v.hand.includes(v.calling.picked_up), 'the picked-up card is in the hand');
  assert.equal(await page.locator('#discard-button').isDisabled(), true, 'nothing chosen yet');
  const card = v.hand.find((c) => c !== v.calling.picked_up);
  if (typed) {
    const words = `discard ${card[0] === 'T' ? '10' : card[0].toLowerCase()}${card[1].toLowerCase()}`;
    await page.focus('#command');
    await page.keyboard.type(words);
    await page.keyboard.press('Enter');
  } else if (how === 'keyboard') {
    await page.focus(`.hand .card[data-card="${card}"]`);
    await page.keyboard.press('Enter');
    assert.equal(await page.locator(`.hand .card[data-card="${card}"]`).getAttribute('aria-pressed'), 'true');
    await page.focus('#discard-button');
    await page.keyboard.press('Enter');
  } else {
    await page.locator(`.hand .card[data-card="${card}"]`).click();
    await page.locator('#discard-button:not([disabled])').click();
  }
  await until(async () => (await view(page)).calling?.discarded === card, 10000, `${card} to be discarded`);
  assert.equal(await page.locator(`.hand .card[data-card="${card}"]`).count(), 0);
  return card;
}

/**
 * Checks the trick on the table while a seat sits out: at most three cards, none from the seat
 * sitting out, each at the place of the seat that played it (finished tricks too, whose seats
 * the page works out from the leader, passing the seat sitting out).
 */
async function checkLoneTrick(page, v, seen) {
  const out = v.calling.out;
  const shown = await page.locator('.trick .played:not(.turned-up)').evaluateAll((els) => els.map((e) => ({
    seat: Number(e.dataset.seat), card: e.dataset.card, cls: e.className,
  })));
  if (!shown.length) return;
  assert.ok(shown.length <= 3, `a lone hand's trick has at most three cards: ${JSON.stringify(shown)}`);
  const where = ['bottom', 'left', 'top', 'right'];
  for (const p of shown) {
    assert.ok(!out.includes(p.seat), `no card from a seat sitting out: ${JSON.stringify(shown)}`);
    assert.ok(p.cls.includes(`pos-${where[p.seat]}`), `${p.card} lies at seat ${p.seat}'s place: ${p.cls}`);
  }
  // Seats follow each other from the leader, passing the seat sitting out.
  for (let i = 1; i < shown.length; i += 1) assert.equal(shown[i].seat, nextPlaying(shown[i - 1].seat, out));
  if (shown.length === 3) {
    // Which seat played which card is known from the view's own record.
    const all = [...v.tricks.map((t) => t.cards), v.trick.plays.map((p) => p.card)];
    assert.ok(all.some((cards) => shown.every((p) => cards.includes(p.card))), 'the three cards are one trick of this hand');
    seen.full += 1;
  }
}

async function euchreMatch(viewport, name, how) {
  const created = await createByApi(server.url, {
    variant: 'euchre', options: { target: 5, alone: true, stick_the_dealer: true }, table_options: { bot_delay_ms: 0 }, seed: 41,
  });
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await sitByInvite(page, `${server.url}${created.invite}`, 'Grandma', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);

  const seen = { calls: 0, alone: false, lone: 0, full: 0, discards: 0, turned: 0, typed: false };
  const dialogOpen = async () => (await page.locator('#score-dialog[open]').count()) > 0;
  await until(async () => {
    if (await dialogOpen()) {
      if (await page.locator('#score-dialog[open] #winners').count()) return true;
      await page.locator('#score-dialog[open] #dialog-close').click({ timeout: 5000 });
      return false;
    }
    const v = await view(page);
    if (!v) return false;
    try {
      if (v.calling?.out.length && v.phase === 'playing') {
        seen.lone += 1;
        await checkLoneTrick(page, v, seen);
        for (const seat of v.calling.out) {
          assert.match(await page.locator(`.plate[data-seat="${seat}"]`).getAttribute('class'), /sits-out/);
          assert.equal(await page.locator(`.plate[data-seat="${seat}"] .sits-out-note`).textContent(), 'Sits out');
        }
      }
      if (v.legal.type === 'call' && (await page.locator('.hand-area.active #call-box').count())) {
        seen.calls += 1;
        const keys = await page.locator('#call-box .call-option').evaluateAll((els) => els.map((e) => e.dataset.call));
        assert.deepEqual(keys, expectedCalls(v.legal), `the call box offers only the prompt's calls: ${JSON.stringify(v.legal)}`);
        if (v.legal.order_up) {
          // The first round: the turned card lies in the middle, at the dealer's place.
          seen.turned += 1;
          assert.equal(await page.locator('#turned-up').getAttribute('data-card'), v.face_up[0]);
          assert.match(await page.locator('#turn').textContent(), /Your call/);
        }
        if (v.legal.name) {
          assert.equal(await page.locator(`#call-box .call-option[data-call="trump-${v.legal.except}"]`).count(), 0, 'the turned suit may not be named');
        }
        if (!v.legal.pass) assert.equal(await page.locator('#call-box .call-option[data-call="pass"]').count(), 0, 'a stuck dealer may not pass');
        if (seen.calls === 1) await screenshot(page, `euchre-calling-${name}`);
        if (seen.calls === 1 && how === 'click') {
          // A suggestion marks one of the calls offered; nothing is called for us.
          await page.locator('#hint-button', { hasText: 'Suggest a call' }).click();
          await page.locator('#call-box .call-option.suggested').waitFor();
          assert.match(await page.locator('#hint-note').textContent(), /^Suggested: /);
          assert.equal((await view(page)).legal.type, 'call');
        }
        let want = v.legal.pass ? 'pass' : `trump-${SUITS.find((s) => s !== v.legal.except)}`;
        let alone = false;
        if (!seen.alone && v.legal.alone && (v.legal.order_up || v.legal.name)) {
          // Our first chance: we go alone, and our partner sits the hand out.
          seen.alone = true;
          if (v.legal.order_up) want = 'order_up-alone';
          else {
            want = `trump-${SUITS.find((s) => s !== v.legal.except)}`;
            alone = true;
          }
        }
        const typed = how === 'click' && !seen.typed && want === 'pass';
        if (typed) seen.typed = true;
        await call(page, typed ? 'typed' : how, want, alone);
        return false;
      }
      if (v.legal.type === 'discard') {
        seen.discards += 1;
        assert.match(await page.locator('#turn').textContent(), /discard/);
        await discard(page, how, how === 'click' && seen.discards === 2);
        return false;
      }
      if (v.legal.type === 'play') await actOnce(page);
    } catch (e) {
      // A hand can end between looking and acting: the score sheet then covers the table.
      if (!(await dialogOpen())) throw e;
    }
    return false;
  }, 240000, 'the match to end');

  assert.match(await page.locator('#winners').textContent(), /win/);
  await screenshot(page, `euchre-over-${name}`);
  assert.equal(await scrollsSideways(page), false, `the end of the match at ${name}`);
  const final = await view(page);
  assert.ok(Math.max(...final.totals) >= 5, `a side reached the target: ${final.totals}`);
  assert.deepEqual(final.totals[0], final.totals[2], 'partners alike');
  assert.ok(seen.calls > 0 && seen.turned > 0, 'we were asked to call, the turned card shown');
  assert.ok(seen.alone, 'we went alone once');
  assert.ok(seen.full > 0, 'a trick of three cards lay on the table in a lone hand');
  // The score sheet: per hand, the makers' column says who made which trump (alone or not)
  // and how it ended; a hand nobody called reads "thrown in" in both columns.
  const rows = page.locator('#score-dialog tr.hand-row');
  assert.equal(await rows.count(), final.history.length);
  let lone = 0;
  for (const [i, line] of final.history.entries()) {
    const cells = rows.nth(i).locator('td');
    const made = line.trump_made;
    if (!made) {
      for (const t of [0, 1]) assert.equal(await cells.nth(t).locator('.call-line.thrown-in').textContent(), 'thrown in');
      continue;
    }
    const team = made.maker % 2;
    const cell = cells.nth(team);
    assert.equal(await cell.locator('.call-line[data-maker]').getAttribute('data-trump'), made.trump);
    assert.match(await cell.locator('.call-line[data-maker]').textContent(), made.alone ? /, alone$/ : /: . (clubs|diamonds|hearts|spades)$/);
    const took = line.tricks[team] + line.tricks[team + 2];
    const outcome = took < 3 ? 'euchred' : took === 5 ? 'march' : 'made';
    assert.equal(await cell.locator('.call-line.outcome').getAttribute('data-outcome'), outcome);
    assert.equal(await cells.nth(1 - team).locator('.call-line[data-maker]').count(), 0);
    if (made.alone) lone += 1;
  }
  assert.ok(lone > 0, 'the sheet shows the lone hand');
  assert.deepEqual(errors, []);
  await context.close();
  return seen;
}

test('a whole game of euchre at a laptop’s size, calls made by clicking (and one typed)', async () => {
  const seen = await euchreMatch({ width: 1366, height: 768 }, 'laptop', 'click');
  assert.ok(seen.typed, 'a call was typed in the table in words');
});

test('a whole game of euchre on a phone (390×844), calls made with the keyboard', async () => {
  await euchreMatch({ width: 390, height: 844 }, 'phone', 'keyboard');
});
