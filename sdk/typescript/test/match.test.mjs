// The package as a stranger gets it: `npm pack` makes the tarball, a fresh project installs it
// with `npm install parlor-protocol-<version>.tgz` (and so its dependency, ws), a TypeScript
// file there type-checks against the installed types, and the example bot, run from the
// installed package, plays a whole match against a real `parlor serve` (the debug build, or
// $PARLOR_BIN): it creates a Hearts table (then a Spades, an Oh Hell, a Euchre and a Bridge one), fills it
// with built-in bots, passes, bids, calls, discards, answers claims and plays every prompt, and ends with the
// match. The loops are
// bounded by message counts, not by time.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PARLOR =
  process.env.PARLOR_BIN ?? fileURLToPath(new URL('../../../target/debug/parlor', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** A scratch directory: the tarball and a project that installed it. */
let scratch = '';
/** The project that installed the tarball. */
let app = '';
/** What `npm pack` reported: the tarball's name and files. */
let packed = /** @type {{ filename: string, files: { path: string }[] }} */ ({ filename: '', files: [] });

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'parlor-protocol-'));
  const out = execFileSync(NPM, ['pack', '--json', '--pack-destination', scratch], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
  });
  packed = JSON.parse(out)[0];
  app = join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  execFileSync(
    NPM,
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(scratch, packed.filename)],
    { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] },
  );
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('the tarball holds the types, the example bot and the README, and nothing else of ours', () => {
  const files = packed.files.map((f) => f.path).sort();
  assert.deepEqual(files, ['README.md', 'examples/bot.mjs', 'package.json', 'protocol.d.ts']);
  assert.match(packed.filename, /^parlor-protocol-\d+\.\d+\.\d+\.tgz$/);
});

test('a TypeScript project type-checks against the installed package', () => {
  writeFileSync(
    join(app, 'use.ts'),
    "import type { ClientMsg, ServerMsg } from 'parlor-protocol';\n" +
      "type YourTurn = Extract<ServerMsg, { type: 'your_turn' }>;\n" +
      'export function answer(turn: YourTurn): ClientMsg | null {\n' +
      "  return turn.legal.type === 'play' ? { type: 'play', card: turn.legal.cards[0], seq: turn.seq } : null;\n" +
      '}\n',
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        noEmit: true, strict: true, module: 'nodenext', moduleResolution: 'nodenext', types: [],
        // Only resolving and using the types is checked here (types.test.mjs checks the file itself).
        skipLibCheck: true,
      },
      files: ['use.ts'],
    }),
  );
  const run = spawnSync(process.execPath, [TSC, '-p', app], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

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

/**
 * Runs the example bot installed from the package against a fresh `parlor serve` with `args`;
 * resolves with what it printed once it exited successfully.
 * @param {string[]} args
 * @returns {Promise<{ out: string, err: string }>}
 */
async function playMatch(args) {
  assert.ok(existsSync(PARLOR), `build the server first (cargo build): ${PARLOR}`);
  const botFile = join(app, 'node_modules', 'parlor-protocol', 'examples', 'bot.mjs');
  assert.ok(existsSync(botFile), `${botFile} is installed`);
  const { url, server } = await serve();
  try {
    const bot = spawn(process.execPath, [botFile, '--url', url, ...args], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    bot.stdout.on('data', (c) => (out += c));
    bot.stderr.on('data', (c) => (err += c));
    const code = await new Promise((resolve) => bot.on('exit', resolve));
    assert.equal(code, 0, `the bot failed:\n${out}\n${err}`);
    assert.doesNotMatch(err, /refused/, 'every move it made was accepted');
    return { out, err };
  } finally {
    server.kill('SIGTERM');
  }
}

test('the example bot, installed from the package, plays a whole Hearts match against parlor serve', async () => {
  const { out } = await playMatch(['--variant', 'hearts', '--target', '30', '--seed', '7']);
  assert.match(out, /^match over: winners [0-9,]+, totals -?\d+,-?\d+,-?\d+,-?\d+$/m);
});

test('the example bot bids and plays a whole Spades match', async () => {
  const { out } = await playMatch(['--variant', 'spades', '--target', '100', '--seed', '7']);
  assert.match(out, /^match over: winners [0-9,]+, totals -?\d+,-?\d+,-?\d+,-?\d+$/m);
});

test('the example bot bids (never the hook\'s forbidden bid) through a whole Oh Hell match', async () => {
  const options = JSON.stringify({ players: 5, schedule: 'down' });
  const { out } = await playMatch(['--variant', 'ohhell', '--options', options, '--seed', '7']);
  // Five seats, as the option asked: the host filled them all.
  assert.match(out, /^match over: winners [0-9,]+, totals (-?\d+,){4}-?\d+$/m);
});

test('the example bot calls, discards and plays a whole Euchre match', async () => {
  const options = JSON.stringify({ target: 5, defend_alone: true });
  const { out } = await playMatch(['--variant', 'euchre', '--options', options, '--seed', '7']);
  assert.match(out, /^match over: winners [0-9,]+, totals (-?\d+,){3}-?\d+$/m);
  // Partners win together, at the target or past it.
  const [, winners, totals] = /** @type {RegExpMatchArray} */ (
    out.match(/^match over: winners ([0-9,]+), totals ([-0-9,]+)$/m)
  );
  const won = winners.split(',').map(Number);
  const points = totals.split(',').map(Number);
  assert.equal(won.length, 2);
  assert.equal(won[0] % 2, won[1] % 2);
  assert.ok(won.every((seat) => points[seat] >= 5), out);
});

test('the example bot bids and plays a whole Bridge match', async () => {
  const options = JSON.stringify({ hands: 2 });
  const { out } = await playMatch(['--variant', 'bridge', '--options', options, '--seed', '7']);
  // Duplicate scoring: North-South's board scores, East-West their negative.
  const [, totals] = /** @type {RegExpMatchArray} */ (
    out.match(/^match over: winners [0-9,]*, totals ([-0-9,]+)$/m)
  );
  const [north, east, south, west] = totals.split(',').map(Number);
  assert.equal(north, south);
  assert.equal(east, west);
  assert.equal(north, -east);
});
