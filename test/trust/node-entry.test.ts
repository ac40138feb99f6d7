import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import type { ApprovalRequest } from '../../src/supervisor/types.js';
import { computeFingerprint } from '../../src/trust/fingerprint.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { FIXTURE } from '../supervisor/helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcps-node-entry-'));
});
const f = fleets();
afterEach(async () => {
  await f.reap();
  rmSync(dir, { recursive: true, force: true });
  expect(liveGroups()).toEqual([]);
});

const write = (rel: string, text: string) => {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), text);
};

/** The fingerprint of `node <args>` in the temp dir. */
async function fp(args: string[]): Promise<string> {
  const r = await computeFingerprint({ id: 's', command: process.execPath, args, cwd: dir, env: {} });
  return r.fingerprint;
}

/** Asserts that editing `file` changes the fingerprint of `node <args>`. */
async function editChanges(args: string[], file: string): Promise<void> {
  const before = await fp(args);
  expect(await fp(args)).toBe(before);
  write(file, `// edited ${Math.random()}\n`);
  expect(await fp(args), `editing ${file} under node ${args.join(' ')}`).not.toBe(before);
}

describe('script fingerprint of node command lines', () => {
  it('hashes an entry given without its extension, also after options', async () => {
    write('srv.js', 'console.log(1)\n');
    await editChanges(['srv'], 'srv.js');
    write('plain', 'console.log(1)\n');
    await editChanges(['--no-warnings', 'plain', '--port', '1'], 'plain');
  });

  it('hashes the package main of `node .` and `node dir`, and the package.json that names it', async () => {
    write('package.json', '{"main":"lib/start.js"}');
    write('lib/start.js', 'console.log(1)\n');
    await editChanges(['.'], 'lib/start.js');
    await editChanges(['.'], 'package.json');
    write('tool/index.js', 'console.log(1)\n');
    await editChanges(['tool'], 'tool/index.js');
    write('app/package.json', '{"main":"main"}');
    write('app/main.js', 'console.log(1)\n');
    await editChanges(['--enable-source-maps', 'app'], 'app/main.js');
  });

  it.each([
    [['--import', './pre.mjs', 'srv.js'], 'pre.mjs'],
    [['--import=./pre.mjs', 'srv.js'], 'pre.mjs'],
    [['-r', './pre.cjs', 'srv.js'], 'pre.cjs'],
    [['--require', 'pre.cjs', 'srv.js'], 'pre.cjs'],
    [['--require=./pre.cjs', 'srv.js'], 'pre.cjs'],
    [['--loader', './hooks.mjs', 'srv.js'], 'hooks.mjs'],
    [['--experimental-loader=./hooks.mjs', 'srv.js'], 'hooks.mjs'],
    [['-r', 'preload-pkg', 'srv.js'], 'node_modules/preload-pkg/index.js'],
  ])('hashes the preload of node %j', async (args, file) => {
    write('srv.js', 'console.log(1)\n');
    write(file, 'console.log(0)\n');
    await editChanges(args, file);
  });

  it('still hashes the entry after a preload taking the next arg', async () => {
    write('pre.cjs', '');
    write('main', 'console.log(1)\n');
    await editChanges(['-r', './pre.cjs', 'main'], 'main');
  });
});

describe('the trust gate and a node preload', () => {
  it('asks again after a preload named without its extension is edited', async () => {
    write('pre.js', 'globalThis.preloaded = 1;\n');
    const store = join(dir, 'trust.json');
    const server = fixtureServer('pre', [], { args: ['-r', './pre', FIXTURE], cwd: dir });
    const asked: ApprovalRequest[] = [];
    const approve = (r: ApprovalRequest) => {
      asked.push(r);
      return true;
    };
    const first = f.create(fleetConfig([server]), { approve, trustStore: store });
    await first.sup.start();
    expect(first.sup.status()[0]!.state).toBe('ready');
    await first.sup.stop();
    expect(asked.map((r) => r.changes)).toEqual([['first approval']]);

    write('pre.js', 'globalThis.preloaded = 2;\n');
    const second = f.create(fleetConfig([server]), { approve, trustStore: store });
    await second.sup.start();
    expect(asked.map((r) => r.changes)).toEqual([['first approval'], ['script ./pre content changed']]);
  });
});
