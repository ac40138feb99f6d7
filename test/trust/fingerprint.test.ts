import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  computeFingerprint,
  envValueHash,
  type FingerprintFacts,
  type FingerprintInput,
  fingerprintOfFacts,
  SCRIPT_MAX_BYTES,
} from '../../src/trust/fingerprint.js';

let dir: string;
let bin: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcps-fp-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'srv'), '#!/bin/sh\necho one\n');
  chmodSync(join(bin, 'srv'), 0o755);
  writeFileSync(join(dir, 'server.js'), 'console.log(1);\n');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function base(over: Partial<FingerprintInput> = {}): FingerprintInput {
  return {
    id: 'files',
    command: 'srv',
    args: ['server.js', '--root', '.'],
    cwd: dir,
    env: { MODE: 'dev' },
    ...over,
  };
}

const fp = async (input: FingerprintInput, pathEnv = bin) =>
  (await computeFingerprint(input, { pathEnv })).fingerprint;

describe('computeFingerprint', () => {
  it('is stable across calls and across env key order', async () => {
    const a = await fp(base({ env: { A: '1', B: '2' } }));
    expect(await fp(base({ env: { A: '1', B: '2' } }))).toBe(a);
    expect(await fp(base({ env: { B: '2', A: '1' } }))).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with each input', async () => {
    const seen = new Set([await fp(base())]);
    const variants: FingerprintInput[] = [
      base({ command: join(bin, 'srv') }),
      base({ args: ['server.js', '--root', '..'] }),
      base({ args: ['server.js', '.', '--root'] }),
      base({ cwd: join(dir, 'bin') }),
      base({ env: { MODE: 'dev', EXTRA: '' } }),
      base({ env: { MODE2: 'dev' } }),
      base({ env: { MODE: 'prod' } }),
      base({ inheritEnv: ['LANG'] }),
      base({ id: 'other' }),
    ];
    for (const v of variants) seen.add(await fp(v));
    expect(seen.size).toBe(variants.length + 1);
  });

  it('changes when the executable file is edited, and records its real path', async () => {
    const before = await computeFingerprint(base(), { pathEnv: bin });
    expect(before.facts.executable).toBe(join(bin, 'srv'));
    writeFileSync(join(bin, 'srv'), '#!/bin/sh\necho two\n');
    const after = await computeFingerprint(base(), { pathEnv: bin });
    expect(after.facts.executable).toBe(before.facts.executable);
    expect(after.facts.executableSha256).not.toBe(before.facts.executableSha256);
    expect(after.fingerprint).not.toBe(before.fingerprint);
  });

  it('changes when a script named by an arg is edited', async () => {
    const before = await computeFingerprint(base(), { pathEnv: bin });
    expect(before.facts.scripts).toEqual([
      {
        index: 0,
        arg: 'server.js',
        path: join(dir, 'server.js'),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    writeFileSync(join(dir, 'server.js'), 'console.log(2);\n');
    const after = await computeFingerprint(base(), { pathEnv: bin });
    expect(after.fingerprint).not.toBe(before.fingerprint);
  });

  it('checks only the first 8 args for scripts, and skips directories', async () => {
    const pad = ['.', 'a', 'b', 'c', 'd', 'e', 'f'];
    const eighth = await computeFingerprint(base({ args: [...pad, 'server.js'] }), { pathEnv: bin });
    expect(eighth.facts.scripts.map((s) => s.index)).toEqual([7]);
    const ninth = await computeFingerprint(base({ args: [...pad, 'g', 'server.js'] }), { pathEnv: bin });
    expect(ninth.facts.scripts).toEqual([]);
  });

  it('leaves data files the server writes out of the fingerprint (only the first arg or code files count)', async () => {
    const before = await computeFingerprint(base({ args: ['server.js', '--pid-file', 'pid.json'] }), {
      pathEnv: bin,
    });
    writeFileSync(join(dir, 'pid.json'), '{"pid":1}');
    const after = await computeFingerprint(base({ args: ['server.js', '--pid-file', 'pid.json'] }), {
      pathEnv: bin,
    });
    expect(after.fingerprint).toBe(before.fingerprint);
    expect(after.facts.scripts.map((s) => s.arg)).toEqual(['server.js']);
  });

  it('records a script over 64 MiB without hashing it', async () => {
    const big = join(dir, 'big.js');
    writeFileSync(big, '');
    truncateSync(big, SCRIPT_MAX_BYTES + 1); // sparse: costs no disk
    const { facts } = await computeFingerprint(base({ args: ['big.js'] }), { pathEnv: bin });
    expect(facts.scripts).toEqual([{ index: 0, arg: 'big.js', path: big, sha256: null }]);
  });

  it('resolves like execvp: first executable in PATH order, empty entry = cwd, slash = relative to cwd', async () => {
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'srv'), 'not executable');
    const first = await computeFingerprint(base(), { pathEnv: `${other}:${bin}` });
    expect(first.facts.executable).toBe(join(bin, 'srv'));
    const viaCwd = await computeFingerprint(base({ cwd: bin }), { pathEnv: `/nonexistent:` });
    expect(viaCwd.facts.executable).toBe(join(bin, 'srv'));
    const relative = await computeFingerprint(base({ command: './bin/srv' }), { pathEnv: '' });
    expect(relative.facts.executable).toBe(join(bin, 'srv'));
  });

  it('follows symlinks to the real file', async () => {
    const links = join(dir, 'links');
    mkdirSync(links);
    symlinkSync(join(bin, 'srv'), join(links, 'srv'));
    const { facts } = await computeFingerprint(base(), { pathEnv: links });
    expect(facts.executable).toBe(join(bin, 'srv'));
  });

  it('takes the PATH from env when no pathEnv is given', async () => {
    const { facts } = await computeFingerprint(base({ env: { PATH: bin } }));
    expect(facts.executable).toBe(join(bin, 'srv'));
  });

  it('records an unresolvable command as null and still differs from a resolvable one', async () => {
    const missing = await computeFingerprint(base(), { pathEnv: join(dir, 'nowhere') });
    expect(missing.facts.executable).toBeNull();
    expect(missing.facts.executableSha256).toBeNull();
    expect(missing.fingerprint).not.toBe(await fp(base()));
  });

  it('keeps only salted hashes of env values in the facts', async () => {
    const secret = 'hunter2-very-secret';
    const { facts } = await computeFingerprint(base({ env: { TOKEN: secret } }), { pathEnv: bin });
    expect(JSON.stringify(facts)).not.toContain(secret);
    expect(facts.env['TOKEN']).toBe(envValueHash('files', 'TOKEN', secret));
    expect(envValueHash('other', 'TOKEN', secret)).not.toBe(facts.env['TOKEN']);
  });
});

describe('fingerprintOfFacts', () => {
  // The expected digest was computed outside this code: sha256 of sorted-key compact JSON of { format, facts }.
  it('is a fixed function of the facts (the stored format must not drift)', () => {
    const facts: FingerprintFacts = {
      id: 'files',
      command: 'node',
      executable: '/usr/bin/node',
      executableSha256: 'a'.repeat(64),
      args: ['server.js'],
      cwd: '/srv',
      env: { MODE: 'b'.repeat(64) },
      inheritEnv: [],
      scripts: [{ index: 0, arg: 'server.js', path: '/srv/server.js', sha256: 'c'.repeat(64) }],
    };
    expect(fingerprintOfFacts(facts)).toBe(
      '4ffc17d3eee16da1b0f55297179142ee5fbd4f4aa31680b70c0cb324cc9a8f2c',
    );
  });
});
