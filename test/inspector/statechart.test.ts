import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { type StatechartNode, toStatechart } from '../../src/inspector/statechart.js';

const machine = createMachine({
  id: 'door',
  initial: 'closed',
  states: {
    closed: {
      initial: 'unlocked',
      on: { SMASH: 'broken' },
      states: {
        unlocked: { on: { LOCK: 'locked', OPEN: '#door.open' } },
        locked: { on: { UNLOCK: { target: 'unlocked', guard: 'hasKey' }, KNOCK: {} } },
      },
    },
    open: { after: { 5000: 'closed' }, always: { target: 'broken', guard: 'hingesGone' } },
    broken: { type: 'final' },
  },
});

function find(node: StatechartNode, key: string): StatechartNode | undefined {
  if (node.key === key) return node;
  for (const c of node.children) {
    const hit = find(c, key);
    if (hit) return hit;
  }
  return undefined;
}

describe('toStatechart', () => {
  const graph = toStatechart(machine);

  it('nests the state tree with ids, keys, types and initial children', () => {
    expect(graph).toMatchObject({ id: 'door', key: 'door', type: 'compound', initial: 'closed' });
    expect(graph.children.map((c) => c.key)).toEqual(['closed', 'open', 'broken']);
    const closed = find(graph, 'closed');
    expect(closed).toMatchObject({ id: 'door.closed', type: 'compound', initial: 'unlocked' });
    expect(closed?.children.map((c) => [c.key, c.id, c.type])).toEqual([
      ['unlocked', 'door.closed.unlocked', 'atomic'],
      ['locked', 'door.closed.locked', 'atomic'],
    ]);
    expect(find(graph, 'broken')?.type).toBe('final');
    expect(find(graph, 'unlocked')).not.toHaveProperty('initial');
  });

  it('lists transitions with resolved target ids, guards, delays and eventless ones', () => {
    expect(find(graph, 'closed')?.transitions).toEqual([{ event: 'SMASH', targets: ['door.broken'] }]);
    expect(find(graph, 'unlocked')?.transitions).toEqual([
      { event: 'LOCK', targets: ['door.closed.locked'] },
      { event: 'OPEN', targets: ['door.open'] },
    ]);
    expect(find(graph, 'locked')?.transitions).toEqual([
      { event: 'UNLOCK', targets: ['door.closed.unlocked'], guard: 'hasKey' },
      { event: 'KNOCK', targets: [] },
    ]);
    expect(find(graph, 'open')?.transitions).toEqual([
      { event: 'after 5000ms', targets: ['door.closed'] },
      { event: 'always', targets: ['door.broken'], guard: 'hingesGone' },
    ]);
    expect(find(graph, 'broken')?.transitions).toEqual([]);
  });

  it("names an invoked actor's done and error by the logic it runs, never by its generated id", () => {
    const loader = createMachine({
      id: 'loader',
      initial: 'loading',
      states: {
        loading: { invoke: { src: 'fetchIndex', onDone: 'ready', onError: 'failed' } },
        ready: {},
        failed: {},
      },
    });
    expect(find(toStatechart(loader), 'loading')?.transitions).toEqual([
      { event: 'fetchIndex done', targets: ['loader.ready'] },
      { event: 'fetchIndex error', targets: ['loader.failed'] },
    ]);
  });

  it('is plain JSON: it survives a round trip unchanged', () => {
    expect(JSON.parse(JSON.stringify(graph))).toEqual(graph);
  });
});
