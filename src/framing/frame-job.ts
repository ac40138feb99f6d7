import type { JsonRpcId } from './json-rpc.js';
import type { ResultRequest, ToolResultEvent } from './tool-result.js';

// The contract between the stream decoder and whatever decodes its large lines off the main thread. It lives on
// the framing side so that framing never imports the worker pool: src/workers implements it (frame-task.ts is the
// thread side, frame-pool.ts the pool), and the decoder is handed a FrameRunner.

/** One slice of a line's bytes, in memory that was transferred (or freshly copied) to the worker. */
export interface FramePart {
  buffer: ArrayBuffer;
  offset: number;
  length: number;
}

/** One large line for a worker; `id` and `request` are set when the main side wants it flattened or capped. */
export interface FrameTask {
  parts: FramePart[];
  byteLength: number;
  id?: JsonRpcId;
  request?: ResultRequest;
}

/**
 * What comes back: a flattened/capped tool result, the decoded line for the main side to parse (never a big
 * cloned object: cloning costs the main thread more than parsing), a noise preview, or nothing (blank line).
 */
export type FrameTaskResult =
  | ToolResultEvent
  | { kind: 'line'; line: string }
  | { kind: 'noise'; line: string }
  | { kind: 'blank' };

/** Runs frame tasks off the main thread, the listed buffers transferred with the task (`FramePool` is one). */
export interface FrameRunner {
  run(task: FrameTask, transferList: ArrayBuffer[]): Promise<FrameTaskResult>;
}
