import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchProblems } from '../../src/config/launch-check.js';
import { readConfig } from '../../src/config/parse-config.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-launch-'));
  // PATH directories: one holding a directory named like the command, one a file of that name without x bits,
  // one the runnable script.
  for (const d of ['asdir', 'plain', 'exec']) mkdirSync(join(dir, d));
  mkdirSync(join(dir, 'asdir', 'srv'));
  writeFileSync(join(dir, 'plain', 'srv'), '#!/bin/sh\nexit 0\n', { mode: 0o644 });
  writeFileSync(join(dir, 'exec', 'srv'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'exec', 'srv'), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a real spawn of `srv` with this PATH does: 'ran', or the error code the system gave. */
function spawnOutcome(pathEnv: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('srv', [], { cwd: dir, env: { PATH: pathEnv }, stdio: 'ignore' });
    child.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    child.on('exit', () => resolve('ran'));
  });
}

/** What check says of a server running `srv` with this PATH: 'ran' when nothing, else the problem's code. */
function checkOutcome(pathEnv: string): string {
  const text = `servers:\n  s:\n    command: srv\n    env: { PATH: ${JSON.stringify(pathEnv)} }\n`;
  const reading = readConfig(text, { source: 'fleet.yaml', baseDir: dir });
  expect(reading.problems).toEqual([]);
  const problems = launchProblems(reading, {});
  expect(problems.every((p) => p.path === 'servers.s.command' && p.line === 3 && p.col === 5)).toBe(true);
  return problems[0]?.code ?? 'ran';
}

describe('launchProblems: the command found as the spawn finds it', () => {
  const at = (...names: string[]) => names.map((n) => join(dir, n)).join(':');
  it.each([
    ['a directory named like the command is passed over', ['asdir', 'exec'], 'ran'],
    ['a file without x bits before a runnable one is passed over', ['plain', 'exec'], 'ran'],
    ['a file without x bits and nothing runnable after it', ['asdir', 'plain'], 'EACCES'],
  ])('%s', async (_what, dirs, expected) => {
    expect(await spawnOutcome(at(...dirs))).toBe(expected);
    expect(checkOutcome(at(...dirs))).toBe(expected);
  });

  it('only a directory named like the command: not found, as the supervised launch says, not EACCES', async () => {
    // execve says EACCES of a directory; the launch's preflight (which check shares) says what is meant.
    expect(await spawnOutcome(at('asdir'))).toBe('EACCES');
    expect(checkOutcome(at('asdir'))).toBe('ENOENT');
  });
});
