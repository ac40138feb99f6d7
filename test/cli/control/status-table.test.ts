import { describe, expect, it } from 'vitest';
import { describeExit, renderStatusTable } from '../../../src/cli/control/status-table.js';
import type { ServerStatus } from '../../../src/supervisor/types.js';

const NOW = 1_000_000;
const rows: ServerStatus[] = [
  {
    id: 'notes',
    state: 'ready',
    pid: 4242,
    restarts: 0,
    since: NOW - 65_000,
    tools: 3,
    containment: 'cgroup',
  },
  {
    id: 'flaky',
    state: 'backoff',
    restarts: 2,
    since: NOW - 500,
    tools: 0,
    lastExit: { code: 1, signal: null, reason: 'exited', stderrTail: '', at: NOW - 2000 },
  },
];

describe('renderStatusTable', () => {
  it('aligns a header and one line per server: id, state, pid, restarts, uptime, tools, containment, last exit', () => {
    expect(renderStatusTable(rows, NOW, { width: 120, colour: false })).toEqual([
      'ID     STATE    PID   RESTARTS  UPTIME  TOOLS  CONTAINED  LAST EXIT',
      'notes  ready    4242  0         1m05s   3      cgroup     -',
      'flaky  backoff  -     2         -       0      -          code 1 exited, 2s ago',
    ]);
  });

  it('cuts lines to the terminal width so nothing wraps', () => {
    const lines = renderStatusTable(rows, NOW, { width: 30, colour: false });
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(29);
    expect(lines[2]!.endsWith('…')).toBe(true);
  });

  it('colours only the state cell', () => {
    const [, ready] = renderStatusTable(rows, NOW, { width: 120, colour: true });
    expect(ready).toBe('notes  \x1b[32mready\x1b[0m    4242  0         1m05s   3      cgroup     -');
  });
});

describe('describeExit', () => {
  it('names the signal when there is one', () => {
    const row: ServerStatus = {
      ...rows[0]!,
      lastExit: { code: null, signal: 'SIGKILL', reason: 'wedged', stderrTail: '', at: NOW - 1000 },
    };
    expect(describeExit(row, NOW)).toBe('SIGKILL wedged, 1s ago');
  });

  it('says why a spawn failed, from the exit data', () => {
    const spawnError = { code: 'ENOENT', command: 'nope', cwd: '/srv', searched: '/usr/bin:/bin' };
    const row: ServerStatus = {
      ...rows[0]!,
      lastExit: {
        code: null,
        signal: null,
        reason: 'spawn_failed',
        stderrTail: '',
        at: NOW - 1000,
        spawnError,
      },
    };
    expect(describeExit(row, NOW)).toBe(
      'spawn failed: command "nope" not found on PATH (searched: /usr/bin:/bin), 1s ago',
    );
  });
});
