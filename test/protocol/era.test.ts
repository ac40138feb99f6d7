import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { buildChildEnv } from '../../src/process/child-env.js';
import { SupervisorError } from '../../src/protocol/errors.js';
import { callToolText, listAllTools } from '../../src/protocol/tool-calls.js';
import { fixtureConnections, readLog, tempDir } from '../supervisor/helpers.js';

const MODERN = fileURLToPath(new URL('../fixtures/modern-server.mjs', import.meta.url));
const ENVELOPE_KEYS = [
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/clientInfo',
];

const fx = fixtureConnections();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await fx.reap();
  for (const d of dirs.splice(0)) d.cleanup();
});
const logFile = () => {
  const t = tempDir();
  dirs.push(t);
  return join(t.dir, 'log');
};
const modern = (log: string, over: Parameters<typeof fx.open>[1] = {}) =>
  fx.open([], { args: [MODERN, '--log', log], env: buildChildEnv(process.env, [], {}), ...over });
const call = { timeoutMs: 5000, maxBytes: 65536 };

async function rejection(p: Promise<unknown>): Promise<SupervisorError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SupervisorError);
  return err as SupervisorError;
}

describe('the era of a child', () => {
  it('auto against a 2026-only SDK server: discover is the handshake, every request carries the envelope', async () => {
    const log = logFile();
    const conn = modern(log);
    const init = await conn.initialize();
    expect(conn.era).toBe('modern');
    expect(init).toMatchObject({
      protocolVersion: '2026-07-28',
      serverInfo: { name: 'modern-fixture', version: '2.0.0' },
      instructions: 'A 2026-07-28 fixture.',
    });
    expect(Object.keys(init.capabilities).sort()).toEqual(['prompts', 'resources', 'tools']);
    expect((await listAllTools(conn, 5000)).map((t) => t.name)).toEqual([
      'echo',
      'add',
      'pid',
      'confirm',
      'touch',
    ]);
    expect(await callToolText(conn, 'add', { a: 2, b: 3 }, call)).toBe('5');
    // No logging/setLevel in 2026: the level rides on every request from here on.
    expect(conn.setLogLevel('debug')).toBe(true);
    const read = (await conn.request('resources/read', { uri: 'fixture://greeting' }, call)) as {
      contents: Array<{ text?: string }>;
    };
    expect(read.contents[0]?.text).toBe('hello from 2026');
    // ping does not exist in 2026: the health check is a discover, and it succeeds.
    expect(await conn.ping(2000)).toBe(true);
    // On a loaded machine the fixture may start after the probe's bound and also be sent an initialize, which it
    // refuses (the slow-start test below is about that); everything else is the same either way.
    const lines = readLog(log).filter((m) => m.method !== 'initialize');
    expect(lines.map((m) => m.method)).toEqual([
      'server/discover',
      'tools/list',
      'tools/call',
      'resources/read',
      'server/discover',
    ]);
    for (const m of lines) {
      const meta = (m.params as { _meta?: Record<string, unknown> })._meta ?? {};
      expect(Object.keys(meta)).toEqual(expect.arrayContaining(ENVELOPE_KEYS));
      expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    }
    const levels = lines.map(
      (m) => (m.params as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/logLevel'],
    );
    expect(levels).toEqual([undefined, undefined, undefined, 'debug', 'debug']);
  });

  it('pinned 2025 never probes; pinned 2025 against a 2026-only server fails coded with what it speaks', async () => {
    const log = logFile();
    const legacy = fx.open(['--log', log], { protocol: '2025-11-25' });
    expect((await legacy.initialize()).protocolVersion).toBe('2025-11-25');
    expect(legacy.setLogLevel('debug')).toBe(false);
    // The pong proves the server has read (and logged) everything before it.
    expect(await legacy.ping(2000)).toBe(true);
    expect(readLog(log).map((m) => m.method)).toEqual(['initialize', 'notifications/initialized', 'ping']);

    const err = await rejection(modern(logFile(), { protocol: '2025-11-25' }).initialize());
    expect(err.code).toBe('UNSUPPORTED_PROTOCOL');
    expect(err.data).toMatchObject({ supported: ['2026-07-28'] });
  });

  it('pinned 2026 against a 2025-only server fails coded, without falling back to initialize', async () => {
    const log = logFile();
    const err = await rejection(fx.open(['--log', log], { protocol: '2026-07-28' }).initialize());
    expect(err.code).toBe('UNSUPPORTED_PROTOCOL');
    expect(readLog(log).map((m) => m.method)).toEqual(['server/discover']);
  });

  it('a 2025 server that never answers discover is started within the probe bound, not the startup one', async () => {
    const log = logFile();
    // startup 3 s: the probe waits min(2 s, 1 s) = 1 s, then initialize. Both bounds run on the connection's clock,
    // armed as initialize() is called; the clock stops at the probe's, so only it can have started the server
    // (that initialize waits for the bound, not a ms less, is negotiate.test.ts's).
    const clock = new SimulatedClock();
    const conn = fx.open(['--log', log, '--no-discover'], { startupMs: 3000, clock });
    const init = conn.initialize();
    clock.increment(1000);
    expect((await init).protocolVersion).toBe('2025-11-25');
    expect(conn.era).toBe('legacy');
    expect(await conn.ping(2000)).toBe(true);
    // No cancel for a probe a 2025 server never knew: it has no session to cancel in yet.
    expect(readLog(log).map((m) => m.method)).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
      'ping',
    ]);
  });

  it('a 2026 server slower to start than the probe bound refuses the initialize and its late discover answer wins', async () => {
    const log = logFile();
    // startup 8 s: the probe waits min(2 s, 2.6 s) = 2 s; the server reads nothing for 3 s after its imports.
    const conn = modern(log, { startupMs: 8000, args: [MODERN, '--log', log, '--slow-start', '3000'] });
    const init = await conn.initialize();
    expect(conn.era).toBe('modern');
    expect(init).toMatchObject({ protocolVersion: '2026-07-28', serverInfo: { name: 'modern-fixture' } });
    expect(await callToolText(conn, 'add', { a: 2, b: 3 }, call)).toBe('5');
    expect(readLog(log).map((m) => m.method)).toEqual(['server/discover', 'initialize', 'tools/call']);
  });

  it('a server of both eras slower to start than the probe bound is kept in the 2025 session its initialize opened', async () => {
    const log = logFile();
    const args = [MODERN, '--log', log, '--legacy-serve', '--slow-start', '3000'];
    const conn = modern(log, { startupMs: 8000, args });
    expect((await conn.initialize()).protocolVersion).toBe('2025-11-25');
    expect(conn.era).toBe('legacy');
    expect(await callToolText(conn, 'add', { a: 2, b: 3 }, call)).toBe('5');
    const lines = readLog(log);
    expect(lines.map((m) => m.method)).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
      'tools/call',
    ]);
    // Spoken to as the 2025 server it agreed to be: no 2026 envelope after the probe.
    expect(JSON.stringify(lines.slice(1))).not.toContain('io.modelcontextprotocol/');
  });

  it('a known era skips the probe: legacy goes straight to initialize', async () => {
    const log = logFile();
    await fx.open(['--log', log], { eraHint: 'legacy' }).initialize();
    expect(readLog(log)[0]?.method).toBe('initialize');
  });
});
