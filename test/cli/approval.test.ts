import { describe, expect, it } from 'vitest';
import { createApprove, describeRequest, displayCommand } from '../../src/cli/approval.js';
import type { ApprovalRequest } from '../../src/supervisor/types.js';

const request = (
  server: string,
  over: { kind?: ApprovalRequest['kind']; tools?: string[]; changes?: string[] } = {},
): ApprovalRequest => ({
  kind: 'server',
  server,
  fingerprint: 'f'.repeat(64),
  command: 'node',
  executable: '/usr/bin/node',
  args: ['server.js', '--name', 'two words'],
  cwd: '/srv',
  env: { TOKEN: '***', MODE: 'dev' },
  changes: [],
  ...over,
});

describe('createApprove', () => {
  it('approves what --trust names and refuses the rest without a terminal, with the flag to use', async () => {
    const refused: string[] = [];
    const approve = createApprove({
      trustAll: false,
      trustIds: ['a'],
      onRefuse: (_r, hint) => refused.push(hint),
    });
    expect(await approve(request('a'))).toBe(true);
    expect(await approve(request('b'))).toBe(false);
    expect(refused).toEqual(["command line of server 'b' not trusted; pass --trust b or --trust-all"]);
  });

  it('approves everything with --trust-all, without asking', async () => {
    let asked = 0;
    const approve = createApprove({
      trustAll: true,
      trustIds: [],
      ask: async () => {
        asked++;
        return false;
      },
    });
    expect(await approve(request('x'))).toBe(true);
    expect(asked).toBe(0);
  });

  it('asks one question at a time, in order, and a failing prompt is a no', async () => {
    const log: string[] = [];
    const approve = createApprove({
      trustAll: false,
      trustIds: [],
      ask: async (r) => {
        log.push(`ask ${r.server}`);
        await new Promise((res) => setTimeout(res, 20));
        log.push(`done ${r.server}`);
        if (r.server === 'c') throw new Error('closed');
        return r.server === 'a';
      },
    });
    const answers = await Promise.all([approve(request('a')), approve(request('b')), approve(request('c'))]);
    expect(answers).toEqual([true, false, false]);
    expect(log).toEqual(['ask a', 'done a', 'ask b', 'done b', 'ask c', 'done c']);
  });
});

describe('describeRequest', () => {
  it('shows the command line, cwd, env with masked values, changes and the fingerprint', () => {
    expect(describeRequest(request('s', { changes: ['args changed'] }))).toEqual([
      "Server 's' is not trusted yet.",
      '  command      node server.js --name "two words"',
      '  executable   /usr/bin/node',
      '  cwd          /srv',
      '  env          TOKEN=*** MODE=dev',
      '  changes      args changed',
      `  fingerprint  ${'f'.repeat(64)}`,
    ]);
  });

  it('lists held tools for a tools request', () => {
    const lines = describeRequest(request('s', { kind: 'tools', tools: ['s.a', 's.b'] }));
    expect(lines[0]).toBe("Server 's' changed its tool definitions.");
    expect(lines).toContain('  tools        s.a, s.b');
  });
});

describe('displayCommand', () => {
  it('quotes only what a shell would split', () => {
    expect(displayCommand('/usr/bin/node', ['a.js', '--x=1', 'a b', ''])).toBe(
      '/usr/bin/node a.js --x=1 "a b" ""',
    );
  });
});
