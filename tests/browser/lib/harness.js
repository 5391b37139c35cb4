// Shared pieces of the browser tests: Debian's Chromium through playwright-core, the real
// `parlor serve` on a free loopback port, and a static server of web/ for scripted-protocol tests.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { after, before } from 'node:test';

import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** tests/browser */
export const testDir = path.resolve(here, '..');
/** The repository root. */
export const rootDir = path.resolve(testDir, '..', '..');
/** Where screenshots go (gitignored). */
export const artifactsDir = path.join(testDir, 'artifacts');

/** The browser flags the project uses everywhere. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Launches Debian's Chromium; never a downloaded browser. With PARLOR_WEB_FROM_DISK=1 (a help
 * while working on the client, never for a real run) every page takes the client's scripts and
 * style sheet from web/ as it is now (or from the directory PARLOR_WEB_FROM_DISK names) rather
 * than from the server, whose copy is the one it was built with.
 */
export async function launchBrowser() {
  const executablePath = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`${executablePath} is missing: apt-get install chromium`);
  }
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  if (process.env.PARLOR_WEB_FROM_DISK) {
    const from = process.env.PARLOR_WEB_FROM_DISK;
    const webDir = from === '1' ? path.join(rootDir, 'web') : path.resolve(from);
    const newContext = browser.newContext.bind(browser);
    browser.newContext = async (...args) => {
      const context = await newContext(...args);
      await context.route(/\.(js|css)(\?.*)?$/, (route) => {
        const file = path.join(webDir, path.normalize(new URL(route.request().url()).pathname));
        if (!file.startsWith(webDir) || !existsSync(file)) return route.continue();
        return route.fulfill({ body: readFileSync(file), contentType: TYPES[path.extname(file)] });
      });
      return context;
    };
  }
  return browser;
}

/** A free TCP port on 127.0.0.1 (bind to 0, read it, release it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the real server binary (env PARLOR_BIN, default target/debug/parlor) on a free port and
 * waits for `/healthz`, storing its tables in a fresh temporary directory; `args` are added to
 * `parlor serve`'s (e.g. `['--no-store']`), or made from the server's URL when `args` is a
 * function (e.g. `(url) => ['--advertise', url]`). Returns `{ url, pid, stop, kill, output }`:
 * `stop` asks it to shut down (SIGTERM), `kill` kills it at once (SIGKILL), as a crash would.
 */
export async function startParlor({ args = [] } = {}) {
  const bin = process.env.PARLOR_BIN || path.join(rootDir, 'target', 'debug', 'parlor');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: cargo build -p parlor-server`);
  let lastError;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // Its own working directory, so anything the server writes there is thrown away after.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parlor-browser-'));
    // Every page of a test file comes from one address: the per-address table quota would
    // refuse a file that opens many tables (it has end-to-end tests of its own).
    const quota = ['--tables-per-ip-per-minute', '0', '--tables-per-ip', '0'];
    const extra = typeof args === 'function' ? args(url) : args;
    const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data', path.join(dataDir, 'data'), ...quota, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: dataDir,
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
    });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    let exited = false;
    child.on('exit', () => {
      exited = true;
      rmSync(dataDir, { recursive: true, force: true });
    });
    for (let i = 0; i < 200 && !exited; i += 1) {
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) {
          return {
            url,
            pid: child.pid,
            output: () => output,
            stop: () => new Promise((resolve) => {
              if (exited) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
              setTimeout(() => { if (!exited) child.kill('SIGKILL'); }, 3000).unref();
            }),
            kill: () => new Promise((resolve) => {
              if (exited) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
          };
        }
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    lastError = new Error(`parlor serve did not come up on ${url}:\n${output}`);
    if (!exited) child.kill('SIGKILL');
  }
  throw lastError;
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/**
 * Serves web/ the way `parlor serve` does (`/` and `/t/{id}` give index.html) plus canned JSON
 * for the API paths in `api` (path -> value, or a function returning it), for tests that script
 * the protocol themselves.
 */
export async function startStatic(api = {}) {
  const webDir = path.join(rootDir, 'web');
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname in api) {
      // A function answers each request itself (and may take its time).
      const entry = api[url.pathname];
      const body = typeof entry === 'function' ? await entry() : entry;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
      return;
    }
    let file = url.pathname === '/' || url.pathname.startsWith('/t/') ? '/index.html' : url.pathname;
    file = path.normalize(file).replace(/^(\.\.[/\\])+/, '');
    const full = path.join(webDir, file);
    if (!full.startsWith(webDir) || !existsSync(full)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"code":"not_found","message":"no such page"}');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(full)] || 'application/octet-stream' });
    // As `parlor serve` does, the page at an invite link has its base one level up.
    const body = readFileSync(full);
    res.end(url.pathname.startsWith('/t/') ? body.toString().replace('<base href="./">', '<base href="../">') : body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => server.close(r)) };
}

/**
 * Replaces the page's WebSocket with a scripted one: what the page sends lands in
 * `window.__sent`; `window.__push(msg)` delivers a server message; `window.__drop()` cuts the
 * connection as a network failure would.
 */
export function fakeSocketScript() {
  window.__sent = [];
  window.__sockets = [];
  class FakeSocket extends EventTarget {
    constructor(url) {
      super();
      this.url = url;
      this.readyState = 0;
      window.__sockets.push(this);
      setTimeout(() => {
        if (this.readyState !== 0) return;
        this.readyState = 1;
        this.dispatchEvent(new Event('open'));
      }, 0);
    }
    send(data) {
      window.__sent.push(JSON.parse(data));
    }
    close() {
      if (this.readyState === 3) return;
      this.readyState = 3;
      this.dispatchEvent(new Event('close'));
    }
  }
  FakeSocket.CONNECTING = 0;
  FakeSocket.OPEN = 1;
  FakeSocket.CLOSING = 2;
  FakeSocket.CLOSED = 3;
  window.WebSocket = FakeSocket;
  const live = () => window.__sockets.filter((s) => s.readyState === 1).pop();
  window.__push = (msg) => live().dispatchEvent(new MessageEvent('message', { data: JSON.stringify(msg) }));
  window.__drop = () => live().close();
}

/** Saves a full-page screenshot under artifacts/. */
export async function screenshot(page, name) {
  mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** True when the page scrolls sideways. */
export async function scrollsSideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1
    || document.body.scrollWidth > window.innerWidth + 1);
}

/**
 * Starts a real Parlor and a browser before this file's tests and stops both after them;
 * `ready(server, browser)` hands them to the file.
 */
export function useServerAndBrowser(ready) {
  let server;
  let browser;
  before(async () => {
    server = await startParlor();
    browser = await launchBrowser();
    ready(server, browser);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
}
