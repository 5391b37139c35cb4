// House rules by name in the lobby: the presets of `GET /api/variants` are a choice in the
// create-table form that fills in the options (which stay editable), and the table is created
// with them. Against the real server.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useServerAndBrowser } from './lib/harness.js';

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

test('choosing Spades "No bags" or Oh Hell "Quick" fills in the options, and the table gets them', async () => {
  const variants = await (await fetch(`${server.url}/api/variants`)).json();
  const spades = variants.find((v) => v.name === 'spades');
  const noBags = spades.presets.findIndex((p) => p.name === 'No bags');
  assert.ok(noBags > 0, 'the server offers "No bags"');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => { localStorage.setItem('parlor.name', 'Grandma'); });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);

  await page.getByRole('radio', { name: /Spades/ }).check();
  const choice = page.getByLabel('House rules');
  assert.deepEqual(await choice.locator('option').allTextContents(), spades.presets.map((p) => p.name), 'every preset, the rules’ own first');
  await page.getByText('Change the rules').click();
  const bagLimit = page.locator('#opt-bag_limit');
  const usual = String(spades.options.find((o) => o.name === 'bag_limit').default);
  assert.equal(await bagLimit.inputValue(), usual);
  await choice.selectOption({ label: 'No bags' });
  assert.equal(await bagLimit.inputValue(), '0', 'the preset fills in its option');
  assert.match(await page.locator('#preset-desc').textContent(), /never cost/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'preset', 'the keyboard stays on the choice');
  // The other options keep their defaults, and stay editable.
  assert.equal(await page.locator('#opt-target').inputValue(), String(spades.options.find((o) => o.name === 'target').default));
  await page.locator('#opt-target').fill('300');

  // Oh Hell's "Quick": only down.
  await page.getByRole('radio', { name: /Oh Hell/ }).check();
  await page.getByLabel('House rules').selectOption({ label: 'Quick' });
  assert.equal(await page.locator('#opt-schedule').inputValue(), 'down');
  // Back to Spades: its choice is remembered.
  await page.getByRole('radio', { name: /Spades/ }).check();
  assert.equal(await page.getByLabel('House rules').inputValue(), String(noBags));
  assert.equal(await page.locator('#opt-bag_limit').inputValue(), '0');

  const created = page.waitForRequest((r) => r.url().endsWith('/api/tables') && r.method() === 'POST');
  await page.locator('#create-table').click();
  const body = (await created).postDataJSON();
  assert.equal(body.variant, 'spades');
  assert.equal(body.options.bag_limit, 0);
  await page.waitForURL(/\/t\//);
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());
  const table = await (await fetch(`${server.url}/api/tables/${encodeURIComponent(id)}`)).json();
  assert.equal(table.options.bag_limit, 0, 'the table plays without bags');
  assert.deepEqual(errors, []);
  await context.close();
});
