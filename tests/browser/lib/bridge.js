// Bridge at the table: a practice deal where South declares, and calls made in the bidding box.

import { until } from './play.js';

/**
 * South holds every high card (North next to nothing), so South declares and the defenders'
 * cards are small. Board 1: North deals.
 */
export const BRIDGE_DEAL = 'N:5432.5432.5432.2 T98.JT9.JT9.JT98 AKQJ.AKQ.AKQ.AKQ 76.876.876.76543';

/** Makes `page`'s call: `call` is 'pass' or a bid such as '1C' or '7NT'. */
export async function bridgeCall(page, call) {
  const v = await page.evaluate(() => window.__parlor.view);
  const mine = (w) => w.calling.calls.filter((c) => c.seat === w.seat).length;
  const before = mine(v);
  const sel = call === 'pass' ? '.bridge-call[data-call="pass"]' : `.bridge-bid[data-level="${call[0]}"][data-strain="${call.slice(1)}"]`;
  // The button may sit in the scrolled box of levels: Playwright scrolls it into view.
  await page.locator(`#bidding-box ${sel}`).click({ timeout: 5000 });
  await until(async () => mine(await page.evaluate(() => window.__parlor.view)) > before, 10000, `the call ${call} to be taken`);
}

/**
 * The auction of {@link BRIDGE_DEAL} with South (`south`, a person) and another person
 * (`other`): South bids 7NT at its first turn, everyone else passes. `atTurn(page)` is awaited
 * at each person's turn to call, before the call. Ends once the contract is made.
 */
export async function southBidsSevenNoTrump(south, other, atTurn = async () => {}) {
  const legalOf = (p) => p.evaluate(() => window.__parlor?.view?.legal?.type);
  await until(async () => {
    if (await south.evaluate(() => Boolean(window.__parlor.view.bridge?.contract))) return true;
    if ((await legalOf(south)) === 'call') {
      await atTurn(south);
      const bid = await south.evaluate(() => window.__parlor.view.calling.calls.some((c) => c.seat === 2));
      await bridgeCall(south, bid ? 'pass' : '7NT');
    } else if ((await legalOf(other)) === 'call') {
      await atTurn(other);
      await bridgeCall(other, 'pass');
    }
    return false;
  }, 60000, 'the auction to end');
}
