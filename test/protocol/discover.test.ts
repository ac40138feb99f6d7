import { describe, expect, it } from 'vitest';
import { verdictOfError, verdictOfResult } from '../../src/protocol/discover.js';
import { RemoteError, SupervisorError } from '../../src/protocol/errors.js';

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof SupervisorError ? { code: e.code, data: e.data } : e;
  }
  return 'no error';
};

describe('what a server/discover probe shows', () => {
  it('a result listing 2026-07-28 is modern; a malformed one, or one listing only 2025 versions, falls back', () => {
    const ok = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };
    expect(verdictOfResult(ok).kind).toBe('modern');
    expect(verdictOfResult({ capabilities: {} }).kind).toBe('legacy');
    expect(verdictOfResult({ supportedVersions: ['2025-11-25'], capabilities: {} }).kind).toBe('legacy');
  });

  it('a 2026 server speaking only later versions is refused coded, with what it speaks', () => {
    const later = { supportedVersions: ['2027-03-01'], capabilities: {} };
    expect(codeOf(() => verdictOfResult(later))).toEqual({
      code: 'UNSUPPORTED_PROTOCOL',
      data: { supported: ['2027-03-01'], requested: '2026-07-28' },
    });
    const refusal = new RemoteError(-32022, 'Unsupported protocol version', { supported: ['2027-03-01'] });
    expect(codeOf(() => verdictOfError(refusal, 100))).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL' });
  });

  it('falls back on any other error or on silence, but not past the end of the process', () => {
    for (const code of [-32601, -32600, -32602, -32603, -32000, 1]) {
      expect(verdictOfError(new RemoteError(code, 'no'), 100)).toMatchObject({
        kind: 'legacy',
        timedOut: false,
      });
    }
    const silent = new SupervisorError('REQUEST_TIMEOUT', 'timed out');
    expect(verdictOfError(silent, 100)).toMatchObject({ kind: 'legacy', timedOut: true });
    expect(codeOf(() => verdictOfError(new SupervisorError('SERVER_EXITED', 'gone'), 100))).toMatchObject({
      code: 'SERVER_EXITED',
    });
  });
});
