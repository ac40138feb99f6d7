import { describe, expect, it } from 'vitest';
import { eventRecord } from '../../src/cli/output/event-log.js';
import { describeEvent } from '../../src/cli/output/reporter.js';
import { pageEvent, pageRows } from '../../src/inspector/page-data.js';
import type { SpawnError } from '../../src/process/preflight.js';
import type { SupervisorEvent } from '../../src/supervisor/types.js';

const cases: Array<[SpawnError, string]> = [
  [
    { code: 'ENOENT', command: 'nope', cwd: '/srv', searched: '/usr/bin:/bin' },
    'command "nope" not found on PATH (searched: /usr/bin:/bin)',
  ],
  [
    { code: 'ENOENT', command: './srv.js', cwd: '/srv' },
    'command ./srv.js does not exist (relative to cwd /srv)',
  ],
  [
    { code: 'EACCES', command: './srv.sh', cwd: '/srv', file: '/srv/srv.sh' },
    'command "./srv.sh" found at /srv/srv.sh but it is not executable (EACCES)',
  ],
  [
    { code: 'CWD_MISSING', command: 'node', cwd: '/gone', detail: 'ENOENT' },
    'cwd /gone cannot be used: it does not exist',
  ],
];

const exit = (spawnError: SpawnError): SupervisorEvent => ({
  type: 'exit',
  server: 'x',
  code: null,
  signal: null,
  reason: 'spawn_failed',
  stderrTail: '',
  at: 1,
  spawnError,
});

describe('a failed spawn, rendered once at each edge', () => {
  it.each(cases)('%o reads: %s', (spawnError, text) => {
    expect(eventRecord(exit(spawnError)).fields).toMatchObject({ error: spawnError.code, why: text });
    expect(describeEvent(exit(spawnError))).toBe(`x could not be started: ${text}`);
    expect(pageEvent(exit(spawnError))).toMatchObject({ spawnError, why: text });
    const row = { id: 'x', state: 'failed' as const, restarts: 0, since: 0, tools: 0 };
    const lastExit = { code: null, signal: null, reason: 'spawn_failed', stderrTail: '', at: 1, spawnError };
    expect(pageRows([{ ...row, lastExit }])).toEqual([{ ...row, lastExit: { ...lastExit, why: text } }]);
  });
});
