import { assertLaunchValues } from '../config/launch-values.js';
import type { SupervisorConfig } from '../config/types.js';
import type { SupervisorActorRef } from '../machines/supervisor.machine.js';
import type { ContainmentKind } from '../process/containment.js';
import type { CallOptions } from '../protocol/call-options.js';
import {
  type CallDecode,
  type CallOutcome,
  type OutcomeOf,
  outcomeResult,
  outcomeText,
} from '../protocol/call-outcome.js';
import { type SurfaceOutcome, surfaceFailure } from '../protocol/surface-outcome.js';
import type { CallToolResult } from '../protocol/tool-calls.js';
import type { ExposedPrompt } from '../registry/exposed-prompt.js';
import type { CallRecord } from './calls/records.js';
import { tracedCall } from './calls/traced-calls.js';
import type { InputOptions, PromptInputOptions } from './input-required/host-input.js';
import { spanned } from './observe/request-spans.js';
import type { SupervisorOptions } from './options.js';
import { buildFleetParts, type FleetParts } from './parts.js';
import type { CompleteResult, CompletionRef } from './prompts/complete.js';
import type { LogLevel, SetLevelOutcome } from './prompts/log-level.js';
import type { GetPromptResult } from './prompts/prompts.js';
import type { ReloadOutcome } from './reload/reloader.js';
import type {
  ResourceListOutcome,
  ResourceReadOutcome,
  ResourceSubscribeOutcome,
  ResourceTemplatesOutcome,
  ResourceUpdate,
} from './resources/outcome.js';
import { type ClientHandlers, notifyRootsChanged } from './runtime/client-side.js';
import type { CacheHint } from './runtime/list-hints.js';
import { type ServerLoad, serverLoad } from './runtime/load.js';
import { controlServer } from './server-control.js';
import { runFleet, settleFleet } from './start.js';
import { statusRows } from './status.js';
import { stopFleet } from './stop.js';
import type { TaskQuestion } from './tasks/inputs.js';
import type { TaskMethod, TaskPage } from './tasks/tasks.js';
import type { ControlOutcome, ExposedTool, ServerStatus, SupervisorEvent } from './types.js';

export type { SupervisorClock, SupervisorLogger, SupervisorOptions } from './options.js';

export type { CallOptions };

/** The embeddable supervisor: a fleet of MCP servers behind one namespaced tool registry. */
export class Supervisor {
  /** The root XState actor (for inspection and advanced hosts). */
  readonly actor: SupervisorActorRef;
  /** The mechanism every server of this instance is spawned under. */
  readonly containment: ContainmentKind;
  private readonly parts: FleetParts;
  private started = false;
  private stopping: Promise<void> | undefined;
  private unpersist: (() => void) | undefined;
  private current: SupervisorConfig;

  constructor(
    config: SupervisorConfig,
    private readonly options: SupervisorOptions = {},
  ) {
    this.current = config;
    // A config built in code skipped the loader's checks; what spawn would throw on is refused here instead.
    assertLaunchValues(config);
    this.parts = buildFleetParts(config, options, {
      tell: (event) => {
        this.actor.send(event);
      },
      started: () => this.started,
      stopped: () => this.stopping !== undefined,
      config: () => this.current,
      setConfig: (next) => {
        this.current = next;
      },
    });
    this.actor = this.parts.actor;
    this.containment = this.parts.containment;
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
      this.unpersist = runFleet(this.parts, this.options, (e) => this.parts.listeners.emit(e));
    }
    await settleFleet(this.parts, this.config);
  }

  /** Stops every server in reverse order and reaps every process group; idempotent; never leaves a process. */
  stop(): Promise<void> {
    const { config, started, options, unpersist } = this;
    this.stopping ??= stopFleet(this.parts, config, started, options.stdinGraceMs, unpersist);
    return this.stopping;
  }

  /** One row per server: state, pid, restarts, since, last exit, tool count. */
  status(): ServerStatus[] {
    return statusRows(this.parts, this.config.servers, this.started);
  }

  /**
   * How long one of the fleet's lists may be kept (MCP 2026-07-28 cache hints): `tools` (the default) over the
   * ready servers' latest `tools/list`; `prompts`, `resources`, `resourceTemplates` over the servers that list
   * them. The shortest `ttlMs`, `private` if any was; undefined when such a server gave none or there is none.
   */
  listCacheHint(
    list: 'tools' | 'prompts' | 'resources' | 'resourceTemplates' = 'tools',
  ): CacheHint | undefined {
    if (list === 'prompts') return this.parts.prompts.promptsCacheHint();
    if (list === 'resources') return this.parts.resources.cacheHint('resources');
    if (list === 'resourceTemplates') return this.parts.resources.cacheHint('templates');
    const ready = this.status().flatMap((s) => (s.state === 'ready' ? [s.id] : []));
    return this.parts.listHints.fleet(ready);
  }

  /** Every tool of every ready server, under its namespaced name. */
  listTools(): ExposedTool[] {
    return [...this.parts.tools.table.tools];
  }

  /** The tool exposed now under `name` (of a ready server), or undefined: one lookup, no list built. */
  getTool(name: string): ExposedTool | undefined {
    return this.parts.tools.table.get(name);
  }

  /**
   * Every tool call goes through here: checked, routed, made, recorded for `onCall` and traced; its outcome as
   * data, the answer decoded as flattened text (`'text'`) or as the capped MCP result (`'result'`, for gateways).
   * Never rejects. The three methods below are renderings of it.
   */
  call<D extends CallDecode>(
    name: string,
    args: Record<string, unknown> | undefined,
    opts: CallOptions | undefined,
    decode: D,
  ): Promise<OutcomeOf<D>> {
    return tracedCall(this.parts, name, args, opts, decode);
  }

  /**
   * Calls a tool by its namespaced name; never rejects: every failure, a malformed call included, resolves to an
   * `ERROR: ` string. {@link callToolOutcome} is the same call with the failure as data.
   */
  callTool(name: string, args?: Record<string, unknown>, opts?: CallOptions): Promise<string> {
    return this.call(name, args, opts, 'text').then(outcomeText);
  }

  /** The same call as data: the flattened text, or a failure with its code (docs/outcomes.md); never rejects. */
  callToolOutcome(name: string, args?: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome> {
    return this.call(name, args, opts, 'text');
  }

  /**
   * The same call as an MCP result, blocks kept and texts capped; never rejects. A failure is `isError`, with its
   * code in `_meta['mcp-supervisor/code']`; with `passInputRequired`, a server's `input_required` round is its
   * InputRequiredResult as it came.
   */
  callToolResult(name: string, args?: Record<string, unknown>, opts?: CallOptions): Promise<CallToolResult> {
    return this.call(name, args, opts, 'result').then(outcomeResult);
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
    return this.parts.calls.asTask(name, args, task, opts);
  }

  /**
   * `tasks/get`, `tasks/result` or `tasks/cancel` at the server that created the task; never rejects. A task bound
   * to another `owner` than this request's (see `CallOptions.taskOwner`) is `UNKNOWN_TASK`.
   */
  taskRequest(
    method: TaskMethod,
    taskId: string,
    opts: { maxResultBytes?: number; inputResponses?: Record<string, unknown>; owner?: string } = {},
  ): Promise<SurfaceOutcome<Record<string, unknown>>> {
    if (this.stopping) return Promise.resolve(surfaceFailure('STOPPED', 'supervisor is stopped'));
    return this.parts.tasks.request(method, taskId, opts);
  }

  /**
   * What the server of task `taskId` (the fleet's id) asks and waits on, by key, for a task created with
   * `pollTaskQuestions`: each an MCP request (`elicitation/create`, `sampling/createMessage`, `roots/list`) as the
   * 2026 tasks extension's `inputRequests` has it. Asking also makes sure a 2025 server has the chance to ask (its
   * questions come while `tasks/result` is open). Empty when it waits on nothing, or is bound to another owner.
   */
  taskQuestions(taskId: string, opts: { owner?: string } = {}): Record<string, TaskQuestion> {
    if (!this.parts.tasks.ownedBy(taskId, opts.owner)) return {};
    if (!this.stopping) this.parts.tasks.pull(taskId);
    return this.parts.taskInputs.questions(taskId);
  }

  /** Whose task `taskId` is: a 2026 server's (the tasks extension), a 2025 one's, or none this owner may reach. */
  taskEra(taskId: string, opts: { owner?: string } = {}): 'modern' | 'legacy' | undefined {
    return this.parts.tasks.ownedBy(taskId, opts.owner) ? this.parts.tasks.eraOf(taskId) : undefined;
  }

  /** Answers questions of {@link taskQuestions} by key (keys not waiting are ignored); how many were answered. */
  answerTaskQuestions(
    taskId: string,
    responses: Record<string, unknown>,
    opts: { owner?: string } = {},
  ): number {
    if (!this.parts.tasks.ownedBy(taskId, opts.owner)) return 0;
    return this.parts.taskInputs.answer(taskId, responses);
  }

  /**
   * One page of the tasks of every server that lists tasks, under the fleet's task ids; `nextCursor` asks for the
   * next page, and a cursor this fleet did not hand out fails with `INVALID_CURSOR`. Only the tasks bound to
   * `owner` are listed (without one, those bound to no one). Never rejects.
   */
  listTasks(opts: { cursor?: string; owner?: string } = {}): Promise<SurfaceOutcome<TaskPage>> {
    if (this.stopping) return Promise.resolve(surfaceFailure('STOPPED', 'supervisor is stopped'));
    return this.parts.tasks.list(opts.cursor, opts.owner);
  }

  /**
   * Hears each server's `notifications/tasks/status`, under the fleet's task ids, with the owner the task is
   * bound to: tell it to that owner alone.
   */
  onTaskStatus(listener: (params: Record<string, unknown>, owner: string | undefined) => void): () => void {
    return this.parts.tasks.onStatus(listener);
  }

  /** Every prompt of every ready server, under its namespaced name (made as tools' names are). */
  listPrompts(): ExposedPrompt[] {
    return this.parts.prompts.listPrompts();
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
    const tracer = this.parts.tracing.tracer();
    if (!tracer) return this.parts.prompts.getPrompt(name, args, opts);
    const prompt = this.parts.prompts.listPrompts().find((p) => p.name === name)?.prompt ?? name;
    const attributes = {
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': prompt,
      'mcp_supervisor.prompt': name,
    };
    return spanned(tracer, `prompts/get ${prompt}`, attributes, opts, (traced) =>
      this.parts.prompts.getPrompt(name, args, traced),
    );
  }

  /** `completion/complete`, routed by the prompt's namespaced name or the resource template's URI; never rejects. */
  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> | undefined },
  ): Promise<SurfaceOutcome<CompleteResult>> {
    if (this.stopping) return surfaceFailure('STOPPED', 'supervisor is stopped');
    return this.parts.prompts.complete(ref, argument, context);
  }

  /** Sends `logging/setLevel` to every ready server that declares logging (and to each that becomes ready later). */
  setLogLevel(level: LogLevel): Promise<SetLevelOutcome> {
    return this.parts.prompts.setLogLevel(level);
  }

  /** Whether some ready server declares an MCP capability (`prompts`, `completions`, `logging`, …). */
  offers(capability: string): boolean {
    return this.parts.prompts.offers(capability);
  }

  /**
   * One page of every ready server's resources, in config order (docs/registry.md, "Resource URIs"); pass the
   * `nextCursor` back for the next page. Never rejects: a failure is data with its code.
   */
  listResources(opts: { cursor?: string } = {}): Promise<ResourceListOutcome> {
    return this.parts.resources.list(opts.cursor);
  }

  /** Every ready server's resource templates, template URIs under the same rules as resource URIs. */
  listResourceTemplates(): Promise<ResourceTemplatesOutcome> {
    return this.parts.resources.templates();
  }

  /**
   * Reads a resource from the server that owns its URI; never rejects (`UNKNOWN_RESOURCE`, `SERVER_DOWN`, …).
   * A read that answers `input_required` runs `onInputRequired` rounds as a tool call does; `opts` as `getPrompt`'s.
   */
  readResource(uri: string, opts?: InputOptions): Promise<ResourceReadOutcome> {
    const tracer = this.parts.tracing.tracer();
    if (!tracer) return this.parts.resources.read(uri, opts);
    const attributes = { 'mcp.method.name': 'resources/read', 'mcp.resource.uri': uri };
    return spanned(tracer, 'resources/read', attributes, opts, (traced) =>
      this.parts.resources.read(uri, traced),
    );
  }

  /**
   * Subscribes to a resource at its owning server: `listener` hears that server's `resources/updated` for that
   * resource and nothing else. Subscriptions survive a restart of the server. Never rejects.
   */
  subscribeResource(
    uri: string,
    listener: (update: ResourceUpdate) => void,
  ): Promise<ResourceSubscribeOutcome> {
    return this.parts.resources.subscribe(uri, listener);
  }

  /** The fleet's URI for a URI a server gave (a resource link in a tool result): `readResource` follows it back. */
  resourceUriOf(server: string, uri: string): string {
    return this.parts.resources.uriOf(server, uri);
  }

  /**
   * Replaces who answers servers' sampling, elicitation and roots requests (the options' `onSampling`,
   * `onElicitation`, `roots`). What a server is told it may ask is fixed at its handshake: set them before `start()`.
   */
  answerServerRequests(handlers: ClientHandlers): void {
    this.parts.clientSide.set(handlers);
  }

  /** Sends `notifications/roots/list_changed` to every connected server with `roots: client`. */
  rootsChanged(): void {
    notifyRootsChanged(this.config.servers, (id) => this.parts.connections.get(id));
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
    return this.parts.callRecords.on(listener);
  }

  /**
   * Applies a changed config to the running fleet (docs/embedding.md, "Reload"): unchanged servers keep running,
   * changed ones restart with their new definition (through the trust gate), removed ones stop, added ones start.
   * Resolves what it did per server and emits a `reload` event; reloads run one at a time. Never rejects.
   */
  reload(config: SupervisorConfig): Promise<ReloadOutcome> {
    return this.parts.reloads.config(config);
  }

  /**
   * Re-reads a config file and applies it as `reload` does; a file that does not load changes nothing and is
   * refused `INVALID_CONFIG` with its located problems (and a `reload_refused` event). Never rejects for the file.
   */
  reloadFile(path: string): Promise<ReloadOutcome> {
    return this.parts.reloads.file(path);
  }

  /**
   * What each server carries now (calls in flight, queued and dropped messages, bytes read and written by its
   * process), read on demand for metrics: nothing of it is counted on the call path.
   */
  load(): ServerLoad[] {
    return serverLoad(
      this.config.servers.map((s) => s.id),
      this.parts.connections,
      this.parts.callRecords,
    );
  }

  /** Subscribes to typed events; returns the unsubscribe function. */
  subscribe(listener: (event: SupervisorEvent) => void): () => void {
    return this.parts.listeners.add(listener);
  }

  private control(verb: string, id: string, type: 'RESTART' | 'STOP' | 'START'): ControlOutcome {
    const fleet = { stopping: this.stopping !== undefined, started: this.started, config: this.config };
    return controlServer(this.parts, fleet, (e) => this.parts.listeners.emit(e), { verb, id, type });
  }
}

/** Creates a supervisor for a validated config; call `start()` to run it. */
export function createSupervisor(config: SupervisorConfig, options?: SupervisorOptions): Supervisor {
  return new Supervisor(config, options);
}
