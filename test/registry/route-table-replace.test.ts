import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExposedTool } from '../../src/registry/exposed-tool.js';
import { RouteTable, sealTool } from '../../src/registry/route-table.js';

const ORDER = ['a', 'b', 'c', 'd'];
const tool = (server: string, name: string, v: number): ExposedTool =>
  sealTool({
    name,
    server,
    tool: name,
    description: `v${v}`,
    inputSchema: { type: 'object' },
    scopesRequired: [],
  });

/** What a table routes and lists, to compare two tables by. */
function view(t: RouteTable) {
  const names = ['x', 'y', 'z', 'a.1', 'b.1', 'c.1', 'd.1'];
  return {
    tools: t.tools.map((x) => `${x.server}:${x.name}:${x.description}`),
    held: t.held.map((h) => `${h.server}:${h.name}:${h.heldFor}`),
    by: ORDER.map((s) => t.listFor(s).map((x) => x.name)),
    get: names.map((n) => t.get(n)?.server ?? null),
  };
}

describe('RouteTable.replace', () => {
  it('makes the table build makes, or leaves the decision to build, whatever one server at a time does', () => {
    const step = fc.record({
      server: fc.constantFrom(...ORDER),
      names: fc.uniqueArray(fc.constantFrom('x', 'y', 'z', 'own'), { maxLength: 3 }),
      gone: fc.boolean(),
      v: fc.nat(3),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const perServer = new Map<string, ExposedTool[]>();
        let table = RouteTable.build(perServer, ORDER);
        let fast = 0;
        for (const s of steps) {
          const tools = s.gone
            ? undefined
            : s.names.map((n) => tool(s.server, n === 'own' ? `${s.server}.1` : n, s.v));
          if (tools) perServer.set(s.server, tools);
          else perServer.delete(s.server);
          const replaced = RouteTable.replace(table, s.server, tools ?? [], ORDER);
          const built = RouteTable.build(perServer, ORDER);
          if (replaced) {
            fast++;
            expect(view(replaced)).toEqual(view(built));
          }
          table = replaced ?? built;
        }
        return fast >= 0;
      }),
      { numRuns: 300 },
    );
  });

  it('takes the quick way for servers whose names no other holds', () => {
    let table = RouteTable.build(new Map(), ORDER);
    for (const s of ORDER) {
      const next = RouteTable.replace(table, s, [tool(s, `${s}.1`, 0)], ORDER);
      expect(next).toBeDefined();
      table = next!;
    }
    expect(table.tools.map((t) => t.name)).toEqual(['a.1', 'b.1', 'c.1', 'd.1']);
    // A name another server holds is build's to settle.
    expect(RouteTable.replace(table, 'b', [tool('b', 'a.1', 0)], ORDER)).toBeUndefined();
  });
});
