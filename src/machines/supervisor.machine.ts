import { type ActorRefFrom, assign, enqueueActions, type SnapshotFrom, setup } from 'xstate';
import {
  type Books,
  childIds,
  childOf,
  markStable,
  newChildBook,
  notePhase,
  type Step,
  withChild,
} from './books.js';
import { addChild, removeChild } from './child-set.js';
import {
  type BackoffConfig,
  clearHistory,
  type LimitConfig,
  type RestartPolicyName,
} from './restart-policy.js';
import {
  type MachineServerConfig,
  type ServerActorRef,
  type ServerMachineEvent,
  type ServerParentEvent,
  serverMachine,
} from './server.machine.js';
import { decideExit, leaveGroups, restartDue } from './supervisor-decisions.js';

/** A server as the supervisor machine needs to know it. */
export interface SupervisedServer extends MachineServerConfig {
  disabled: boolean;
  restart: { policy: RestartPolicyName; backoff: BackoffConfig; limit: LimitConfig };
}

export interface SupervisorMachineInput {
  strategy: Books['strategy'];
  limit: LimitConfig;
  servers: readonly SupervisedServer[];
}

export type SupervisorMachineEvent =
  | ServerParentEvent
  | { type: 'START_ALL' }
  | { type: 'STOP_ALL' }
  | { type: 'START'; id: string }
  | { type: 'STOP'; id: string }
  | { type: 'RESTART'; id: string }
  | { type: 'RESTART_DUE'; id: string }
  /** A child has been ready for its `resetAfter` without a break (a delayed event of its own). */
  | { type: 'CHILD.STABLE'; id: string }
  /** A reload: a new server joins, stopped, at its place in `order` (the new config's); `START` starts it. */
  | { type: 'ADD_CHILD'; server: SupervisedServer; order: readonly string[] }
  /** A reload: a server leaves; its actor (and with it any process it still has) is stopped. */
  | { type: 'REMOVE_CHILD'; id: string }
  /** A reload: the strategy and the supervisor's limit for restarts from now on (the history is kept). */
  | { type: 'SET_POLICY'; strategy: Books['strategy']; limit: LimitConfig };

/** Plain data only: a snapshot persists as JSON, and a decision replays from it with `transition()`. */
export interface SupervisorMachineContext {
  books: Books;
  /** Why the supervisor gave up on the whole fleet, once it did. */
  escalation: string | null;
  /** Per-server reason for `failed`, for status and events. */
  failures: Record<string, string>;
  /** Servers `START_ALL` leaves alone (`disabled: true`); `START` still starts them on request. */
  disabled: string[];
}

/** The actor id of a server's machine among the supervisor's children. */
export const serverActorId = (id: string) => `server:${id}`;

/** The live actor of a server under a running supervisor (for the runtime and tests; decisions never read it). */
export function serverRefOf(snapshot: SupervisorSnapshot, id: string): ServerActorRef | undefined {
  return snapshot.children[serverActorId(id)] as ServerActorRef | undefined;
}

const restartTimer = (id: string) => `restart:${id}`;
const stableTimer = (id: string) => `stable:${id}`;

/**
 * The supervisor: owns one server machine per configured server, starts them in file order, stops them in reverse,
 * and decides every restart (policy, backoff, limits, strategy). Pure: it decides from its own context and the
 * events' data (an exit carries its time and a random draw); timers run on the actor system's clock.
 */
export const supervisorMachine = setup({
  types: {
    context: {} as SupervisorMachineContext,
    events: {} as SupervisorMachineEvent,
    input: {} as SupervisorMachineInput,
  },
  actors: { server: serverMachine },
}).createMachine({
  id: 'supervisor',
  context: ({ input, spawn }) => {
    const children = input.servers.map((server) => {
      spawn('server', { id: serverActorId(server.id), input: { server } });
      const { policy, backoff, limit } = server.restart;
      return newChildBook(server.id, policy, backoff, limit);
    });
    return {
      books: {
        strategy: input.strategy,
        limit: input.limit,
        global: { times: [], n: 0 },
        children,
        groups: {},
        escalated: false,
      },
      escalation: null,
      failures: {},
      disabled: input.servers.filter((s) => s.disabled).map((s) => s.id),
    };
  },
  on: {
    START_ALL: {
      actions: enqueueActions(({ context, enqueue }) => {
        enqueue.assign({ escalation: null, books: { ...context.books, escalated: false } });
        const disabled = new Set(context.disabled);
        for (const id of childIds(context.books)) {
          if (!disabled.has(id)) enqueue.sendTo(serverActorId(id), { type: 'START' });
        }
      }),
    },
    STOP_ALL: {
      actions: enqueueActions(({ context, enqueue }) => {
        const children = context.books.children.map((c) => ({ ...c, intent: 'stop' as const }));
        for (const id of childIds(context.books).reverse()) {
          enqueue.cancel(restartTimer(id));
          enqueue.sendTo(serverActorId(id), { type: 'STOP', reason: 'stopped' });
        }
        enqueue.assign({ books: { ...context.books, children, groups: {} } });
      }),
    },
    START: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const child = childOf(context.books, event.id);
        if (!child) return;
        // A server mid-stop ignores START (its process is still ending), so a START after a stop of ours waits
        // for that exit and starts it then, as a restart does; the exit is still ours and counts for nothing.
        const afterExit = child.phase === 'running' && child.intent !== null;
        const books = withChild(leaveGroups(context.books, event.id), event.id, {
          history: clearHistory(),
          failedStarts: 0,
          intent: afterExit ? 'manual-restart' : null,
        });
        enqueue.assign({ books });
        enqueue.cancel(restartTimer(event.id));
        if (!afterExit) enqueue.sendTo(serverActorId(event.id), { type: 'START' });
      }),
    },
    STOP: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        if (!childOf(context.books, event.id)) return;
        enqueue.assign({
          books: withChild(leaveGroups(context.books, event.id), event.id, { intent: 'stop' }),
        });
        enqueue.cancel(restartTimer(event.id));
        enqueue.sendTo(serverActorId(event.id), { type: 'STOP', reason: 'stopped' });
      }),
    },
    RESTART: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const child = childOf(context.books, event.id);
        if (!child) return;
        const running = child.phase === 'running';
        const books = withChild(leaveGroups(context.books, event.id), event.id, {
          history: clearHistory(),
          failedStarts: 0,
          intent: running ? 'manual-restart' : null,
        });
        enqueue.assign({ books });
        enqueue.cancel(restartTimer(event.id));
        enqueue.sendTo(
          serverActorId(event.id),
          running ? { type: 'STOP', reason: 'restart' } : { type: 'START' },
        );
      }),
    },
    RESTART_DUE: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { books, steps } = restartDue(context.books, event.id);
        enqueue.assign({ books });
        carryOut(steps, opsOf(enqueue));
      }),
    },
    'CHILD.PHASE': {
      actions: assign({ books: ({ context, event }) => notePhase(context.books, event.id, event.phase) }),
    },
    'CHILD.READY': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const child = childOf(context.books, event.id);
        if (!child) return;
        // Stability is a timer on the system's clock, so no timestamp has to live in the context.
        enqueue.cancel(stableTimer(event.id));
        enqueue.raise(
          { type: 'CHILD.STABLE', id: event.id },
          { delay: child.backoff.resetAfterMs, id: stableTimer(event.id) },
        );
      }),
    },
    'CHILD.STABLE': {
      actions: assign({ books: ({ context, event }) => markStable(context.books, event.id) }),
    },
    ADD_CHILD: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const books = addChild(context.books, event.server, event.order);
        if (!books) return;
        const { id } = event.server;
        enqueue.spawnChild('server', { id: serverActorId(id), input: { server: event.server } });
        const disabled = context.disabled.filter((d) => d !== id);
        enqueue.assign({ books, disabled: event.server.disabled ? [...disabled, id] : disabled });
      }),
    },
    REMOVE_CHILD: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const books = removeChild(context.books, event.id);
        if (!books) return;
        enqueue.cancel(restartTimer(event.id));
        enqueue.cancel(stableTimer(event.id));
        enqueue.stopChild(serverActorId(event.id));
        const failures = { ...context.failures };
        delete failures[event.id];
        enqueue.assign({ books, failures, disabled: context.disabled.filter((d) => d !== event.id) });
      }),
    },
    SET_POLICY: {
      actions: assign({
        books: ({ context, event }) => ({ ...context.books, strategy: event.strategy, limit: event.limit }),
      }),
    },
    'CHILD.UNTRUSTED': {},
    'CHILD.EXITED': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.cancel(stableTimer(event.id));
        const { books, steps } = decideExit(context.books, event.id, event);
        let failures = context.failures;
        let escalation = context.escalation;
        carryOut(
          steps,
          opsOf(
            enqueue,
            (id, why) => {
              failures = { ...failures, [id]: why };
            },
            (why) => {
              escalation = why;
            },
          ),
        );
        enqueue.assign({ books, failures, escalation });
      }),
    },
  },
});

interface Ops {
  send(id: string, event: ServerMachineEvent): void;
  schedule(id: string, delayMs: number): void;
  cancel(id: string): void;
  failed(id: string, why: string): void;
  escalated(why: string): void;
}

// biome-ignore lint/suspicious/noExplicitAny: the enqueuer's generic type is not nameable outside enqueueActions.
function opsOf(enqueue: any, failed: Ops['failed'] = () => {}, escalated: Ops['escalated'] = () => {}): Ops {
  return {
    send: (id, ev) => enqueue.sendTo(serverActorId(id), ev),
    schedule: (id, delay) => enqueue.raise({ type: 'RESTART_DUE', id }, { delay, id: restartTimer(id) }),
    cancel: (id) => enqueue.cancel(restartTimer(id)),
    failed,
    escalated,
  };
}

function carryOut(steps: readonly Step[], ops: Ops): void {
  for (const step of steps) {
    switch (step.kind) {
      case 'escalate':
        ops.escalated(step.why);
        break;
      case 'halt':
        ops.send(step.id, { type: 'HALT' });
        break;
      case 'give-up':
        ops.failed(step.id, step.why);
        ops.send(step.id, { type: 'GIVE_UP' });
        break;
      case 'start':
        ops.send(step.id, { type: 'START' });
        break;
      case 'restart-later':
        ops.send(step.id, { type: 'RESTART_LATER' });
        break;
      case 'stop':
        ops.send(step.id, { type: 'STOP', reason: step.reason });
        break;
      case 'schedule':
        ops.schedule(step.id, step.delayMs);
        break;
      case 'cancel':
        ops.cancel(step.id);
        break;
    }
  }
}

export type SupervisorMachine = typeof supervisorMachine;
export type SupervisorActorRef = ActorRefFrom<SupervisorMachine>;
export type SupervisorSnapshot = SnapshotFrom<SupervisorMachine>;
