import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import { fixtureServer, fleetConfig, fleets } from '../fleet.js';

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const SLOW = { startupMs: 20_000, callMs: 10_000, shutdownMs: 1000 };

const f = fleets();
const direct: Client[] = [];
afterEach(async () => {
  await Promise.all(direct.splice(0).map((c) => c.close().catch(() => {})));
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

describe('listTools() keeps whole definitions', () => {
  it('has every field of a fixture tool that carries them all, and the whole definition as listed', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('fx', ['--rich-tools'])]));
    await sup.start();
    const tool = sup.listTools().find((t) => t.name === 'fx.annotated')!;
    expect(tool).toMatchObject({
      name: 'fx.annotated',
      server: 'fx',
      tool: 'annotated',
      title: 'Annotated tool',
      annotations: { title: 'Annotated', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
      execution: { taskSupport: 'optional' },
      icons: [{ src: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png', sizes: ['16x16'] }],
      _meta: { 'example.com/owner': 'fixture' },
      outputSchema: { type: 'object' },
    });
    expect(tool.definition).toMatchObject({ name: 'annotated', futureField: { kept: true } });
  }, 30_000);

  it("matches server-everything's own list, field by field", async () => {
    const client = new Client({ name: 'direct', version: '1.0.0' });
    direct.push(client);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
    );
    const want = (await client.listTools()).tools;
    const { sup } = f.create(
      fleetConfig([fixtureServer('ev', [], { args: [EVERYTHING, 'stdio'], timeouts: SLOW })]),
    );
    await sup.start();
    const got = new Map(sup.listTools().map((t) => [t.tool, t]));
    expect(want.some((t) => t.annotations !== undefined)).toBe(true);
    for (const t of want) {
      const mine = got.get(t.name)!;
      expect(mine.name).toBe(`ev.${t.name}`);
      for (const key of ['title', 'annotations', 'execution', 'icons', '_meta', 'outputSchema'] as const) {
        expect(mine[key], `${t.name}.${key}`).toEqual(t[key]);
      }
    }
  }, 60_000);
});
