import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelTaskRequestSchema,
  type CreateTaskResult,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  type InitializeResult,
  ListTasksRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CallOptions } from '../protocol/call-options.js';
import type { Fleet } from './fleet.js';
import { is2026Request } from './front-request.js';
import { rpcError } from './render-outcome.js';
import { declaresTasks, Tasks2026, tasksRequired } from './tasks-2026.js';

/** `tasks/update` (2026 tasks extension only), every param kept. */
const UpdateTaskRequestSchema = z.object({
  method: z.literal('tasks/update'),
  params: z.looseObject({ taskId: z.string() }),
});

/** The `_meta` key under which a JSON-RPC error of `serve` carries the failure's code. */

/** What `serve` declares for tasks when some server of the fleet declares them. */
export const GATEWAY_TASKS: NonNullable<ServerCapabilities['tasks']> = {
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
};

/**
 * Tasks through `serve`: a task-augmented `tools/call` goes to the owning server unchanged but for the tool's
 * name, and `tasks/get`, `tasks/result`, `tasks/cancel` go to the server that created the task, under the
 * fleet's task ids (docs/mcp-surface.md); `tasks/list` is paged across the fleet, `notifications/tasks/status` relayed.
 */
export class GatewayTasks {
  private closed = false;
  private readonly unsubscribe: () => void;
  /** The same tasks for 2026 clients, as the tasks extension shapes them. */
  readonly modern: Tasks2026;

  private readonly maxResultBytes: number | undefined;
  private readonly owner: string | undefined;
  /** The caller a request of this client names (see `Gateway`'s `caller`), by the request's id. */
  private readonly callerOf: (requestId: string | number) => { caller?: string };

  constructor(
    server: Server,
    private readonly sup: Fleet,
    opts: {
      onWarn?: ((message: string) => void) | undefined;
      /** `serve`'s own cap on every result it sends, a task's result included. */
      maxResultBytes?: number | undefined;
      /** The client's authorization context: its tasks are bound to it (GatewayOptions.taskOwner). */
      owner?: string | undefined;
      /** The caller a request of this client names (see `Gateway`'s `caller`), by the request's id. */
      callerOf?: ((requestId: string | number) => { caller?: string }) | undefined;
    } = {},
  ) {
    const { onWarn, maxResultBytes, owner } = opts;
    this.maxResultBytes = maxResultBytes;
    this.owner = owner;
    this.callerOf = opts.callerOf ?? (() => ({}));
    const callerOf = this.callerOf;
    this.modern = new Tasks2026(sup, { maxResultBytes, owner });
    // A 2026 client speaks the tasks extension: the same tasks, its shapes, and only when it declares the extension.
    const gated = (params: Record<string, unknown>, method: string) => {
      if (!declaresTasks(params)) throw tasksRequired(method);
    };
    // Each request names its caller: a question the task's server asks while one is open goes to that client.
    server.setRequestHandler(GetTaskRequestSchema, async (r, extra) => {
      const named = callerOf(extra.requestId);
      if (!is2026Request(r.params)) return this.routed('tasks/get', r.params.taskId, named);
      gated(r.params, 'tasks/get');
      return this.modern.get(r.params.taskId, named);
    });
    server.setRequestHandler(GetTaskPayloadRequestSchema, async (r, extra) =>
      this.routed('tasks/result', r.params.taskId, callerOf(extra.requestId)),
    );
    server.setRequestHandler(CancelTaskRequestSchema, async (r, extra) => {
      const named = callerOf(extra.requestId);
      if (!is2026Request(r.params)) return this.routed('tasks/cancel', r.params.taskId, named);
      gated(r.params, 'tasks/cancel');
      return this.modern.cancel(r.params.taskId, named);
    });
    server.setRequestHandler(UpdateTaskRequestSchema, async (r, extra) => {
      gated(r.params, 'tasks/update');
      return this.modern.update(r.params.taskId, r.params.inputResponses, callerOf(extra.requestId));
    });
    server.setRequestHandler(ListTasksRequestSchema, async (r, extra) => {
      const cursor = r.params?.cursor;
      const out = await sup.listTasks({
        ...(cursor !== undefined ? { cursor } : {}),
        ...(owner !== undefined ? { owner } : {}),
        ...callerOf(extra.requestId),
      });
      if (!out.ok) throw rpcError(out);
      return out.result as never;
    });
    this.unsubscribe = sup.onTaskStatus((params, taskOwner) => {
      // A Gateway kept idle between 2026 requests has no transport: there is no one to tell. Another client's
      // task is not this one's to hear of.
      if (this.closed || !server.transport || taskOwner !== owner) return;
      server.notification({ method: 'notifications/tasks/status', params }).catch((err: unknown) => {
        onWarn?.(`could not relay a task status: ${err instanceof Error ? err.message : String(err)}`);
      });
    });
  }

  /** A task-augmented `tools/call`: the server's CreateTaskResult, or the failure as a JSON-RPC error. */
  async call(
    name: string,
    args: Record<string, unknown> | undefined,
    task: Record<string, unknown>,
    opts: CallOptions,
  ): Promise<CreateTaskResult> {
    const bound = this.owner !== undefined ? { ...opts, taskOwner: this.owner } : opts;
    const out = await this.sup.callToolAsTask(name, args, task, bound);
    if (!out.ok) throw rpcError(out);
    return out.result as CreateTaskResult;
  }

  /** The `initialize` answer without `tasks` when no server of the fleet declares them. */
  trim(result: InitializeResult): InitializeResult {
    if (this.sup.offers('tasks')) return result;
    const { tasks: _t, ...capabilities } = result.capabilities;
    return { ...result, capabilities };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
  }

  private async routed(
    method: 'tasks/get' | 'tasks/result' | 'tasks/cancel',
    taskId: string,
    named: { caller?: string },
  ): Promise<never> {
    const cap = this.maxResultBytes;
    const out = await this.sup.taskRequest(method, taskId, {
      ...(cap !== undefined ? { maxResultBytes: cap } : {}),
      ...(this.owner !== undefined ? { owner: this.owner } : {}),
      ...named,
    });
    if (!out.ok) throw rpcError(out);
    return out.result as never;
  }
}
