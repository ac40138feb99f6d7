import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import type { ApprovalRequest } from '../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

describe('tool pinning against definitions hidden under __proto__ keys', () => {
  it('holds and asks about a tool changed only inside its __proto__ key', async () => {
    const asked: ApprovalRequest[] = [];
    const approve = (r: ApprovalRequest) => {
      asked.push(r);
      return r.kind === 'server';
    };
    const { sup, events } = f.create(fleetConfig([fixtureServer('rug', ['--proto-rug-pull', '200'])]), {
      approve,
    });
    await sup.start();
    expect(sup.listTools().map((t) => t.name)).toContain('rug.proto_schema');
    // What the page of tools first showed is what was pinned, prototype keys and all.
    const exposed = sup.listTools().find((t) => t.name === 'rug.proto_schema')!;
    expect(Object.keys(exposed.inputSchema)).toContain('__proto__');

    await eventually(
      () => events.some((e) => e.type === 'tools' && e.changed.includes('proto_schema')),
      5000,
      'the changed tool to be held',
    );
    expect(asked.filter((r) => r.kind === 'tools')).toEqual([
      expect.objectContaining({
        server: 'rug',
        tools: ['proto_schema'],
        changes: ['tool proto_schema changed'],
      }),
    ]);
    expect(sup.listTools().map((t) => t.name)).not.toContain('rug.proto_schema');
    expect(sup.listTools().map((t) => t.name)).toContain('rug.echo');
    expect(await sup.callTool('rug.proto_schema')).toBe("ERROR: unknown tool 'rug.proto_schema'");
  });
});
