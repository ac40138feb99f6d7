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

  constructor(
    server: Server,
    private readonly sup: Fleet,
    opts: {
      onWarn?: ((message: string) => void) | undefined;
      /** `serve`'s own cap on every result it sends, a task's result included. */
      maxResultBytes?: number | undefined;
      /** The client's authorization context: its tasks are bound to it (GatewayOptions.taskOwner). */
      owner?: string | undefined;
    } = {},
  ) {
    const { onWarn, maxResultBytes, owner } = opts;
    this.maxResultBytes = maxResultBytes;
    this.owner = owner;
    this.modern = new Tasks2026(sup, { maxResultBytes, owner });
    // A 2026 client speaks the tasks extension: the same tasks, its shapes, and only when it declares the extension.
    const gated = (params: Record<string, unknown>, method: string) => {
      if (!declaresTasks(params)) throw tasksRequired(method);
    };
    server.setRequestHandler(GetTaskRequestSchema, async (r) => {
      if (!is2026Request(r.params)) return this.routed('tasks/get', r.params.taskId);
      gated(r.params, 'tasks/get');
      return this.modern.get(r.params.taskId);
    });
    server.setRequestHandler(GetTaskPayloadRequestSchema, async (r) =>
      this.routed('tasks/result', r.params.taskId),
    );
    server.setRequestHandler(CancelTaskRequestSchema, async (r) => {
      if (!is2026Request(r.params)) return this.routed('tasks/cancel', r.params.taskId);
      gated(r.params, 'tasks/cancel');
      return this.modern.cancel(r.params.taskId);
    });
    server.setRequestHandler(UpdateTaskRequestSchema, async (r) => {
      gated(r.params, 'tasks/update');
      return this.modern.update(r.params.taskId, r.params.inputResponses);
    });
    server.setRequestHandler(ListTasksRequestSchema, async (r) => {
      const cursor = r.params?.cursor;
      const out = await sup.listTasks({
        ...(cursor !== undefined ? { cursor } : {}),
        ...(owner !== undefined ? { owner } : {}),
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
  ): Promise<never> {
    const cap = this.maxResultBytes;
    const out = await this.sup.taskRequest(method, taskId, {
      ...(cap !== undefined ? { maxResultBytes: cap } : {}),
      ...(this.owner !== undefined ? { owner: this.owner } : {}),
    });
    if (!out.ok) throw rpcError(out);
    return out.result as never;
  }
}
