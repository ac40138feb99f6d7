import { type ActorRefFrom, assign, enqueueActions, type SnapshotFrom, setup } from 'xstate';
import {
  type BackoffConfig,
  clearHistory,
  type LimitConfig,
  type RestartPolicyName,
} from './restart-policy.js';
import {
  type MachineServerConfig,
  type ServerActorRef,
  type ServerParentEvent,
  serverMachine,
} from './server.machine.js';
import {
  type Books,
  decideExit,
  leaveGroups,
  newChildBook,
  restartDue,
  type Step,
} from './supervisor-decisions.js';

/** A server as the supervisor machine needs to know it. */
export interface SupervisedServer extends MachineServerConfig {
  disabled: boolean;
  restart: { policy: RestartPolicyName; backoff: BackoffConfig; limit: LimitConfig };
}

export interface SupervisorMachineInput {
  strategy: Books['strategy'];
  limit: LimitConfig;
  servers: readonly SupervisedServer[];
  now?: () => number;
  random?: () => number;
}

export type SupervisorMachineEvent =
  | ServerParentEvent
  | { type: 'START_ALL' }
  | { type: 'STOP_ALL' }
  | { type: 'START'; id: string }
  | { type: 'STOP'; id: string }
  | { type: 'RESTART'; id: string }
  | { type: 'RESTART_DUE'; id: string };

export interface SupervisorMachineContext {
  books: Books;
  refs: Record<string, ServerActorRef>;
  now: () => number;
  random: () => number;
  /** Why the supervisor gave up on the whole fleet, once it did. */
  escalation: string | null;
  /** Per-server reason for `failed`, for status and events. */
  failures: Record<string, string>;
  /** Servers `START_ALL` leaves alone (`disabled: true`); `START` still starts them on request. */
  disabled: string[];
}

const timerId = (id: string) => `restart:${id}`;

/**
 * The supervisor: owns one server machine per configured server, starts them in file order, stops them in reverse,
 * and decides every restart (policy, backoff, limits, strategy). Pure: timers run on the actor system's clock.
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
    const now = input.now ?? Date.now;
    const refs: Record<string, ServerActorRef> = {};
    const children: Books['children'] = {};
    for (const server of input.servers) {
      refs[server.id] = spawn('server', { id: `server:${server.id}`, input: { server, now } });
      children[server.id] = newChildBook(server.restart.policy, server.restart.backoff, server.restart.limit);
    }
    return {
      books: {
        strategy: input.strategy,
        order: input.servers.map((s) => s.id),
        limit: input.limit,
        global: { times: [], n: 0 },
        children,
        groups: {},
        escalated: false,
      },
      refs,
      now,
      random: input.random ?? Math.random,
      escalation: null,
      failures: {},
      disabled: input.servers.filter((s) => s.disabled).map((s) => s.id),
    };
  },
  on: {
    START_ALL: {
      actions: enqueueActions(({ context, enqueue }) => {
        enqueue.assign({ escalation: null, books: { ...context.books, escalated: false } });
        for (const id of context.books.order) {
          if (!context.disabled.includes(id)) enqueue.sendTo(context.refs[id]!, { type: 'START' });
        }
      }),
    },
    STOP_ALL: {
      actions: enqueueActions(({ context, enqueue }) => {
        const children = { ...context.books.children };
        for (const id of [...context.books.order].reverse()) {
          children[id] = { ...children[id]!, intent: 'stop' };
          enqueue.cancel(timerId(id));
          enqueue.sendTo(context.refs[id]!, { type: 'STOP', reason: 'stopped' });
        }
        enqueue.assign({ books: { ...context.books, children, groups: {} } });
      }),
    },
    START: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const child = context.books.children[event.id];
        if (!child) return;
        const books = withChild(leaveGroups(context.books, event.id), event.id, {
          history: clearHistory(),
          failedStarts: 0,
          intent: null,
        });
        enqueue.assign({ books });
        enqueue.cancel(timerId(event.id));
        enqueue.sendTo(context.refs[event.id]!, { type: 'START' });
      }),
    },
    STOP: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        if (!context.books.children[event.id]) return;
        enqueue.assign({
          books: withChild(leaveGroups(context.books, event.id), event.id, { intent: 'stop' }),
        });
        enqueue.cancel(timerId(event.id));
        enqueue.sendTo(context.refs[event.id]!, { type: 'STOP', reason: 'stopped' });
      }),
    },
    RESTART: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const ref = context.refs[event.id];
        if (!ref) return;
        const running = ref.getSnapshot().matches('running');
        const books = withChild(leaveGroups(context.books, event.id), event.id, {
          history: clearHistory(),
          failedStarts: 0,
          intent: running ? 'manual-restart' : null,
        });
        enqueue.assign({ books });
        enqueue.cancel(timerId(event.id));
        enqueue.sendTo(ref, running ? { type: 'STOP', reason: 'restart' } : { type: 'START' });
      }),
    },
    RESTART_DUE: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        if (context.books.escalated) return;
        const { books, steps } = restartDue(context.books, event.id, (id) => isRunning(context, id));
        enqueue.assign({ books });
        carryOut(
          steps,
          context.refs,
          opsOf(
            enqueue,
            () => {},
            () => {},
          ),
        );
      }),
    },
    'CHILD.READY': {
      actions: assign({
        books: ({ context, event }) => withChild(context.books, event.id, { readySince: event.at }),
      }),
    },
    'CHILD.UNTRUSTED': {},
    'CHILD.EXITED': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { books, steps } = decideExit(
          context.books,
          event.id,
          event.facts,
          context.now(),
          (id) => isRunning(context, id),
          context.random,
        );
        let failures = context.failures;
        let escalation = context.escalation;
        const ops = opsOf(
          enqueue,
          (id, why) => {
            failures = { ...failures, [id]: why };
          },
          (why) => {
            escalation = why;
          },
        );
        carryOut(steps, context.refs, ops);
        enqueue.assign({ books, failures, escalation });
      }),
    },
  },
});

function isRunning(context: SupervisorMachineContext, id: string): boolean {
  return context.refs[id]?.getSnapshot().matches('running') ?? false;
}

// biome-ignore lint/suspicious/noExplicitAny: the enqueuer's generic type is not nameable outside enqueueActions.
function opsOf(enqueue: any, failed: Ops['failed'], escalated: Ops['escalated']): Ops {
  return {
    send: (ref, ev) => enqueue.sendTo(ref, ev),
    schedule: (id, delay) => enqueue.raise({ type: 'RESTART_DUE', id }, { delay, id: timerId(id) }),
    cancel: (id) => enqueue.cancel(timerId(id)),
    failed,
    escalated,
  };
}

interface Ops {
  send(
    ref: ServerActorRef,
    event: { type: 'HALT' | 'GIVE_UP' | 'START' | 'RESTART_LATER' } | { type: 'STOP'; reason: string },
  ): void;
  schedule(id: string, delayMs: number): void;
  cancel(id: string): void;
  failed(id: string, why: string): void;
  escalated(why: string): void;
}

function carryOut(steps: readonly Step[], refs: Record<string, ServerActorRef>, ops: Ops): void {
  for (const step of steps) {
    if (step.kind === 'escalate') {
      ops.escalated(step.why);
      continue;
    }
    const ref = refs[step.id];
    if (!ref) continue;
    switch (step.kind) {
      case 'halt':
        ops.send(ref, { type: 'HALT' });
        break;
      case 'give-up':
        ops.failed(step.id, step.why);
        ops.send(ref, { type: 'GIVE_UP' });
        break;
      case 'start':
        ops.send(ref, { type: 'START' });
        break;
      case 'start-if-waiting':
        if (ref.getSnapshot().matches('backoff') || ref.getSnapshot().matches('exited'))
          ops.send(ref, { type: 'START' });
        break;
      case 'restart-later':
        ops.send(ref, { type: 'RESTART_LATER' });
        break;
      case 'stop':
        ops.send(ref, { type: 'STOP', reason: step.reason });
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

function withChild(books: Books, id: string, patch: Partial<Books['children'][string]>): Books {
  const child = books.children[id];
  if (!child) return books;
  return { ...books, children: { ...books.children, [id]: { ...child, ...patch } } };
}

export type SupervisorMachine = typeof supervisorMachine;
export type SupervisorActorRef = ActorRefFrom<SupervisorMachine>;
export type SupervisorSnapshot = SnapshotFrom<SupervisorMachine>;
