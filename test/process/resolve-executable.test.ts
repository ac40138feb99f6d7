import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256File } from '../../src/process/resolve-executable.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('sha256File', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'mcp-sup-sha-'));
    dirs.push(d);
    return d;
  };

  it('reads a file once for digests asked at the same time, and each gets all of it', async () => {
    // A FIFO gives its bytes to one reader only: a second read of it would see none and digest the empty string.
    const fifo = join(dir(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    const asked = Promise.all([sha256File(fifo), sha256File(fifo), sha256File(fifo)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    writeFileSync(fifo, 'one binary, many servers');
    expect(await asked).toEqual(Array(3).fill(sha('one binary, many servers')));
  });

  it('hashes a file again once it changed, and gives null for a file that is not there', async () => {
    const file = join(dir(), 'bin');
    writeFileSync(file, 'v1');
    expect(await sha256File(file)).toBe(sha('v1'));
    writeFileSync(file, 'v2 is longer');
    expect(await sha256File(file)).toBe(sha('v2 is longer'));
    expect(await sha256File(join(dirs[0] as string, 'missing'))).toBeNull();
  });
});
