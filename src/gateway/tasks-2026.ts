import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../framing/is-record.js';
import type { CallOptions } from '../protocol/call-options.js';
import { TASKS_EXTENSION } from '../supervisor/tasks/tasks.js';
import { CAPABILITIES_KEY, MODERN_VERSIONS } from './era.js';
import type { Fleet } from './fleet.js';
import { rpcError } from './render-outcome.js';
import { RpcError } from './rpc-error.js';

const MODERN_VERSION = MODERN_VERSIONS[0];

/** The 2026 error for a request that needs a client capability the request did not declare. */
export const MISSING_CLIENT_CAPABILITY = -32021;

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** Whether a 2026 request declares the tasks extension among its client capabilities. */
export function declaresTasks(params: Record<string, unknown> | undefined): boolean {
  const meta = isRecord(params?._meta) ? params._meta : {};
  const caps = isRecord(meta[CAPABILITIES_KEY]) ? meta[CAPABILITIES_KEY] : {};
  return isRecord(caps.extensions) && isRecord(caps.extensions[TASKS_EXTENSION]);
}

/** The −32021 answer to a request that cannot be served without the tasks extension. */
export function tasksRequired(what: string): RpcError {
  return new RpcError(
    MISSING_CLIENT_CAPABILITY,
    `Missing required client capability: ${what} needs the extension ${TASKS_EXTENSION}`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
}

/**
 * Tasks for 2026 clients, as the tasks extension has them. Over a 2025 server's tasks: the server still decides
 * (here: the tool's own `execution.taskSupport`), a task is a flat `resultType: "task"` result, `tasks/get` inlines
 * the result or the error once the task ended, and `tasks/cancel` and `tasks/update` answer an empty ack; what a
 * task's server asks while it waits for input (sent while `tasks/result` is open, in 2025) is held by the fleet
 * and shown as `inputRequests`, and `tasks/update` answers it. A 2026 server's own tasks pass through, their ids
 * made the fleet's.
 */
export class Tasks2026 {
  /** What every task request of this client carries: its authorization context, when it has one. */
  private readonly whose: { owner?: string };

  constructor(
    private readonly sup: Fleet,
    private readonly opts: {
      /** `serve`'s own cap on every result it sends. */
      maxResultBytes?: number | undefined;
      /** The client's authorization context: its tasks are bound to it. */
      owner?: string | undefined;
    } = {},
  ) {
    this.whose = opts.owner !== undefined ? { owner: opts.owner } : {};
  }

  /**
   * Who decides whether a call of the exposed tool `name` becomes a task: `server` for a 2026 server (the
   * extension is passed on to it), else the tool's 2025 `taskSupport` (`required`, `optional`, `forbidden`);
   * undefined for a tool not (yet) listed.
   */
  support(name: string): string | undefined {
    const tool = this.sup.getTool(name);
    if (!tool) return undefined;
    const row = this.sup.status().find((s) => s.id === tool.server);
    if (row?.server?.protocolVersion === MODERN_VERSION) return 'server';
    const support = tool.execution?.taskSupport;
    return typeof support === 'string' ? support : 'forbidden';
  }

  /**
   * A `tools/call` that may become a task at the tool's server: the 2026 CreateTaskResult, or a 2026 server's own
   * answer as it gave it (a result, an `input_required` round).
   */
  async create(name: string, args: Record<string, unknown> | undefined, opts: CallOptions): Promise<never> {
    const out = await this.sup.callToolAsTask(
      name,
      args,
      {},
      {
        ...opts,
        pollTaskQuestions: true,
        ...(this.opts.owner !== undefined ? { taskOwner: this.opts.owner } : {}),
      },
    );
    if (!out.ok) throw rpcError(out, { verbatim: true });
    if (typeof out.result.resultType === 'string') return out.result as never;
    const task = isRecord(out.result.task) ? out.result.task : {};
    return { resultType: 'task', ...task2026(task) } as never;
  }

  /** Whether this client may reach task `taskId` (the fleet knows it, and it is bound to this client's owner). */
  known(taskId: string): boolean {
    return this.sup.taskEra(taskId, this.whose) !== undefined;
  }

  /** `tasks/get`: the task, with its result or error inlined once it ended; `named` is who asks (its caller). */
  async get(taskId: string, named: { caller?: string } = {}): Promise<never> {
    const got = await this.route('tasks/get', taskId, named);
    if (!got.ok) throw rpcError(got, { verbatim: true });
    // A 2026 server's task is already in the extension's shape (its id made the fleet's).
    if (this.sup.taskEra(taskId, this.whose) === 'modern') return got.result as never;
    const task = task2026(got.result);
    if (got.result.status === 'input_required') {
      // Its questions arrive once asked for; until one is here the task reads as working.
      const questions = this.sup.taskQuestions(taskId, this.whose);
      if (Object.keys(questions).length > 0)
        return { ...task, status: 'input_required', inputRequests: questions } as never;
    }
    if (task.status !== 'completed' && task.status !== 'failed') return task as never;
    const ended = await this.route('tasks/result', taskId, named);
    if (ended.ok) {
      const { _meta, ...result } = ended.result;
      const meta = isRecord(_meta) ? withoutKey(_meta, RELATED_TASK) : {};
      const kept = Object.keys(meta).length > 0 ? { ...result, _meta: meta } : result;
      return { ...task, status: 'completed', result: kept } as never;
    }
    // The server's own JSON-RPC error, as it sent it (the task's underlying request failed with it).
    const error = {
      code: ended.rpcCode ?? ErrorCode.InternalError,
      message: ended.rpcMessage ?? ended.message,
      ...(ended.rpcData !== undefined ? { data: ended.rpcData } : {}),
    };
    return { ...task, status: 'failed', error } as never;
  }

  /** `tasks/cancel`: an empty ack for a task this fleet knows, whether or not it still ran. */
  async cancel(taskId: string, named: { caller?: string } = {}): Promise<never> {
    const out = await this.route('tasks/cancel', taskId, named);
    // The server's own refusal (a task already ended) is still an ack: cancelling is idempotent in 2026.
    if (!out.ok && out.code !== 'REMOTE_ERROR') throw rpcError(out, { verbatim: true });
    return {} as never;
  }

  /** `tasks/update`: the answers go to the questions they name (others are ignored); an empty ack. */
  async update(taskId: string, responses: unknown, named: { caller?: string } = {}): Promise<never> {
    const answers = isRecord(responses) ? responses : {};
    if (this.sup.taskEra(taskId, this.whose) === 'modern') {
      // A 2026 server's own questions: its answers go to it.
      const out = await this.sup.taskRequest('tasks/update', taskId, {
        inputResponses: answers,
        ...this.whose,
        ...named,
      });
      if (!out.ok) throw rpcError(out, { verbatim: true });
      return {} as never;
    }
    const out = await this.route('tasks/get', taskId, named);
    if (!out.ok) throw rpcError(out, { verbatim: true });
    this.sup.answerTaskQuestions(taskId, answers, this.whose);
    return {} as never;
  }

  private route(
    method: 'tasks/get' | 'tasks/result' | 'tasks/cancel',
    taskId: string,
    named: { caller?: string },
  ) {
    const cap = this.opts.maxResultBytes;
    return this.sup.taskRequest(method, taskId, {
      ...(cap !== undefined ? { maxResultBytes: cap } : {}),
      ...this.whose,
      ...named,
    });
  }
}

/** A 2025 task as the 2026 extension names its fields: `ttlMs`, `pollIntervalMs` (input_required: see `get`). */
function task2026(task: Record<string, unknown>): Record<string, unknown> {
  const status = task.status === 'input_required' ? 'working' : task.status;
  const out: Record<string, unknown> = {
    taskId: task.taskId,
    status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt ?? task.createdAt,
    ttlMs: typeof task.ttl === 'number' ? Math.round(task.ttl) : null,
  };
  if (typeof task.pollInterval === 'number' && task.pollInterval > 0)
    out.pollIntervalMs = Math.round(task.pollInterval);
  if (typeof task.statusMessage === 'string') out.statusMessage = task.statusMessage;
  return out;
}

function withoutKey(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}
