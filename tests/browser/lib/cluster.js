// A Parlor cluster for the browser tests: several `parlor serve` nodes on one private Postgres
// (./postgres.js) and Debian's nginx in front of them, round-robin, passing the WebSocket upgrade
// on: the same shape as tests/tests/cluster_clients.rs. The balancer knows nothing of tables, so
// a browser's requests and sockets land on any node, and the nodes relay to a table's owner.
//
// nginx runs unprivileged, in the foreground, without a master process, from a temporary
// directory and a config written here, on a free port of 127.0.0.1.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort, startParlor } from './harness.js';
import { postgresBin, startPostgres } from './postgres.js';

/** The nginx binary: env NGINX_BIN, else Debian's. */
export const NGINX = process.env.NGINX_BIN || '/usr/sbin/nginx';

/** Why a cluster cannot run here (what to install), or false when it can. */
export function clusterSkipReason() {
  if (!postgresBin()) return 'PostgreSQL is missing (initdb and pg_ctl): apt-get install postgresql';
  if (!existsSync(NGINX)) return `${NGINX} is missing: apt-get install nginx`;
  return false;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * nginx balancing round-robin over `upstreams` (base URLs such as `http://127.0.0.1:PORT`);
 * waits (at most 10 s) until `/healthz` answers through it. Returns `{ url, stop }`.
 */
export async function startBalancer(upstreams) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parlor-browser-lb-'));
  mkdirSync(path.join(dir, 'tmp'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  const servers = upstreams.map((u) => `    server ${new URL(u).host};`).join('\n');
  writeFileSync(conf, `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream parlor {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://parlor;
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
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (d) => { output += d; });
  let exited = false;
  child.on('exit', () => { exited = true; });
  const url = `http://127.0.0.1:${port}`;
  const errors = () => {
    try {
      return output + readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return output;
    }
  };
  const stop = () => new Promise((resolve) => {
    const done = () => { rmSync(dir, { recursive: true, force: true }); resolve(); };
    if (exited) return done();
    child.once('exit', done);
    child.kill('SIGTERM');
    setTimeout(() => { if (!exited) child.kill('SIGKILL'); }, 3000).unref();
  });
  for (let i = 0; i < 200 && !exited; i += 1) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, stop, errors };
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  const text = errors();
  await stop();
  throw new Error(`nginx did not come up:\n${text}`);
}

/** The secret the test cluster's nodes share (`--cluster-secret`). */
const SECRET = 'browser-test-secret';

/**
 * A private Postgres, `ids.length` nodes on it (each `--node-id ID --advertise ITS_URL
 * --cluster-secret ...`, with `--lease-ms leaseMs`) and nginx in front. Returns `{ url, nodes,
 * stop }`: `url` is the balancer's single address; each node is `startParlor`'s answer with its
 * `id`; `stop` stops everything still running.
 */
export async function startCluster({ ids = ['a', 'b', 'c'], leaseMs = 2000 } = {}) {
  const pg = await startPostgres();
  const nodes = [];
  let lb;
  const stop = async () => {
    await lb?.stop();
    await Promise.all(nodes.map((n) => n.stop()));
    await pg.stop();
  };
  try {
    for (const id of ids) {
      const node = await startParlor({
        args: (url) => ['--store', pg.url, '--node-id', id, '--advertise', url,
          '--cluster-secret', SECRET, '--lease-ms', String(leaseMs)],
      });
      nodes.push({ ...node, id });
    }
    lb = await startBalancer(nodes.map((n) => n.url));
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: lb.url, nodes, stop, postgresLog: pg.log, balancerErrors: lb.errors };
}

/**
 * The cluster part of a node's `/api/stats`, or null when it does not answer. Asked as a node
 * of the cluster (with its secret): to anyone else the stats name no table.
 */
export async function clusterStats(node) {
  try {
    const res = await fetch(`${node.url}/api/stats`, {
      headers: { 'x-parlor-cluster-secret': SECRET }, signal: AbortSignal.timeout(5000),
    });
    return res.ok ? (await res.json()).cluster : null;
  } catch {
    return null;
  }
}

/** The node of `nodes` owning table `id` now (as the nodes' `/api/stats` say), or null. */
export async function ownerOf(nodes, id) {
  for (const node of nodes) {
    const stats = await clusterStats(node);
    if (stats?.owned?.includes(id)) return node;
  }
  return null;
}

/** How many WebSockets the nodes have relayed to a table's owner (their `/metrics`). */
export async function relayedCount(nodes) {
  let total = 0;
  for (const node of nodes) {
    try {
      const text = await (await fetch(`${node.url}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
      const line = text.split('\n').find((l) => l.startsWith('parlor_cluster_relayed_total'));
      total += line ? Number(line.split(/\s+/).at(-1)) : 0;
    } catch {
      // a node that is gone counts nothing
    }
  }
  return total;
}
