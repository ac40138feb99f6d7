import { randomUUID } from 'node:crypto';
import { isRecord } from '../../framing/is-record.js';
import type { McpConnection } from '../../protocol/connection.js';

/** The `_meta` key MCP ties a task's messages and result to it by. */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** Task ids remembered at most; the oldest are forgotten first (a server forgets its own after their ttl anyway). */
export const MAX_TASKS = 10_000;

/** What the fleet knows of one task it handed out. */
export interface TaskEntry {
  server: string;
  /** The id the server gave. */
  taskId: string;
  /** The run of the server that created the task: another run does not know it. */
  conn: McpConnection;
  /** The task as last heard of (created, got, listed, announced), with the fleet's id. */
  last?: Record<string, unknown> | undefined;
  /** Its caller polls for the server's questions (the 2026 tasks extension) instead of the host answering them. */
  polled?: boolean;
  /** A 2026 server's task (the tasks extension): its requests declare the extension; it has no `tasks/result`. */
  modern?: boolean;
  /** The authorization context the task is bound to: only the same may reach it, list it or hear of it. */
  owner?: string;
}

/** How a task a call makes is held: for its caller to poll for its questions, and whose it is. */
export interface TaskBinding {
  polled?: boolean | undefined;
  /** An authorization context (a credential's name, a user): the task is visible to that context alone. */
  owner?: string | undefined;
}

/**
 * The tasks the fleet handed out, each under an id of the fleet's own, `<server id><separator><random UUID>`:
 * two servers may issue the same id, and a server's ids may be guessable (MCP asks for task ids no third party
 * can guess). Each is kept with its server, the server's own id and the run (connection) that created it, and
 * routed by that, never by taking the id apart. At most MAX_TASKS, the oldest forgotten first.
 */
export class TaskBook {
  private readonly byId = new Map<string, TaskEntry>();
  /** `<server>\n<server's task id>` → the fleet's id, for a task heard of again (listed, announced, asking). */
  private readonly byServerId = new Map<string, string>();

  constructor(
    private readonly separator: string,
    private readonly mint: () => string = randomUUID,
  ) {}

  get(id: string): TaskEntry | undefined {
    return this.byId.get(id);
  }

  /** The fleet's id of `server`'s task `taskId`, when the fleet knows it. */
  find(server: string, taskId: string): string | undefined {
    return this.byServerId.get(`${server}\n${taskId}`);
  }

  /**
   * Whether task `id` is known and bound to `owner` (undefined: a task bound to no one). A task of another
   * context is, to its caller, a task that does not exist.
   */
  ownedBy(id: string, owner: string | undefined): boolean {
    const entry = this.byId.get(id);
    return entry !== undefined && entry.owner === owner;
  }

  entries(): IterableIterator<TaskEntry> {
    return this.byId.values();
  }

  /** Records a task heard of (made, listed, announced) and returns the fleet's id for it. */
  remember(
    server: string,
    taskId: string,
    conn: McpConnection,
    task: Record<string, unknown>,
    binding: TaskBinding = {},
    modern = false,
  ): string {
    const key = `${server}\n${taskId}`;
    const known = this.byServerId.get(key);
    const prior = known === undefined ? undefined : this.byId.get(known);
    const same = prior?.conn === conn;
    // Another run's task of the same server id is another task: it gets an id of its own, and the old one is lost.
    const id = same && known !== undefined ? known : `${server}${this.separator}${this.mint()}`;
    this.byId.delete(id);
    this.byServerId.set(key, id);
    const keep = binding.polled === true || (prior?.polled === true && same);
    const era = modern || (prior?.modern === true && same);
    // Heard of again (listed, announced), a task stays bound to whom it was made for.
    const owner = binding.owner ?? (same ? prior?.owner : undefined);
    this.byId.set(id, {
      server,
      taskId,
      conn,
      last: { ...task, taskId: id },
      ...(keep ? { polled: true } : {}),
      ...(era ? { modern: true } : {}),
      ...(owner !== undefined ? { owner } : {}),
    });
    if (this.byId.size > MAX_TASKS) {
      const [oldest, gone] = this.byId.entries().next().value ?? [];
      if (oldest !== undefined && gone !== undefined) {
        this.byId.delete(oldest);
        const goneKey = `${gone.server}\n${gone.taskId}`;
        if (this.byServerId.get(goneKey) === oldest) this.byServerId.delete(goneKey);
      }
    }
    return id;
  }
}

/** A server's answer with its task id (as a Task, or in the related-task `_meta`) replaced by the fleet's. */
export function renameTask(result: Record<string, unknown>, id: string): Record<string, unknown> {
  const out = { ...result };
  if (typeof out.taskId === 'string') out.taskId = id;
  const meta = out._meta;
  if (isRecord(meta) && isRecord(meta[RELATED_TASK])) {
    out._meta = { ...meta, [RELATED_TASK]: { ...meta[RELATED_TASK], taskId: id } };
  }
  return out;
}
