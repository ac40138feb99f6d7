import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { identityOf, MAX_INSTRUCTIONS_BYTES } from '../../../src/supervisor/runtime/identity.js';
import { fixtureServer, fleetConfig, fleets } from '../fleet.js';

const f = fleets();
afterEach(() => f.reap());

const EVERYTHING = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe('status() shows what each server said of itself', () => {
  it('serverInfo, capabilities and instructions of the official server and of the fixture', async () => {
    const ev = fixtureServer('ev', [], {
      args: [EVERYTHING, 'stdio'],
      timeouts: { startupMs: 15_000, callMs: 5000, shutdownMs: 1000 },
    });
    const { sup } = f.create(fleetConfig([ev, fixtureServer('fx')]));
    await sup.start();
    const [evRow, fxRow] = sup.status();
    expect(evRow?.server).toMatchObject({
      protocolVersion: expect.any(String),
      info: { name: 'mcp-servers/everything', version: expect.any(String) },
      capabilities: expect.objectContaining({ tools: expect.anything(), prompts: expect.anything() }),
      instructions: expect.stringContaining('Everything Server'),
    });
    expect(fxRow?.server).toEqual({
      protocolVersion: '2025-11-25',
      info: { name: 'fixture', version: '1.0.0' },
      capabilities: { tools: { listChanged: true } },
    });
    const stopped = new Promise<void>((resolve) => {
      const off = sup.subscribe((e) => {
        if (e.type === 'state' && e.server === 'fx' && e.to === 'stopped') {
          off();
          resolve();
        }
      });
    });
    sup.stopServer('fx');
    await stopped;
    expect(sup.status()[1]?.server).toBeUndefined();
  }, 30_000);
});

describe('identityOf', () => {
  it('keeps only the string fields MCP names and cuts long instructions on a character boundary', () => {
    const id = identityOf({
      protocolVersion: '2025-11-25',
      capabilities: {},
      serverInfo: { name: 'n', version: 7 as unknown as string, title: 'T', extra: 'x' } as never,
      instructions: 'é'.repeat(MAX_INSTRUCTIONS_BYTES),
    });
    expect(id?.info).toEqual({ name: 'n', title: 'T' });
    expect(id?.instructions).toMatch(/^é+\n\[instructions cut at 16384 bytes\]$/);
    expect(Buffer.byteLength(id!.instructions!.split('\n')[0]!)).toBe(MAX_INSTRUCTIONS_BYTES);
  });
});
