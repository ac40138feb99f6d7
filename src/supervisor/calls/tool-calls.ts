import type { ServerConfig } from '../../config/types.js';
import type { InputRequired } from '../../framing/result-type.js';
import type { CallOptions, SettledCall } from '../../protocol/call-options.js';
import {
  type CallDecode,
  type CallFailure,
  type CallOutcome,
  type CallResultOutcome,
  callFailure,
  failureFromError,
  type OutcomeOf,
} from '../../protocol/call-outcome.js';
import type { McpConnection } from '../../protocol/connection.js';
import { traceMeta } from '../../protocol/request-meta.js';
import type { SurfaceOutcome } from '../../protocol/surface-outcome.js';
import {
  callToolOutcome as callOnConnection,
  callParams,
  callToolResultOutcome as callResultOnConnection,
} from '../../protocol/tool-calls.js';
import { checkScopes } from '../../registry/scopes.js';
import type { InputHandler } from '../input-required/rounds.js';
import { inputRounds } from '../input-required/rounds-loop.js';
import { InputRoutes } from '../input-required/routes.js';
import type { Connections } from '../runtime/connections.js';
import type { ServerWatch } from '../runtime/watch.js';
import { DOWN } from '../server-state.js';
import { type FleetTasks, TASKS_EXTENSION } from '../tasks/tasks.js';
import type { ExposedTool } from '../types.js';
import { type CheckedCall, checkCall, clampTimeout } from './call-check.js';
import { progressOf } from './progress.js';
import type { FleetTools } from './tool-table.js';

const readyOrDown = (s: string) => s === 'ready' || DOWN.has(s);

export interface FleetCallsDeps {
  servers: ReadonlyMap<string, ServerConfig>;
  tools: FleetTools;
  watch: ServerWatch;
  connections: Connections;
  tasks: FleetTasks;
  stopped: () => boolean;
  /** The time deadlines are counted in (the host's clock when it gave one). */
  now: () => number;
  /** The host's `scopes` option. */
  scopes: 'checked' | 'unchecked' | undefined;
  /** The host's `onInputRequired` option: answers a server's `input_required` round. */
  onInputRequired?: InputHandler | undefined;
  /** What `onInputRequired` can answer, declared on each call to a 2026 server (`inputCapabilities`). */
  inputCapabilities?: Record<string, unknown> | undefined;
}

/**
 * Tool calls across the fleet, behind `Supervisor.call` and its renderings (`callTool…`): each call checked, routed by the live
 * table to its server (waiting for it to be ready within the call's timeout), scope-checked, and made; every
 * failure a coded outcome, never a rejection.
 */
export class FleetCalls {
  private readonly inputRoutes = new InputRoutes();

  constructor(private readonly deps: FleetCallsDeps) {}

  /**
   * Every tool call: checked, routed by the live table to its server (waiting for it to be ready within the
   * call's timeout), scope-checked, made, and its input rounds answered; the answer decoded as `decode` asks. A
   * failure is data with its code (docs/outcomes.md), never a rejection.
   */
  call<D extends CallDecode>(
    name: string,
    args: Record<string, unknown> | undefined,
    opts: CallOptions | undefined,
    decode: D,
  ): Promise<OutcomeOf<D>> {
    let prepared: Prepared | Promise<Prepared>;
    try {
      prepared = this.prepare(name, args, opts);
    } catch (err) {
      return Promise.resolve(failureFromError(err));
    }
    // No async frame on the way of a call to a ready server: most of what a call allocated was such frames.
    if (!(prepared instanceof Promise)) return this.callPrepared(prepared, decode);
    return prepared.then((target) => this.callPrepared(target, decode), asFailure);
  }

  private callPrepared<D extends CallDecode>(target: Prepared, decode: D): Promise<OutcomeOf<D>> {
    if (!target.ok) return Promise.resolve(target);
    const { conn, tool, args } = target;
    const send = (call: SettledCall) =>
      (decode === 'text' ? callOnConnection : callResultOnConnection)(conn, tool.tool, args, call) as Promise<
        OutcomeOf<D>
      >;
    return send(target.call).then(
      (first) =>
        first.ok || first.code !== 'INPUT_REQUIRED' || first.input === undefined
          ? first
          : this.inputRounds(target, first, first.input, send),
      asFailure,
    );
  }

  /**
   * A server asked for input. A gateway's call hands the round back to its client as it came (the client's retry
   * must come back to this server); a host's call has `onInputRequired` answer it, the rounds beginning with the
   * server's answer already in hand, each retry with the call's whole budget.
   */
  private inputRounds<O extends CallOutcome | CallResultOutcome>(
    target: Prepared & { ok: true },
    first: O,
    input: InputRequired,
    send: (call: SettledCall) => Promise<O>,
  ): Promise<O | CallFailure> {
    const { call, tool } = target;
    if (call.passInputRequired) {
      if (input.requestState !== undefined) this.inputRoutes.remember(input.requestState, tool.server);
      return Promise.resolve({ ...first, passed: true });
    }
    const label = call.label ?? tool.name;
    let pending: O | undefined = first;
    const rounds = inputRounds<O>({
      what: `tool '${label}'`,
      server: call.server ?? tool.server,
      method: 'tools/call',
      name: label,
      handler: this.deps.onInputRequired,
      nobody: 'the host has no onInputRequired to answer it',
      signal: call.signal,
      send: (retry) => {
        const answer = pending;
        pending = undefined;
        const sent = answer
          ? Promise.resolve(answer)
          : send({ ...call, timeoutMs: call.budgetMs ?? call.timeoutMs, ...(retry ? { retry } : {}) });
        return sent.then((out) =>
          !out.ok && out.code === 'INPUT_REQUIRED' && out.input !== undefined
            ? { input: out.input }
            : { done: out },
        );
      },
    });
    return rounds.then((end) => {
      if (end.ok) return end.value;
      const failure = callFailure(end.code, end.message, { server: call.server, tool: label });
      return end.input ? { ...failure, input: end.input } : failure;
    }, asFailure);
  }

  /**
   * A task-augmented `tools/call` (MCP tasks): the server's CreateTaskResult, its task id made the fleet's
   * (docs/mcp-surface.md, "Tasks"). Never rejects: a failure is data with its code.
   */
  async asTask(
    name: string,
    args: Record<string, unknown> | undefined,
    task: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<SurfaceOutcome<Record<string, unknown>>> {
    try {
      const prepared = this.prepare(name, args, opts, true);
      const target = prepared instanceof Promise ? await prepared : prepared;
      if (!target.ok) return target;
      const { conn, tool, call } = target;
      const server = call.server ?? tool.server;
      const binding = { polled: call.pollTaskQuestions === true, owner: call.taskOwner };
      if (conn.era === 'modern') {
        // 2026: no `task` param; the call declares the tasks extension, and the server decides.
        const caps = { ...(call.inputCapabilities ?? {}), extensions: { [TASKS_EXTENSION]: {} } };
        const params = callParams(tool.tool, target.args, call);
        const sent = { capabilities: caps, caller: call.caller };
        const out = await this.deps.tasks.create(conn, server, params, call.timeoutMs, binding, sent);
        // An input round first: its retry must come back to this server.
        const state =
          out.ok && out.result.resultType === 'input_required' ? out.result.requestState : undefined;
        if (typeof state === 'string') this.inputRoutes.remember(state, tool.server);
        return out;
      }
      const params: Record<string, unknown> = {
        ...(target.args ? { arguments: target.args } : {}),
        name: tool.tool,
        task,
      };
      // The caller's trace context travels as a plain call's does (checked, in `_meta`).
      const meta = traceMeta(call.trace as Record<string, unknown> | undefined);
      if (meta) params._meta = meta;
      return await this.deps.tasks.create(conn, server, params, call.timeoutMs, binding, {
        caller: call.caller,
      });
    } catch (err) {
      return failureFromError(err);
    }
  }

  /** A gateway's call declares what its client can answer; a host's, what its `onInputRequired` can. */
  private declaredInput(opts: CallOptions): Record<string, unknown> | undefined {
    return opts.passInputRequired
      ? opts.inputCapabilities
      : (opts.inputCapabilities ?? (this.deps.onInputRequired ? this.deps.inputCapabilities : undefined));
  }

  /**
   * Checks a call and waits for its server to be ready, or says why the call cannot be made. A call to a ready
   * server (the usual case) is settled synchronously: no promise, no predicate, no microtask hop.
   */
  private prepare(
    rawName: unknown,
    rawArgs: unknown,
    rawOpts: unknown,
    asTask = false,
  ): Prepared | Promise<Prepared> {
    const input = checkCall(rawName, rawArgs, rawOpts);
    if (!input.ok) return input;
    const { name, opts } = input;
    if (this.deps.stopped()) return callFailure('STOPPED', 'supervisor is stopped', { tool: name });
    const serverId = this.deps.tools.serverFor(name);
    const server = serverId ? this.deps.servers.get(serverId) : undefined;
    if (!server) return callFailure('UNKNOWN_TOOL', `unknown tool '${name}'`, { tool: name });
    const where = { server: server.id, tool: name };
    if (opts.signal?.aborted)
      return callFailure('CANCELLED', `tool '${name}' cancelled by the caller`, where);
    const timeoutMs = opts.timeoutMs ?? clampTimeout(server.timeouts.callMs);
    const deadline = this.deps.now() + timeoutMs;
    if (this.deps.watch.stateOf(server.id) === 'ready')
      return this.target(input, server, where, timeoutMs, deadline, asTask, 'ready');
    return this.deps.watch
      .until(server.id, readyOrDown, timeoutMs, opts.signal)
      .then((state) => this.target(input, server, where, timeoutMs, deadline, asTask, state));
  }

  /** The rest of {@link prepare}, once the server's state is known. */
  private target(
    input: CheckedCall & { ok: true },
    server: ServerConfig,
    where: { server: string; tool: string },
    timeoutMs: number,
    deadline: number,
    asTask: boolean,
    // No default: a wait that timed out resolves undefined, which must not read as ready.
    state: string | undefined,
  ): Prepared {
    const { name, opts } = input;
    if (state !== 'ready') {
      if (opts.signal?.aborted)
        return callFailure('CANCELLED', `tool '${name}' cancelled by the caller`, where);
      const why = state === undefined ? `did not become ready within ${timeoutMs} ms` : `is ${state}`;
      const detail = this.deps.watch.failure(server.id);
      return callFailure('SERVER_DOWN', `server '${server.id}' ${why}${detail ? `: ${detail}` : ''}`, where);
    }
    const tool = this.deps.tools.table.get(name);
    const conn = this.deps.connections.get(server.id);
    if (!tool) return callFailure('UNKNOWN_TOOL', `unknown tool '${name}'`, where);
    const retryState = opts.retry?.requestState;
    const asker = retryState === undefined ? undefined : this.inputRoutes.serverOf(retryState);
    if (asker !== undefined && asker !== tool.server) {
      const why = `tool '${name}' now belongs to server '${tool.server}', not '${asker}' that asked for input: call it afresh`;
      return callFailure('ROUTE_CHANGED', why, where);
    }
    if (!conn) return callFailure('SERVER_DOWN', `server '${server.id}' is not connected`, where);
    if (!asTask && taskSupportOf(tool) === 'required') {
      const why = `tool '${name}' runs only as a task (its execution.taskSupport is 'required'): call it with callToolAsTask`;
      return callFailure('TASK_REQUIRED', why, where);
    }
    // Fails closed: a call that names no scopes holds none, unless the host said scopes go unchecked.
    const scoped = server.scopesRequired.length > 0 || tool.scopesRequired.length > 0;
    if (scoped && (opts.scopes !== undefined || this.deps.scopes !== 'unchecked')) {
      const callerScopes = opts.scopes ?? [];
      const check = checkScopes({ pluginWideScopes: server.scopesRequired, callerScopes, tool });
      if (!check.ok) {
        return callFailure('FORBIDDEN', `forbidden: missing scopes: ${check.missing.join(', ')}`, where);
      }
    }
    const call: SettledCall = {
      timeoutMs: Math.max(1, deadline - this.deps.now()),
      budgetMs: timeoutMs,
      maxBytes: Math.min(server.maxResultBytes, opts.maxResultBytes ?? Number.POSITIVE_INFINITY),
      structuredRequired: tool.outputSchema !== undefined,
      label: name,
      server: server.id,
    };
    // set one by one, not spread from throwaway objects: this runs on every call
    if (opts.signal) call.signal = opts.signal;
    if (opts.trace) call.trace = opts.trace;
    if (opts.retry) call.retry = opts.retry;
    if (opts.passInputRequired) call.passInputRequired = true;
    if (opts.pollTaskQuestions) call.pollTaskQuestions = true;
    if (opts.taskOwner !== undefined) call.taskOwner = opts.taskOwner;
    if (opts.caller !== undefined) call.caller = opts.caller;
    const declared = this.declaredInput(opts);
    if (declared) call.inputCapabilities = declared;
    if (opts.onProgress) Object.assign(call, progressOf(opts, timeoutMs, deadline, this.deps.now()));
    return { ok: true, conn, tool, args: input.args, call };
  }
}

type Prepared =
  | CallFailure
  | {
      ok: true;
      conn: McpConnection;
      tool: ExposedTool;
      args: Record<string, unknown> | undefined;
      call: SettledCall;
    };

const asFailure = (err: unknown): CallFailure => failureFromError(err);

function taskSupportOf(tool: ExposedTool): unknown {
  const execution = tool.definition?.execution;
  return typeof execution === 'object' && execution !== null
    ? (execution as { taskSupport?: unknown }).taskSupport
    : undefined;
}
