// A real, private PostgreSQL for the browser tests of a cluster, made the way the Rust tests make
// theirs (tests/src/postgres.rs): Debian's `initdb` and `pg_ctl` (on PATH, else the newest
// /usr/lib/postgresql/*/bin), a cluster in a temporary directory, on a free port of 127.0.0.1
// with its socket in that directory, stopped by its postmaster's process id. Postgres refuses to
// run as root, so as root the cluster belongs to the `postgres` user (else `nobody`) and its
// commands run through `runuser`.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort } from './harness.js';

/** The role the servers connect as. */
const ROLE = 'parlor';

/** The directory holding `initdb` and `pg_ctl`, or null when PostgreSQL is not installed. */
export function postgresBin() {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? path.join(root, versions.at(-1), 'bin') : null;
}

/** `postgres` when that user exists, else `nobody`. */
function unprivilegedUser() {
  return spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status === 0 ? 'postgres' : 'nobody';
}

/**
 * Makes and starts a private Postgres (waiting until it takes connections). Returns
 * `{ url, stop, log }`: `url` is its `postgres` database as the role `parlor`, with no password
 * (trust, on loopback only); `stop` shuts it down and removes its directory. Throws when
 * PostgreSQL is not installed (see `postgresBin`).
 */
export async function startPostgres() {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is missing: apt-get install postgresql');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parlor-browser-pg-'));
  mkdirSync(path.join(dir, 'socket'));
  const user = process.getuid?.() === 0 ? unprivilegedUser() : null;
  if (user) execFileSync('chown', ['-R', user, dir]);
  const run = (program, args) => {
    const exe = path.join(bin, program);
    const [cmd, argv] = user ? ['runuser', ['-u', user, '--', exe, ...args]] : [exe, args];
    const out = spawnSync(cmd, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${program} failed (${out.status ?? out.error}):\n${out.stdout}\n${out.stderr}`);
  };
  const data = path.join(dir, 'data');
  const port = await freePort();
  const stop = async () => {
    let pid;
    try {
      pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      pid = 0;
    }
    if (pid > 0) {
      // Fast shutdown (connections are cut), waiting a bounded time before killing it.
      try { process.kill(pid, 'SIGINT'); } catch { /* gone already */ }
      const alive = () => existsSync(`/proc/${pid}`);
      for (let i = 0; i < 300 && alive(); i += 1) await new Promise((r) => setTimeout(r, 100));
      if (alive()) {
        try { process.kill(pid, 'SIGKILL'); } catch { /* gone meanwhile */ }
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', data, '-U', ROLE, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    const options = `-p ${port} -k ${path.join(dir, 'socket')} -c listen_addresses=127.0.0.1 `
      + '-c fsync=off -c full_page_writes=off -c max_connections=200';
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: `postgres://${ROLE}@127.0.0.1:${port}/postgres`,
    stop,
    log: () => {
      try {
        return readFileSync(path.join(dir, 'log'), 'utf8');
      } catch {
        return '';
      }
    },
  };
}
