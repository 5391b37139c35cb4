// The example bot plays a whole match against a real `parlor serve` (the debug build, or
// $PARLOR_BIN): it creates a Hearts table, fills it with built-in bots, passes and plays every
// prompt, and ends with the match. The loops are bounded by message counts, not by time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PARLOR =
  process.env.PARLOR_BIN ?? fileURLToPath(new URL('../../../target/debug/parlor', import.meta.url));

/**
 * Starts the server on a free port; resolves with its URL and the child.
 * @returns {Promise<{ url: string, server: import('node:child_process').ChildProcess }>}
 */
function serve() {
  const server = spawn(PARLOR, ['serve', '--addr', '127.0.0.1:0', '--no-store'], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let log = '';
    const look = (/** @type {Buffer} */ chunk) => {
      log += chunk.toString();
      const found = log.match(/open (http:\/\/127\.0\.0\.1:\d+)\//);
      if (found) resolve({ url: found[1], server });
    };
    server.stdout.on('data', look);
    server.stderr.on('data', look);
    server.on('exit', (code) => reject(new Error(`parlor serve exited (${code}):\n${log}`)));
  });
}

test('the example bot plays a whole Hearts match against parlor serve', async () => {
  assert.ok(existsSync(PARLOR), `build the server first (cargo build): ${PARLOR}`);
  const { url, server } = await serve();
  try {
    const bot = spawn(
      process.execPath,
      [
        fileURLToPath(new URL('../examples/bot.mjs', import.meta.url)),
        '--url', url, '--variant', 'hearts', '--target', '30', '--seed', '7',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    bot.stdout.on('data', (c) => (out += c));
    bot.stderr.on('data', (c) => (err += c));
    const code = await new Promise((resolve) => bot.on('exit', resolve));
    assert.equal(code, 0, `the bot failed:\n${out}\n${err}`);
    assert.match(out, /^match over: winners [0-9,]+, totals -?\d+,-?\d+,-?\d+,-?\d+$/m);
    assert.doesNotMatch(err, /refused/, 'every move it made was accepted');
  } finally {
    server.kill('SIGTERM');
  }
});
