import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { type ChartBox, layoutChart } from '../../src/inspector/chart-layout.js';
import { chartSvg } from '../../src/inspector/chart-svg.js';
import { toStatechart } from '../../src/inspector/statechart.js';
import { serverMachine } from '../../src/machines/server.machine.js';

const layout = layoutChart(toStatechart(serverMachine));
const box = (key: string): ChartBox => {
  const b = layout.boxes.find((x) => x.key === key);
  if (!b) throw new Error(`no box ${key}`);
  return b;
};
const inside = (a: ChartBox, frame: ChartBox): boolean =>
  a.x >= frame.x &&
  a.y >= frame.y &&
  a.x + a.width <= frame.x + frame.width &&
  a.y + a.height <= frame.y + frame.height;

describe("the server machine's chart, laid out by dagre", () => {
  it('has a box for every state a server can be in, each within the frames of its parents', () => {
    for (const s of [
      'spawning',
      'handshaking',
      'ready',
      'wedged',
      'stopping',
      'backoff',
      'failed',
      'stopped',
      'untrusted',
    ])
      expect(box(s).key).toBe(s);
    expect(box('handshaking').compound).toBe(true);
    expect(box('ready').within).toEqual(['running']);
    expect(box('talking').within).toEqual(['running', 'starting', 'handshaking']);
    for (const b of layout.boxes)
      for (const parent of b.within) expect(inside(b, box(parent)), `${b.key} in ${parent}`).toBe(true);
  });

  it('lets no two states overlap, and keeps everything inside the drawing', () => {
    const states = layout.boxes.filter((b) => !b.compound);
    for (const a of states) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.y).toBeGreaterThanOrEqual(0);
      expect(a.x + a.width).toBeLessThanOrEqual(layout.width);
      expect(a.y + a.height).toBeLessThanOrEqual(layout.height);
      for (const b of states) {
        if (a === b) continue;
        const apart =
          a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${a.key} / ${b.key}`).toBe(true);
      }
    }
  });

  it('draws one arrow per pair of states, labelled by readable events, ending at its target', () => {
    const labels = layout.edges.flatMap((e) => e.label);
    for (const l of labels) expect(l).not.toMatch(/xstate\.|\d+\.server\./);
    expect(labels).toContain('handshake done');
    const pairs = layout.edges.map((e) => `${e.from}>${e.to}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    // Entering `running` enters its first state; leaving it is possible from any state inside.
    const start = layout.edges.find((e) => e.from === 'server.stopped');
    expect(start).toMatchObject({ to: 'server.running.starting.spawning', label: ['START'] });
    const exit = layout.edges.find((e) => e.from === 'server.running' && e.to === 'server.exited');
    expect(exit?.fromFrame).toBe(true);
    expect(layout.edges.find((e) => e.from === 'server.backoff' && e.to === 'server.stopped')?.label).toEqual(
      ['STOP', 'HALT'],
    );
    for (const e of layout.edges) {
      const to = layout.boxes.find((b) => b.id === e.to)!;
      const end = e.points.at(-1)!;
      // The arrowhead touches the target's box (dagre clips the line at its border).
      expect(end.x, `${e.from}>${e.to}`).toBeGreaterThanOrEqual(to.x - 1);
      expect(end.x).toBeLessThanOrEqual(to.x + to.width + 1);
      expect(end.y).toBeGreaterThanOrEqual(to.y - 1);
      expect(end.y).toBeLessThanOrEqual(to.y + to.height + 1);
    }
    expect(layout.start?.to).toBe('server.stopped');
  });

  it('renders escaped SVG: names are text, each state carries its key and the frames it is within', () => {
    const svg = chartSvg(layout);
    expect(svg.match(/<g class="n /g)?.length).toBe(layout.boxes.length);
    expect(svg).toContain('data-key="ready" data-testid="chart-node-ready" data-within="running"');
    const hostile = createMachine({
      id: 'm',
      initial: 'a',
      states: { a: { on: { '<script>': 'b' } }, b: {} },
    });
    const out = chartSvg(layoutChart(toStatechart(hostile)));
    expect(out).not.toContain('<script>');
    expect(out).toContain('&#60;script&#62;');
  });
});
