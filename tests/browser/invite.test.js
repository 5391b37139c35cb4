// The invite link warns when it names this computer only (localhost, 127.x, [::1]): nobody
// else's phone can open it, so the box says how to open Parlor to the home network. The
// deciding function runs in Node; the warning itself in Chromium against the real server, which
// the tests reach at 127.0.0.1.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

import { homeNetworkExample, onlyThisComputer } from '../../web/table/invite.js';
import { screenshot, scrollsSideways, useServerAndBrowser } from './lib/harness.js';
import { createByApi, sitByInvite } from './lib/play.js';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

test('links to this computer only are told apart from links others can open', () => {
  for (const url of [
    'http://127.0.0.1:8080/t/x', 'http://localhost:8080/t/x', 'http://LOCALHOST/t/x',
    'http://[::1]:8080/t/x', 'https://127.1.2.3/t/x', 'http://parlor.localhost:8080/t/x',
    'http://[::ffff:127.0.0.1]:8080/t/x',
  ]) {
    assert.equal(onlyThisComputer(url), true, url);
  }
  for (const url of [
    'http://192.168.1.20:8080/t/x', 'http://10.0.0.5/t/x', 'https://cards.example.org/t/x',
    'http://my-laptop.local:8080/t/x', 'http://[fe80::1]:8080/t/x', 'http://128.0.0.1/t/x',
    'http://localhost.example.org/t/x', 'not a url',
  ]) {
    assert.equal(onlyThisComputer(url), false, url);
  }
});

test('the example address keeps the port of the link', () => {
  assert.equal(homeNetworkExample('http://127.0.0.1:8080/t/x'), 'http://192.168.1.20:8080');
  assert.equal(homeNetworkExample('http://localhost/t/x'), 'http://192.168.1.20');
  assert.equal(homeNetworkExample('https://localhost:8443/sub/t/x'), 'https://192.168.1.20:8443');
});

let browser;
let server;
useServerAndBrowser((s, b) => { server = s; browser = b; });

test('served from 127.0.0.1, the invite box warns that the link works on this computer only', async () => {
  // (bypassCSP: the server's policy would refuse axe-core's script tag.)
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, bypassCSP: true });
  const page = await context.newPage();
  const { id } = await createByApi(server.url, { variant: 'hearts' });
  await sitByInvite(page, `${server.url}/t/${id}`, 'Ann', 0);
  const link = page.locator('#invite-link');
  assert.equal(await link.inputValue(), `${server.url}/t/${id}`);
  const note = page.locator('#invite-local');
  await note.waitFor();
  assert.equal(await note.getAttribute('role'), 'note');
  assert.equal(await link.getAttribute('aria-describedby'), 'invite-local', 'read out with the link');
  const text = await note.innerText();
  assert.match(text, /only works on this computer/);
  assert.match(text, /--addr 0\.0\.0\.0:8080/);
  assert.match(text, /PARLOR_BIND=0\.0\.0\.0 docker compose up -d/);
  assert.ok(text.includes(`http://192.168.1.20:${new URL(server.url).port}`), text);
  // Next to the link, inside the same box, and the phone's page does not scroll sideways.
  assert.equal(await page.locator('.invite #invite-local').count(), 1);
  assert.equal(await scrollsSideways(page), false);
  await page.addScriptTag({ path: axePath });
  const problems = await page.evaluate(async () => {
    const result = await window.axe.run('.invite', { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.help}`);
  });
  assert.deepEqual(problems, []);
  await screenshot(page, 'invite-local-warning');
  await context.close();
});
