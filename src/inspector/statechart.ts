import type { AnyStateMachine } from 'xstate';

/** One outgoing transition of a state: the event (made readable) and the ids of its target nodes. */
export interface StatechartTransition {
  event: string;
  /** State node ids; empty for a targetless (self, actions-only) transition. */
  targets: string[];
  /** The guard's name when it has one, so two guarded arms of one event can be told apart. */
  guard?: string;
}

/** One state node, with its children nested: the shape the inspector page draws. */
export interface StatechartNode {
  id: string;
  key: string;
  /** Key of the initial child (compound states only). */
  initial?: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  children: StatechartNode[];
  transitions: StatechartTransition[];
}

/** The whole chart is its root node. */
export type StatechartGraph = StatechartNode;

/** The parts of an xstate StateNode this walk reads; typed narrowly so no `any` leaks out. */
interface WalkedNode {
  id: string;
  key: string;
  type: StatechartNode['type'];
  states: Record<string, WalkedNode>;
  config: { initial?: unknown };
  initial: { target: ReadonlyArray<{ key: string }> };
  transitions: Map<string, WalkedTransition[]>;
  always?: WalkedTransition[];
  invoke?: ReadonlyArray<{ id: string; src: unknown }>;
}

interface WalkedTransition {
  target: ReadonlyArray<{ id: string }> | undefined;
  guard?: unknown;
  delay?: unknown;
}

/** Turns an xstate v5 machine into plain JSON the page can draw (no functions, no cycles). */
export function toStatechart(machine: AnyStateMachine): StatechartGraph {
  return walk(machine.root as unknown as WalkedNode);
}

function walk(node: WalkedNode): StatechartNode {
  const out: StatechartNode = {
    id: node.id,
    key: node.key,
    type: node.type,
    children: Object.values(node.states).map(walk),
    transitions: [],
  };
  if (node.config.initial !== undefined) {
    const first = node.initial.target[0];
    if (first) out.initial = first.key;
  }
  for (const [eventType, defs] of node.transitions) {
    for (const def of defs) out.transitions.push(toTransition(readableEvent(eventType, def, node), def));
  }
  for (const def of node.always ?? []) out.transitions.push(toTransition('always', def));
  return out;
}

function toTransition(event: string, def: WalkedTransition): StatechartTransition {
  const t: StatechartTransition = { event, targets: (def.target ?? []).map((n) => n.id) };
  const guard = guardName(def.guard);
  if (guard !== undefined) t.guard = guard;
  return t;
}

// xstate encodes delayed, done and error transitions as internal event names; the chart shows what they mean.
function readableEvent(eventType: string, def: WalkedTransition, node: WalkedNode): string {
  if (eventType.startsWith('xstate.after.')) {
    const delay = def.delay ?? eventType.slice('xstate.after.'.length).split('.')[0];
    return typeof delay === 'number' ? `after ${delay}ms` : `after ${String(delay)}`;
  }
  const prefixes: Array<[string, string]> = [
    ['xstate.done.actor.', 'done'],
    ['xstate.error.actor.', 'error'],
    ['xstate.snapshot.', 'snapshot'],
  ];
  for (const [prefix, label] of prefixes) {
    if (eventType.startsWith(prefix)) return `${actorName(eventType.slice(prefix.length), node)} ${label}`;
  }
  if (eventType.startsWith('xstate.done.state.')) return 'done';
  return eventType;
}

// An invoked actor's generated id (`0.server.running…`) means nothing to a reader; the logic it runs does.
function actorName(actorId: string, node: WalkedNode): string {
  const src = node.invoke?.find((i) => i.id === actorId)?.src;
  if (typeof src === 'string') return src;
  return /^\d+\./.test(actorId) ? (actorId.split('.').at(-1) ?? actorId) : actorId;
}

function guardName(guard: unknown): string | undefined {
  if (typeof guard === 'string') return guard;
  if (guard && typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string')
    return guard.type;
  if (typeof guard === 'function') return guard.name || 'guard';
  return undefined;
}
