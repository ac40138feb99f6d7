import { assertLaunchValues } from '../config/launch-values.js';
import type { SupervisorConfig } from '../config/types.js';
import type { SupervisorActorRef } from '../machines/supervisor.machine.js';
import type { ContainmentKind } from '../process/containment.js';
import { refuseUnsafeStateDir } from '../process/state-dir-safety.js';
import type { CallOptions } from '../protocol/call-options.js';
import {
  type CallDecode,
  type CallOutcome,
  type OutcomeOf,
  outcomeResult,
  outcomeText,
} from '../protocol/call-outcome.js';
import type { CallToolResult } from '../protocol/tool-calls.js';
import { FleetSearch } from '../search/fleet-search.js';
import type { ToolSearchHit } from '../search/tool-index.js';
import { BesideTools } from './beside-tools.js';
import type { CallRecord } from './calls/records.js';
import { tracedCall } from './calls/traced-calls.js';
import type { ServerStderrLine } from './observe/stderr-events.js';
import type { SupervisorOptions } from './options.js';
import { buildFleetParts, type FleetParts } from './parts.js';
import type { ReloadOutcome } from './reload/reloader.js';
import { type ClientHandlers, notifyRootsChanged } from './runtime/client-side.js';
import type { CacheHint } from './runtime/list-hints.js';
import { type ServerLoad, serverLoad } from './runtime/load.js';
import { controlServer } from './server-control.js';
import { runFleet, settleFleet } from './start.js';
import { statusRows } from './status.js';
import { stopFleet } from './stop.js';
import type { ControlOutcome, ExposedTool, ServerStatus, SupervisorEvent } from './types.js';

export type { SupervisorClock, SupervisorLogger, SupervisorOptions } from './options.js';

export type { CallOptions };

/** The embeddable supervisor: a fleet of MCP servers behind one namespaced tool registry. */
export class Supervisor extends BesideTools {
  /** The root XState actor (for inspection and advanced hosts). */
  readonly actor: SupervisorActorRef;
  /** The mechanism every server of this instance is spawned under. */
  readonly containment: ContainmentKind;
  protected readonly parts: FleetParts;
  private started = false;
  private stopping: Promise<void> | undefined;
  private unpersist: (() => void) | undefined;
  private current: SupervisorConfig;
  private search: FleetSearch | undefined;

  constructor(
    config: SupervisorConfig,
    private readonly options: SupervisorOptions = {},
  ) {
    super();
    this.current = config;
    // A config built in code skipped the loader's checks; what spawn would throw on is refused here instead.
    assertLaunchValues(config);
    // Before anything is written there: another user who can write it could plant links where we write.
    if (options.stateDir) refuseUnsafeStateDir(options.stateDir);
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

  /**
   * The fleet's tools that best match `query` (words of their names, titles, descriptions and parameters; BM25+),
   * best first: at most `limit` (default 8, at most 50). Always over the tools exposed at this moment.
   */
  searchTools(query: string, opts: { limit?: number } = {}): ToolSearchHit[] {
    this.search ??= new FleetSearch(
      () => this.parts.tools.table,
      () => this.status(),
    );
    return this.search.search(query, opts.limit);
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

  /**
   * Hears every stderr line of every server as `{ server, line, at }`, none left out (cut at 4 KiB), for a store
   * that keeps the newest (as `ServerLogs` does); the `stderr` event tells the same lines at a limited rate.
   */
  onStderr(listener: (line: ServerStderrLine) => void): () => void {
    return this.parts.stderr.onLine(listener);
  }

  /** Subscribes to typed events; returns the unsubscribe function. */
  subscribe(listener: (event: SupervisorEvent) => void): () => void {
    return this.parts.listeners.add(listener);
  }

  protected isStopping(): boolean {
    return this.stopping !== undefined;
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
