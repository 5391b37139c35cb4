// A board of Bridge in the browser against the real server: two people, South declaring (on a
// 320×568 phone) and North as dummy (at a laptop's size), East and West computer players.
// South bids with the bidding box (by the keyboard, then by clicks), North passes (a click,
// then typed in the table in words); the auction table fills in four columns, the contract
// reads "…NT by South", dummy's cards show at North's place only after the opening lead and
// South plays them by click, by the keys and typed, while South's own hand waits; North reads
// that declarer plays their cards. South claims, the computer defenders answer, the board
// ends, and the score sheet says the board, the contract, declarer's tricks and the score;
// the next board says who is vulnerable and marks their plates.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { screenshot, scrollsSideways, useServerAndBrowser } from './lib/harness.js';
import { createByApi, twoPeopleAndComputers, until } from './lib/play.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

const view = (page) => page.evaluate(() => window.__parlor.view);
const STRAINS = ['C', 'D', 'H', 'S', 'NT'];

/** The level of the lowest no trump bid a `call` prompt allows (no trump ranks highest: the level of `bid_from`), or null. */
function lowestNoTrump(legal) {
  return legal.bid_from ? legal.bid_from.level : null;
}

/** Whether the prompt asks declarer for one of dummy's cards. */
function dummysTurn(v) {
  const dummy = v.bridge?.dummy;
  return v.legal.type === 'play' && dummy && dummy.seat !== v.seat && v.legal.cards.every((c) => dummy.cards.includes(c));
}

/** Waits until the count of our calls in the auction has grown. */
async function callTaken(page, before) {
  const mine = (v) => v.calling.calls.filter((c) => c.seat === v.seat).length;
  try {
    await until(async () => mine(await view(page)) > before, 10000, 'the call to be taken');
  } catch (e) {
    throw new Error(`${e.message}; the page says "${await page.locator('#play-error').textContent().catch(() => '')}"`);
  }
}

/** Checks the bidding box against the prompt: bids below `bid_from` disabled, the rest and the calls offered. */
async function checkBox(page, legal) {
  const bids = await page.locator('#bidding-box .bridge-bid').evaluateAll((els) => els.map((e) => ({
    level: Number(e.dataset.level), strain: e.dataset.strain, disabled: e.disabled,
  })));
  assert.equal(bids.length, 35, 'seven levels of five strains');
  for (const b of bids) {
    const ok = b.level > legal.bid_from.level || (b.level === legal.bid_from.level && STRAINS.indexOf(b.strain) >= STRAINS.indexOf(legal.bid_from.strain));
    assert.equal(!b.disabled, ok, `${b.level}${b.strain} enabled iff at least ${JSON.stringify(legal.bid_from)}`);
  }
  const calls = await page.locator('#bidding-box .bridge-call').evaluateAll((els) => els.map((e) => e.dataset.call));
  assert.deepEqual(calls, ['pass', ...(legal.double ? ['double'] : []), ...(legal.redouble ? ['redouble'] : [])]);
}

/** The bidding box at a phone's size: on screen, nothing sideways, each button at least 44 px. */
async function checkBoxFits(page) {
  const m = await page.evaluate(() => {
    const box = document.getElementById('bidding-box').getBoundingClientRect();
    const buttons = [...document.querySelectorAll('#bidding-box button')].filter((b) => b.getClientRects().length > 0)
      .map((b) => { const r = b.getBoundingClientRect(); return { w: r.width, h: r.height, what: b.textContent }; });
    return { box: { left: box.left, right: box.right, height: box.height }, buttons, width: window.innerWidth, height: window.innerHeight };
  });
  assert.ok(m.box.left >= 0 && m.box.right <= m.width + 0.5, `the bidding box fits the width: ${JSON.stringify(m.box)}`);
  assert.ok(m.box.height <= m.height, `the bidding box fits the height: ${JSON.stringify(m.box)}`);
  for (const b of m.buttons) assert.ok(b.w >= 44 && b.h >= 44, `a bidding box button is at least 44 px: ${JSON.stringify(b)}`);
  assert.equal(await scrollsSideways(page), false, 'nothing scrolls sideways while bidding');
}

/** South's call: the lowest no trump bid allowed, by keys, a click or typed. */
async function southCalls(page, v, how, seen) {
  await checkBox(page, v.legal);
  const before = v.calling.calls.filter((c) => c.seat === v.seat).length;
  const level = lowestNoTrump(v.legal);
  assert.ok(level, 'a no trump bid is always open to South here');
  if (how === 'keyboard') {
    const focused = await page.evaluate(() => document.activeElement?.closest('#bidding-box') !== null && document.activeElement?.tagName === 'BUTTON');
    assert.ok(focused, 'a new call prompt puts the keyboard in the bidding box');
    for (let i = 0; i < 40; i += 1) {
      const here = await page.evaluate(() => `${document.activeElement?.dataset.level}${document.activeElement?.dataset.strain}`);
      if (here === `${level}NT`) break;
      await page.keyboard.press('ArrowRight');
    }
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.strain), 'NT', 'the arrows reach the bid');
    await page.keyboard.press('Enter');
  } else {
    await page.locator(`#bidding-box .bridge-bid[data-level="${level}"][data-strain="NT"]`).click({ timeout: 5000 });
  }
  await callTaken(page, before);
  seen.southBids += 1;
}

/** North passes: a click the first time, then typed in words ("p"). */
async function northPasses(page, v, seen) {
  const before = v.calling.calls.filter((c) => c.seat === v.seat).length;
  if (seen.northPasses === 0) {
    await page.locator('#bidding-box .bridge-call[data-call="pass"]').click({ timeout: 5000 });
  } else {
    await page.focus('#command');
    await page.keyboard.type('p');
    await page.keyboard.press('Enter');
    seen.typed = true;
  }
  await callTaken(page, before);
  seen.northPasses += 1;
}

/** The auction table's cells, row by row, against the view's calls and the dealer. */
async function checkAuction(page, v) {
  const cells = await page.locator('#auction tbody td').evaluateAll((els) => els.map((e) => ({ cls: e.className, call: e.dataset.call ?? null, seat: e.dataset.seat ?? null })));
  const before = cells.filter((c) => c.cls.includes('before')).length;
  assert.equal(before, v.dealer, 'the first call stands in the dealer’s column');
  const made = cells.filter((c) => c.call !== null);
  assert.equal(made.length, v.calling.calls.length, 'one cell per call');
  v.calling.calls.forEach((c, i) => {
    assert.equal(Number(made[i].seat), c.seat);
    assert.equal(made[i].call, c.call === 'bid' ? `${c.level}${c.strain}` : c.call);
    // Column = seat: N E S W.
    assert.equal((before + i) % 4, c.seat, 'each call in its caller’s column');
  });
  assert.deepEqual(await page.locator('#auction thead th').allTextContents(), ['N', 'E', 'S', 'W']);
}

test('a board of bridge: South declares on a phone with the bidding box, plays dummy by click, keys and typing, claims; North is dummy', async () => {
  const created = await createByApi(server.url, {
    variant: 'bridge', options: { hands: 4 }, table_options: { bot_delay_ms: 0, turn_clock_ms: 0 }, seed: 7,
  });
  const { pages: [north, south], errors } = await twoPeopleAndComputers(browser, server.url, created, [
    { name: 'Nora', seat: 0, viewport: { width: 1366, height: 768 } },
    { name: 'Sam', seat: 2, viewport: { width: 320, height: 568 } },
  ]);

  // The board and who is vulnerable, on both pages.
  for (const p of [north, south]) {
    await until(async () => (await p.locator('#board-line').count()) > 0, 10000, 'the board line');
    assert.equal(await p.locator('#board-line').textContent(), 'Board 1 · Neither side vulnerable');
    assert.equal(await p.locator('.plate.vulnerable').count(), 0);
  }

  // When dummy's cards first show on South's page, how far the play was.
  await south.evaluate(() => {
    window.__dummySeen = [];
    new MutationObserver(() => {
      const v = window.__parlor.view;
      if (window.__dummySeen.length === 0 && document.querySelector('#dummy-cards')) {
        window.__dummySeen.push({ phase: v.phase, played: v.tricks.length * 4 + v.trick.plays.length, leader: v.tricks[0]?.leader ?? v.trick.leader });
      }
    }).observe(document.body, { childList: true, subtree: true });
  });

  // The auction: South bids no trump (keys first, then clicks), North passes.
  const seen = { southBids: 0, northPasses: 0, typed: false, dummyClick: 0, dummyKeys: 0, dummyTyped: 0, own: 0, claims: 0 };
  await until(async () => {
    const [nv, sv] = [await view(north), await view(south)];
    if (sv.bridge?.contract) return true;
    if (sv.phase === 'calling') {
      await checkAuction(south, sv);
      assert.equal(await south.locator('#dummy-cards').count(), 0, 'no dummy during the auction');
    }
    if (sv.legal.type === 'call') {
      if (seen.southBids === 0) {
        await screenshot(south, 'bridge-bidding-phone');
        await checkBoxFits(south);
      }
      await southCalls(south, sv, seen.southBids === 0 ? 'keyboard' : 'click', seen);
    } else if (nv.legal.type === 'call') {
      await northPasses(north, nv, seen);
    }
    return false;
  }, 60000, 'the auction to end');
  assert.ok(seen.southBids > 0 && seen.northPasses > 0);

  let sv = await view(south);
  const contract = sv.bridge.contract;
  assert.equal(contract.declarer, 2, 'South declares');
  assert.equal(contract.bid.strain, 'NT');
  for (const p of [north, south]) {
    await until(async () => (await p.locator('#contract').count()) > 0, 5000, 'the contract line');
    const words = await p.locator('#contract').textContent();
    assert.match(words, new RegExp(`^${contract.bid.level}NT by South \\(`), words);
    if (contract.doubled !== 'undoubled') assert.match(words, new RegExp(`, ${contract.doubled}$`));
    // The auction folds away during play, still there on demand.
    assert.equal(await p.locator('#auction').count(), 0);
    await p.locator('#auction-details summary').click();
    assert.equal(await p.locator('#auction-small tbody td[data-call]').count(), sv.calling.calls.length);
    await p.locator('#auction-details summary').click();
  }
  assert.match(await south.locator('.plate[data-seat="2"] .badge.declarer').textContent(), /Declarer/);
  assert.match(await north.locator('.plate[data-seat="0"] .badge.dummy').textContent(), /Dummy/);

  // Before the opening lead dummy is hidden (the page noted when it first showed); West
  // leads, then dummy shows at North's place.
  await until(async () => (await view(south)).bridge.dummy !== null, 20000, 'the opening lead');
  await until(async () => (await south.locator('.plate[data-seat="0"] #dummy-cards .dummy-card').count()) > 0, 5000, 'dummy shown');
  const firstShown = await south.evaluate(() => window.__dummySeen[0]);
  assert.equal(firstShown.phase, 'playing', 'dummy first shown during play');
  assert.ok(firstShown.played >= 1, `dummy first shown after the opening lead: ${JSON.stringify(firstShown)}`);
  assert.equal(firstShown.leader, 3, 'West, declarer’s left, led');
  sv = await view(south);
  assert.equal(sv.tricks.length + sv.trick.plays.length >= 1, true);
  assert.equal(await south.locator('.plate[data-seat="0"] .dummy-card').count(), sv.bridge.dummy.cards.length);
  const suits = await south.locator('.plate[data-seat="0"] .dummy-suit').evaluateAll((els) => els.map((e) => e.dataset.suit));
  assert.deepEqual(suits, ['C', 'D', 'S', 'H'].filter((s) => sv.bridge.dummy.cards.some((c) => c[1] === s)), 'dummy grouped by suit');
  // North holds those cards: no copy at their own plate, a note instead.
  await until(async () => (await north.locator('#dummy-note').count()) > 0, 5000, 'the dummy note');
  assert.match(await north.locator('#dummy-note').textContent(), /^You are dummy: .* plays your cards\.$/);
  assert.equal(await north.locator('#dummy-cards').count(), 0);
  await screenshot(south, 'bridge-dummy-phone');
  await screenshot(north, 'bridge-dummy-laptop');

  // Play: dummy's cards by click, keys and typed; South's own by click. A claim after three tricks.
  const dialogOpen = async (p) => (await p.locator('#score-dialog[open]').count()) > 0;
  let claimedAll = false;
  await until(async () => {
    const v = await view(south);
    if (v.history.length > 0) return true;
    if (v.bridge?.claim) return false;
    if (v.legal.type !== 'play') return false;
    // From the fourth trick on, on declarer's or dummy's turn: claim.
    if (v.tricks.length >= 3 && seen.claims < 2 && !(claimedAll && v.tricks.length < 6)) {
      await south.locator('#claim-button').click({ timeout: 5000 });
      const left = 13 - v.tricks.length;
      assert.equal(await south.locator('#claim-tricks').inputValue(), String(left), 'all the tricks left unless changed');
      // First all of them (the defenders check it), then, if that was rejected, none.
      if (claimedAll) await south.locator('#claim-tricks').selectOption('0');
      await south.locator('#claim-send').click();
      seen.claims += 1;
      const tricks = claimedAll ? 0 : left;
      claimedAll = true;
      await until(async () => {
        const w = await view(south);
        return w.history.length > 0 || w.bridge.claim !== null || (w.legal.type === 'play' && w.bridge.claim === null && seen.claims > 0);
      }, 10000, 'the claim to be made');
      const w = await view(south);
      if (w.bridge.claim) {
        assert.equal(w.bridge.claim.tricks, tricks);
        assert.match(await north.locator('#claim-note').textContent(), new RegExp(`claims ${tricks} of the ${left} tricks left`));
      }
      // Answered by the computers: ended, or rejected with a notice.
      await until(async () => {
        const x = await view(south);
        return x.history.length > 0 || (x.bridge.claim === null && x.legal.type === 'play');
      }, 20000, 'the defenders to answer');
      const x = await view(south);
      if (x.history.length === 0) assert.match(await south.locator('.notice').textContent(), /rejected the claim: play goes on/);
      return x.history.length > 0;
    }
    const before = v.tricks.length * 4 + v.trick.plays.length;
    if (dummysTurn(v)) {
      // South's own hand waits while dummy is to play.
      assert.equal(await south.locator('.hand .card.legal').count(), 0, 'the own hand is not playable on dummy’s turn');
      assert.match(await south.locator('#turn').textContent(), /play a card from dummy/);
      // Dummy's own player reads who plays their cards.
      await until(async () => /^Sam plays from dummy/.test(await north.locator('#turn').textContent()), 5000, 'North told that Sam plays from dummy');
      const card = v.legal.cards[0];
      if (seen.dummyClick === 0 || (seen.dummyKeys > 0 && seen.dummyTyped > 0)) {
        await south.locator(`#dummy-cards .dummy-card.legal[data-card="${card}"]`).click({ timeout: 5000 });
        seen.dummyClick += 1;
      } else if (seen.dummyKeys === 0) {
        await until(async () => south.evaluate(() => document.activeElement?.classList.contains('dummy-card') ?? false), 5000, 'the keyboard on dummy’s cards');
        const focused = await south.evaluate(() => document.activeElement.dataset.card);
        assert.ok(v.legal.cards.includes(focused), 'the keyboard goes to a playable card of dummy’s');
        await south.keyboard.press('Enter');
        seen.dummyKeys += 1;
      } else {
        const typed = `${card[0] === 'T' ? '10' : card[0].toLowerCase()}${card[1].toLowerCase()}`;
        await south.focus('#command');
        await south.keyboard.type(typed);
        await south.keyboard.press('Enter');
        seen.dummyTyped += 1;
      }
    } else {
      await south.locator('.hand-area.active .hand .card.legal').first().click({ timeout: 5000 });
      seen.own += 1;
    }
    await until(async () => {
      const w = await view(south);
      return w.history.length > 0 || w.tricks.length * 4 + w.trick.plays.length > before;
    }, 10000, 'the card to be played');
    return false;
  }, 120000, 'the board to end');
  assert.ok(seen.dummyClick > 0 && seen.dummyKeys > 0, `dummy played by click and keys: ${JSON.stringify(seen)}`);
  assert.ok(seen.own > 0, 'South played from the own hand too');
  assert.ok(seen.claims > 0, 'South claimed');

  // The board's line on the score sheet (the dialog opens at the board's end).
  await south.locator('#score-dialog[open]').waitFor({ timeout: 10000 });
  const line = (await view(south)).history[0];
  assert.equal(line.board.board, 1);
  const row = south.locator('#score-dialog tr.hand-row').first();
  assert.match(await row.locator('th .board-no').textContent(), /^Board 1 · Neither side vulnerable$/);
  const ns = row.locator('td').nth(0);
  assert.equal(await ns.locator('.contract-line').getAttribute('data-contract'), `${contract.bid.level}NT`);
  assert.match(await ns.locator('.contract-line').textContent(), /NT by South/);
  assert.equal(Number(await ns.locator('.outcome').getAttribute('data-tricks')), line.board.declarer_tricks);
  assert.match(await ns.locator('.outcome').textContent(), /^tricks: \d+, (made|made \+\d+|down \d+)$/);
  assert.equal(Number(await ns.getAttribute('data-points')), line.board.score, 'North–South score the board');
  assert.equal(Number(await row.locator('td').nth(1).getAttribute('data-points')), -line.board.score, 'East–West its negative');
  assert.equal(await row.locator('td').nth(1).locator('.contract-line').count(), 0);
  await screenshot(south, 'bridge-sheet-phone');

  // The board downloads in PBN from the sheet: its deal, contract and score as played.
  await south.locator('#score-dialog .downloads summary').click();
  const pbnLink = south.locator('#score-dialog .downloads a.download.pbn[data-hand="0"]');
  await pbnLink.waitFor({ timeout: 10000 });
  const pbnHref = await pbnLink.getAttribute('href');
  assert.match(pbnHref, /^api\/tables\/[^/]+\/hands\/0\/pbn$/);
  const pbn = await south.evaluate(async (url) => (await fetch(url)).text(), pbnHref);
  assert.match(pbn, /^% PBN 2\.1\n/);
  assert.match(pbn, /\[Board "1"\]/);
  assert.match(pbn, new RegExp(`\\[Contract "${contract.bid.level}NT[X]*"\\]`));
  assert.match(pbn, /\[Declarer "S"\]/);
  assert.match(pbn, new RegExp(`\\[Score "NS ${line.board.score}"\\]`));
  assert.match(pbn, new RegExp(`\\[Result "${line.board.declarer_tricks}"\\]`));

  // The next board: North–South vulnerable, their plates marked.
  for (const p of [north, south]) {
    if (await dialogOpen(p)) await p.locator('#score-dialog[open] #dialog-close').click();
    await until(async () => (await p.locator('#board-line').textContent().catch(() => '')).startsWith('Board 2'), 10000, 'board 2');
    assert.equal(await p.locator('#board-line').textContent(), 'Board 2 · N–S vulnerable');
    assert.deepEqual(await p.locator('.plate.vulnerable').evaluateAll((els) => els.map((e) => Number(e.dataset.seat)).sort()), [0, 2]);
    assert.equal(await p.locator('#dummy-cards').count(), 0, 'no dummy at the next board’s auction');
  }
  assert.deepEqual(errors, []);
  for (const p of [north, south]) await p.context().close();
});

/** Plays one card: dummy's when the prompt asks declarer for dummy's, else the own hand's. */
async function declarerPlays(page, v) {
  const before = v.tricks.length * 4 + v.trick.plays.length;
  if (dummysTurn(v)) await page.locator(`#dummy-cards .dummy-card.legal[data-card="${v.legal.cards[0]}"]`).click({ timeout: 5000 });
  else await page.locator('.hand-area.active .hand .card.legal').first().click({ timeout: 5000 });
  await until(async () => {
    const w = await view(page);
    return w.history.length > 0 || w.tricks.length * 4 + w.trick.plays.length > before;
  }, 10000, 'the card to be played');
}

test('a claim answered in the browser: North declares and claims, the computer West accepts, East (a person) rejects by the keys, then accepts', async () => {
  const created = await createByApi(server.url, {
    variant: 'bridge', options: { hands: 4 }, table_options: { bot_delay_ms: 0, turn_clock_ms: 0 }, seed: 11,
  });
  const { pages: [north, east], errors } = await twoPeopleAndComputers(browser, server.url, created, [
    { name: 'Nora', seat: 0, viewport: { width: 1366, height: 768 } },
    { name: 'Eve', seat: 1, viewport: { width: 390, height: 844 } },
  ]);

  // North deals board 1 and opens in no trump (so declares it); East passes throughout.
  await until(async () => {
    const [nv, ev] = [await view(north), await view(east)];
    if (nv.bridge?.contract) return true;
    if (nv.legal.type === 'call') {
      const before = nv.calling.calls.filter((c) => c.seat === 0).length;
      await north.locator(`#bidding-box .bridge-bid[data-level="${nv.legal.bid_from.level}"][data-strain="NT"]`).click({ timeout: 5000 });
      await callTaken(north, before);
    } else if (ev.legal.type === 'call') {
      const before = ev.calling.calls.filter((c) => c.seat === 1).length;
      await east.locator('#bidding-box .bridge-call[data-call="pass"]').click({ timeout: 5000 });
      await callTaken(east, before);
    }
    return false;
  }, 60000, 'the auction to end');
  assert.equal((await view(north)).bridge.contract.declarer, 0, 'North declares');

  const answered = { rejected: false, accepted: false };
  await until(async () => {
    const v = await view(north);
    if (v.history.length > 0) return true;
    const ev = await view(east);
    if (ev.legal.type === 'play') {
      // East defends: a card of the own hand.
      await declarerPlays(east, ev);
      return false;
    }
    if (v.legal.type !== 'play' || v.bridge.claim) return false;
    if (v.tricks.length < 2 || (answered.rejected && v.tricks.length < 4)) {
      await declarerPlays(north, v);
      return false;
    }
    const left = 13 - v.tricks.length;
    // None of them: the computer defender (West) checks it and accepts at once, so East's
    // answer decides.
    const tricks = 0;
    await north.locator('#claim-button').click({ timeout: 5000 });
    await north.locator('#claim-tricks').selectOption(String(tricks));
    await north.locator('#claim-send').click();
    // East, the first defender, is asked: the claim, declarer's cards faced, Accept and Reject.
    await until(async () => (await view(east)).legal.type === 'answer_claim', 10000, 'East to be asked');
    await east.locator('#claim-box').waitFor();
    const claim = (await view(east)).bridge.claim;
    assert.equal(claim.tricks, tricks);
    assert.equal(await east.locator('#claim-text').textContent(), `Nora claims ${tricks} of the ${left} tricks left.`);
    // West's answer may redraw the box meanwhile: the cards are counted once it has settled.
    await until(async () => (await east.locator('#claim-cards .dummy-card').count()) === claim.cards.length, 5000, 'declarer’s cards faced');
    assert.match(await east.locator('#turn').textContent(), /claims \d+ tricks: accept or reject\?/);
    await until(async () => /Accepted by Dido\./.test(await north.locator('#claim-note').textContent()), 10000, 'West’s acceptance shown');
    if (!answered.rejected) {
      // By the keys: the keyboard is on Accept, Tab goes on to Reject.
      // (West's answer comes in between and asks East again: the keyboard lands on Accept each time.)
      await until(async () => (await east.evaluate(() => document.activeElement?.id)) === 'claim-accept'
        && (await view(east)).legal.type === 'answer_claim', 5000, 'a claim to answer to put the keyboard on Accept').catch(async (e) => {
        const st = await east.evaluate(() => ({ focus: document.activeElement?.outerHTML.slice(0, 120), legal: window.__parlor.view.legal, claim: window.__parlor.view.bridge.claim, to_act: window.__parlor.view.to_act, box: document.querySelector('#claim-box') !== null }));
        throw new Error(`${e.message}: ${JSON.stringify(st)}`);
      });
      await east.keyboard.press('Tab');
      assert.equal(await east.evaluate(() => document.activeElement?.id), 'claim-reject');
      await east.keyboard.press('Enter');
      await until(async () => (await view(north)).bridge.claim === null, 10000, 'the claim to be withdrawn');
      await until(async () => /Eve rejected the claim: play goes on\./.test(await north.locator('.notice').textContent().catch(() => '')), 5000, 'the rejection told');
      assert.equal(await east.locator('#claim-box').count(), 0);
      answered.rejected = true;
      return false;
    }
    await screenshot(east, 'bridge-claim-phone');
    await east.locator('#claim-accept').click();
    answered.accepted = true;
    await until(async () => (await view(north)).history.length > 0, 10000, 'West to accept too, and the board to end');
    return true;
  }, 120000, 'the board to end');
  assert.ok(answered.rejected && answered.accepted);

  const line = (await view(east)).history[0];
  assert.equal(line.board.contract.declarer, 0);
  await east.locator('#score-dialog[open]').waitFor({ timeout: 10000 });
  const row = east.locator('#score-dialog tr.hand-row').first();
  assert.match(await row.locator('td').nth(0).locator('.contract-line').textContent(), /NT by North \(Nora\)/);
  assert.equal(Number(await row.locator('td').nth(0).locator('.outcome').getAttribute('data-tricks')), line.board.declarer_tricks);
  assert.deepEqual(errors, []);
  for (const p of [north, east]) await p.context().close();
});
