import { decodeUtf8 } from '../framing/bytes.js';
import type { FrameTask, FrameTaskResult } from '../framing/frame-job.js';
import { isSuccessResponse } from '../framing/json-rpc.js';
import { classifyText, firstSignificantByte, noisePreview } from '../framing/line-text.js';
import { toolResultEvent } from '../framing/tool-result.js';

export type { FramePart, FrameTask, FrameTaskResult } from '../framing/frame-job.js';

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
