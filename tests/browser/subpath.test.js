// Parlor under a sub-path behind a real reverse proxy (Debian's nginx, with the WebSocket
// upgrade as docs/DEPLOY.md has it): the lobby, an invite link and a game all stay under
// /parlor/, and the page breaks none of the server's Content-Security-Policy.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort, launchBrowser, startParlor } from './lib/harness.js';
import { actOnce, createFromLobby, fillWithBots, startMatch, until } from './lib/play.js';

const NGINX = process.env.NGINX_BIN || '/usr/sbin/nginx';
const skip = existsSync(NGINX) ? false : `${NGINX} is missing: apt-get install nginx`;

let browser;
let server;
let proxy;

/** nginx on a free port, proxying /parlor/ to `upstream`; returns `{ url, stop }`. */
async function startNginx(upstream) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parlor-nginx-'));
  mkdirSync(path.join(dir, 'tmp'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(conf, `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  server {
    listen 127.0.0.1:${port};
    absolute_redirect off;
    location = /parlor { return 301 /parlor/; }
    location /parlor/ {
      proxy_pass ${upstream}/;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 1h;
    }
  }
}
`);
  const child = spawn(NGINX, ['-p', dir, '-e', `${dir}/error.log`, '-c', conf, '-g', 'daemon off; master_process off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (d) => { output += d; });
  let exited = false;
  child.on('exit', () => { exited = true; });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => new Promise((resolve) => {
    const done = () => { rmSync(dir, { recursive: true, force: true }); resolve(); };
    if (exited) return done();
    child.once('exit', done);
    child.kill('SIGTERM');
  });
  for (let i = 0; i < 200 && !exited; i += 1) {
    try {
      if ((await fetch(`${url}/parlor/healthz`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`nginx did not come up:\n${output}`);
}

before(async () => {
  if (skip) return;
  server = await startParlor();
  proxy = await startNginx(server.url);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await proxy?.stop();
  await server?.stop();
});

test('the client works under /parlor/ behind nginx, within its Content-Security-Policy', { skip }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const errors = [];
  const urls = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => urls.push(r.url()));
  page.on('websocket', (ws) => urls.push(ws.url()));

  const base = `${proxy.url}/parlor/`;
  await createFromLobby(page, base, 'hearts', 'Grandma');
  assert.match(page.url(), /\/parlor\/t\/[^/]+$/, 'the new table opens under the sub-path');
  const invite = await page.locator('#invite-link').inputValue();
  assert.equal(invite, page.url(), 'the invite link keeps the sub-path');
  await fillWithBots(page, 'heuristic');
  await startMatch(page);
  await page.locator('#pass-button').waitFor();
  assert.equal(await actOnce(page), 'passed', 'moves go through the proxied WebSocket');

  // A reload of the invite link (the page one level down) finds its files and its seat.
  await page.reload();
  await page.locator('.felt').waitFor();
  await until(async () => (await page.locator('.hand .card').count()) > 0, 10000, 'the hand to show again');

  const outside = urls.filter((u) => !u.startsWith(base) && !u.startsWith(base.replace('http', 'ws')) && !u.startsWith('data:'));
  assert.deepEqual(outside, [], 'every request stays under the sub-path');
  assert.ok(urls.some((u) => u === `${base.replace('http', 'ws')}ws`), `the game socket is proxied: ${urls.join(' ')}`);
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no Content-Security-Policy violation');
  assert.deepEqual(errors, []);
  await context.close();
});
