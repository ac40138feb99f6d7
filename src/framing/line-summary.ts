// What the main side is handed of a large notification or list result, built on the worker that parsed it: the
// message itself when it fits the caps below, otherwise a bounded copy and a `MessageCut` saying what was left out.
// The main thread then parses at most the bounded copy, never the megabytes of the line.
import { isRecord } from './is-record.js';
import { isNotification, isSuccessResponse, type JsonRpcMessage } from './json-rpc.js';
import { jsonSizeWithin } from './json-size.js';

/** A notification's params as JSON, at most: past it the params are cut field by field. */
export const NOTIFICATION_MAX_BYTES = 64 * 1024;
/** One params field of a cut notification is kept whole up to this size, or left out. */
export const NOTIFICATION_FIELD_MAX_BYTES = 16 * 1024;
/** One list page's items as JSON, at most: items past it are left out, and with them the page's cursor. */
export const LIST_PAGE_MAX_BYTES = 1024 * 1024;

/** The array fields of the list results the fleet keeps (tools/list, prompts/list, resources/…/list). */
export const LIST_FIELDS = ['tools', 'prompts', 'resources', 'resourceTemplates'] as const;
export type ListField = (typeof LIST_FIELDS)[number];

/** What a summary left out, as data; `bytes` is the size of the line the server sent. */
export type MessageCut =
  | { kind: 'notification'; method: string; bytes: number; dropped: string[] }
  | { kind: 'list'; field: ListField; bytes: number; kept: number; total: number; dropped: string[] };

/** A message cut to the caps, or undefined when it fits them as it is. */
export function summarizeMessage(
  message: JsonRpcMessage,
  bytes: number,
): { message: JsonRpcMessage; cut: MessageCut } | undefined {
  if (isNotification(message)) return summarizeNotification(message.method, message.params, bytes);
  if (isSuccessResponse(message) && isRecord(message.result))
    return summarizeList(message.id, message.result, bytes);
  return undefined;
}

function summarizeNotification(method: string, params: unknown, bytes: number) {
  if (jsonSizeWithin(params, NOTIFICATION_MAX_BYTES) !== undefined) return undefined;
  const { kept, dropped } = keepSmall(isRecord(params) ? params : { params }, NOTIFICATION_MAX_BYTES);
  const message: JsonRpcMessage = isRecord(params)
    ? { jsonrpc: '2.0', method, params: kept }
    : { jsonrpc: '2.0', method };
  return { message, cut: { kind: 'notification' as const, method, bytes, dropped } };
}

function summarizeList(id: string | number, result: Record<string, unknown>, bytes: number) {
  const field = LIST_FIELDS.find((f) => Array.isArray(result[f]));
  if (field === undefined || bytes <= LIST_PAGE_MAX_BYTES) return undefined;
  const all = result[field] as unknown[];
  const items: unknown[] = [];
  let used = 0;
  for (const item of all) {
    const size = jsonSizeWithin(item, LIST_PAGE_MAX_BYTES - used);
    if (size === undefined) break;
    items.push(item);
    used += size + 1;
  }
  const { [field]: _items, ...rest } = result;
  // A page cut short ends the listing: its cursor would skip the items left out.
  const endsEarly = items.length < all.length && 'nextCursor' in rest;
  if (endsEarly) delete rest.nextCursor;
  const { kept, dropped } = keepSmall(rest, NOTIFICATION_MAX_BYTES);
  if (endsEarly) dropped.push('nextCursor');
  if (items.length === all.length && dropped.length === 0) return undefined;
  const message: JsonRpcMessage = { jsonrpc: '2.0', id, result: { ...kept, [field]: items } };
  const cut: MessageCut = { kind: 'list', field, bytes, kept: items.length, total: all.length, dropped };
  return { message, cut };
}

/** The fields of `record` that are small, in order, within `budget` bytes together; the others' keys. */
function keepSmall(record: Record<string, unknown>, budget: number) {
  // no prototype: a `__proto__` key the server sent stays a plain field, as JSON.parse made it
  const kept: Record<string, unknown> = Object.create(null);
  const dropped: string[] = [];
  let left = budget;
  for (const key of Object.keys(record)) {
    const size = jsonSizeWithin(record[key], Math.min(NOTIFICATION_FIELD_MAX_BYTES, left));
    if (size === undefined) {
      dropped.push(key);
      continue;
    }
    kept[key] = record[key];
    left -= size + Buffer.byteLength(key) + 4;
  }
  return { kept, dropped };
}
