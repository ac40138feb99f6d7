import { isRecord } from '../framing/is-record.js';
import type { Tasks2026 } from './tasks-2026.js';

/** Task ids one `subscriptions/listen` may watch at most; the rest are not granted. */
export const MAX_WATCHED_TASKS = 64;

/** How often a watched task is asked about when its server suggests nothing (and the bounds of what it suggests). */
const POLL_MS = 1_000;
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 10_000;

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Watches the tasks a 2026 client named in `subscriptions/listen` (the tasks extension's `notifications.taskIds`)
 * and sends each change as `notifications/tasks`: the task as `tasks/get` would answer it then, result or error
 * inlined once it ended. A granted id must be told of, and a server need not announce its tasks' statuses, so
 * each task is asked about at its poll interval; a status the fleet hears of (`nudge`) asks at once. Stops for a
 * task once it ended or is gone, and for all when `signal` aborts.
 */
export function watchTasks(
  tasks: Tasks2026,
  ids: readonly string[],
  send: (params: Record<string, unknown>) => Promise<void>,
  signal: AbortSignal,
): { nudge(taskId: string): void } {
  const wakers = new Map<string, () => void>();
  for (const id of ids) void watchOne(id);

  async function watchOne(id: string): Promise<void> {
    let told = '';
    while (!signal.aborted) {
      let task: Record<string, unknown>;
      try {
        task = (await tasks.get(id)) as Record<string, unknown>;
      } catch {
        return; // lost or unknown now: there is nothing more to tell
      }
      if (signal.aborted) return;
      const seen = JSON.stringify([task.status, task.lastUpdatedAt, task.statusMessage, task.inputRequests]);
      if (seen !== told) {
        told = seen;
        const { resultType: _kind, ...state } = task;
        await send(state);
      }
      if (TERMINAL.has(String(task.status))) return;
      await pause(id, pollOf(task));
    }
  }

  /** Waits `ms`, or until the task is nudged or the listen ends. */
  function pause(id: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(id);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.set(id, done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  return { nudge: (taskId) => wakers.get(taskId)?.() };
}

function pollOf(task: Record<string, unknown>): number {
  const suggested = isRecord(task) && typeof task.pollIntervalMs === 'number' ? task.pollIntervalMs : POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested));
}
