import {
  type ActorRefFrom,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  sendParent,
  sendTo,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import type { ChildPhase } from './books.js';
import type {
  HandshakeInput,
  MachineExit,
  MachineServerConfig,
  PingerInput,
  ProcessActorInput,
  ServerMachineContext,
  ServerMachineEvent,
  ServerParentEvent,
  VetToolsInput,
} from './server-machine-types.js';

export type {
  HandshakeInput,
  MachineExit,
  MachineServerConfig,
  PingerInput,
  ProcessActorInput,
  ServerMachineContext,
  ServerMachineEvent,
  ServerParentEvent,
  VetToolsInput,
};

const processId = (generation: number) => `process-${generation}`;
/** The entry action that tells the parent which phase the server entered. */
const reportPhase = (phase: Exclude<ChildPhase, 'exited'>) => ({
  type: 'reportPhase' as const,
  params: { phase },
});

/** What every run (every spawn) starts from; `generation`, the last exit and the config outlive runs. */
function freshRun(): Omit<ServerMachineContext, 'server' | 'generation' | `lastExit${string}`> {
  return {
    pid: undefined,
    tools: [],
    newerTools: null,
    stopKind: null,
    stopReason: null,
    wedged: false,
    beforeReady: true,
    healthFailures: 0,
    callTimeouts: 0,
    fingerprint: undefined,
  };
}

/**
 * One MCP server's life: stopped → spawning → handshaking → ready ⇄ wedged → stopping → exited, then the parent
 * decides backoff, failed or stopped. Pure: the process, handshake and pinger are actors the runtime provides.
 */
export const serverMachine = setup({
  types: {
    context: {} as ServerMachineContext,
    events: {} as ServerMachineEvent,
    input: {} as { server: MachineServerConfig },
  },
  actors: {
    // The runtime replaces these; the defaults do nothing, so a bare machine never touches a process.
    process: fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
      () => () => {},
    ),
    handshake: fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => ({ tools: [] })),
    pinger: fromCallback<{ type: 'noop' }, PingerInput>(() => () => {}),
    // Which of the listed tools may be exposed (the trust gate may ask a person): no startup budget runs here.
    vetTools: fromPromise<{ tools: unknown[] }, VetToolsInput>(async ({ input }) => ({ tools: input.tools })),
  },
  delays: {
    startupTimeout: ({ context }) => context.server.timeouts.startupMs,
  },
  guards: {
    current: ({ context, event }) => 'generation' in event && event.generation === context.generation,
    healthOn: ({ context }) => context.server.health.intervalMs > 0,
    healthThreshold: ({ context }) => context.healthFailures + 1 >= context.server.health.failureThreshold,
    callThreshold: ({ context }) => context.callTimeouts + 1 >= context.server.health.failureThreshold,
  },
  actions: {
    spawnProcess: spawnChild('process', {
      id: ({ context }) => processId(context.generation),
      input: ({ context }) => ({ server: context.server, generation: context.generation }),
    }),
    stopProcess: stopChild(({ context }) => processId(context.generation)),
    askProcessToStop: sendTo(
      ({ context }) => processId(context.generation),
      ({ context }) => ({
        type: 'STOP' as const,
        reason: context.stopReason ?? 'stopped',
        immediate: context.wedged,
      }),
    ),
    reportPhase: enqueueActions(
      ({ context, self, enqueue }, params: { phase: Exclude<ChildPhase, 'exited'> }) => {
        // A server machine run on its own (a test, a host drawing its statechart) has no parent to tell.
        if (self._parent)
          enqueue.sendParent({ type: 'CHILD.PHASE', id: context.server.id, phase: params.phase });
      },
    ),
    noteWedgedReason: assign({
      stopReason: ({ event }) => (event.type === 'PROC.WEDGED' ? event.reason : null),
    }),
    resetRun: assign(({ context }) => ({ ...freshRun(), generation: context.generation + 1 })),
    requestStop: assign({
      stopKind: ({ context }) => context.stopKind ?? 'requested',
      stopReason: ({ context, event }) =>
        context.stopReason ?? (event.type === 'STOP' ? (event.reason ?? 'stopped') : 'stopped'),
    }),
  },
}).createMachine({
  id: 'server',
  context: ({ input }) => ({
    server: input.server,
    generation: 0,
    lastExit: undefined,
    lastExitAt: 0,
    lastExitDraw: 0,
    ...freshRun(),
  }),
  initial: 'stopped',
  states: {
    stopped: { entry: reportPhase('stopped'), on: { START: 'running' } },
    untrusted: { entry: reportPhase('untrusted'), on: { START: 'running' } },
    failed: { entry: reportPhase('failed'), on: { START: 'running' } },
    backoff: {
      entry: reportPhase('backoff'),
      on: { START: 'running', STOP: 'stopped', HALT: 'stopped', GIVE_UP: 'failed' },
    },
    exited: {
      entry: sendParent(({ context }) => ({
        type: 'CHILD.EXITED' as const,
        id: context.server.id,
        exit: context.lastExit!,
        at: context.lastExitAt,
        draw: context.lastExitDraw,
        facts: {
          code: context.lastExit?.code ?? null,
          signal: context.lastExit?.signal ?? null,
          requested: context.stopKind === 'requested',
          beforeReady: context.beforeReady,
          wedged: context.wedged,
        },
      })),
      // No STOP here: the parent answers every CHILD.EXITED, and a STOP it sent before that answer arrived (a
      // sibling's restart, an escalation) is already written in its books as the intent the answer follows.
      on: { RESTART_LATER: 'backoff', GIVE_UP: 'failed', HALT: 'stopped', START: 'running' },
    },
    running: {
      entry: ['resetRun', reportPhase('running'), 'spawnProcess'],
      exit: 'stopProcess',
      initial: 'starting',
      on: {
        'PROC.EXIT': {
          guard: 'current',
          target: 'exited',
          actions: assign({
            lastExit: ({ event }) => event.exit,
            lastExitAt: ({ event }) => event.at,
            lastExitDraw: ({ event }) => event.draw,
            pid: undefined,
          }),
        },
        'PROC.UNTRUSTED': {
          guard: 'current',
          target: 'untrusted',
          actions: [
            assign({ fingerprint: ({ event }) => event.fingerprint }),
            sendParent(({ context, event }) => ({
              type: 'CHILD.UNTRUSTED' as const,
              id: context.server.id,
              fingerprint: event.fingerprint,
            })),
          ],
        },
        STOP: { target: '.stopping', actions: 'requestStop' },
      },
      states: {
        starting: {
          initial: 'spawning',
          on: { 'PROC.WEDGED': { guard: 'current', target: 'wedged', actions: 'noteWedgedReason' } },
          states: {
            spawning: {
              on: {
                'PROC.ASKING': { guard: 'current', target: 'approving' },
                'PROC.SPAWNED': {
                  guard: 'current',
                  target: 'handshaking',
                  actions: assign({ pid: ({ event }) => event.pid }),
                },
              },
            },
            // A person is asked whether this launch may run: nothing is spawned yet, and no budget runs.
            approving: {
              on: {
                'PROC.SPAWNED': {
                  guard: 'current',
                  target: 'handshaking',
                  actions: assign({ pid: ({ event }) => event.pid }),
                },
              },
            },
            handshaking: {
              initial: 'talking',
              states: {
                talking: {
                  // The startup budget runs from the spawn to the tool list: a person slow to approve the launch
                  // (before the spawn) or changed tools (in `vetting`) is no failed start.
                  after: {
                    startupTimeout: {
                      target: '#server.running.stopping',
                      actions: assign({ stopKind: 'failure' as const, stopReason: 'startup_timeout' }),
                    },
                  },
                  invoke: {
                    src: 'handshake',
                    input: ({ context }) => ({ server: context.server, generation: context.generation }),
                    onDone: {
                      target: 'vetting',
                      actions: assign({ tools: ({ event }) => event.output.tools }),
                    },
                    onError: {
                      target: '#server.running.stopping',
                      actions: assign({
                        stopKind: 'failure' as const,
                        stopReason: ({ event }) => handshakeReason(event.error),
                      }),
                    },
                  },
                },
                vetting: {
                  on: {
                    'PROC.TOOLS': {
                      guard: 'current',
                      actions: assign({ newerTools: ({ event }) => event.tools }),
                    },
                  },
                  invoke: {
                    src: 'vetTools',
                    input: ({ context }) => ({ server: context.server, tools: context.tools }),
                    onDone: {
                      target: '#server.running.ready',
                      actions: assign({
                        tools: ({ context, event }) => context.newerTools ?? event.output.tools,
                        newerTools: null,
                      }),
                    },
                    onError: {
                      target: '#server.running.stopping',
                      actions: assign({ stopKind: 'failure' as const, stopReason: 'vetting_failed' }),
                    },
                  },
                },
              },
            },
          },
        },
        ready: {
          entry: [
            assign({ beforeReady: false }),
            sendParent(({ context }) => ({ type: 'CHILD.READY' as const, id: context.server.id })),
          ],
          invoke: {
            src: 'pinger',
            // With health off the pinger is never started: no timer keeps the host alive for nothing.
            input: ({ context }) => ({ server: context.server, generation: context.generation }),
          },
          on: {
            'PROC.TOOLS': { guard: 'current', actions: assign({ tools: ({ event }) => event.tools }) },
            'PROC.WEDGED': { guard: 'current', target: 'wedged', actions: 'noteWedgedReason' },
            'HEALTH.OK': { actions: assign({ healthFailures: 0, callTimeouts: 0 }) },
            'CALL.OK': { actions: assign({ callTimeouts: 0 }) },
            'HEALTH.FAIL': [
              { guard: 'healthThreshold', target: 'wedged' },
              { actions: assign({ healthFailures: ({ context }) => context.healthFailures + 1 }) },
            ],
            'CALL.TIMEOUT': [
              { guard: 'callThreshold', target: 'wedged' },
              { actions: assign({ callTimeouts: ({ context }) => context.callTimeouts + 1 }) },
            ],
          },
        },
        wedged: {
          entry: [
            assign({
              wedged: true,
              stopKind: 'failure' as const,
              stopReason: ({ context }) => context.stopReason ?? 'wedged',
            }),
            'askProcessToStop',
          ],
          on: { STOP: { actions: 'requestStop' } },
        },
        stopping: {
          entry: 'askProcessToStop',
          on: { STOP: {} },
        },
      },
    },
  },
});

export type ServerMachine = typeof serverMachine;
export type ServerActorRef = ActorRefFrom<ServerMachine>;
export type ServerSnapshot = SnapshotFrom<ServerMachine>;

/** States whose inner steps hosts do not see: `handshaking` is one public state, talking or vetting. */
const OPAQUE = new Set(['handshaking']);

/** The public state name of a server snapshot; `exited` is the instant between an exit and the parent's decision. */
export function serverStateOf(snapshot: ServerSnapshot): string {
  let value: unknown = snapshot.value;
  while (typeof value === 'object' && value !== null) {
    const [key, inner] = Object.entries(value as Record<string, unknown>)[0] ?? [];
    if (key === undefined) break;
    if (OPAQUE.has(key)) return key;
    if (typeof inner === 'string') return inner;
    value = inner;
  }
  return String(value);
}

function handshakeReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code.toLowerCase() : 'handshake_failed';
}
