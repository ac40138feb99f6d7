import { describe, expect, it } from 'vitest';
import {
  CHART_WIDTH,
  type ChartBox,
  clip,
  indexNodes,
  layoutChart,
  transitionLabel,
} from '../../../src/inspector/browser/chart-layout.js';
import { type StatechartNode, toStatechart } from '../../../src/inspector/statechart.js';
import { serverMachine } from '../../../src/machines/server.machine.js';

const node = (
  id: string,
  over: Partial<StatechartNode> = {},
  children: StatechartNode[] = [],
): StatechartNode => ({
  id,
  key: id.split('.').at(-1)!,
  type: children.length ? 'compound' : 'atomic',
  children,
  transitions: [],
  ...over,
});

// door: { closed (compound, initial locked): { locked, unlocked }, broken (final) }
const door = node('door', { initial: 'closed' }, [
  node('door.closed', { initial: 'locked', transitions: [{ event: 'SMASH', targets: ['door.broken'] }] }, [
    node('door.closed.locked', {
      transitions: [
        { event: 'UNLOCK', targets: ['door.closed.unlocked'], guard: 'hasKey' },
        { event: 'KNOCK', targets: [] },
      ],
    }),
    node('door.closed.unlocked', { transitions: [{ event: 'JIGGLE', targets: ['door.closed.unlocked'] }] }),
  ]),
  node('door.broken', { type: 'final' }),
]);

function* boxes(box: ChartBox): Generator<ChartBox> {
  yield box;
  for (const c of box.children) yield* boxes(c);
}

describe('chart layout (the browser module, run in Node)', () => {
  it('names transitions: guard in brackets, a self-loop marked, a targetless one stays', () => {
    const byId = indexNodes(door);
    expect([...byId.keys()]).toEqual([
      'door',
      'door.closed',
      'door.closed.locked',
      'door.closed.unlocked',
      'door.broken',
    ]);
    const locked = byId.get('door.closed.locked')!;
    const unlocked = byId.get('door.closed.unlocked')!;
    expect(transitionLabel(locked.transitions[0]!, locked, byId)).toBe('UNLOCK [hasKey] → unlocked');
    expect(transitionLabel(locked.transitions[1]!, locked, byId)).toBe('KNOCK → (stays)');
    expect(transitionLabel(unlocked.transitions[0]!, unlocked, byId)).toBe('JIGGLE → ↺ unlocked');
    expect(transitionLabel({ event: 'GO', targets: ['elsewhere'] }, locked, byId)).toBe('GO → elsewhere');
  });

  it('clips to n characters, the last an ellipsis, and leaves short text alone', () => {
    expect(clip('abcdef', 6)).toBe('abcdef');
    expect(clip('abcdefg', 6)).toBe('abcde…');
    expect(clip('abcdefg', 6)).toHaveLength(6);
    expect(clip('abc', 0)).toBe('a…');
  });

  it('stacks boxes: a header, a row per transition, children inset and stacked with gaps', () => {
    const { box: root, height } = layoutChart(door, 290);
    expect(root).toMatchObject({ x: 1, y: 1, width: 288, root: true, kind: { text: 'compound', x: 281 } });
    const [closed, broken] = root.children;
    const [locked, unlocked] = closed!.children;
    // An atomic box with no transitions: 15 header + 3 + 7 padding.
    expect(broken).toMatchObject({ width: 272, height: 25, kind: null, rows: [] });
    expect(broken!.label.text).toBe('broken ◎');
    expect(locked).toMatchObject({ x: 17, width: 256, height: 25 + 2 * 12 });
    expect(locked!.label.text).toBe('● locked');
    expect(unlocked!.label.text).toBe('unlocked');
    expect(locked!.rows.map((r) => [r.x - locked!.x, r.y - locked!.y, r.full])).toEqual([
      [14, 30, 'UNLOCK [hasKey] → unlocked'],
      [14, 42, 'KNOCK → (stays)'],
    ]);
    expect(unlocked!.y).toBe(locked!.y + locked!.height + 5);
    expect(closed!.height).toBe(25 + 12 + (49 + 5) + (37 + 5) + 2);
    expect(broken!.y).toBe(closed!.y + closed!.height + 5);
    expect(root.height).toBe(25 + (closed!.height + 5) + (25 + 5) + 2);
    expect(height).toBe(1 + root.height + 1);
  });

  it('clips labels to the width of their box and keeps the full text', () => {
    const long = 'A_VERY_LONG_EVENT_NAME_THAT_WILL_NOT_FIT_IN_A_NARROW_BOX';
    const graph = node('m', {}, [node('m.s', { transitions: [{ event: long, targets: [] }] })]);
    const row = layoutChart(graph, 120).box.children[0]!.rows[0]!;
    expect(row.full).toBe(`${long} → (stays)`);
    expect(row.text).toHaveLength(Math.floor((120 - 2 - 16 - 22) / 5.6));
    expect(row.text.endsWith('…')).toBe(true);
  });

  it("keeps every box of the server machine's chart inside its parent, siblings apart", () => {
    const graph = toStatechart(serverMachine);
    const { box: root, height } = layoutChart(graph);
    expect(root.width).toBe(CHART_WIDTH - 2);
    expect(height).toBe(root.y + root.height + 1);
    const all = [...boxes(root)];
    expect(all.length).toBe(indexNodes(graph).size);
    for (const parent of all) {
      let below = parent.y + 18 + parent.rows.length * 12;
      for (const c of parent.children) {
        expect(c.x, c.node.id).toBeGreaterThan(parent.x);
        expect(c.x + c.width, c.node.id).toBeLessThan(parent.x + parent.width);
        expect(c.y, c.node.id).toBeGreaterThan(below);
        below = c.y + c.height;
      }
      expect(below, parent.node.id).toBeLessThan(parent.y + parent.height);
      for (const r of parent.rows) expect(r.text.length, r.full).toBeLessThanOrEqual(r.full.length);
    }
  });
});
