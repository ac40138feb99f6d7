import { randomBytes } from 'node:crypto';
import { assertLaunchValues } from '../config/launch-values.js';
import type { ServerConfig, SupervisorConfig } from '../config/types.js';
import type { SupervisorActorRef } from '../machines/supervisor.machine.js';
import { type ContainmentKind, chooseContainment } from '../process/containment.js';
import { persistLedger, reapOrphans } from '../process/state-dir.js';
import type { CallOptions } from '../protocol/call-options.js';
import { type CallOutcome, outcomeText } from '../protocol/call-outcome.js';
import type { ConnectionEvent } from '../protocol/connection.js';
import { type SurfaceOutcome, surfaceFailure } from '../protocol/surface-outcome.js';
import type { CallToolResult, ListedTool } from '../protocol/tool-calls.js';
import type { ListingCut } from '../protocol/tool-listing.js';
import type { ExposedPrompt } from '../registry/exposed-prompt.js';
import { TrustGate } from '../trust/trust-gate.js';
import { FramePool } from '../workers/frame-pool.js';
import { clampTimeout } from './call-input.js';
import { type CallRecord, CallRecords } from './call-records.js';
import { CallSpans, callTarget } from './call-spans.js';
import { type ClientHandlers, ClientSide, notifyRootsChanged } from './client-side.js';
import { Connections } from './connections.js';
import { createFleetActor } from './fleet-actor.js';
import { FleetCalls } from './fleet-calls.js';
import type { CompleteResult, CompletionRef } from './fleet-complete.js';
import { FleetResources } from './fleet-resources.js';
import { FleetSurface, type GetPromptResult } from './fleet-surface.js';
import { FleetTasks, type TaskMethod, type TaskPage } from './fleet-tasks.js';
import { FleetTools } from './fleet-tools.js';
import { HeldNotices } from './held-notices.js';
import { LifecycleSpans } from './lifecycle-spans.js';
import { type CacheHint, ListHints } from './list-hints.js';
import type { LogLevel, SetLevelOutcome } from './log-level.js';
import type { InputOptions, PromptInputOptions } from './prompt-input.js';
import { Reloader, type ReloadOutcome } from './reload.js';
import { readReloadConfig } from './reload-file.js';
import { reloadHost } from './reload-host.js';
import type {
  ResourceListOutcome,
  ResourceReadOutcome,
  ResourceSubscribeOutcome,
  ResourceTemplatesOutcome,
  ResourceUpdate,
} from './resource-outcome.js';
import { identityRow, withProtocolVersion } from './server-identity.js';
import { type ServerLoad, serverLoad } from './server-load.js';
import { ServerWatch } from './server-watch.js';
import { stopInReverse } from './stop-order.js';
import { handlersOf, type SupervisorOptions } from './supervisor-options.js';
import { listingNotice, talkNotice } from './talk-notices.js';
import { Tracing } from './tracing.js';
import type { ControlOutcome, ExposedTool, ServerStatus, SupervisorEvent } from './types.js';

export type { SupervisorClock, SupervisorLogger, SupervisorOptions } from './supervisor-options.js';

export type { CallOptions };

const SETTLED = new Set(['ready', 'failed', 'untrusted', 'stopped']);
const DOWN = new Set(['failed', 'untrusted', 'stopped']);

/** The embeddable supervisor: a fleet of MCP servers behind one namespaced tool registry. */
export class Supervisor {
  /** The root XState actor (for inspection and advanced hosts). */
  readonly actor: SupervisorActorRef;
  private readonly pool = new FramePool();
  private readonly connections = new Connections();
  private readonly listHints = new ListHints();
  private readonly listeners = new Set<(e: SupervisorEvent) => void>();
  private readonly servers: Map<string, ServerConfig>;
  private readonly watch: ServerWatch;
  private readonly tools: FleetTools;
  private readonly surface: FleetSurface;
  private readonly resources: FleetResources;
  private readonly tasks: FleetTasks;
  private readonly calls: FleetCalls;
  private readonly callRecords = new CallRecords(
    () => this.now(),
    (name) => this.tools.serverFor(name),
    (message) => this.options.logger?.warn?.(message),
  );
  private readonly tracing = new Tracing();
  private readonly lifecycle = new LifecycleSpans(this.tracing);
  private readonly callSpans = new CallSpans((name) => callTarget(this.tools, this.connections, name));
  private started = false;
  private stopping: Promise<void> | undefined;
  private unpersist: (() => void) | undefined;
  /** The mechanism every server of this instance is spawned under. */
  readonly containment: ContainmentKind;
  /** Names this instance's ledger file and cgroups, so instances sharing a state directory never touch each other's. */
  private readonly owner = randomBytes(4).toString('hex');
  private readonly now: () => number;
  private readonly trust: TrustGate;
  private readonly clientSide: ClientSide;
  private current: SupervisorConfig;
  private readonly reloader: Reloader;

  constructor(
    config: SupervisorConfig,
    private readonly options: SupervisorOptions = {},
  ) {
    this.current = config;
    // A config built in code skipped the loader's checks; what spawn would throw on is refused here instead.
    assertLaunchValues(config);
    this.servers = new Map(config.servers.map((s) => [s.id, s]));
    this.containment = chooseContainment(options.containment ?? config.supervisor.containment ?? 'auto');
    const now = () => options.clock?.now?.() ?? Date.now();
    this.now = now;
    const hostEnv = options.env ?? process.env;
    const trust = new TrustGate({
      storePath: options.trustStore,
      approve: options.approve,
      hostEnv,
      notice: (server, message) => this.emit({ type: 'notice', server, message, at: now() }),
      held: (server, changed) =>
        this.emit({ type: 'tools', server, added: [], removed: [], changed, at: now() }),
    });
    this.trust = trust;
    this.clientSide = new ClientSide(handlersOf(options));
    const deps = {
      pool: this.pool,
      hostEnv,
      gate: options.gate ?? ((server: ServerConfig) => trust.check(server)),
      filterTools: <T extends ListedTool>(server: ServerConfig, tools: T[]) =>
        options.gate ? Promise.resolve(tools) : trust.filterTools(server, tools),
      stdinGraceMs: options.stdinGraceMs,
      containment: this.containment,
      owner: this.owner,
      connections: this.connections,
      now,
      random: options.random ?? Math.random,
      clientSide: this.clientSide,
      onConnectionEvent: (id: string, event: ConnectionEvent) => {
        if (event.type === 'refused')
          this.emit({ type: 'refused', server: id, method: event.method, at: now() });
        this.surface.onConnection(id, event);
        this.resources.onConnectionEvent(id, event);
        this.tasks.onConnection(id, event);
        const notice = talkNotice(event);
        if (notice) this.emit({ type: 'notice', server: id, ...notice, at: now() });
      },
      listHints: this.listHints,
      clock: options.clock,
      onListingCut: (id: string, cut: ListingCut, when: 'handshake' | 'relist') =>
        this.emit({ type: 'notice', server: id, ...listingNotice(cut, when), at: now() }),
      onHealthFail: (id: string, ms: number) =>
        this.emit({
          type: 'notice',
          server: id,
          code: 'HEALTH_FAILED',
          message: `health check got no answer within ${ms} ms`,
          at: now(),
        }),
    };
    this.actor = createFleetActor(config, options, deps);
    // Spans for each server's runs, when the host registered an OpenTelemetry SDK (a no-op otherwise).
    this.listeners.add((e) => this.lifecycle.on(e));
    // XState rethrows actor errors asynchronously and would kill the host: report them instead, and reap.
    this.actor.subscribe({ error: (err) => this.onActorError(err) });
    // Prompts and reads may ask for input as tools do: the same handler answers, declaring the same kinds.
    const hostInput = {
      handler: options.onInputRequired,
      capabilities: options.inputCapabilities ?? { elicitation: {} },
    };
    this.tools = new FleetTools(config, (e) => this.emit({ ...e, at: now() }), options.logger);
    this.surface = new FleetSurface(
      this.servers,
      config.supervisor.separator,
      (id) => this.connections.get(id),
      (e) => this.emit(e),
      now,
      hostInput,
      options.clock,
    );
    this.tasks = new FleetTasks(
      config.servers.map((s) => s.id),
      config.supervisor.separator,
      (id) => this.connections.get(id),
      (id) => clampTimeout(this.servers.get(id)?.timeouts.callMs ?? 60_000),
      now,
      (id) => this.servers.get(id)?.maxResultBytes ?? Number.POSITIVE_INFINITY,
    );
    this.resources = new FleetResources({
      servers: config.servers,
      connection: (id) => this.connections.get(id),
      ready: async (id, ms) =>
        (await this.watch.until(id, (s) => s === 'ready' || DOWN.has(s), ms)) === 'ready',
      stopped: () => this.stopping !== undefined,
      changed: (server) => this.emit({ type: 'resources', server, at: now() }),
      warn: (message) => options.logger?.warn?.(message),
      held: new HeldNotices((e) => this.emit({ ...e, at: now() })).of('resource'),
      input: hostInput,
      clock: options.clock,
    });
    this.watch = new ServerWatch(
      this.actor,
      now,
      (e) => {
        this.emit(e.type === 'state' ? withProtocolVersion(e, this.connections.get(e.server)) : e);
        if (e.type === 'state') this.surface.onState(e.server, e.to);
        if (e.type === 'state') this.resources.onState(e.server, e.to);
      },
      (id, snap) => this.tools.update(id, snap),
    );
    this.calls = new FleetCalls({
      servers: this.servers,
      tools: this.tools,
      watch: this.watch,
      connections: this.connections,
      tasks: this.tasks,
      stopped: () => this.stopping !== undefined,
      scopes: options.scopes,
      onInputRequired: options.onInputRequired,
      inputCapabilities: options.inputCapabilities ?? { elicitation: {} },
    });
    this.reloader = new Reloader(
      reloadHost({
        tell: (event) => {
          this.actor.send(event);
        },
        watch: this.watch,
        tools: this.tools,
        prompts: this.surface.prompts,
        resources: this.resources,
        tasks: this.tasks,
        servers: this.servers,
        config: () => this.current,
        setConfig: (next) => {
          this.current = next;
        },
        started: () => this.started,
        stopped: () => this.stopping !== undefined,
        stdinGraceMs: options.stdinGraceMs,
      }),
    );
  }

  /** The config the fleet runs: the one it was made with, or the last one `reload` applied. */
  get config(): SupervisorConfig {
    return this.current;
  }

  /** Starts servers in config order; resolves once every enabled server is ready, failed, untrusted or stopped. */
  async start(): Promise<void> {
    if (this.stopping) return;
    if (!this.started) {
      this.started = true;
      if (this.options.stateDir) this.adoptStateDir(this.options.stateDir);
      this.actor.start();
      this.watch.attach();
    }
    this.actor.send({ type: 'START_ALL' });
    const enabled = this.config.servers.filter((s) => !s.disabled).map((s) => s.id);
    await Promise.all(enabled.map((id) => this.watch.until(id, (state) => SETTLED.has(state))));
  }

  /** Stops every server in reverse order and reaps every process group; idempotent; never leaves a process. */
  stop(): Promise<void> {
    this.stopping ??= this.runStop();
    return this.stopping;
  }

  private async runStop(): Promise<void> {
    this.trust.close();
    this.resources.close();
    this.surface.close();
    if (this.started) {
      await stopInReverse(this.config.supervisor.strategy, this.config.servers, (server) => {
        this.actor.send({ type: 'STOP', id: server.id });
        // Bounded: whatever the machine does meanwhile, the actor's stop below takes every process with it.
        const bound = server.timeouts.shutdownMs + (this.options.stdinGraceMs ?? 1000) + 2000;
        return this.watch.until(server.id, (state) => DOWN.has(state) || state === 'backoff', bound);
      });
      this.actor.send({ type: 'STOP_ALL' });
      await this.connections.closeAll('stopped');
      this.actor.stop();
      // A process actor that was still starting spawns nothing after the actor stopped; wait for any it did spawn.
      await this.connections.closeAll('stopped');
      this.watch.detach();
    }
    this.unpersist?.();
    this.lifecycle.close();
    await this.pool.close();
  }

  /** One row per server: state, pid, restarts, since, last exit, tool count. */
  status(): ServerStatus[] {
    const ctx = this.started ? this.actor.getSnapshot().context : undefined;
    return this.config.servers.map((s) => ({
      ...this.watch.row(s.id, ctx?.books.children[s.id]?.restarts ?? 0, this.tools),
      containment: this.connections.get(s.id)?.link.kind ?? (s.remote ? 'remote' : this.containment),
      ...identityRow(this.connections.get(s.id)),
    }));
  }

  /**
   * How long one of the fleet's lists may be kept (MCP 2026-07-28 cache hints): `tools` (the default) over the
   * ready servers' latest `tools/list`; `prompts`, `resources`, `resourceTemplates` over the servers that list
   * them. The shortest `ttlMs`, `private` if any was; undefined when such a server gave none or there is none.
   */
  listCacheHint(
    list: 'tools' | 'prompts' | 'resources' | 'resourceTemplates' = 'tools',
  ): CacheHint | undefined {
    if (list === 'prompts') return this.surface.promptsCacheHint();
    if (list === 'resources') return this.resources.cacheHint('resources');
    if (list === 'resourceTemplates') return this.resources.cacheHint('templates');
    const ready = this.status().flatMap((s) => (s.state === 'ready' ? [s.id] : []));
    return this.listHints.fleet(ready);
  }

  /** Every tool of every ready server, under its namespaced name. */
  listTools(): ExposedTool[] {
    return [...this.tools.table.tools];
  }

  /**
   * Calls a tool by its namespaced name; never rejects: every failure, a malformed call included, resolves to an
   * `ERROR: ` string. {@link callToolOutcome} is the same call with the failure as data.
   */
  async callTool(name: string, args?: Record<string, unknown>, opts?: CallOptions): Promise<string> {
    return outcomeText(await this.callToolOutcome(name, args, opts));
  }

  /** The same call as data: the flattened text, or a failure with its code (docs/outcomes.md); never rejects. */
  callToolOutcome(name: string, args?: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome> {
    const tracer = this.tracing.tracer();
    if (tracer)
      return this.callSpans.outcome(tracer, name, opts, (o) =>
        this.callRecords.outcome(name, () => this.calls.outcome(name, args, o)),
      );
    return this.callRecords.outcome(name, () => this.calls.outcome(name, args, opts));
  }

  /**
   * The same call for gateways: the MCP result with blocks kept and texts capped; never rejects. A failure is
   * `isError`, with its code in `_meta['mcp-supervisor/code']`.
   */
  callToolResult(name: string, args?: Record<string, unknown>, opts?: CallOptions): Promise<CallToolResult> {
    const tracer = this.tracing.tracer();
    if (tracer)
      return this.callSpans.result(tracer, name, opts, (o) =>
        this.callRecords.result(name, () => this.calls.result(name, args, o)),
      );
    return this.callRecords.result(name, () => this.calls.result(name, args, opts));
  }

  /**
   * A task-augmented `tools/call` (MCP tasks): the server's CreateTaskResult, its task id made the fleet's
   * (docs/mcp-surface.md, "Tasks"). Never rejects: a failure is data with its code.
   */
  callToolAsTask(
    name: string,
    args: Record<string, unknown> | undefined,
    task: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<SurfaceOutcome<Record<string, unknown>>> {
    return this.calls.asTask(name, args, task, opts);
  }

  /** `tasks/get`, `tasks/result` or `tasks/cancel` at the server that created the task; never rejects. */
  taskRequest(
    method: TaskMethod,
    taskId: string,
    opts: { maxResultBytes?: number } = {},
  ): Promise<SurfaceOutcome<Record<string, unknown>>> {
    if (this.stopping) return Promise.resolve(surfaceFailure('STOPPED', 'supervisor is stopped'));
    return this.tasks.request(method, taskId, opts);
  }

  /**
   * One page of the tasks of every server that lists tasks, under the fleet's task ids; `nextCursor` asks for the
   * next page, and a cursor this fleet did not hand out fails with `INVALID_CURSOR`. Never rejects.
   */
  listTasks(opts: { cursor?: string } = {}): Promise<SurfaceOutcome<TaskPage>> {
    if (this.stopping) return Promise.resolve(surfaceFailure('STOPPED', 'supervisor is stopped'));
    return this.tasks.list(opts.cursor);
  }

  /** Hears each server's `notifications/tasks/status`, under the fleet's task ids. */
  onTaskStatus(listener: (params: Record<string, unknown>) => void): () => void {
    return this.tasks.onStatus(listener);
  }

  /** Every prompt of every ready server, under its namespaced name (made as tools' names are). */
  listPrompts(): ExposedPrompt[] {
    return this.surface.listPrompts();
  }

  /**
   * Gets a prompt by its namespaced name; never rejects: a failure is data with its code (`UNKNOWN_PROMPT`, …).
   * `opts` carry a 2026 input round as for tools (`retry`, `passInputRequired`, `inputCapabilities`).
   */
  async getPrompt(
    name: string,
    args?: Record<string, string>,
    opts?: PromptInputOptions,
  ): Promise<SurfaceOutcome<GetPromptResult>> {
    if (this.stopping) return surfaceFailure('STOPPED', 'supervisor is stopped');
    return this.surface.getPrompt(name, args, opts);
  }

  /** `completion/complete`, routed by the prompt's namespaced name or the resource template's URI; never rejects. */
  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> | undefined },
  ): Promise<SurfaceOutcome<CompleteResult>> {
    if (this.stopping) return surfaceFailure('STOPPED', 'supervisor is stopped');
    return this.surface.complete(ref, argument, context);
  }

  /** Sends `logging/setLevel` to every ready server that declares logging (and to each that becomes ready later). */
  setLogLevel(level: LogLevel): Promise<SetLevelOutcome> {
    return this.surface.setLogLevel(level);
  }

  /** Whether some ready server declares an MCP capability (`prompts`, `completions`, `logging`, …). */
  offers(capability: string): boolean {
    return this.surface.offers(capability);
  }

  /**
   * One page of every ready server's resources, in config order (docs/registry.md, "Resource URIs"); pass the
   * `nextCursor` back for the next page. Never rejects: a failure is data with its code.
   */
  listResources(opts: { cursor?: string } = {}): Promise<ResourceListOutcome> {
    return this.resources.list(opts.cursor);
  }

  /** Every ready server's resource templates, template URIs under the same rules as resource URIs. */
  listResourceTemplates(): Promise<ResourceTemplatesOutcome> {
    return this.resources.templates();
  }

  /**
   * Reads a resource from the server that owns its URI; never rejects (`UNKNOWN_RESOURCE`, `SERVER_DOWN`, …).
   * A read that answers `input_required` runs `onInputRequired` rounds as a tool call does; `opts` as `getPrompt`'s.
   */
  readResource(uri: string, opts?: InputOptions): Promise<ResourceReadOutcome> {
    return this.resources.read(uri, opts);
  }

  /**
   * Subscribes to a resource at its owning server: `listener` hears that server's `resources/updated` for that
   * resource and nothing else. Subscriptions survive a restart of the server. Never rejects.
   */
  subscribeResource(
    uri: string,
    listener: (update: ResourceUpdate) => void,
  ): Promise<ResourceSubscribeOutcome> {
    return this.resources.subscribe(uri, listener);
  }

  /** The fleet's URI for a URI a server gave (a resource link in a tool result): `readResource` follows it back. */
  resourceUriOf(server: string, uri: string): string {
    return this.resources.uriOf(server, uri);
  }

  /**
   * Replaces who answers servers' sampling, elicitation and roots requests (the options' `onSampling`,
   * `onElicitation`, `roots`). What a server is told it may ask is fixed at its handshake: set them before `start()`.
   */
  answerServerRequests(handlers: ClientHandlers): void {
    this.clientSide.set(handlers);
  }

  /** Sends `notifications/roots/list_changed` to every connected server with `roots: client`. */
  rootsChanged(): void {
    notifyRootsChanged(this.config.servers, (id) => this.connections.get(id));
  }

  /** Restarts one server now, clearing its restart history. */
  restart(id: string): ControlOutcome {
    return this.control('restart', id, 'RESTART');
  }

  /** Stops one server; a pending backoff is cancelled. */
  stopServer(id: string): ControlOutcome {
    return this.control('stopServer', id, 'STOP');
  }

  /** Starts one server (also a disabled, failed or stopped one), clearing its restart history. */
  startServer(id: string): ControlOutcome {
    return this.control('startServer', id, 'START');
  }

  /** Hears each tool call as it finishes (server, tool, duration, outcome code, result size); returns the unsubscribe. */
  onCall(listener: (record: CallRecord) => void): () => void {
    return this.callRecords.on(listener);
  }

  /**
   * Applies a changed config to the running fleet (docs/embedding.md, "Reload"): unchanged servers keep running,
   * changed ones restart with their new definition (through the trust gate), removed ones stop, added ones start.
   * Resolves what it did per server and emits a `reload` event; reloads run one at a time. Never rejects.
   */
  async reload(config: SupervisorConfig): Promise<ReloadOutcome> {
    const outcome = await this.reloader.reload(config);
    this.emitReload(outcome);
    return outcome;
  }

  /**
   * Re-reads a config file and applies it as `reload` does; a file that does not load changes nothing and is
   * refused `INVALID_CONFIG` with its located problems (and a `reload_refused` event). Never rejects for the file.
   */
  async reloadFile(path: string): Promise<ReloadOutcome> {
    const read = await readReloadConfig(path);
    if ('servers' in read) return this.reload(read);
    this.emitReload(read);
    return read;
  }

  private emitReload(outcome: ReloadOutcome): void {
    if (outcome.ok) {
      const { servers, applied, needsRestart } = outcome;
      this.emit({ type: 'reload', servers, applied, needsRestart, at: this.now() });
      return;
    }
    const problems = 'problems' in outcome ? outcome.problems : [];
    this.emit({
      type: 'reload_refused',
      code: outcome.code,
      message: outcome.message,
      problems,
      at: this.now(),
    });
  }

  /**
   * What each server carries now (calls in flight, queued and dropped messages, bytes read and written by its
   * process), read on demand for metrics: nothing of it is counted on the call path.
   */
  load(): ServerLoad[] {
    return serverLoad(
      this.config.servers.map((s) => s.id),
      this.connections,
      this.callRecords,
    );
  }

  /** Subscribes to typed events; returns the unsubscribe function. */
  subscribe(listener: (event: SupervisorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private control(verb: string, id: string, type: 'RESTART' | 'STOP' | 'START'): ControlOutcome {
    // After stop() nothing may start again, and a STOP is moot: the stop in progress owns every server.
    if (this.stopping) return { ok: false, code: 'STOPPED' };
    // Before start() an event would wait in the actor's mailbox and be overridden by start() itself.
    if (!this.started) return { ok: false, code: 'NOT_STARTED' };
    if (typeof id !== 'string' || !this.servers.has(id)) {
      const known = this.config.servers.map((s) => s.id).join(', ');
      this.emit({
        type: 'notice',
        server: typeof id === 'string' ? id : null,
        message: `${verb}: unknown server '${String(id)}' (servers: ${known || 'none'})`,
        at: this.now(),
      });
      return { ok: false, code: 'UNKNOWN_SERVER' };
    }
    this.actor.send({ type, id });
    return { ok: true };
  }

  private adoptStateDir(dir: string): void {
    try {
      for (const found of reapOrphans(dir)) {
        const message =
          found.code === 'REAPED'
            ? `reaped what a crashed host left running: ${found.detail}`
            : `left a crashed host's ledger entry alone: ${found.detail}`;
        this.emit({ type: 'notice', server: found.server, code: found.code, message, at: Date.now() });
      }
      this.unpersist = persistLedger(dir, this.owner);
    } catch (err) {
      this.options.logger?.warn?.(`state directory ${dir} unusable: ${(err as Error).message}`);
    }
  }

  private emit(event: SupervisorEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.options.logger?.warn?.(`event listener threw: ${String(err)}`);
      }
    }
  }

  private onActorError(err: unknown): void {
    this.options.logger?.warn?.(`supervisor actor failed: ${String(err)}; reaping every server`);
    this.connections.reapNow('reaped');
  }
}

/** Creates a supervisor for a validated config; call `start()` to run it. */
export function createSupervisor(config: SupervisorConfig, options?: SupervisorOptions): Supervisor {
  return new Supervisor(config, options);
}
