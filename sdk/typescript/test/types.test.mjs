// The example bot type-checks against the generated types (tsc --checkJs, strict): a message
// it builds or reads that the schema does not allow fails here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('the example bot type-checks against protocol.d.ts', () => {
  const dir = fileURLToPath(new URL('..', import.meta.url));
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const run = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

test('a move the schema does not allow is a type error', async () => {
  const { writeFileSync, rmSync, mkdtempSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'parlor-types-'));
  const types = fileURLToPath(new URL('../protocol.d.ts', import.meta.url));
  const file = join(dir, 'bad.ts');
  writeFileSync(
    file,
    `import type { ClientMsg } from ${JSON.stringify(types.replace(/\.d\.ts$/, '.js'))};\n` +
      `const move: ClientMsg = { type: 'play', cards: ['QS'] };\nexport { move };\n`,
  );
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const run = spawnSync(
    process.execPath,
    [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', file],
    { encoding: 'utf8' },
  );
  rmSync(dir, { recursive: true, force: true });
  assert.notEqual(run.status, 0, 'a play with `cards` instead of `card` must not type-check');
  assert.match(run.stdout, /'cards' does not exist/);
});
