import type { ServerResponse } from 'node:http';
import { type HeldPost, holdPost } from './post-hold.js';

// Writing what the SDK's web-standard transport answered onto Node's response: whole, as an event stream as it
// comes, or, for a POST's answer that came alone, as one JSON body.

/**
 * Writes a fetch `Response`: a body that is not an event stream whole, with its length; an event stream as it
 * comes. A POST's stream is held up to `holdMs` (0 for a stream that is not a POST's: never held): its answer,
 * alone, goes out as a JSON body; otherwise the head and what was held go out in one write, then the rest.
 */
export async function sendWeb(
  res: ServerResponse,
  response: Response,
  holdMs: number,
  /** Told the ids of the events a POST's answer sent alone as JSON had: no client can ask for them. */
  onAlone?: (eventIds: readonly string[]) => void,
): Promise<void> {
  const head: Record<string, string | number> = Object.fromEntries(response.headers);
  if (!response.body) {
    res.writeHead(response.status, head).end();
    return;
  }
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  if (!type.startsWith('text/event-stream')) {
    const body = Buffer.from(await response.arrayBuffer());
    head['content-length'] = body.length;
    res.writeHead(response.status, head).end(body);
    return;
  }
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  if (holdMs > 0) {
    const held = await holdPost(reader, holdMs);
    if (held.kind === 'answer') {
      sendJsonBody(res, response.status, head, held.json);
      onAlone?.(held.eventIds);
      return;
    }
    if (res.destroyed) return;
    res.writeHead(response.status, head);
    await passOn(res, reader, held);
    return;
  }
  res.writeHead(response.status, head);
  const pending = reader.read().catch(() => undefined);
  // The head goes out with the first event when there is one already (one write, not two); a stream that has
  // nothing yet (a GET stream may stay silent for long) sends it at once, so the client knows it is open.
  if ((await Promise.race([pending, nextTurn()])) === NOT_YET) res.flushHeaders();
  await passOn(res, reader, { held: [], pending });
}

// What describes an event stream, not the JSON body that stands in for it.
const STREAM_HEADERS = new Set([
  'content-type',
  'content-length',
  'cache-control',
  'connection',
  'x-accel-buffering',
]);

/** Writes a POST's one answer as its JSON body, with the stream's other headers (its session id). */
export function sendJsonBody(
  res: ServerResponse,
  status: number,
  streamHead: Record<string, string | number>,
  body: Buffer,
): void {
  const head: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(streamHead)) if (!STREAM_HEADERS.has(name)) head[name] = value;
  head['content-type'] = 'application/json';
  head['content-length'] = body.length;
  res.writeHead(status, head).end(body);
}

/** Writes what was held in one write, then the rest of the stream as it comes, and ends the response. */
export async function passOn(
  res: ServerResponse,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  from: Pick<HeldPost & { kind: 'stream' }, 'held' | 'pending'>,
): Promise<void> {
  if (from.held.length > 0)
    await writeChunk(res, from.held.length === 1 ? from.held[0]! : Buffer.concat(from.held));
  let pending = from.pending;
  while (pending) {
    const next = await pending;
    if (!next || next.done || res.destroyed) break;
    await writeChunk(res, next.value);
    pending = reader.read().catch(() => undefined);
  }
  res.end();
}

const NOT_YET = Symbol('not yet');

/** Resolves NOT_YET after what is already queued has run (a read whose chunk is there resolves before it). */
function nextTurn(): Promise<typeof NOT_YET> {
  return new Promise((resolve) => setImmediate(() => resolve(NOT_YET)));
}

/** Writes a chunk, waiting for the socket to drain when it is full (or for the response to close). */
export function writeChunk(res: ServerResponse, chunk: Uint8Array): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
