import type { JsonRpcId, JsonRpcMessage } from './json-rpc.js';
import type { MessageCut } from './line-summary.js';
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
 * What comes back: a flattened/capped tool result; a message already parsed, when it is mostly long strings (its
 * clone costs the main thread less than a parse); a line for the main side to parse, when it is dense (receiving
 * a dense object's clone costs 1.5–3× parsing the same JSON); a noise preview; or nothing (blank line). A large
 * notification or list page comes back as a bounded copy's JSON with the `cut` that made it so.
 */
export type FrameTaskResult =
  | ToolResultEvent
  | { kind: 'parsed'; message: JsonRpcMessage }
  | { kind: 'line'; line: string; cut?: MessageCut }
  | { kind: 'noise'; line: string }
  | { kind: 'blank' };

/**
 * A long line handed over while it still arrives, so the main thread never holds all of it (holding tens of MiB
 * of chunks until the newline set off major GCs there). Parts go in stream order; `end` brings the last ones and
 * what the line is, and settles as `run` would for the whole line; `abort` lets the worker drop what it holds.
 */
export interface FrameStream {
  push(parts: FramePart[], transferList: ArrayBuffer[]): void;
  end(task: FrameTask, transferList: ArrayBuffer[]): Promise<FrameTaskResult>;
  abort(): void;
}

/** Runs frame tasks off the main thread, the listed buffers transferred with the task (`FramePool` is one). */
export interface FrameRunner {
  run(task: FrameTask, transferList: ArrayBuffer[]): Promise<FrameTaskResult>;
  /** Opens a line to be handed over in parts; undefined when this runner takes whole lines only (now). */
  open?(): FrameStream | undefined;
}
