// What a parsed line becomes in the stream: its message, or the tool result of the call it answers.

import type { DecodedEvent } from './decoded-event.js';
import type { FrameTaskResult } from './frame-job.js';
import { isSuccessResponse, type JsonRpcId, type JsonRpcMessage } from './json-rpc.js';
import { classifyText } from './line-text.js';
import { type ResultRequest, toolResultEvent } from './tool-result.js';

/** Asks the stream's owner whether an id answers a call that wants its result flattened or capped. */
export type AskResult = (id: JsonRpcId) => ResultRequest | undefined;

/** `asked`: the id the line's sniff already asked about; the owner is not asked twice for one line. */
export function messageEvent(
  message: JsonRpcMessage,
  asked: JsonRpcId | undefined,
  ask: AskResult,
): DecodedEvent {
  if (isSuccessResponse(message) && message.id !== asked) {
    const request = ask(message.id);
    if (request) return toolResultEvent(message.id, message.result, request);
  }
  return { kind: 'message', message };
}

/** A worker's answer on a line, as the event it stands for (nothing for a blank line). */
export function taskEvent(
  result: FrameTaskResult,
  asked: JsonRpcId | undefined,
  ask: AskResult,
): DecodedEvent | undefined {
  if (result.kind === 'blank') return undefined;
  if (result.kind === 'parsed') return messageEvent(result.message, asked, ask);
  if (result.kind !== 'line') return result;
  const verdict = classifyText(result.line);
  if (verdict === undefined || verdict.kind === 'noise') return verdict;
  const event = messageEvent(verdict.message, asked, ask);
  return result.cut && event.kind === 'message' ? { ...event, cut: result.cut } : event;
}
