// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are written literally on purpose
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { buildApprovalRequest } from '../../src/trust/approval-request.js';
import { describeChanges } from '../../src/trust/changes.js';
import { computeFingerprint } from '../../src/trust/fingerprint.js';
import { MASK, maskArgs, maskValue } from '../../src/trust/mask.js';
import { TrustStore } from '../../src/trust/trust-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcps-secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('maskArgs: secrets on a command line', () => {
  it.each([
    [['--api-key=sk-1'], [`--api-key=${MASK}`]],
    [
      ['--token', 'x'],
      ['--token', MASK],
    ],
    [
      ['-p', 'pw'],
      ['-p', MASK],
    ],
    [
      ['--db', 'postgres://app:hunter2@db:5432/x'],
      ['--db', `postgres://app:${MASK}@db:5432/x`],
    ],
    [['--db=postgres://app:hunter2@db/x'], [`--db=postgres://app:${MASK}@db/x`]],
    [['app:hunter2@db.internal'], [`app:${MASK}@db.internal`]],
    [
      ['Server=db;User Id=app;Password=hunter2;Encrypt=true'],
      [`Server=db;User Id=app;Password=${MASK};Encrypt=true`],
    ],
    [
      ['--conn', 'host=db user=app password=hunter2'],
      ['--conn', `host=db user=app password=${MASK}`],
    ],
    [['https://api.example/v1?token=abc123&q=1'], [`https://api.example/v1?token=${MASK}&q=1`]],
    [
      ['--aws', 'AKIAIOSFODNN7EXAMPLE'],
      ['--aws', MASK],
    ],
    [['--key-id=AKIAIOSFODNN7EXAMPLE'], [`--key-id=${MASK}`]],
    [['xoxb-1234567890-abcdefghij'], [MASK]],
    [['--slack=xoxb-1234567890-abcdefghij'], [`--slack=${MASK}`]],
    [
      ['--gh', 'ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
      ['--gh', MASK],
    ],
    [
      ['-H', 'X-Gh: ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
      ['-H', `X-Gh: ${MASK}`],
    ],
  ])('masks %j', (args, masked) => {
    expect(maskArgs(args)).toEqual(masked);
  });

  it('keeps ordinary args readable', () => {
    const args = ['server.js', '--port', '8080', '-v', 'git@github.com:org/repo.git', '--mode=dev', './data'];
    expect(maskArgs(args)).toEqual(args);
  });

  it('masks known token shapes in env values whatever the name', () => {
    expect(maskValue('UPSTREAM', 'AKIAIOSFODNN7EXAMPLE')).toBe(MASK);
    expect(maskValue('HOOK', 'xoxb-1-abcdefghij')).toBe(MASK);
    expect(maskValue('DSN_URL', 'mysql://u:p@h/db')).toBe(MASK);
  });
});

describe('args as written: what the trust store keeps', () => {
  const text = [
    'servers:',
    '  api:',
    '    command: node',
    '    args: [server.js, "--api-key=${API_KEY}", --port, 8080]',
    '  plain:',
    '    command: node',
    '    args: [server.js]',
    '',
  ].join('\n');
  const load = (key: string) =>
    parseConfig(text, { source: 'c.yaml', env: { API_KEY: key }, baseDir: dir }).servers;

  it('keeps the written form beside the expanded one, only where a reference was expanded', () => {
    const [api, plain] = load('sk-live-0123456789abcdef');
    expect(api!.args).toEqual(['server.js', '--api-key=sk-live-0123456789abcdef', '--port', '8080']);
    expect(api!.argsAsWritten).toEqual(['server.js', '--api-key=${API_KEY}', '--port', '8080']);
    expect(plain!.argsAsWritten).toBeUndefined();
  });

  it('stores ${VAR} unexpanded, yet a changed value still changes the fingerprint and says so', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const first = await computeFingerprint(load(secret)[0]!);
    expect(first.facts.args).toEqual(['server.js', '--api-key=${API_KEY}', '--port', '8080']);
    const path = join(dir, 'trust.json');
    const store = await TrustStore.open(path);
    await store.approve('api', first.fingerprint, first.facts);
    expect(readFileSync(path, 'utf8')).not.toContain(secret);
    expect(readFileSync(path, 'utf8')).toContain('--api-key=${API_KEY}');

    const second = await computeFingerprint(load('sk-live-rotated-9876543210')[0]!);
    expect(second.fingerprint).not.toBe(first.fingerprint);
    const reopened = await TrustStore.open(path);
    expect(reopened.isTrusted('api', second.fingerprint)).toBe(false);
    expect(describeChanges(reopened.get('api')!.facts, second.facts)).toEqual([
      'args: a value from the environment changed',
    ]);
  });

  it('shows the approval request the written args, masked', async () => {
    const literal = parseConfig(
      'servers:\n  a:\n    command: node\n    args: [s.js, --token, t0k3n, "${URL}"]\n',
      { source: 'c.yaml', env: { URL: 'postgres://app:hunter2@db/x' }, baseDir: dir },
    ).servers[0]!;
    const { facts, fingerprint } = await computeFingerprint(literal);
    const request = buildApprovalRequest('server', 'a', facts, fingerprint);
    expect(request.args).toEqual(['s.js', '--token', MASK, '${URL}']);
    expect(JSON.stringify(request)).not.toMatch(/hunter2|t0k3n/);
  });
});
