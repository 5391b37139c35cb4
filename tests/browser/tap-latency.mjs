// Measures (prints, asserts nothing) how long a tap on a card takes to show that card on the
// table, on a phone-sized page with the CPU slowed 4x (Chromium's CPU throttling over CDP): the
// time from the tap's event to the first frame drawn after the card is on the table. Plays one
// hand of hearts against computers at a real server; each of our plays is one sample.
//
//   cd tests/browser && node tap-latency.mjs [hands=1] [throttle=4]
// (PARLOR_WEB_FROM_DISK=1 measures web/ as it is now rather than the server's built-in copy.)

import { launchBrowser, startParlor } from './lib/harness.js';
import { actOnce, createByApi, fillWithBots, sitByInvite, startMatch, until } from './lib/play.js';

const hands = Number(process.argv[2] || 1);
const throttle = Number(process.argv[3] || 4);

/** In the page: for each tap on a card, the time until the frame after it reached the table. */
function listen() {
  window.__taps = [];
  document.addEventListener('pointerdown', (e) => {
    const button = e.target instanceof Element ? e.target.closest('.hand .card') : null;
    if (!button || window.__parlor.view?.legal.type !== 'play') return;
    const card = button.dataset.card;
    const start = e.timeStamp;
    const seen = () => document.querySelector(`.trick .played[data-card="${card}"]`);
    const done = () => requestAnimationFrame(() => window.__taps.push(performance.now() - start));
    if (seen()) return;
    const watch = new MutationObserver(() => {
      if (!seen()) return;
      watch.disconnect();
      done();
    });
    watch.observe(document.body, { childList: true, subtree: true });
  }, true);
}

const server = await startParlor();
const browser = await launchBrowser();
try {
  const created = await createByApi(server.url, { variant: 'hearts', options: {}, table_options: { bot_delay_ms: 300 }, seed: 7 });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await sitByInvite(page, `${server.url}${created.invite}`, 'Ann', 0);
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  await page.evaluate(listen);
  await until(async () => {
    if (await page.evaluate((n) => window.__parlor.view.hand_number >= n, hands)) return true;
    if (await page.locator('#score-dialog[open]').count()) await page.locator('#dialog-close').click();
    else await actOnce(page).catch(() => null);
    return false;
  }, 600000, 'the hands to be played');
  const taps = (await page.evaluate(() => window.__taps)).sort((a, b) => a - b);
  const at = (q) => taps[Math.min(taps.length - 1, Math.floor(q * taps.length))];
  console.log(`tap to card on the table, CPU ${throttle}x slower, ${taps.length} taps: median ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, max ${taps[taps.length - 1].toFixed(0)} ms`);
  await context.close();
} finally {
  await browser.close();
  server.stop();
}
