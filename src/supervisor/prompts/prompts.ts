import type { ServerConfig } from '../../config/types.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../framing/json-depth.js';
import { resultKind } from '../../framing/result-type.js';
import type { McpConnection } from '../../protocol/connection.js';
import type { ConnectionEvent } from '../../protocol/connection-types.js';
import { requestOutcome, type SurfaceOutcome, surfaceFailure } from '../../protocol/surface-outcome.js';
import type { ExposedPrompt } from '../../registry/exposed-prompt.js';
import { clampTimeout } from '../calls/call-check.js';
import { HeldNotices } from '../held-notices.js';
import {
  checkPromptInput,
  declaredInput,
  type HostInput,
  type PromptInputOptions,
  promptAnswer,
  promptRetryParams,
  traceParams,
} from '../input-required/host-input.js';
import { inputRounds } from '../input-required/rounds-loop.js';
import { rememberHanded, routeChanged } from '../input-required/route-check.js';
import { InputRoutes } from '../input-required/routes.js';
import type { SupervisorClock } from '../options.js';
import { type CacheHint, ListHints, ListTimers } from '../runtime/list-hints.js';
import type { SupervisorEvent } from '../types.js';
import { PromptCatalog } from './catalog.js';
import { type CompleteResult, type CompletionRef, completeOn } from './complete.js';
import { isLogLevel, type LogLevel, type SetLevelOutcome } from './log-level.js';

type Emit = (e: SupervisorEvent) => void;

export interface GetPromptResult {
  description?: string;
  messages: unknown[];
  [key: string]: unknown;
}

/**
 * Prompts, completion and logging across the fleet, beside the tools: what each ready server offers, routed by
 * explicit maps, with every failure a coded outcome. The facade forwards its events and connection events here.
 */
export class FleetPrompts {
  readonly catalog: PromptCatalog;
  private readonly ready = new Set<string>();
  private level: LogLevel | undefined;
  /** Each server's latest `prompts/list` cache hint (MCP 2026-07-28), and the re-list its ttl asks for. */
  readonly promptHints = new ListHints();
  private readonly ttl: ListTimers;
  /** Which server handed out each `requestState` a gateway's client got, for its retry's route check. */
  private readonly inputRoutes = new InputRoutes();

  constructor(
    private readonly servers: ReadonlyMap<string, ServerConfig>,
    separator: string,
    private readonly connection: (id: string) => McpConnection | undefined,
    private readonly emit: Emit,
    private readonly now: () => number,
    /** Who answers a prompt's input rounds (the host's `onInputRequired`) and what it declares. */
    private readonly input: HostInput = {},
    /** The host's clock, when it gave one: a prompt list's ttl runs on it. */
    clock?: SupervisorClock,
  ) {
    this.ttl = new ListTimers(clock);
    const held = new HeldNotices((e) => emit({ ...e, at: now() }));
    this.catalog = new PromptCatalog(
      [...servers.keys()],
      separator,
      (c) => emit({ type: 'prompts', ...c, at: now() }),
      (server, message, code) =>
        emit({ type: 'notice', server, message, ...(code ? { code } : {}), at: now() }),
      new Set([...servers.values()].filter((s) => s.namespace === false).map((s) => s.id)),
      held.of('prompt'),
    );
  }

  /** A server's state changed: a ready one is read (and told the fleet's log level), any other drops out. */
  onState(server: string, to: string): void {
    if (to !== 'ready') {
      if (to === 'wedged') return;
      this.ready.delete(server);
      this.catalog.drop(server);
      this.ttl.clear(server);
      this.promptHints.set(server, 0, undefined);
      return;
    }
    this.ready.add(server);
    const conn = this.connection(server);
    if (!conn) return;
    this.relistPrompts(server, conn);
    // A 2026 server is told the level on every request (`_meta`), not with logging/setLevel.
    if (this.level && conn.serverInit?.capabilities.logging && !conn.setLogLevel(this.level)) {
      void requestOutcome(conn, server, 'logging/setLevel', { level: this.level }, this.timeout(server));
    }
  }

  /** What a server's connection said besides answers: prompt list changes and log messages. */
  onConnection(server: string, event: ConnectionEvent): void {
    if (event.type === 'prompts_changed' && this.ready.has(server)) {
      const conn = this.connection(server);
      if (conn) this.relistPrompts(server, conn);
    } else if (event.type === 'log') {
      const { level, logger, data } = event.params;
      // Data nested deeper than anything can write out would throw in every listener that logs or forwards it:
      // the message goes on without it, as one cut to its caps does, and the notice says so.
      const tooDeep = nestedDeeperThan(data, MAX_JSON_DEPTH);
      this.emit({
        type: 'log',
        server,
        level: isLogLevel(level) ? level : 'info',
        ...(typeof logger === 'string' ? { logger } : {}),
        data: tooDeep ? undefined : data,
        at: this.now(),
      });
      if (tooDeep) {
        const message = `sent a notifications/message whose data nests more than ${MAX_JSON_DEPTH} levels deep: passed on without data`;
        this.emit({ type: 'notice', server, code: 'MESSAGE_CUT', message, at: this.now() });
      }
    }
  }

  /** Lists a server's prompts and keeps the list for its ttl: when that runs out, the same spawn is listed again. */
  private relistPrompts(server: string, conn: McpConnection): void {
    void this.catalog.refresh(server, conn, this.timeout(server)).then((listed) => {
      if (listed === false || this.connection(server) !== conn || !this.ready.has(server)) return;
      this.promptHints.set(server, 0, listed.hint);
      this.ttl.arm(server, listed.hint, () => {
        if (this.connection(server) === conn && this.ready.has(server)) this.relistPrompts(server, conn);
      });
    });
  }

  /** How long the fleet's prompt list may be kept: over the servers that list prompts (see `ListHints.fleet`). */
  promptsCacheHint(): CacheHint | undefined {
    const listing = [...this.servers.keys()].filter((id) => this.catalog.has(id));
    return listing.length === 0 ? undefined : this.promptHints.fleet(listing);
  }

  /** No re-list fires after this; idempotent. */
  close(): void {
    this.ttl.close();
  }

  /** Whether any ready server declares a capability (`prompts`, `completions`, `logging`). */
  offers(capability: string): boolean {
    return [...this.ready].some((id) => Boolean(this.connection(id)?.serverInit?.capabilities[capability]));
  }

  listPrompts(): ExposedPrompt[] {
    return this.catalog.list();
  }

  async getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: PromptInputOptions,
  ): Promise<SurfaceOutcome<GetPromptResult>> {
    const opts = checkPromptInput(options);
    if (typeof opts === 'string') return surfaceFailure('INVALID_CALL', `invalid prompt options: ${opts}`);
    if (args !== undefined && !isStringRecord(args)) {
      return surfaceFailure('INVALID_CALL', 'invalid prompt arguments: expected an object of strings');
    }
    const prompt = typeof name === 'string' ? this.catalog.get(name) : undefined;
    if (!prompt) return surfaceFailure('UNKNOWN_PROMPT', `unknown prompt '${String(name)}'`);
    const conn = this.connection(prompt.server);
    if (!conn)
      return surfaceFailure('SERVER_DOWN', `server '${prompt.server}' is not connected`, prompt.server);
    const changed = routeChanged(this.inputRoutes, opts.retry, prompt.server, `prompt '${name}'`);
    if (changed) return surfaceFailure('ROUTE_CHANGED', changed, prompt.server);
    const declared = declaredInput(opts, this.input);
    const rounds = await inputRounds<SurfaceOutcome<GetPromptResult>>({
      what: `prompt '${name}'`,
      server: prompt.server,
      method: 'prompts/get',
      name,
      handler: opts.passInputRequired ? undefined : this.input.handler,
      send: async (retry) => {
        const params = {
          name: prompt.prompt,
          ...(args !== undefined ? { arguments: args } : {}),
          ...promptRetryParams(retry ? { retry } : opts),
          ...traceParams(opts),
        };
        const timeout = this.timeout(prompt.server);
        const sent = await requestOutcome<GetPromptResult>(
          conn,
          prompt.server,
          'prompts/get',
          params,
          timeout,
          declared,
          opts.caller,
        );
        const kind = sent.ok ? resultKind(sent.result) : undefined;
        if (kind?.kind === 'input_required' && !opts.passInputRequired) return { input: kind.input };
        return { done: promptAnswer(sent, name, opts) };
      },
    });
    if (!rounds.ok) {
      const failure = surfaceFailure(rounds.code, rounds.message, prompt.server);
      return rounds.input ? { ...failure, input: rounds.input } : failure;
    }
    const out = rounds.value;
    const handed = out.ok ? resultKind(out.result) : undefined;
    if (handed?.kind === 'input_required') rememberHanded(this.inputRoutes, handed.input, prompt.server);
    if (out.ok && out.result.resultType !== 'input_required' && !Array.isArray(out.result.messages)) {
      return surfaceFailure(
        'INVALID_RESULT',
        `prompts/get of '${name}' answered without messages`,
        prompt.server,
      );
    }
    return out;
  }

  complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> | undefined },
    opts: { caller?: string } = {},
  ): Promise<SurfaceOutcome<CompleteResult>> {
    const caller = (opts as { caller?: unknown } | null)?.caller;
    if (caller !== undefined && typeof caller !== 'string')
      return Promise.resolve(surfaceFailure('INVALID_CALL', 'invalid completion: caller must be a string'));
    const ready = [...this.servers.keys()].flatMap((id) => {
      if (!this.ready.has(id)) return [];
      const conn = this.connection(id);
      return conn ? [{ id, conn, timeoutMs: this.timeout(id) }] : [];
    });
    return completeOn(ready, (n) => this.catalog.get(n), ref, argument, context, caller);
  }

  /** Sends `logging/setLevel` to every ready server that declares logging; remembered for servers that start later. */
  async setLogLevel(level: LogLevel): Promise<SetLevelOutcome> {
    if (!isLogLevel(level))
      return { ok: false, code: 'INVALID_CALL', message: `unknown log level '${String(level)}'` };
    this.level = level;
    const targets = [...this.ready].filter((id) => this.connection(id)?.serverInit?.capabilities.logging);
    const results = await Promise.all(
      targets.map(async (id) => {
        const conn = this.connection(id);
        if (!conn) return surfaceFailure('SERVER_DOWN', `server '${id}' is not connected`, id);
        if (conn.setLogLevel(level)) return { ok: true as const, server: id };
        return requestOutcome(conn, id, 'logging/setLevel', { level }, this.timeout(id));
      }),
    );
    return {
      ok: true,
      servers: results.flatMap((r) => (r.ok ? [r.server] : [])),
      failed: results.flatMap((r) => (r.ok ? [] : [r])),
    };
  }

  private timeout(id: string): number {
    return clampTimeout(this.servers.get(id)?.timeouts.callMs ?? 30_000);
  }
}

function isStringRecord(v: unknown): v is Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  return Object.values(v).every((x) => typeof x === 'string');
}
