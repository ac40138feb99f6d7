import { describe, expect, it } from 'vitest';
import { buildApprovalRequest } from '../../src/trust/approval-request.js';
import { describeChanges, FIRST_APPROVAL } from '../../src/trust/changes.js';
import { envValueHash, type FingerprintFacts } from '../../src/trust/fingerprint.js';
import { MASK } from '../../src/trust/mask.js';
import type { TrustRecord } from '../../src/trust/store-file.js';

const env = { TOKEN: 'ghp_secret_value_1234', MODE: 'dev' };

function facts(over: Partial<FingerprintFacts> = {}): FingerprintFacts {
  return {
    id: 'files',
    command: 'node',
    executable: '/usr/bin/node',
    executableSha256: 'a'.repeat(64),
    args: ['server.js', '--root', '.'],
    cwd: '/srv',
    env: { MODE: envValueHash('files', 'MODE', 'dev'), TOKEN: envValueHash('files', 'TOKEN', env.TOKEN) },
    inheritEnv: [],
    scripts: [{ index: 0, arg: 'server.js', path: '/srv/server.js', sha256: 'c'.repeat(64) }],
    ...over,
  };
}

function record(
  f: FingerprintFacts,
  fingerprint = '1'.repeat(64),
  tools?: Record<string, string>,
): TrustRecord {
  return {
    id: 'files',
    fingerprint,
    facts: f,
    approvedAt: '2025-01-01T00:00:00.000Z',
    ...(tools ? { tools } : {}),
  };
}

describe('buildApprovalRequest', () => {
  it('shows the command line and env names, masking secret values from the real env', () => {
    const req = buildApprovalRequest('server', 'files', facts(), '2'.repeat(64), undefined, undefined, env);
    expect(req).toEqual({
      kind: 'server',
      server: 'files',
      fingerprint: '2'.repeat(64),
      command: 'node',
      executable: '/usr/bin/node',
      args: ['server.js', '--root', '.'],
      cwd: '/srv',
      env: { MODE: 'dev', TOKEN: MASK },
      changes: [FIRST_APPROVAL],
    });
    expect(JSON.stringify(req)).not.toContain(env.TOKEN);
  });

  it('masks every value when the real env is not given', () => {
    const req = buildApprovalRequest('server', 'files', facts(), '2'.repeat(64));
    expect(req.env).toEqual({ MODE: MASK, TOKEN: MASK });
  });

  it('masks secrets on the command line', () => {
    const req = buildApprovalRequest(
      'server',
      'files',
      facts({ args: ['s.js', '--api-key', 'k'] }),
      '2'.repeat(64),
    );
    expect(req.args).toEqual(['s.js', '--api-key', MASK]);
  });

  it('lists what changed since the previous approval', () => {
    const now = facts({
      command: 'bun',
      executable: '/usr/local/bin/bun',
      executableSha256: 'b'.repeat(64),
      args: ['server.js', '--root', '..'],
      cwd: '/srv2',
      env: { TOKEN: envValueHash('files', 'TOKEN', 'rotated'), NEW: envValueHash('files', 'NEW', 'x') },
      inheritEnv: ['LANG'],
      scripts: [{ index: 0, arg: 'server.js', path: '/srv/server.js', sha256: 'd'.repeat(64) }],
    });
    const req = buildApprovalRequest('server', 'files', now, '2'.repeat(64), record(facts()), undefined, env);
    expect(req.changes).toEqual([
      'command: node → bun',
      'executable: /usr/bin/node → /usr/local/bin/bun',
      'executable content changed',
      'args: ["server.js","--root","."] → ["server.js","--root",".."]',
      'cwd: /srv → /srv2',
      'env NEW added',
      'env TOKEN changed',
      'env MODE removed',
      'inherited env LANG added',
      'script server.js content changed',
    ]);
  });

  it('reports an executable edited in place and one that vanished', () => {
    const edited = facts({ executableSha256: 'b'.repeat(64) });
    expect(describeChanges(facts(), edited)).toEqual(['executable content changed']);
    const gone = facts({ executable: null, executableSha256: null });
    expect(describeChanges(facts(), gone)).toEqual(['executable: /usr/bin/node → (not found)']);
  });

  it('never prints a secret arg in a change line', () => {
    const before = facts({ args: ['--token=old-one'] });
    const after = facts({ args: ['--token=new-one'] });
    expect(describeChanges(before, after)).toEqual(['args: a masked value changed']);
  });

  it('falls back to "fingerprint changed" when no fact differs', () => {
    const req = buildApprovalRequest('server', 'files', facts(), '2'.repeat(64), record(facts()));
    expect(req.changes).toEqual(['fingerprint changed']);
  });

  it('names held tools as changed or added for a tools request', () => {
    const prev = record(facts(), '1'.repeat(64), { search: 'e'.repeat(64) });
    const req = buildApprovalRequest(
      'tools',
      'files',
      facts(),
      '1'.repeat(64),
      prev,
      ['search', 'exec'],
      env,
    );
    expect(req.kind).toBe('tools');
    expect(req.tools).toEqual(['search', 'exec']);
    expect(req.changes).toEqual(['tool search changed', 'tool exec added']);
  });
});
