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
function view(t: RouteTable, order = ORDER) {
  const names = ['x', 'y', 'z', ...order.map((s) => `${s}.1`)];
  return {
    tools: t.tools.map((x) => `${x.server}:${x.name}:${x.description}`),
    size: t.size,
    held: t.held.map((h) => `${h.server}:${h.name}:${h.heldFor}`),
    by: order.map((s) => t.listFor(s).map((x) => x.name)),
    get: names.map((n) => t.get(n)?.server ?? null),
  };
}

/** Applies steps one server at a time, through replace where it answers, checking each table against build. */
function replay(order: string[], steps: { server: string; names: string[]; gone: boolean; v: number }[]) {
  const perServer = new Map<string, ExposedTool[]>();
  let table = RouteTable.build(perServer, order);
  let fast = 0;
  for (const s of steps) {
    const tools = s.gone
      ? undefined
      : s.names.map((n) => tool(s.server, n === 'own' ? `${s.server}.1` : n, s.v));
    if (tools) perServer.set(s.server, tools);
    else perServer.delete(s.server);
    const replaced = RouteTable.replace(table, s.server, tools ?? [], order);
    const built = RouteTable.build(perServer, order);
    if (replaced) {
      fast++;
      expect(view(replaced, order)).toEqual(view(built, order));
    }
    table = replaced ?? built;
  }
  return fast;
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
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => replay(ORDER, steps) >= 0),
      { numRuns: 300 },
    );
  });

  it('stays what build makes while replaced lists pile up on a table and are folded into it', () => {
    // More servers than a table keeps replaced lists for, names moving between them, reads after every step.
    const order = Array.from({ length: 40 }, (_, i) => `s${i}`);
    const step = fc.record({
      server: fc.constantFrom(...order),
      names: fc.uniqueArray(fc.constantFrom('x', 'y', 'z', 'own'), { maxLength: 2 }),
      gone: fc.boolean(),
      v: fc.nat(3),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 120 }), (steps) => replay(order, steps) >= 0),
      { numRuns: 200 },
    );
  });

  it('keeps a name that moved between two servers when their replaced lists are folded in', () => {
    const order = Array.from({ length: 40 }, (_, i) => `s${i}`);
    const own = (servers: string[], v: number) =>
      servers.map((server) => ({ server, names: ['own'], gone: false, v }));
    const steps = [
      { server: 's1', names: ['x'], gone: false, v: 0 },
      ...own(order.slice(2, 20), 0), // folded: s1 holds x in the table's own maps
      { server: 's1', names: ['own'], gone: false, v: 0 }, // s1 lets x go…
      { server: 's0', names: ['x'], gone: false, v: 0 }, // …s0 takes it…
      { server: 's1', names: ['own'], gone: false, v: 1 }, // …and s1 changes again, after s0
      ...own(order.slice(20), 0), // folded again
    ];
    expect(replay(order, steps)).toBe(steps.length);
  });

  it('hides what a server had on the levels below once a newer list of it is on top', () => {
    const order = Array.from({ length: 40 }, (_, i) => `s${i}`);
    const own = (servers: string[]) =>
      servers.map((server) => ({ server, names: ['own'], gone: false, v: 0 }));
    const steps = [
      ...own(order.slice(0, 17)), // the 17th replaced list folds them all into the full maps
      { server: 's0', names: ['x'], gone: false, v: 0 }, // s0 lets s0.1 go…
      ...own(order.slice(17, 33)), // …and is merged with these into the level above the full maps
      { server: 's17', names: [], gone: false, v: 0 }, // s17, on that level, lets s17.1 go on top of it
      { server: 's0', names: ['own'], gone: false, v: 1 }, // s0 takes s0.1 back, on top
    ];
    expect(replay(order, steps)).toBe(steps.length);
  });

  it('stays what build makes over many servers that seldom share a name', () => {
    const order = Array.from({ length: 40 }, (_, i) => `s${i}`);
    const step = fc.record({
      server: fc.constantFrom(...order),
      names: fc.uniqueArray(
        fc.oneof(
          { weight: 12, arbitrary: fc.constant('own') },
          { weight: 1, arbitrary: fc.constantFrom('x', 'y') },
        ),
        { maxLength: 2 },
      ),
      gone: fc.boolean(),
      v: fc.nat(3),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 60, maxLength: 200 }), (steps) => replay(order, steps) >= 0),
      { numRuns: 100 },
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
