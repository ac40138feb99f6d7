import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { z } from 'zod';
import type { SupervisorEvent } from '../supervisor/types.js';
import type { Fleet } from './fleet.js';
import { MAX_WATCHED_TASKS, watchTasks } from './task-listen.js';
import { declaresTasks, type Tasks2026, tasksRequired } from './tasks-2026.js';

/** The `_meta` key tying each notification of a listen stream to the `subscriptions/listen` request that opened it. */
export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

const ListenRequestSchema = z.object({
  method: z.literal('subscriptions/listen'),
  params: z.looseObject({
    notifications: z.optional(
      z.looseObject({
        toolsListChanged: z.optional(z.boolean()),
        promptsListChanged: z.optional(z.boolean()),
        resourcesListChanged: z.optional(z.boolean()),
        resourceSubscriptions: z.optional(z.array(z.string())),
        /** The tasks extension: tasks to hear `notifications/tasks` of. */
        taskIds: z.optional(z.array(z.string())),
      }),
    ),
  }),
});

type Filter = NonNullable<z.infer<typeof ListenRequestSchema>['params']['notifications']>;

export interface ListenOptions {
  /** The exposed tools as the client lists them: a change is announced only when this changes. */
  tools: () => string;
  debounceMs: number;
  onWarn?: ((message: string) => void) | undefined;
  /** This client's tasks (the tasks extension), for `notifications.taskIds`. */
  tasks: Tasks2026;
}

/**
 * `subscriptions/listen` (2026): the stream on which a client that never initialized hears of the fleet's
 * changes. It opens with `notifications/subscriptions/acknowledged` naming what `serve` will send of what was
 * asked, then carries each list change and each subscribed resource's update, every one tagged with the listen
 * request's id, until the client cancels it (or, over HTTP, drops the response).
 */
export function answerListen(server: Server, sup: Fleet, opts: ListenOptions): void {
  server.setRequestHandler(ListenRequestSchema, async (request, extra) => {
    const asked = request.params.notifications ?? {};
    if (asked.taskIds !== undefined && !declaresTasks(request.params))
      throw tasksRequired('subscriptions/listen');
    const meta = { [SUBSCRIPTION_ID_KEY]: extra.requestId };
    const send = (method: string, params: Record<string, unknown> = {}) =>
      extra
        .sendNotification({ method, params: { ...params, _meta: meta } } as never)
        .catch((err: unknown) => {
          opts.onWarn?.(`could not send ${method}: ${err instanceof Error ? err.message : String(err)}`);
        });
    const granted: Filter = {};
    if (asked.toolsListChanged) granted.toolsListChanged = true;
    if (asked.promptsListChanged) granted.promptsListChanged = true;
    if (asked.resourcesListChanged) granted.resourcesListChanged = true;
    const offs: Array<() => Promise<void> | void> = [];
    const uris: string[] = [];
    for (const uri of asked.resourceSubscriptions ?? []) {
      const out = await sup.subscribeResource(
        uri,
        (u) => void send('notifications/resources/updated', { uri: u.uri }),
      );
      if (!out.ok) continue;
      uris.push(uri);
      offs.push(out.unsubscribe);
    }
    if (uris.length > 0) granted.resourceSubscriptions = uris;
    // Only tasks this client may reach, and a bounded number of them; an unknown id is simply not granted.
    const taskIds = [...new Set(asked.taskIds ?? [])]
      .filter((id) => opts.tasks.known(id))
      .slice(0, MAX_WATCHED_TASKS);
    if (asked.taskIds !== undefined) granted.taskIds = taskIds;
    await send('notifications/subscriptions/acknowledged', { notifications: granted });
    if (taskIds.length > 0) {
      const watcher = watchTasks(
        opts.tasks,
        taskIds,
        (task) => send('notifications/tasks', task),
        extra.signal,
      );
      offs.push(sup.onTaskStatus((params) => watcher.nudge(String(params.taskId))));
    }

    let tools = opts.tools();
    const timers = new Map<string, NodeJS.Timeout>();
    // Bursts of changes (a restart, a storm of list_changed) are sent once, after a quiet time.
    const soon = (method: string, changed: () => boolean = () => true) => {
      clearTimeout(timers.get(method));
      timers.set(
        method,
        setTimeout(() => {
          timers.delete(method);
          if (!extra.signal.aborted && changed()) void send(method);
        }, opts.debounceMs),
      );
    };
    const toolsChanged = () => {
      const now = opts.tools();
      if (now === tools) return false;
      tools = now;
      return true;
    };
    offs.push(
      sup.subscribe((e: SupervisorEvent) => {
        if (granted.toolsListChanged && (e.type === 'tools' || e.type === 'state'))
          soon('notifications/tools/list_changed', toolsChanged);
        else if (granted.promptsListChanged && e.type === 'prompts')
          soon('notifications/prompts/list_changed');
        else if (granted.resourcesListChanged && e.type === 'resources')
          soon('notifications/resources/list_changed');
      }),
    );
    await new Promise<void>((resolve) => {
      if (extra.signal.aborted) resolve();
      else extra.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    for (const t of timers.values()) clearTimeout(t);
    await Promise.all(offs.map((off) => off()));
    return { _meta: meta } as never;
  });
}
