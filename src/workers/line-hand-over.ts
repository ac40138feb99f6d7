import type { MessagePort } from 'node:worker_threads';
import type { FramePart, FrameTask, FrameTaskResult } from '../framing/frame-job.js';

/** The task that opens a line handed over in parts: its parts come on `port`, then its end or an abort. */
export interface HandOverTask {
  port: MessagePort;
}

/** What the main side sends on a hand-over's port, in stream order. */
export type HandOverMessage =
  | { kind: 'parts'; parts: FramePart[] }
  | { kind: 'end'; task: FrameTask }
  | { kind: 'abort' };

export function isHandOver(task: FrameTask | HandOverTask): task is HandOverTask {
  return (task as HandOverTask).port !== undefined;
}

/**
 * The worker side of a hand-over: keeps the parts as they come and, at the end, runs the whole line as one task.
 * An abort, or the main side's port closing (its stream was dropped), ends it with nothing, letting the parts go.
 */
export function collectLine(
  port: MessagePort,
  run: (task: FrameTask) => FrameTaskResult,
): Promise<FrameTaskResult> {
  const parts: FramePart[] = [];
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      port.close();
      settle();
    };
    port.on('message', (message: HandOverMessage) => {
      if (message.kind === 'parts') {
        for (const part of message.parts) parts.push(part);
        return;
      }
      if (message.kind === 'abort') return finish(() => resolve({ kind: 'blank' }));
      const task = { ...message.task, parts: parts.concat(message.task.parts) };
      parts.length = 0;
      finish(() => {
        try {
          resolve(run(task));
        } catch (err) {
          reject(err);
        }
      });
    });
    port.once('close', () => finish(() => resolve({ kind: 'blank' })));
  });
}
