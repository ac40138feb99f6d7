import { decodeUtf8 } from '../framing/bytes.js';
import type { FrameTask, FrameTaskResult } from '../framing/frame-job.js';
import { isSuccessResponse } from '../framing/json-rpc.js';
import { isSparseJson } from '../framing/json-sparse.js';
import { summarizeMessage } from '../framing/line-summary.js';
import { classifyText, firstSignificantByte, noisePreview } from '../framing/line-text.js';
import { toolResultEvent } from '../framing/tool-result.js';
import { collectLine, type HandOverTask, isHandOver } from './line-hand-over.js';

export type { FramePart, FrameTask, FrameTaskResult } from '../framing/frame-job.js';

/**
 * The piscina task: decodes and parses one large line. A tools/call answer asked for is flattened or capped here;
 * a notification or list page over its caps is cut to a bounded copy here; anything else goes back parsed when
 * it is mostly long strings, else as the line.
 */
export function frameTask(task: FrameTask): FrameTaskResult;
export function frameTask(task: HandOverTask): Promise<FrameTaskResult>;
export function frameTask(task: FrameTask | HandOverTask): FrameTaskResult | Promise<FrameTaskResult> {
  return isHandOver(task) ? collectLine(task.port, wholeLine) : wholeLine(task);
}

/** One large line, all its bytes here. */
function wholeLine(task: FrameTask): FrameTaskResult {
  const pieces = task.parts.map((p) => new Uint8Array(p.buffer, p.offset, p.length));
  const first = firstSignificantByte(pieces);
  if (first === undefined) return { kind: 'blank' };
  if (first !== 0x7b) return noisePreview(pieces, task.byteLength);
  const line = decodeUtf8(pieces, task.byteLength);
  const verdict = classifyText(line);
  if (verdict === undefined) return { kind: 'blank' };
  if (verdict.kind === 'noise') return verdict;
  const message = verdict.message;
  if (task.request !== undefined && isSuccessResponse(message) && message.id === task.id) {
    return toolResultEvent(message.id, message.result, task.request);
  }
  const summary = summarizeMessage(message, task.byteLength);
  if (summary === undefined)
    return isSparseJson(message, task.byteLength) ? { kind: 'parsed', message } : { kind: 'line', line };
  return { kind: 'line', line: JSON.stringify(summary.message), cut: summary.cut };
}
