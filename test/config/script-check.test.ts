import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingScript } from '../../src/config/script-check.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-script-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'server.js'), '');
  writeFileSync(join(dir, 'hook.mjs'), '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('missingScript: the script a runtime would load, looked for under cwd', () => {
  it.each([
    ['node', ['missing.js'], 0],
    ['/usr/local/bin/node', ['--enable-source-maps', 'build/index.mjs', '--port', '8080'], 1],
    ['python3', ['-u', 'server.py'], 1],
    ['python3.12', ['srv.py'], 0],
    ['deno', ['run', '-A', 'main.ts'], 2],
    ['bun', ['run', 'index.tsx'], 1],
    ['tsx', ['watch.ts'], 0],
    ['node', ['--import', 'hook.mjs', 'gone.cjs'], 2],
  ] as const)('%s %j: the arg at %i is missing', (command, args, index) => {
    expect(missingScript(command, args, dir)).toEqual({ index, file: join(dir, args[index]!) });
  });

  it.each([
    ['a script that exists', 'node', ['src/server.js']],
    ['an absolute script that exists', 'node', ['<dir>/src/server.js']],
    ['inline code', 'node', ['-e', 'require("./x.js")']],
    ['a module by name', 'python3', ['-m', 'pkg.server', 'x.py']],
    ['a URL', 'deno', ['run', 'https://example.com/mod.ts']],
    ['a specifier', 'deno', ['run', 'npm:server.js']],
    ['a flag value', 'node', ['--require=./gone.js', 'src/server.js']],
    ['not a runtime', 'npx', ['-y', 'missing.js']],
    ['an argument of the script, past the first', 'node', ['src/server.js', 'other.js']],
    ['no script-like argument', 'node', ['--version']],
  ] as const)('%s: nothing', (_what, command, args) => {
    const inDir = args.map((a) => a.replace('<dir>', dir));
    expect(missingScript(command, inDir, dir)).toBeUndefined();
  });

  it('a missing preload file is reported too, before the script', () => {
    expect(missingScript('node', ['-r', 'gone-hook.js', 'src/server.js'], dir)).toEqual({
      index: 1,
      file: join(dir, 'gone-hook.js'),
    });
  });
});
