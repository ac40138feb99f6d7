import { createMachine } from 'xstate';
import type { FleetPhase } from '../../src/inspector/page-data.js';
import { toStatechart } from '../../src/inspector/statechart.js';
import type { UiSource } from '../../src/inspector/ui-server.js';
import type { CallRecord } from '../../src/supervisor/calls/records.js';
import type {
  ExposedTool,
  LastExit,
  ServerState,
  ServerStatus,
  SupervisorEvent,
} from '../../src/supervisor/types.js';

// A stand-in for the server machine: every ServerState is a state key, the live ones nested under `alive`.
const serverMachine = createMachine({
  id: 'server',
  initial: 'alive',
  states: {
    alive: {
      initial: 'spawning',
      on: { EXIT: 'backoff', STOP: 'stopping' },
      states: {
        spawning: { on: { SPAWNED: 'handshaking' } },
        handshaking: { on: { INITIALIZED: 'ready' }, after: { 30000: '#server.backoff' } },
        ready: { on: { PING_FAILED: 'wedged', TOOLS_CHANGED: 'ready' } },
        wedged: { on: { PING_OK: 'ready' } },
      },
    },
    stopping: { on: { EXITED: 'stopped' } },
    backoff: { on: { RETRY: 'alive', GIVE_UP: 'failed', STOP: 'stopped' } },
    failed: { type: 'final' },
    stopped: { on: { START: 'alive' } },
    untrusted: { on: { APPROVED: 'alive' } },
  },
});

/** An in-memory fleet with an event emitter the test drives. */
export class FakeSource implements UiSource {
  readonly statechart = toStatechart(serverMachine);
  readonly listeners = new Set<(e: SupervisorEvent) => void>();
  readonly callListeners = new Set<(r: CallRecord) => void>();
  servers: ServerStatus[];
  tools: ExposedTool[] = [];
  fleetPhase: FleetPhase | undefined;

  constructor(servers: ServerStatus[]) {
    this.servers = servers;
  }

  status(): ServerStatus[] {
    return structuredClone(this.servers);
  }

  subscribe(listener: (e: SupervisorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(e: SupervisorEvent): void {
    for (const l of [...this.listeners]) l(e);
  }

  listTools(): ExposedTool[] {
    return this.tools;
  }

  onCall(listener: (r: CallRecord) => void): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }

  phase(): FleetPhase | undefined {
    return this.fleetPhase;
  }

  /** A finished call, as the supervisor reports it. */
  call(record: Omit<CallRecord, 'at'> & { at?: number }): void {
    for (const l of [...this.callListeners]) l({ at: Date.now(), ...record });
  }

  /** A stderr line of a server. */
  stderr(server: string, line: string): void {
    this.emit({ type: 'stderr', server, line, dropped: 0, at: Date.now() });
  }

  /** Moves a server to a new state the way the supervisor would: status first, then the event. */
  transition(id: string, to: ServerState, at = Date.now()): void {
    const s = this.#get(id);
    const from = s.state;
    s.state = to;
    s.since = at;
    if (to !== 'ready') s.tools = 0;
    this.emit({ type: 'state', server: id, from, to, at });
  }

  /** Records an exit of a server and emits it. */
  exit(id: string, exit: Omit<LastExit, 'at'>, at = Date.now()): void {
    const s = this.#get(id);
    s.lastExit = { ...exit, at };
    delete s.pid;
    this.emit({ type: 'exit', server: id, ...exit, at });
  }

  #get(id: string): ServerStatus {
    const s = this.servers.find((x) => x.id === id);
    if (!s) throw new Error(`no server ${id}`);
    return s;
  }
}

/** A realistic fleet of three: one ready, one in backoff after a crash, one failed for good. */
export function sampleFleet(now = Date.now()): ServerStatus[] {
  return [
    { id: 'files', state: 'ready', pid: 48121, restarts: 0, since: now - 754_000, tools: 6 },
    {
      id: 'search',
      state: 'backoff',
      restarts: 2,
      since: now - 1_500,
      tools: 0,
      lastExit: {
        code: 1,
        signal: null,
        reason: 'crashed',
        stderrTail:
          'search-server v0.4.2 listening on stdio\nloading index from ./data/index.bin\n' +
          "Error: ENOENT: no such file or directory, open './data/index.bin'\n" +
          '    at Object.openSync (node:fs:573:18)\n    at loadIndex (file:///srv/search/index.js:41:17)',
        at: now - 1_600,
      },
    },
    {
      id: 'git',
      state: 'failed',
      restarts: 5,
      since: now - 42_000,
      tools: 0,
      lastExit: {
        code: null,
        signal: 'SIGKILL',
        reason: 'wedged: 3 pings unanswered',
        stderrTail: 'git-mcp: repository lock held by another process\n',
        at: now - 42_100,
      },
    },
  ];
}
