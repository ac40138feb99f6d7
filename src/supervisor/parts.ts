import { randomBytes } from 'node:crypto';
import type { ServerConfig, SupervisorConfig } from '../config/types.js';
import type { SupervisorActorRef, SupervisorMachineEvent } from '../machines/supervisor.machine.js';
import { type ContainmentKind, chooseContainment } from '../process/containment.js';
import type { ConnectionEvent } from '../protocol/connection-types.js';
import { TrustGate } from '../trust/trust-gate.js';
import { FramePool } from '../workers/frame-pool.js';
import { CallRecords } from './calls/records.js';
import { FleetCalls } from './calls/tool-calls.js';
import { FleetTools } from './calls/tool-table.js';
import { EventListeners } from './event-listeners.js';
import { CallSpans, callTarget } from './observe/call-spans.js';
import { LifecycleSpans } from './observe/lifecycle-spans.js';
import { StderrEvents } from './observe/stderr-events.js';
import { Tracing } from './observe/tracing.js';
import { handlersOf, type SupervisorOptions } from './options.js';
import { buildBesideTools } from './parts-beside-tools.js';
import type { FleetPrompts } from './prompts/prompts.js';
import { ToldReloads } from './reload/event.js';
import { reloadHost } from './reload/host.js';
import { Reloader } from './reload/reloader.js';
import type { FleetResources } from './resources/resources.js';
import { ClientSide } from './runtime/client-side.js';
import { Connections } from './runtime/connections.js';
import { runtimeDeps } from './runtime/deps.js';
import { withProtocolVersion } from './runtime/identity.js';
import { ListHints } from './runtime/list-hints.js';
import { createFleetActor } from './runtime/root-actor.js';
import { SecretDigests } from './runtime/secret-digests.js';
import { ServerWatch } from './runtime/watch.js';
import { DOWN } from './server-state.js';
import { holdTaskQuestions, type TaskInputs } from './tasks/inputs.js';
import type { FleetTasks } from './tasks/tasks.js';
import type { SupervisorEvent } from './types.js';

/** What the parts ask of the supervisor that holds them. */
export interface FleetHost {
  /** Sends the root actor an event: the facade alone sends to it. */
  tell: (event: SupervisorMachineEvent) => void;
  started: () => boolean;
  stopped: () => boolean;
  config: () => SupervisorConfig;
  setConfig: (next: SupervisorConfig) => void;
}

/** Everything a supervisor runs on, wired to each other and to its host. */
export interface FleetParts {
  actor: SupervisorActorRef;
  tell: (event: SupervisorMachineEvent) => void;
  /** The host's event listeners: every part tells its events through them. */
  listeners: EventListeners;
  pool: FramePool;
  connections: Connections;
  listHints: ListHints;
  servers: Map<string, ServerConfig>;
  watch: ServerWatch;
  tools: FleetTools;
  prompts: FleetPrompts;
  resources: FleetResources;
  tasks: FleetTasks;
  calls: FleetCalls;
  callRecords: CallRecords;
  tracing: Tracing;
  lifecycle: LifecycleSpans;
  callSpans: CallSpans;
  /** Each server's stderr lines: every one to `onStderr`, and as rate-limited `stderr` events. */
  stderr: StderrEvents;
  containment: ContainmentKind;
  /** Names this instance's ledger file and cgroups, so instances sharing a state directory never touch each other's. */
  owner: string;
  now: () => number;
  trust: TrustGate;
  clientSide: ClientSide;
  /** What servers ask for tasks whose callers poll for it (the 2026 tasks extension through a gateway). */
  taskInputs: TaskInputs;
  reloader: Reloader;
  /** Reloads through `reloader`, each outcome told as an event. */
  reloads: ToldReloads;
}

/** Builds a supervisor's parts for `config`; nothing runs until the supervisor starts the actor. */
export function buildFleetParts(
  config: SupervisorConfig,
  options: SupervisorOptions,
  host: FleetHost,
): FleetParts {
  const listeners = new EventListeners((message) => options.logger?.warn?.(message));
  const emit = (event: SupervisorEvent) => listeners.emit(event);
  const pool = new FramePool();
  const connections = new Connections();
  const listHints = new ListHints();
  const secretDigests = new SecretDigests();
  const now = () => options.clock?.now?.() ?? Date.now();
  const callRecords = new CallRecords(
    now,
    (name) => tools.serverFor(name),
    (message) => options.logger?.warn?.(message),
  );
  const tracing = new Tracing();
  const lifecycle = new LifecycleSpans(tracing);
  const callSpans = new CallSpans((name) => callTarget(tools, connections, name));
  const owner = randomBytes(4).toString('hex');
  const servers = new Map(config.servers.map((s) => [s.id, s]));
  const containment = chooseContainment(options.containment ?? config.supervisor.containment ?? 'auto');
  const hostEnv = options.env ?? process.env;
  const trust = new TrustGate({
    storePath: options.trustStore,
    scope: config.file,
    approve: options.approve,
    hostEnv,
    notice: (server, message) => emit({ type: 'notice', server, message, at: now() }),
    held: (server, changed) => emit({ type: 'tools', server, added: [], removed: [], changed, at: now() }),
  });
  const stderr = new StderrEvents(emit, now, (message) => options.logger?.warn?.(message));
  const clientSide = new ClientSide(handlersOf(options), options.declareTaskQuestions === true);
  const onConnection = (id: string, event: ConnectionEvent) => {
    if (event.type === 'stderr') return stderr.line(id, event.line);
    prompts.onConnection(id, event);
    resources.onConnectionEvent(id, event);
    tasks.onConnection(id, event);
  };
  const base = {
    pool,
    hostEnv,
    trust,
    containment,
    owner,
    connections,
    now,
    clientSide,
    listHints,
    secretDigests,
  };
  const actor = createFleetActor(config, options, runtimeDeps({ ...base, onConnection, emit }, options));
  const tools = new FleetTools(config, (e) => emit({ ...e, at: now() }), options.logger);
  const { prompts, tasks, resources } = buildBesideTools(config, options, {
    servers,
    connection: (id) => connections.get(id),
    now,
    emit,
    ready: async (id, ms) => (await watch.until(id, (s) => s === 'ready' || DOWN.has(s), ms)) === 'ready',
    stopped: host.stopped,
  });
  const watch = new ServerWatch(
    actor,
    now,
    (e) => {
      emit(e.type === 'state' ? withProtocolVersion(e, connections.get(e.server)) : e);
      if (e.type === 'state') prompts.onState(e.server, e.to);
      if (e.type === 'state') resources.onState(e.server, e.to);
    },
    (id, snap) => tools.update(id, snap),
  );
  const calls = new FleetCalls({
    servers,
    tools,
    watch,
    connections,
    tasks,
    stopped: host.stopped,
    now,
    scopes: options.scopes,
    onInputRequired: options.onInputRequired,
    inputCapabilities: options.inputCapabilities ?? { elicitation: {} },
  });
  const reloader = new Reloader(
    reloadHost({
      tell: host.tell,
      watch,
      tools,
      prompts: prompts.catalog,
      resources,
      tasks,
      servers,
      config: host.config,
      setConfig: host.setConfig,
      started: host.started,
      stopped: host.stopped,
      stdinGraceMs: options.stdinGraceMs,
      secretDigests,
    }),
  );
  // Spans for each server's runs, when the host registered an OpenTelemetry SDK (a no-op otherwise).
  listeners.add((e) => lifecycle.on(e));
  // XState rethrows actor errors asynchronously and would kill the host: report them instead, and reap.
  actor.subscribe({
    error: (err) => {
      options.logger?.warn?.(`supervisor actor failed: ${String(err)}; reaping every server`);
      connections.reapNow('reaped');
    },
  });
  return {
    actor,
    tell: host.tell,
    listeners,
    pool,
    connections,
    listHints,
    servers,
    watch,
    tools,
    prompts,
    resources,
    tasks,
    calls,
    callRecords,
    tracing,
    lifecycle,
    callSpans,
    stderr,
    containment,
    owner,
    now,
    trust,
    clientSide,
    taskInputs: holdTaskQuestions(clientSide, tasks),
    reloader,
    reloads: new ToldReloads(reloader, emit, now),
  };
}
