// The page asks for every module it will import at once (`<link rel="modulepreload">` in
// index.html) rather than discovering them one import after another: the list must name
// exactly the modules app.js reaches, so it cannot drift as modules come and go. Plain Node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { rootDir } from './lib/harness.js';

const webDir = path.join(rootDir, 'web');

/** The modules app.js imports, directly or through others, as paths under web/. */
function reached(start = 'app.js') {
  const seen = new Set();
  const todo = [start];
  while (todo.length) {
    const module = todo.pop();
    if (seen.has(module)) continue;
    seen.add(module);
    const source = readFileSync(path.join(webDir, module), 'utf8');
    for (const m of source.matchAll(/^import [^;]*? from '(\.[^']+)';/gms)) {
      todo.push(path.posix.normalize(path.posix.join(path.posix.dirname(module), m[1])));
    }
  }
  seen.delete(start);
  return [...seen].sort();
}

test('index.html preloads exactly the modules the page imports', () => {
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]).sort();
  const modules = reached();
  assert.ok(modules.length > 40 && modules.includes('i18n/pl.js') && modules.includes('table/hand.js'), modules.join(' '));
  assert.deepEqual(preloaded, modules);
});
