import { Worker } from 'node:worker_threads';
import type { KeyringAnswer, KeyringJob } from './keyring-job.js';

/**
 * Runs one job on a thread of its own and resolves its answer, or words saying why there is none: the thread
 * could not load the library, ended without answering, or did not answer within `ms`. A thread past its deadline
 * is let go — it cannot be stopped inside a native call — and no longer keeps the process alive.
 */
export function runKeyringJob(job: KeyringJob, ms: number): Promise<KeyringAnswer> {
  return new Promise((resolve) => {
    const worker = startThread(job);
    let settled = false;
    const done = (answer: KeyringAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const timer = setTimeout(() => {
      worker.unref();
      void worker.terminate().catch(() => {});
      done({
        ok: false,
        cause: 'unreachable',
        words: `no answer from the keyring within ${Math.round(ms / 100) / 10} s`,
      });
    }, ms);
    worker.once('message', (answer: KeyringAnswer) => done(answer));
    worker.once('error', (err) =>
      done({
        ok: false,
        cause: 'unreachable',
        words: `the keyring library could not run here: ${err.message.split('\n')[0]}`,
      }),
    );
    worker.once('exit', () =>
      done({ ok: false, cause: 'unreachable', words: 'the keyring thread ended without an answer' }),
    );
  });
}

// Under vitest or tsx this module is the .ts source, and so is its sibling thread entry.
const fromSource = import.meta.url.endsWith('.ts');

/**
 * The thread, on the built entry; from the source, on a one-line script that registers tsx in the thread and then
 * imports the source entry (on Node 20 a thread's `--import` does not reach its entry's own loading).
 */
function startThread(job: KeyringJob): Worker {
  if (!fromSource) return new Worker(new URL('./keyring-worker.js', import.meta.url), { workerData: job });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const source = JSON.stringify(new URL('./keyring-worker.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then((t) => { t.register(); return import(${source}); });`, {
    eval: true,
    workerData: job,
  });
}
