import { decodeUtf8 } from '../framing/bytes.js';
import { isSuccessResponse, type JsonRpcId } from '../framing/json-rpc.js';
import { classifyText, firstSignificantByte, noisePreview } from '../framing/line-text.js';
import { type ResultRequest, type ToolResultEvent, toolResultEvent } from '../framing/tool-result.js';

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

/** The piscina task: decodes one large line and, when asked, parses and flattens it off the main thread. */
export function frameTask(task: FrameTask): FrameTaskResult {
  const pieces = task.parts.map((p) => new Uint8Array(p.buffer, p.offset, p.length));
  const first = firstSignificantByte(pieces);
  if (first === undefined) return { kind: 'blank' };
  if (first !== 0x7b) return noisePreview(pieces, task.byteLength);
  const line = decodeUtf8(pieces, task.byteLength);
  if (task.request === undefined || task.id === undefined) return { kind: 'line', line };
  const verdict = classifyText(line);
  if (verdict === undefined) return { kind: 'blank' };
  if (verdict.kind === 'noise') return verdict;
  const message = verdict.message;
  if (isSuccessResponse(message) && message.id === task.id) {
    return toolResultEvent(message.id, message.result, task.request);
  }
  return { kind: 'line', line };
}
