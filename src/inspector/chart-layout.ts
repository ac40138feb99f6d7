import dagre from '@dagrejs/dagre';
import type { StatechartGraph, StatechartNode } from './statechart.js';

/** A point of the drawing, in SVG units. */
export interface ChartPoint {
  x: number;
  y: number;
}

/** A state as drawn: an atomic state's box, or a compound state's frame around its children. */
export interface ChartBox {
  /** The state's key: what `status()` calls the state, and what the page lights. */
  key: string;
  /** The full id (`server.running.ready`), for a tooltip. */
  id: string;
  compound: boolean;
  final: boolean;
  /** The keys of the compound states around it, outermost first. */
  within: string[];
  /** Top-left corner and size. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One arrow: every event that goes from one state to another, on one label. */
export interface ChartEdge {
  from: string;
  to: string;
  /** The events (with guards) that take this path, one per line. */
  label: string[];
  points: ChartPoint[];
  /** The label's centre. */
  labelAt: ChartPoint;
  /** The arrow leaves a compound state (from any of its states), so it starts at the frame's port. */
  fromFrame: boolean;
}

/** Where the initial state's marker is, and the state it points at. */
export interface ChartStart {
  to: string;
  at: ChartPoint;
  points: ChartPoint[];
}

/** The whole drawing: boxes outermost first (frames before what they hold), arrows, and the size. */
export interface ChartLayout {
  width: number;
  height: number;
  boxes: ChartBox[];
  edges: ChartEdge[];
  start?: ChartStart;
}

// The font metrics the layout assumes (12px state names, 10px edge labels): an average glyph width per size.
const NAME_GLYPH = 7.2;
const LABEL_GLYPH = 5.9;
const BOX_HEIGHT = 30;
/** One line of an edge's label. */
export const LABEL_LINE = 12;
const PORT = 8;
const START = '\u0000start';
const portOf = (id: string): string => `${id}\u0000port`;

/**
 * Lays the chart out as a directed graph: atomic states as boxes, compound ones as frames around their children,
 * one arrow per (source, target) pair labelled with its events. An arrow into a compound state goes to the state
 * it enters first (its initial child, all the way down); an arrow out of one leaves from a port on its frame,
 * since it applies to every state inside. Targetless transitions change no state and are not drawn.
 */
export function layoutChart(graph: StatechartGraph): ChartLayout {
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: false });
  g.setGraph({ rankdir: 'TB', nodesep: 18, ranksep: 28, edgesep: 10, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const byId = new Map<string, StatechartNode>();
  const index = (n: StatechartNode): void => {
    byId.set(n.id, n);
    for (const c of n.children) index(c);
  };
  index(graph);
  const entry = (id: string): string => {
    let n = byId.get(id);
    while (n && n.children.length > 0) n = n.children.find((c) => c.key === n?.initial) ?? n.children[0];
    return n?.id ?? id;
  };

  const add = (n: StatechartNode, parent: string | undefined): void => {
    if (n.children.length > 0) {
      g.setNode(n.id, { label: n.key, paddingTop: 22, paddingX: 10, paddingBottom: 10 });
      if (parent) g.setParent(n.id, parent);
      for (const c of n.children) add(c, n.id);
      return;
    }
    g.setNode(n.id, { width: Math.max(64, n.key.length * NAME_GLYPH + 24), height: BOX_HEIGHT });
    if (parent) g.setParent(n.id, parent);
  };
  // The root is the machine itself, not a state a server is in: its children are laid out at the top level.
  for (const c of graph.children) add(c, undefined);

  const labels = new Map<string, { from: string; to: string; events: string[]; fromFrame: boolean }>();
  const collect = (n: StatechartNode): void => {
    for (const t of n.transitions) {
      for (const target of t.targets) {
        const fromFrame = n.children.length > 0;
        const from = fromFrame ? portOf(n.id) : n.id;
        const to = entry(target);
        const key = `${from}\u0001${to}`;
        const hit = labels.get(key) ?? { from, to, events: [], fromFrame };
        const event = t.guard ? `${t.event} [${t.guard}]` : t.event;
        if (!hit.events.includes(event)) hit.events.push(event);
        labels.set(key, hit);
      }
    }
    for (const c of n.children) collect(c);
  };
  for (const c of graph.children) collect(c);

  for (const e of labels.values()) {
    if (e.fromFrame && !g.hasNode(e.from)) {
      // dagre cannot route an edge from a cluster itself, so a small port node inside the frame stands for it.
      const frame = e.from.slice(0, e.from.indexOf('\u0000'));
      g.setNode(e.from, { width: PORT, height: PORT });
      g.setParent(e.from, frame);
    }
    g.setEdge(e.from, e.to, {
      width: Math.max(...e.events.map((l) => l.length)) * LABEL_GLYPH + 6,
      height: e.events.length * LABEL_LINE + 4,
      labelpos: 'c',
    });
  }
  const initial = graph.initial ? graph.children.find((c) => c.key === graph.initial) : undefined;
  if (initial) {
    g.setNode(START, { width: PORT + 2, height: PORT + 2 });
    g.setEdge(START, entry(initial.id), { width: 0, height: 0 });
  }

  dagre.layout(g);

  const boxes: ChartBox[] = [];
  const place = (n: StatechartNode, within: string[]): void => {
    const at = g.node(n.id);
    if (at?.x !== undefined && at.y !== undefined) {
      boxes.push({
        key: n.key,
        id: n.id,
        compound: n.children.length > 0,
        final: n.type === 'final',
        within,
        x: round(at.x - at.width / 2),
        y: round(at.y - at.height / 2),
        width: round(at.width),
        height: round(at.height),
      });
    }
    for (const c of n.children) place(c, [...within, n.key]);
  };
  for (const c of graph.children) place(c, []);

  const edges: ChartEdge[] = [];
  for (const e of labels.values()) {
    const at = g.edge(e.from, e.to);
    edges.push({
      from: e.fromFrame ? e.from.slice(0, e.from.indexOf('\u0000')) : e.from,
      to: e.to,
      label: e.events,
      points: (at.points ?? []).map(pt),
      labelAt: pt({ x: at.x ?? 0, y: at.y ?? 0 }),
      fromFrame: e.fromFrame,
    });
  }
  const layout: ChartLayout = {
    width: round(g.graph().width ?? 0),
    height: round(g.graph().height ?? 0),
    boxes,
    edges,
  };
  if (initial) {
    const s = g.node(START);
    layout.start = {
      to: entry(initial.id),
      at: pt({ x: s.x ?? 0, y: s.y ?? 0 }),
      points: (g.edge(START, entry(initial.id)).points ?? []).map(pt),
    };
  }
  return layout;
}

const round = (n: number): number => Math.round(n * 10) / 10;
const pt = (p: ChartPoint): ChartPoint => ({ x: round(p.x), y: round(p.y) });
