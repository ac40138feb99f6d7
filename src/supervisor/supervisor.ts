import { randomBytes } from 'node:crypto';
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { assertLaunchValues } from '../config/launch-values.js';
import type { ServerConfig, SupervisorConfig } from '../config/types.js';
import { serverMachine } from '../machines/server.machine.js';
import { type SupervisorActorRef, supervisorMachine } from '../machines/supervisor.machine.js';
import { type ContainmentKind, type ContainmentSetting, chooseContainment } from '../process/containment.js';
import { persistLedger, reapOrphans } from '../process/state-dir.js';
import type { CallOptions, SettledCall } from '../protocol/call-options.js';
import {
  type CallFailure,
  type CallOutcome,
  callFailure,
  failureFromError,
  outcomeResult,
  outcomeText,
} from '../protocol/call-outcome.js';
import type { ConnectionEvent, McpConnection } from '../protocol/connection.js';
import { type SurfaceOutcome, surfaceFailure } from '../protocol/surface-outcome.js';
import {
  type CallToolResult,
  callToolOutcome as callOnConnection,
  callToolResultOutcome as callResultOnConnection,
  type ListedTool,
} from '../protocol/tool-calls.js';
import type { ListingCut } from '../protocol/tool-listing.js';
import type { ExposedPrompt } from '../registry/exposed-prompt.js';
import { checkScopes } from '../registry/scopes.js';
import { TrustGate } from '../trust/trust-gate.js';
import { FramePool } from '../workers/frame-pool.js';
import { checkCallInput, clampTimeout } from './call-input.js';
import { progressOf } from './call-progress.js';
import {
  type ClientHandler,
  type ClientHandlers,
  ClientSide,
  notifyRootsChanged,
  type Root,
} from './client-side.js';
import { Connections } from './connections.js';
import type { CompleteResult, CompletionRef } from './fleet-complete.js';
import { FleetResources } from './fleet-resources.js';
import { FleetSurface, type GetPromptResult } from './fleet-surface.js';
import { FleetTasks, type TaskMethod } from './fleet-tasks.js';
import { FleetTools } from './fleet-tools.js';
import { HeldNotices } from './held-notices.js';
import type { LogLevel, SetLevelOutcome } from './log-level.js';
import type {
  ResourceListOutcome,
  ResourceReadOutcome,
  ResourceSubscribeOutcome,
  ResourceTemplatesOutcome,
  ResourceUpdate,
} from './resource-outcome.js';
import {
  type GateVerdict,
  handshakeActor,
  pingerActor,
  processActor,
  vetToolsActor,
} from './runtime-actors.js';
import { identityRow } from './server-identity.js';
import { ServerWatch } from './server-watch.js';
import { listingNotice, talkNotice } from './talk-notices.js';
import type { ApprovalRequest, ControlOutcome, ExposedTool, ServerStatus, SupervisorEvent } from './types.js';

/** A timer source for the actor system (XState's SimulatedClock fits); `now` makes restart windows use it too. */
export interface SupervisorClock {
  // biome-ignore lint/suspicious/noExplicitAny: XState's own Clock types these loosely.
  setTimeout(fn: (...args: any[]) => void, timeout: number): any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  clearTimeout(id: any): void;
  now?(): number;
}

export interface SupervisorLogger {
  info?(message: string): void;
  warn?(message: string): void;
}

export interface SupervisorOptions {
  /** Trust gate: asked for a server whose fingerprint is not yet trusted. */
  approve?: (request: ApprovalRequest) => boolean | Promise<boolean>;
  /** Trust store file path; default `$XDG_CONFIG_HOME/mcp-supervisor/trust.json` or `~/.config/mcp-supervisor/trust.json`. */
  trustStore?: string;
  /** Any XState inspection observer, passed to `createActor`. */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  logger?: SupervisorLogger;
  /** Clock for timers (XState's SimulatedClock in tests). */
  clock?: SupervisorClock;
  /** Uniform draws in [0, 1) for the backoff jitter, one per exit (tests pin it); default `Math.random`. */
  random?: () => number;
  /** Host environment children may draw on (allowlist, inheritEnv); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Wait after closing a child's stdin before SIGTERM; default min(1 s, shutdown timeout). */
  stdinGraceMs?: number;
  /**
   * A directory where the process-group ledger is kept on disk: a host killed with SIGKILL cannot reap its children,
   * so the next supervisor started with the same directory reaps whatever is still alive (pid reuse checked).
   */
  stateDir?: string;
  /**
   * How each server and everything it starts are held together (default `auto`: cgroup, else pid namespace, else
   * process group; see docs/security.md). A forced mechanism this machine lacks makes the constructor throw.
   * Overrides the config's `supervisor.containment`.
   */
  containment?: ContainmentSetting;
  /** Replaces the trust store and `approve` entirely, for hosts that gate launches themselves (no tool pinning then). */
  gate?: (server: ServerConfig) => Promise<GateVerdict>;
  /**
   * `checked` (the default): a call to a tool whose server or declaration requires scopes is refused unless the
   * caller's `scopes` grant them, a call passing none included. `unchecked`: a call passing no `scopes` is not
   * checked, for hosts that authorize callers themselves; a call that passes scopes is still checked.
   */
  scopes?: 'checked' | 'unchecked';
  /** Answers `sampling/createMessage` of servers with `allow: [sampling]`; without it, they are refused. */
  onSampling?: ClientHandler;
  /** Answers `elicitation/create` of servers with `allow: [elicitation]`; without it, they are refused. */
  onElicitation?: ClientHandler;
  /** The roots answered to servers with `roots: client` (call `rootsChanged()` when they change). */
  roots?: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);
}

export type { CallOptions };

const SETTLED = new Set(['ready', 'failed', 'untrusted', 'stopped']);
const DOWN = new Set(['failed', 'untrusted', 'stopped']);

/** The embeddable supervisor: a fleet of MCP servers behind one namespaced tool registry. */
export class Supervisor {
  /** The root XState actor (for inspection and advanced hosts). */
  readonly actor: SupervisorActorRef;
  private readonly pool = new FramePool();
  private readonly connections = new Connections();
  private readonly listeners = new Set<(e: SupervisorEvent) => void>();
  private readonly servers: Map<string, ServerConfig>;
  private readonly watch: ServerWatch;
  private readonly tools: FleetTools;
  private readonly surface: FleetSurface;
  private readonly resources: FleetResources;
  private readonly tasks: FleetTasks;
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

  constructor(
    readonly config: SupervisorConfig,
    private readonly options: SupervisorOptions = {},
  ) {
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
      onListingCut: (id: string, cut: ListingCut, when: 'handshake' | 'relist') =>
        this.emit({ type: 'notice', server: id, ...listingNotice(cut, when), at: now() }),
    };
    const machine = supervisorMachine.provide({
      actors: {
        server: serverMachine.provide({
          actors: {
            process: processActor(deps),
            handshake: handshakeActor(deps),
            vetTools: vetToolsActor(deps),
            pinger: pingerActor(deps),
          },
        }),
      },
    });
    this.actor = createActor(machine, {
      input: {
        strategy: config.supervisor.strategy,
        limit: config.supervisor.limit,
        servers: config.servers,
      },
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.inspect ? { inspect: options.inspect } : {}),
    });
    // XState rethrows actor errors asynchronously and would kill the host: report them instead, and reap.
    this.actor.subscribe({ error: (err) => this.onActorError(err) });
    this.tools = new FleetTools(config, (e) => this.emit({ ...e, at: now() }), options.logger);
    this.surface = new FleetSurface(
      this.servers,
      config.supervisor.separator,
      (id) => this.connections.get(id),
      (e) => this.emit(e),
      now,
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
    });
    this.watch = new ServerWatch(
      this.actor,
      now,
      (e) => {
        this.emit(e);
        if (e.type === 'state') this.surface.onState(e.server, e.to);
        if (e.type === 'state') this.resources.onState(e.server, e.to);
      },
      (id, snap) => this.tools.update(id, snap),
    );
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
    if (this.started) {
      for (const server of [...this.config.servers].reverse()) {
        this.actor.send({ type: 'STOP', id: server.id });
        // Bounded: whatever the machine does meanwhile, the actor's stop below takes every process with it.
        const bound = server.timeouts.shutdownMs + (this.options.stdinGraceMs ?? 1000) + 2000;
        await this.watch.until(server.id, (state) => DOWN.has(state) || state === 'backoff', bound);
      }
      this.actor.send({ type: 'STOP_ALL' });
      await this.connections.closeAll('stopped');
      this.actor.stop();
      // A process actor that was still starting spawns nothing after the actor stopped; wait for any it did spawn.
      await this.connections.closeAll('stopped');
      this.watch.detach();
    }
    this.unpersist?.();
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
  async callToolOutcome(
    name: string,
    args?: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<CallOutcome> {
    try {
      const target = await this.prepare(name, args, opts);
      if (!target.ok) return target;
      return await callOnConnection(target.conn, target.tool.tool, target.args, target.call);
    } catch (err) {
      return failureFromError(err);
    }
  }

  /**
   * The same call for gateways: the MCP result with blocks kept and texts capped; never rejects. A failure is
   * `isError`, with its code in `_meta['mcp-supervisor/code']`.
   */
  async callToolResult(
    name: string,
    args?: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<CallToolResult> {
    try {
      const target = await this.prepare(name, args, opts);
      if (!target.ok) return outcomeResult(target);
      const outcome = await callResultOnConnection(target.conn, target.tool.tool, target.args, target.call);
      return outcomeResult(outcome);
    } catch (err) {
      return outcomeResult(failureFromError(err));
    }
  }

  /**
   * A task-augmented `tools/call` (MCP tasks): the server's CreateTaskResult, its task id made the fleet's
   * (docs/mcp-surface.md, "Tasks"). Never rejects: a failure is data with its code.
   */
  async callToolAsTask(
    name: string,
    args: Record<string, unknown> | undefined,
    task: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<SurfaceOutcome<Record<string, unknown>>> {
    try {
      const target = await this.prepare(name, args, opts, true);
      if (!target.ok) return target;
      const params = { ...(target.args ? { arguments: target.args } : {}), name: target.tool.tool, task };
      const server = target.call.server ?? target.tool.server;
      return await this.tasks.create(target.conn, server, params, target.call.timeoutMs);
    } catch (err) {
      return failureFromError(err);
    }
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

  /** Every task of every server that lists tasks, under the fleet's task ids; never rejects. */
  listTasks(): Promise<SurfaceOutcome<{ tasks: Record<string, unknown>[] }>> {
    if (this.stopping) return Promise.resolve(surfaceFailure('STOPPED', 'supervisor is stopped'));
    return this.tasks.list();
  }

  /** Hears each server's `notifications/tasks/status`, under the fleet's task ids. */
  onTaskStatus(listener: (params: Record<string, unknown>) => void): () => void {
    return this.tasks.onStatus(listener);
  }

  /** Every prompt of every ready server, under its namespaced name (made as tools' names are). */
  listPrompts(): ExposedPrompt[] {
    return this.surface.listPrompts();
  }

  /** Gets a prompt by its namespaced name; never rejects: a failure is data with its code (`UNKNOWN_PROMPT`, …). */
  async getPrompt(name: string, args?: Record<string, string>): Promise<SurfaceOutcome<GetPromptResult>> {
    if (this.stopping) return surfaceFailure('STOPPED', 'supervisor is stopped');
    return this.surface.getPrompt(name, args);
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

  /** Reads a resource from the server that owns its URI; never rejects (`UNKNOWN_RESOURCE`, `SERVER_DOWN`, …). */
  readResource(uri: string): Promise<ResourceReadOutcome> {
    return this.resources.read(uri);
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

  /** Subscribes to typed events; returns the unsubscribe function. */
  subscribe(listener: (event: SupervisorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Checks a call and waits for its server to be ready, or says why the call cannot be made. */
  private async prepare(
    rawName: unknown,
    rawArgs: unknown,
    rawOpts: unknown,
    asTask = false,
  ): Promise<
    | CallFailure
    | {
        ok: true;
        conn: McpConnection;
        tool: ExposedTool;
        args: Record<string, unknown> | undefined;
        call: SettledCall;
      }
  > {
    const input = checkCallInput(rawName, rawArgs, rawOpts);
    if (!input.ok) return input;
    const { name, opts } = input;
    if (this.stopping) return callFailure('STOPPED', 'supervisor is stopped', { tool: name });
    const serverId = this.tools.serverFor(name);
    const server = serverId ? this.servers.get(serverId) : undefined;
    if (!server) return callFailure('UNKNOWN_TOOL', `unknown tool '${name}'`, { tool: name });
    const where = { server: server.id, tool: name };
    if (opts.signal?.aborted)
      return callFailure('CANCELLED', `tool '${name}' cancelled by the caller`, where);
    const timeoutMs = opts.timeoutMs ?? clampTimeout(server.timeouts.callMs);
    const deadline = Date.now() + timeoutMs;
    const state = await this.watch.until(
      server.id,
      (s) => s === 'ready' || DOWN.has(s),
      timeoutMs,
      opts.signal,
    );
    if (state !== 'ready') {
      if (opts.signal?.aborted)
        return callFailure('CANCELLED', `tool '${name}' cancelled by the caller`, where);
      const why = state === undefined ? `did not become ready within ${timeoutMs} ms` : `is ${state}`;
      const detail = this.watch.failure(server.id);
      return callFailure('SERVER_DOWN', `server '${server.id}' ${why}${detail ? `: ${detail}` : ''}`, where);
    }
    const tool = this.tools.table.get(name);
    const conn = this.connections.get(server.id);
    if (!tool) return callFailure('UNKNOWN_TOOL', `unknown tool '${name}'`, where);
    if (!conn) return callFailure('SERVER_DOWN', `server '${server.id}' is not connected`, where);
    if (!asTask && taskSupportOf(tool) === 'required') {
      const why = `tool '${name}' runs only as a task (its execution.taskSupport is 'required'): call it with callToolAsTask`;
      return callFailure('TASK_REQUIRED', why, where);
    }
    // Fails closed: a call that names no scopes holds none, unless the host said scopes go unchecked.
    if (opts.scopes !== undefined || this.options.scopes !== 'unchecked') {
      const callerScopes = opts.scopes ?? [];
      const check = checkScopes({ pluginWideScopes: server.scopesRequired, callerScopes, tool });
      if (!check.ok) {
        return callFailure('FORBIDDEN', `forbidden: missing scopes: ${check.missing.join(', ')}`, where);
      }
    }
    const call: SettledCall = {
      timeoutMs: Math.max(1, deadline - Date.now()),
      budgetMs: timeoutMs,
      maxBytes: Math.min(server.maxResultBytes, opts.maxResultBytes ?? Number.POSITIVE_INFINITY),
      structuredRequired: tool.outputSchema !== undefined,
      label: name,
      server: server.id,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...progressOf(opts, timeoutMs, deadline),
    };
    return { ok: true, conn, tool, args: input.args, call };
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

function handlersOf(options: SupervisorOptions): ClientHandlers {
  const { roots } = options;
  return {
    sampling: options.onSampling,
    elicitation: options.onElicitation,
    roots: typeof roots === 'function' ? roots : roots ? () => roots : undefined,
  };
}

function taskSupportOf(tool: ExposedTool): unknown {
  const execution = tool.definition?.execution;
  return typeof execution === 'object' && execution !== null
    ? (execution as { taskSupport?: unknown }).taskSupport
    : undefined;
}
