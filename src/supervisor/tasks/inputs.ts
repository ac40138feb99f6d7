import { isRecord } from '../../framing/is-record.js';
import { RATE_LIMITED } from '../../framing/json-rpc.js';
import type { ForwardAnswer } from '../../protocol/server-requests.js';
import type { ClientSide } from '../runtime/client-side.js';
import type { FleetTasks } from './tasks.js';

/** One question a server asked for a task: the request as MCP's `inputRequests` map holds it. */
export interface TaskQuestion {
  method: string;
  params: unknown;
}

interface Parked extends TaskQuestion {
  answer(a: ForwardAnswer): void;
}

/** Questions held per task at most; more are answered with an error at once (a server looping on questions). */
export const MAX_QUESTIONS_PER_TASK = 16;

/**
 * The questions servers ask for tasks whose caller polls for them (a 2026 client through the tasks extension):
 * each request is held under a key of its own until the caller answers it through `tasks/update`, and the server's
 * request is answered with that response. A key is never used twice in a task's life. A request the server
 * cancels, or that ends with its server, leaves at once.
 */
export class TaskInputs {
  private readonly byTask = new Map<string, Map<string, Parked>>();
  private next = 0;

  /** Holds one question of task `taskId` (the fleet's id) until it is answered or `signal` aborts. */
  park(taskId: string, method: string, params: unknown, signal: AbortSignal): Promise<ForwardAnswer> {
    let held = this.byTask.get(taskId);
    if (held && held.size >= MAX_QUESTIONS_PER_TASK) {
      const message = `too many questions waiting for task '${taskId}' (${MAX_QUESTIONS_PER_TASK})`;
      return Promise.resolve({ error: { code: RATE_LIMITED, message } });
    }
    if (!held) {
      held = new Map();
      this.byTask.set(taskId, held);
    }
    const map = held;
    const key = `q${++this.next}`;
    return new Promise<ForwardAnswer>((resolve) => {
      const leave = () => {
        map.delete(key);
        if (map.size === 0 && this.byTask.get(taskId) === map) this.byTask.delete(taskId);
      };
      map.set(key, {
        method,
        params,
        answer: (a) => {
          leave();
          resolve(a);
        },
      });
      signal.addEventListener('abort', leave, { once: true });
    });
  }

  /** The questions of `taskId` still waiting, by key (empty when none). */
  questions(taskId: string): Record<string, TaskQuestion> {
    const out: Record<string, TaskQuestion> = {};
    for (const [key, q] of this.byTask.get(taskId) ?? []) out[key] = { method: q.method, params: q.params };
    return out;
  }

  /** Answers the questions of `taskId` that `responses` names; keys not waiting are ignored. Returns how many. */
  answer(taskId: string, responses: Record<string, unknown>): number {
    const held = this.byTask.get(taskId);
    if (!held) return 0;
    let answered = 0;
    for (const [key, response] of Object.entries(responses)) {
      const q = held.get(key);
      if (!q) continue;
      q.answer({ result: response });
      answered += 1;
    }
    return answered;
  }
}

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/**
 * Makes `clientSide` hold each question a server asks for a task whose caller polls (`tasks.polledTask`), under
 * the fleet's task id (named so in the question's related-task `_meta` as well); every other request goes to the
 * host's handlers as before. Returns the store the questions wait in.
 */
export function holdTaskQuestions(
  clientSide: { taskQuestion: ClientSide['taskQuestion'] },
  tasks: Pick<FleetTasks, 'polledTask'>,
): TaskInputs {
  const inputs = new TaskInputs();
  clientSide.taskQuestion = (server, method, params, signal) => {
    const meta = isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
    const related = meta && isRecord(meta[RELATED_TASK]) ? meta[RELATED_TASK].taskId : undefined;
    if (typeof related !== 'string') return undefined;
    const id = tasks.polledTask(server, related);
    if (id === undefined) return undefined;
    const renamed = {
      ...(params as Record<string, unknown>),
      _meta: { ...meta, [RELATED_TASK]: { taskId: id } },
    };
    return inputs.park(id, method, renamed, signal);
  };
  return inputs;
}
