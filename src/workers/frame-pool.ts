import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { FrameStream } from '../framing/frame-job.js';
import { type FrameTask, type FrameTaskResult, frameTask } from './frame-task.js';
import type { HandOverMessage, HandOverTask } from './line-hand-over.js';

export interface FramePoolOptions {
  /** Worker threads (default: one less than the cores, 1 to 4). */
  maxThreads?: number;
  /** How long an idle worker stays up, in ms (default 30 s). */
  idleTimeoutMs?: number;
  /**
   * Added to the workers' nice value (default 5; 0 = same priority as the host), so that on a busy machine a
   * parsing worker yields the core to the host's event loop rather than the other way round.
   */
  niceIncrement?: number;
}

/** Workers run slightly below the host's priority: the bench shows a steadier host loop under load. */
export const DEFAULT_NICE_INCREMENT = 5;

/** Tasks a worker takes at once: whole lines run one after another, hand-overs wait for their parts between. */
const HAND_OVERS_PER_WORKER = 8;

/** After this many infrastructure failures (a worker that cannot load or dies) the pool works inline. */
const MAX_FAILURES = 3;

/** The default worker count: leave a core to the main thread, never more than 4. */
export function defaultFrameThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

function taskLocation(): { filename: string; execArgv?: string[] } {
  // under vitest or tsx this module is the .ts source, and so is its sibling worker entry
  const source = import.meta.url.endsWith('.ts');
  const filename = new URL(source ? './frame-task.ts' : './frame-task.js', import.meta.url).href;
  return source ? { filename, execArgv: ['--import', tsxLoader()] } : { filename };
}

/** tsx's loader as an absolute URL, so a worker finds it whatever the host's working directory. */
function tsxLoader(): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    return 'tsx';
  }
}

/**
 * The worker-thread pool shared by every stream: created on the first task, closed once. A task that cannot
 * run on a worker (pool closed, or workers failing) runs inline instead, so callers never see the difference.
 */
export class FramePool {
  readonly maxThreads: number;
  readonly #idleTimeout: number;
  readonly #nice: number;
  #piscina: Piscina<FrameTask | HandOverTask, FrameTaskResult> | undefined;
  #closing: Promise<void> | undefined;
  #failures = 0;
  #workerTasks = 0;
  #inlineTasks = 0;

  constructor({
    maxThreads,
    idleTimeoutMs = 30_000,
    niceIncrement = DEFAULT_NICE_INCREMENT,
  }: FramePoolOptions = {}) {
    this.maxThreads = Math.max(1, Math.floor(maxThreads ?? defaultFrameThreads()));
    this.#idleTimeout = idleTimeoutMs;
    this.#nice = niceIncrement;
  }

  /** True once `close()` was called, or the workers failed too often: tasks then run inline. */
  get inline(): boolean {
    return this.#closing !== undefined || this.#failures >= MAX_FAILURES;
  }

  /** True once the worker threads have been started. */
  get started(): boolean {
    return this.#piscina !== undefined;
  }

  /** Counts for benchmarks and tests: tasks finished on workers, tasks run inline, worker failures. */
  get stats(): { workerTasks: number; inlineTasks: number; failures: number } {
    return { workerTasks: this.#workerTasks, inlineTasks: this.#inlineTasks, failures: this.#failures };
  }

  /**
   * Runs one frame task. `transferList` holds the task's ArrayBuffers, which are detached on a worker run;
   * inline the same buffers are read in place. Rejects only when a worker fails mid-task.
   */
  run(task: FrameTask, transferList: ArrayBuffer[]): Promise<FrameTaskResult> {
    if (this.inline) {
      this.#inlineTasks++;
      return new Promise((resolve) => resolve(frameTask(task)));
    }
    return this.#counted(this.#pool().run(task, { transferList }));
  }

  /**
   * Opens a line to be handed over in parts while it arrives (undefined once tasks run inline). Its task waits
   * on a worker for the parts; other tasks share that worker meanwhile.
   */
  open(): FrameStream | undefined {
    if (this.inline) return undefined;
    const { port1, port2 } = new MessageChannel();
    const result = this.#counted(this.#pool().run({ port: port2 }, { transferList: [port2] }));
    let open = true;
    const post = (message: HandOverMessage, transferList: ArrayBuffer[] = []) => {
      if (open) port1.postMessage(message, transferList);
    };
    return {
      push: (parts, transferList) => post({ kind: 'parts', parts }, transferList),
      end: (task, transferList) => {
        post({ kind: 'end', task }, transferList);
        open = false;
        return result;
      },
      abort: () => {
        post({ kind: 'abort' });
        open = false;
        // nobody waits for an aborted line; a worker that failed meanwhile is counted all the same
        result.catch(() => {});
      },
    };
  }

  #counted(run: Promise<FrameTaskResult>): Promise<FrameTaskResult> {
    return run.then(
      (result) => {
        this.#workerTasks++;
        return result;
      },
      (err: unknown) => {
        if (++this.#failures === MAX_FAILURES) {
          const why = err instanceof Error ? err.message : String(err);
          process.emitWarning(
            `frame workers failed ${MAX_FAILURES} times (last: ${why}); framing inline from now on`,
            {
              code: 'MCP_SUPERVISOR_FRAME_POOL_DEGRADED',
            },
          );
        }
        throw err;
      },
    );
  }

  /** Stops the workers after their current tasks; idempotent. Later tasks run inline. */
  close(): Promise<void> {
    const piscina = this.#piscina;
    // a close that times out must still end the threads, or they would keep the host alive
    this.#closing ??= piscina ? piscina.close().catch(() => piscina.destroy()) : Promise.resolve();
    return this.#closing;
  }

  #pool(): Piscina<FrameTask | HandOverTask, FrameTaskResult> {
    if (this.#piscina) return this.#piscina;
    this.#piscina = new Piscina<FrameTask | HandOverTask, FrameTaskResult>({
      ...taskLocation(),
      name: 'frameTask',
      minThreads: this.maxThreads,
      maxThreads: this.maxThreads,
      idleTimeout: this.#idleTimeout,
      closeTimeout: 5_000,
      niceIncrement: this.#nice,
      // a line handed over in parts holds its task open while its bytes arrive: other lines run beside it
      concurrentTasksPerWorker: HAND_OVERS_PER_WORKER,
    });
    return this.#piscina;
  }
}
