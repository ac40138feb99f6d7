import { isRecord } from '../../framing/is-record.js';

/** A read of a POST's event stream; undefined when it failed (the stream was cancelled or errored). */
export type Read = ReadableStreamReadResult<Uint8Array> | undefined;

/**
 * What a POST's event stream carried while it was held: its one answer and nothing else but priming events
 * (`answer`: that answer's JSON, the bytes of the stream's own chunk, and the ids of the events taken), or what to
 * pass on as a stream: the chunks held so far, the read still pending (none once the stream ended).
 */
export type HeldPost =
  | { readonly kind: 'answer'; readonly json: Buffer; readonly eventIds: readonly string[] }
  | { readonly kind: 'stream'; readonly held: Uint8Array[]; readonly pending: Promise<Read> | undefined };

/** Answers this long are taken as answers only when they begin `{"result":` (parsing one would cost the host loop). */
const PARSED_AT_MOST = 64 * 1024;

/**
 * Holds a POST's event stream until it shows what it is: its answer alone, then its end (the answer is sent as one
 * JSON body, which the spec allows as well and which a client reads far more cheaply than an event stream), or
 * anything else first — a notification, a request, a comment, more than one message — or `boundMs` passing
 * (undefined: no bound), after which it goes out as the stream it is.
 */
export async function holdPost(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  boundMs: number | undefined,
): Promise<HeldPost> {
  const read = (): Promise<Read> => reader.read().catch(() => undefined);
  const held: Uint8Array[] = [];
  const watch = new AnswerWatch();
  let timer: NodeJS.Timeout | undefined;
  const bound =
    boundMs === undefined
      ? undefined
      : new Promise<typeof PASSED>((resolve) => {
          timer = setTimeout(() => resolve(PASSED), boundMs);
        });
  try {
    let pending = read();
    for (;;) {
      const next = bound ? await Promise.race([pending, bound]) : await pending;
      if (next === PASSED) return { kind: 'stream', held, pending };
      if (!next || next.done) {
        const json = watch.answer();
        return json !== undefined
          ? { kind: 'answer', json, eventIds: watch.eventIds }
          : { kind: 'stream', held, pending: undefined };
      }
      held.push(next.value);
      pending = read();
      if (!watch.push(next.value)) return { kind: 'stream', held, pending };
    }
  } finally {
    clearTimeout(timer);
  }
}

const PASSED = Symbol('bound passed');

const DATA = Buffer.from('data:');
const DATA_LINE = Buffer.from('\ndata:');
const RESULT_FIRST = Buffer.from('{"result":');

/** One event of the transport's stream: the ids of its `id:` lines and its data (empty: a priming event), or a comment. */
export type StreamEvent =
  | { readonly kind: 'event'; readonly ids: readonly string[]; readonly data: Buffer }
  | { readonly kind: 'comment' };

/**
 * A chunk of the transport's stream read as it is made: one whole event, lines ended by `\n`, the data on one
 * last line; undefined for a chunk of any other shape. Bytes are looked at, not decoded: an event of megabytes
 * costs a few scans, not a decode and an encode.
 */
export function readEvent(chunk: Uint8Array): StreamEvent | undefined {
  const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const end = b.length - 2;
  if (end < 0 || b.indexOf('\n\n') !== end || b.includes(0x0d)) return undefined;
  const dataFirst = b.subarray(0, DATA.length).equals(DATA);
  const dataLine = dataFirst ? -1 : b.indexOf(DATA_LINE);
  const dataAt = dataFirst ? 0 : dataLine < 0 ? -1 : dataLine + 1;
  const ids: string[] = [];
  // the lines before the data are a few short ones (event, id, retry): only they are decoded
  for (const line of b.toString('utf8', 0, dataAt < 0 ? end : dataAt).split('\n')) {
    if (line.startsWith(':')) return { kind: 'comment' };
    if (line.startsWith('id:')) ids.push(line.slice(line.startsWith('id: ') ? 4 : 3));
  }
  if (dataAt < 0) return { kind: 'event', ids, data: b.subarray(0, 0) };
  const from = dataAt + (b[dataAt + 5] === 0x20 ? 6 : 5);
  // the data is the event's last line, and its only one
  if (b.indexOf(0x0a, from) !== end) return undefined;
  return { kind: 'event', ids, data: b.subarray(from, end) };
}

/**
 * Follows a stream's events while it is still one answer alone (behind priming events, which carry no data). A
 * chunk that is no whole event is passed on as it is, unread, and so is anything but one answer.
 */
class AnswerWatch {
  private found: Buffer | undefined;
  /** The ids of the events taken, which the client never sees when the answer goes out alone. */
  readonly eventIds: string[] = [];

  /** Takes a chunk; false once the stream is anything but priming events and at most one answer. */
  push(chunk: Uint8Array): boolean {
    const event = readEvent(chunk);
    // a comment (the transport's keep-alive) is a sign of life the client should get as the stream it is
    if (event?.kind !== 'event') return false;
    this.eventIds.push(...event.ids);
    if (event.data.length === 0) return true;
    if (this.found !== undefined || !isAnswer(event.data)) return false;
    this.found = event.data;
    return true;
  }

  /** The answer, if the stream was that and priming events only. */
  answer(): Buffer | undefined {
    return this.found;
  }
}

/** Whether one message's JSON is an answer (a result or an error), not a request or a notification. */
function isAnswer(json: Buffer): boolean {
  if (json.subarray(0, RESULT_FIRST.length).equals(RESULT_FIRST)) return true;
  if (json.length > PARSED_AT_MOST) return false;
  const m = jsonObject(json.toString('utf8'));
  return m !== undefined && m.method === undefined && m.id !== undefined && ('result' in m || 'error' in m);
}

/** `text` parsed, when it is a JSON object; undefined for anything else. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isRecord(value) ? value : undefined;
}
