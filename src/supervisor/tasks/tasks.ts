import { capToolResult } from '../../framing/cap-result.js';
import { isRecord } from '../../framing/is-record.js';
import type { McpConnection } from '../../protocol/connection.js';
import type { ConnectionEvent } from '../../protocol/connection-types.js';
import { requestOutcome, type SurfaceOutcome, surfaceFailure } from '../../protocol/surface-outcome.js';
import { decodeCursor, encodeCursor, type ResourceCursor } from '../resources/cursor.js';
import { renameTask, type TaskBinding, TaskBook } from './book.js';
import type { TaskIdScheme } from './replica-ids.js';

/** The `tasks/*` requests routed by task id to the server that created the task (`tasks/update`: 2026 only). */
export type TaskMethod = 'tasks/get' | 'tasks/result' | 'tasks/cancel' | 'tasks/update';

/** The 2026 tasks extension: declared on each request about a 2026 server's task, and on the call that makes one. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { extensions: { [TASKS_EXTENSION]: {} } };

/** A task in one of these states changes no more. */
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Pages of `tasks/list` asked of the servers for one page of the fleet's, at most. */
const MAX_TASK_PAGES = 20;

/** One page of the fleet's tasks, under the fleet's ids. */
export interface TaskPage {
  tasks: Record<string, unknown>[];
  nextCursor?: string;
}

function page(tasks: Record<string, unknown>[], next: ResourceCursor | undefined): SurfaceOutcome<TaskPage> {
  return { ok: true, server: '', result: { tasks, ...(next ? { nextCursor: encodeCursor(next) } : {}) } };
}

/**
 * Tasks (MCP 2025-11-25, and the 2026 tasks extension) across the fleet, under the fleet's task ids (see
 * TaskBook): requests are routed to the server and run that made the task. A task of a run that is gone (the
 * server restarted or stopped) fails with `TASK_LOST` instead of reaching a server that never heard of it.
 */
export class FleetTasks {
  private readonly book: TaskBook;
  private readonly listeners = new Set<
    (params: Record<string, unknown>, owner: string | undefined) => void
  >();
  /** Tasks with a `tasks/result` open for their questions ({@link pull}). */
  private readonly pulling = new Set<string>();

  constructor(
    private order: readonly string[],
    separator: string,
    private readonly connection: (id: string) => McpConnection | undefined,
    private readonly timeout: (id: string) => number,
    private readonly now: () => number,
    /** The server's `maxResultBytes`: a task's result obeys the same budget as a plain call's. */
    private readonly resultCap: (id: string) => number,
    private readonly ids?: TaskIdScheme,
  ) {
    this.book = new TaskBook(separator, ids ? () => ids.mint() : undefined);
  }

  /** A reload's servers, in the new order; a removed server's tasks end with its run (`TASK_LOST`). */
  reorder(order: readonly string[]): void {
    this.order = order;
  }

  /** Sends a task-augmented `tools/call` and answers its CreateTaskResult with the fleet's task id. */
  async create(
    conn: McpConnection,
    server: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    binding: TaskBinding = {},
    sent: {
      /** For a 2026 server: the call's client capabilities, the tasks extension among them. */
      capabilities?: Record<string, unknown> | undefined;
      /** Who the call is made for (`CallOptions.caller`): the server's requests meanwhile are told of it. */
      caller?: string | undefined;
    } = {},
  ): Promise<SurfaceOutcome<Record<string, unknown>>> {
    const out = await requestOutcome<Record<string, unknown>>(
      conn,
      server,
      'tools/call',
      params,
      timeoutMs,
      sent.capabilities,
      sent.caller,
    );
    if (!out.ok) return out;
    if (conn.era === 'modern') return this.created2026(conn, server, out.result, binding);
    const task = out.result.task;
    if (!isRecord(task) || typeof task.taskId !== 'string') {
      return surfaceFailure(
        'INVALID_RESULT',
        `server '${server}' answered a task call without a task`,
        server,
      );
    }
    const taskId = this.book.remember(server, task.taskId, conn, task, binding);
    return { ok: true, server, result: { ...out.result, task: { ...task, taskId } } };
  }

  /**
   * A 2026 server's answer to a call that may make a task: a flat `resultType: "task"` one is remembered under the
   * fleet's id; any other (a result, an `input_required` round) is the server's to give as it is, capped.
   */
  private created2026(
    conn: McpConnection,
    server: string,
    result: Record<string, unknown>,
    binding: TaskBinding,
  ): SurfaceOutcome<Record<string, unknown>> {
    if (result.resultType !== 'task') {
      if (result.resultType === 'input_required') return { ok: true, server, result };
      return { ok: true, server, result: { ...capToolResult(result, { maxBytes: this.resultCap(server) }) } };
    }
    if (typeof result.taskId !== 'string')
      return surfaceFailure('INVALID_RESULT', `server '${server}' answered a task without a taskId`, server);
    const taskId = this.book.remember(server, result.taskId, conn, result, binding, true);
    return { ok: true, server, result: { ...result, taskId } };
  }

  /** Whether task `id` is known and bound to `owner` (see TaskBook.ownedBy). */
  ownedBy(id: string, owner: string | undefined): boolean {
    return this.book.ownedBy(id, owner);
  }

  /** Whether task `id` is a 2026 server's (the tasks extension), a 2025 one's, or unknown. */
  eraOf(id: string): 'modern' | 'legacy' | undefined {
    const entry = this.book.get(id);
    return entry === undefined ? undefined : entry.modern ? 'modern' : 'legacy';
  }

  /**
   * Keeps one `tasks/result` open for task `id` while it waits for input: a 2025-11-25 server sends a task's
   * questions while its requestor waits on `tasks/result`. Its answer is not kept (the server keeps the result).
   */
  pull(id: string): void {
    if (this.pulling.has(id) || !this.book.get(id)) return;
    this.pulling.add(id);
    void this.request('tasks/result', id).finally(() => this.pulling.delete(id));
  }

  /** The fleet's id of `server`'s task `taskId` when its caller polls for its questions; else undefined. */
  polledTask(server: string, taskId: string): string | undefined {
    const id = this.book.find(server, taskId);
    const entry = id === undefined ? undefined : this.book.get(id);
    return entry?.polled && entry.server === server && entry.conn === this.connection(server)
      ? id
      : undefined;
  }

  /**
   * `tasks/get`, `tasks/result` or `tasks/cancel` for a task id this fleet handed out; never rejects. A result is
   * capped like a plain call's, by the server's cap or the caller's `maxResultBytes` when lower.
   */
  async request(
    method: TaskMethod,
    id: string,
    opts: {
      maxResultBytes?: number | undefined;
      inputResponses?: Record<string, unknown> | undefined;
      owner?: string | undefined;
      /** Who the request is made for: a question its server asks meanwhile (while `tasks/result` is open) goes to it. */
      caller?: string | undefined;
    } = {},
  ): Promise<SurfaceOutcome<Record<string, unknown>>> {
    const entry = this.book.get(id);
    if (!entry && this.ids?.fromSibling(id)) {
      const where = 'a task stays with the replica that made it (route its requests there by Mcp-Session-Id)';
      return surfaceFailure('TASK_ELSEWHERE', `task '${id}' was made by another replica: ${where}`);
    }
    if (!entry || entry.owner !== opts.owner) return surfaceFailure('UNKNOWN_TASK', `unknown task '${id}'`);
    const { server } = entry;
    const conn = this.connection(server);
    if (conn !== entry.conn || conn.exit) {
      return surfaceFailure(
        'TASK_LOST',
        `task '${id}' is lost: server '${server}' restarted or stopped since it created the task`,
        server,
      );
    }
    const params: Record<string, unknown> = { taskId: entry.taskId };
    if (method === 'tasks/update') params.inputResponses = opts.inputResponses ?? {};
    const out = await requestOutcome<Record<string, unknown>>(
      conn,
      server,
      method,
      params,
      this.timeout(server),
      entry.modern ? WITH_TASKS : undefined,
      opts.caller,
    );
    if (!out.ok) return out;
    const result = renameTask(out.result, id);
    if (method !== 'tasks/result') {
      entry.last = result;
      return { ok: true, server, result };
    }
    const maxBytes = Math.min(this.resultCap(server), opts.maxResultBytes ?? Number.POSITIVE_INFINITY);
    return { ok: true, server, result: { ...capToolResult(result, { maxBytes }) } };
  }

  /**
   * One page of the fleet's tasks, servers in config order; never rejects. A page is one server's page (a server
   * with nothing on a page is passed over, within a bound); `nextCursor` names the server and that server's own
   * cursor, opaque to the caller. A cursor this fleet did not hand out, or one naming a server no longer in it,
   * fails with `INVALID_CURSOR`; a server not listing now (stopped, restarting) is passed over. Only the tasks
   * bound to `owner` are listed (with no owner, those bound to no one); `caller` is who the listing is made for.
   */
  async list(cursor?: string, owner?: string, caller?: string): Promise<SurfaceOutcome<TaskPage>> {
    const at: ResourceCursor | undefined =
      cursor === undefined ? { s: this.order[0] ?? '' } : decodeCursor(cursor);
    if (cursor !== undefined && (!at || !this.order.includes(at.s)))
      return surfaceFailure('INVALID_CURSOR', `unknown cursor ${JSON.stringify(cursor)}`);
    let i = Math.max(0, this.order.indexOf(at?.s ?? ''));
    let serverCursor = at?.c;
    for (let asked = 0; i < this.order.length; ) {
      const server = this.order[i]!;
      const conn = this.lister(server);
      if (!conn) {
        i++;
        serverCursor = undefined;
        continue;
      }
      // An endless run of empty pages must not hold one request forever: the caller gets the cursor back.
      if (asked++ === MAX_TASK_PAGES)
        return page([], { s: server, ...(serverCursor !== undefined ? { c: serverCursor } : {}) });
      const params = serverCursor === undefined ? {} : { cursor: serverCursor };
      const out = await requestOutcome<Record<string, unknown>>(
        conn,
        server,
        'tasks/list',
        params,
        this.timeout(server),
        undefined,
        caller,
      );
      if (!out.ok) return out;
      const tasks: Record<string, unknown>[] = [];
      for (const t of Array.isArray(out.result.tasks) ? out.result.tasks : []) {
        if (!isRecord(t) || typeof t.taskId !== 'string') continue;
        const id = this.book.remember(server, t.taskId, conn, t);
        if (this.book.get(id)?.owner === owner) tasks.push({ ...t, taskId: id });
      }
      const own = out.result.nextCursor;
      const after = this.order.slice(i + 1).find((s) => this.lister(s) !== undefined);
      const next: ResourceCursor | undefined =
        typeof own === 'string' ? { s: server, c: own } : after !== undefined ? { s: after } : undefined;
      if (tasks.length > 0 || next === undefined) return page(tasks, next);
      i = this.order.indexOf(next.s);
      serverCursor = next.c;
    }
    return page([], undefined);
  }

  /** The connection to list `server`'s tasks on, when it is up and declares `tasks.list`. */
  private lister(server: string): McpConnection | undefined {
    const conn = this.connection(server);
    const caps = conn?.serverInit?.capabilities.tasks;
    return conn && !conn.exit && isRecord(caps) && caps.list ? conn : undefined;
  }

  /**
   * Hears `notifications/tasks/status` of a task this fleet handed out, with the fleet's task id and the context
   * the task is bound to (a listener tells that context alone).
   */
  onStatus(listener: (params: Record<string, unknown>, owner: string | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onConnection(server: string, event: ConnectionEvent): void {
    if (event.type === 'exit') {
      this.lost(server);
      return;
    }
    if (event.type !== 'task_status') return;
    const conn = this.connection(server);
    const taskId = event.params.taskId;
    if (!conn || typeof taskId !== 'string') return;
    const id = this.book.remember(server, taskId, conn, event.params);
    this.tell({ ...event.params, taskId: id }, this.book.get(id)?.owner);
  }

  /**
   * A run of the server ended: each of its tasks not yet over is announced `failed`, so that a client waiting on
   * status notifications hears it instead of polling a task no server knows any more.
   */
  private lost(server: string): void {
    const at = new Date(this.now()).toISOString();
    for (const entry of this.book.entries()) {
      if (entry.server !== server || !entry.conn.exit || !entry.last) continue;
      if (TERMINAL.has(String(entry.last.status))) continue;
      entry.last = {
        ...entry.last,
        status: 'failed',
        statusMessage: `server '${server}' exited: the task is lost`,
        lastUpdatedAt: at,
      };
      this.tell(entry.last, entry.owner);
    }
  }

  private tell(params: Record<string, unknown>, owner: string | undefined): void {
    for (const l of this.listeners) l(params, owner);
  }
}
