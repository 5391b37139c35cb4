// Installable on a phone's home screen: the page links a web app manifest, the real server
// serves it and its icons (embedded from web/), and Chromium finds nothing that stops installing.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

test('the lobby links a manifest with a name and icons the server serves', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(server.url);
  const href = await page.locator('link[rel="manifest"]').evaluate((l) => l.href);
  const res = await fetch(href);
  assert.equal(res.status, 200);
  const manifest = await res.json();
  assert.equal(manifest.short_name, 'Parlor');
  assert.equal(manifest.display, 'standalone');
  const sizes = new Set();
  for (const icon of manifest.icons) {
    const url = new URL(icon.src, href);
    const got = await fetch(url);
    assert.equal(got.status, 200, `${url}`);
    assert.equal(got.headers.get('content-type'), icon.type, `${url}`);
    const bytes = Buffer.from(await got.arrayBuffer());
    if (icon.type === 'image/png') {
      // The PNG's own header says its size: it must be the one the manifest claims.
      const [w, h] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
      assert.equal(`${w}x${h}`, icon.sizes, `${url}`);
      sizes.add(w);
    }
  }
  assert.ok(sizes.has(192) && sizes.has(512), 'a 192 and a 512 px icon');
  const touch = await page.locator('link[rel="apple-touch-icon"]').evaluate((l) => l.href);
  assert.equal((await fetch(touch)).status, 200);
  // Chromium's own verdict on installing the page (a test browser's window is always private,
  // which alone stops installing: that one is not the page's doing).
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito'), []);
  await context.close();
});
