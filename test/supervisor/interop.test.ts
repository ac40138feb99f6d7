import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import { fixtureServer, fleetConfig, fleets } from './fleet.js';
import { gone, tempDir } from './helpers.js';

// A real third-party server, built on the official SDK: it answers before initialize if asked and uses id 0.
const MEMORY_SERVER = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-memory/dist/index.js',
);

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
  expect(liveGroups()).toEqual([]);
});

describe('interop with @modelcontextprotocol/server-memory', () => {
  it('handshakes, lists, calls and tears down', async () => {
    const t = tempDir();
    dirs.push(t);
    const server = fixtureServer('memory', [], {
      args: [MEMORY_SERVER],
      env: { MEMORY_FILE_PATH: join(t.dir, 'memory.jsonl') },
      timeouts: { startupMs: 10_000, callMs: 10_000, shutdownMs: 1000 },
    });
    const { sup } = f.create(fleetConfig([server]));
    await sup.start();
    expect(sup.status()[0]!.state).toBe('ready');
    const names = sup.listTools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['memory.create_entities', 'memory.read_graph']));
    const created = await sup.callTool('memory.create_entities', {
      entities: [{ name: 'supervisor', entityType: 'program', observations: ['restarts servers'] }],
    });
    expect(created).not.toMatch(/^ERROR/);
    const graph = await sup.callTool('memory.read_graph', {});
    expect(graph).toContain('restarts servers');
    const result = await sup.callToolResult('memory.read_graph', {});
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0]).toMatchObject({ type: 'text' });
    const pid = sup.status()[0]!.pid!;
    await sup.stop();
    expect(await gone(pid)).toBe(true);
  });
});
