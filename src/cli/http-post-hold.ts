import { isRecord } from '../framing/is-record.js';

/** A read of a POST's event stream; undefined when it failed (the stream was cancelled or errored). */
export type Read = ReadableStreamReadResult<Uint8Array> | undefined;

/**
 * What a POST's event stream carried while it was held: its one answer and nothing else but priming events
 * (`answer`, the JSON of that answer), or what to pass on as a stream: the chunks held so far, the read still
 * pending (none once the stream ended).
 */
export type HeldPost =
  | { readonly kind: 'answer'; readonly json: string; readonly eventIds: readonly string[] }
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

/** Follows a stream's events while it is still one answer alone (behind priming events, which carry no data). */
class AnswerWatch {
  private readonly decoder = new TextDecoder();
  private text = '';
  private found: string | undefined;
  /** The ids of the events taken, which the client never sees when the answer goes out alone. */
  readonly eventIds: string[] = [];

  /** Takes a chunk; false once the stream is anything but priming events and at most one answer. */
  push(chunk: Uint8Array): boolean {
    const text = this.decoder.decode(chunk, { stream: true });
    // the transport ends lines with \n alone; a stream that does not is passed on as it is
    if (text.includes('\r')) return false;
    this.text += text;
    for (;;) {
      const end = this.text.indexOf('\n\n');
      if (end < 0) return true;
      const event = this.text.slice(0, end);
      this.text = this.text.slice(end + 2);
      if (!this.take(event)) return false;
    }
  }

  /** The answer, if the stream was that and priming events only, every event complete. */
  answer(): string | undefined {
    return this.text === '' ? this.found : undefined;
  }

  private take(event: string): boolean {
    let data: string | undefined;
    for (const line of event.split('\n')) {
      // a comment (the transport's keep-alive) is a sign of life the client should get as the stream it is
      if (line.startsWith(':')) return false;
      if (line.startsWith('id:')) this.eventIds.push(line.slice(line.startsWith('id: ') ? 4 : 3));
      if (!line.startsWith('data:')) continue;
      const value = line.slice(line.startsWith('data: ') ? 6 : 5);
      data = data === undefined ? value : `${data}\n${value}`;
    }
    if (data === undefined || data === '') return true;
    if (this.found !== undefined || !isAnswer(data)) return false;
    this.found = data;
    return true;
  }
}

/** Whether one message's JSON is an answer (a result or an error), not a request or a notification. */
function isAnswer(json: string): boolean {
  if (json.startsWith('{"result":')) return true;
  if (json.length > PARSED_AT_MOST) return false;
  const m = jsonObject(json);
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
