import type { DecodedEvent } from './decoded-event.js';
import type { FrameTask } from './frame-job.js';
import type { JsonRpcId } from './json-rpc.js';
import { packLineParts } from './line-parts.js';
import { noisePreview } from './line-text.js';
import { sniffLine } from './sniff.js';
import { failedToolResultEvent, type ResultRequest } from './tool-result.js';

/** One large line on its way to a worker: its place in the delivery order, its task, and what was sniffed. */
export interface LineJob<S> {
  slot: S;
  task: FrameTask;
  transfer: ArrayBuffer[];
  head: Uint8Array;
  asked: JsonRpcId | undefined;
}

/** A line's bytes as the splitter gave them, with copies of its first and last bytes to sniff. */
export interface LineBytes {
  pieces: Uint8Array[];
  byteLength: number;
  lastShared: boolean;
  head: Uint8Array;
  tail: Uint8Array;
}

/**
 * A line's task: its parts packed (owned chunks transferred), and, when its id answers a call that wants its
 * result flattened or capped, that call's request.
 */
export function lineJob<S>(
  slot: S,
  line: LineBytes,
  ask: (id: JsonRpcId) => ResultRequest | undefined,
  owned: WeakSet<ArrayBuffer>,
): LineJob<S> {
  const sniff = sniffLine(line.head, line.tail);
  const asked = sniff.kind === 'result' ? sniff.id : undefined;
  const request = asked === undefined ? undefined : ask(asked);
  const { parts, transfer } = packLineParts(line.pieces, line.lastShared, owned);
  const task: FrameTask = { parts, byteLength: line.byteLength };
  if (request !== undefined && asked !== undefined) Object.assign(task, { id: asked, request });
  return { slot, task, transfer, head: line.head, asked };
}

/** A worker failed on a line: the call it answers ends with the failure; a line nobody waits for is noise. */
export function failedJobEvent<S>(job: LineJob<S>, err: unknown): DecodedEvent {
  const why = `worker failed: ${err instanceof Error ? err.message : String(err)}`;
  const { id, request } = job.task;
  if (id !== undefined && request !== undefined) return failedToolResultEvent(id, why);
  return noisePreview([job.head], job.head.byteLength);
}
