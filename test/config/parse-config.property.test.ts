// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are the subject of these tests, written literally on purpose
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { formatProblem } from '../../src/registry/located-yaml.js';
import { isValidServerId } from '../../src/registry/naming.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const env = { A: 'a', NUM: '3', DUR: '5s', EMPTY: '' };

// Values close to what a config holds, so that a good share of the documents parse, mixed with junk.
const scalar = fc.oneof(
  fc.constantFrom(
    '5s',
    '250ms',
    '1m30s',
    '5 s',
    '1x',
    '-1',
    '64KiB',
    '1KB',
    'always',
    'never',
    'stdio',
    'http',
  ),
  fc.constantFrom(
    '${A}',
    '${UNSET}',
    '${DUR:-1s}',
    '${NUM}',
    '$$x',
    '${input:key}',
    '${',
    '${EMPTY:-on-failure}',
  ),
  fc.constantFrom('file:///srv', 'list_files', 'Bad-Name', 'mcp.read', 'LANG', '.', '__', '-'),
  fc.constantFrom('files.manifest.yaml', 'missing.manifest.yaml', './servers', '/abs'),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -5, max: 100_000 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 3 }),
  ),
})).node;

const serverKeys = [
  'type',
  'command',
  'args',
  'cwd',
  'env',
  'inheritEnv',
  'disabled',
  'restart',
  'timeouts',
  'health',
];
const moreKeys = ['maxResultBytes', 'manifest', 'scopes_required', 'tools', 'roots', 'restrat', 'url'];
const nested = fc.dictionary(
  fc.constantFrom(
    'policy',
    'backoff',
    'limit',
    'initial',
    'max',
    'jitter',
    'multiplier',
    'startup',
    'interval',
    'window',
    'maxRestarts',
    'failureThreshold',
    'name',
    'x',
  ),
  fc.oneof(
    scalar,
    fc.dictionary(fc.constantFrom('initial', 'max', 'jitter', 'maxRestarts', 'window'), scalar, {
      maxKeys: 3,
    }),
  ),
  { maxKeys: 4 },
);
const server = fc.dictionary(
  fc.constantFrom(...serverKeys, ...moreKeys),
  fc.oneof(scalar, nested, fc.array(scalar, { maxLength: 3 }), value),
  { maxKeys: 6 },
);
const goodServer = fc
  .record({ command: fc.constantFrom('node', '${A}', 'x') })
  .chain((base) => server.map((extra) => ({ ...extra, ...base })));
const serverId = fc.oneof(
  fc.constantFrom('files', 'GitHub', 'my.server', 'a__b', 'c_', '1x', 'ok-1'),
  fc.string({ maxLength: 6 }),
);
const servers = fc.dictionary(serverId, fc.oneof(goodServer, server, value), { maxKeys: 4 });
const serversOrJunk = fc.oneof({ arbitrary: servers, weight: 4 }, { arbitrary: value, weight: 1 });
const supervisor = fc.dictionary(
  fc.constantFrom('strategy', 'separator', 'maxResultBytes', 'limit', 'stratgy'),
  fc.oneof(scalar, nested),
  { maxKeys: 4 },
);
// Documents built only from good values, so the success path is exercised as often as the failure paths.
const duration = fc.oneof(
  fc.constantFrom('250ms', '5s', '1m30s', '${DUR:-1s}'),
  fc.nat({ max: 100_000 }).map((n) => `${n}ms`),
  fc.constant(0),
);
const goodOnly = fc.record(
  {
    command: fc.constantFrom('node', '${A}', '/usr/bin/x'),
    args: fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { maxLength: 3 }),
    cwd: fc.constantFrom('.', './servers', '/srv', '${A}/x'),
    env: fc.dictionary(
      fc.constantFrom('A', 'B_1', '_C'),
      fc.oneof(fc.string({ maxLength: 6 }), fc.constant('${A}')),
    ),
    inheritEnv: fc.array(fc.constantFrom('LANG', 'TZ'), { maxLength: 2 }),
    disabled: fc.boolean(),
    restart: fc.oneof(
      fc.constantFrom('always', 'on-failure', 'never'),
      fc.record(
        {
          policy: fc.constantFrom('always', 'never'),
          backoff: fc.record(
            { initial: fc.constant('1s'), jitter: fc.double({ min: 0, max: 1, noNaN: true }) },
            { requiredKeys: [] },
          ),
          limit: fc.record({ maxRestarts: fc.nat(9), window: duration }, { requiredKeys: [] }),
        },
        { requiredKeys: [] },
      ),
    ),
    timeouts: fc.record({ startup: duration, call: duration, shutdown: duration }, { requiredKeys: [] }),
    health: fc.record(
      { interval: duration, failureThreshold: fc.integer({ min: 1, max: 5 }) },
      { requiredKeys: [] },
    ),
    maxResultBytes: fc.constantFrom('64KiB', '1MB', 4096),
    manifest: fc.constant('files.manifest.yaml'),
    scopes_required: fc.array(fc.constantFrom('mcp.read', 'mcp.write'), { maxLength: 2 }),
    tools: fc.uniqueArray(fc.constantFrom('list_files', 'a.b', 'write_file'), { maxLength: 3 }),
    roots: fc.array(fc.constantFrom('file:///srv', 'file:///tmp/x'), { maxLength: 2 }),
  },
  { requiredKeys: ['command'] },
);
const goodDocument = fc.record(
  {
    supervisor: fc.record(
      {
        strategy: fc.constantFrom('one_for_one', 'rest_for_one'),
        separator: fc.constantFrom('.', '__'),
        maxResultBytes: fc.constant('1MiB'),
      },
      { requiredKeys: [] },
    ),
    servers: fc.dictionary(fc.constantFrom('files', 'web', 'db-1', 'x_y'), goodOnly, {
      minKeys: 1,
      maxKeys: 3,
    }),
  },
  { requiredKeys: ['servers'] },
);

const document = fc.oneof(
  goodDocument,
  fc.record(
    { supervisor: fc.oneof(supervisor, value), servers: serversOrJunk },
    { requiredKeys: ['servers'] },
  ),
  fc.record({ mcpServers: serversOrJunk, globalShortcut: scalar }, { requiredKeys: ['mcpServers'] }),
  fc.record({ servers: serversOrJunk, inputs: fc.oneof(fc.array(value, { maxLength: 2 }), value) }),
  value,
);

describe('parseConfig: any document', () => {
  it('yields a SupervisorConfig or a ConfigError listing located problems, never anything else', () => {
    let parsed = 0;
    fc.assert(
      fc.property(document, fc.boolean(), (doc, asJson) => {
        const text = asJson ? (JSON.stringify(doc) ?? 'null') : stringify(doc);
        const source = asJson ? 'c.json' : 'c.yaml';
        let result: unknown;
        try {
          result = parseConfig(text, { source, env, baseDir: FIXTURES });
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
          const e = err as ConfigError;
          expect(e.problems.length).toBeGreaterThan(0);
          expect(e.message).toBe(e.problems.map(formatProblem).join('\n'));
          for (const p of e.problems) {
            expect(p.line).toBeGreaterThanOrEqual(1);
            expect(p.col).toBeGreaterThanOrEqual(1);
            expect(p.message).not.toMatch(/internal error/);
            expect(p.message).not.toMatch(/\n/);
          }
          return;
        }
        parsed++;
        const config = result as ReturnType<typeof parseConfig>;
        expect(config.servers.length).toBeGreaterThan(0);
        for (const s of config.servers) {
          expect(isValidServerId(s.id)).toBe(true);
          expect(s.cwd.startsWith('/')).toBe(true);
          expect(s.command.length).toBeGreaterThan(0);
          expect(s.restart.backoff.jitter).toBeGreaterThanOrEqual(0);
          expect(s.restart.backoff.jitter).toBeLessThanOrEqual(1);
          expect(Number.isSafeInteger(s.maxResultBytes)).toBe(true);
        }
        expect(new Set(config.servers.map((s) => s.id)).size).toBe(config.servers.length);
      }),
      { numRuns: 400 },
    );
    // The generator must reach the success path too, or half the property is untested.
    expect(parsed).toBeGreaterThan(40);
  });
});
