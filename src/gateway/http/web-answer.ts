import type { ServerResponse } from 'node:http';
import { passOn, type StreamShed } from './pass-on.js';
import { holdPost } from './post-hold.js';

// Writing what the SDK's web-standard transport answered onto Node's response: whole, as an event stream as it
// comes, or, for a POST's answer that came alone, as one JSON body.

/**
 * Writes a fetch `Response`: a body that is not an event stream whole, with its length; an event stream as it
 * comes. A POST's stream is held up to `holdMs` (0 for a stream that is not a POST's: never held): its answer,
 * alone, goes out as a JSON body; otherwise the head and what was held go out in one write, then the rest, through
 * a queue bounded for a client that does not read (passOn).
 */
export async function sendWeb(
  res: ServerResponse,
  response: Response,
  holdMs: number,
  /** Told the ids of the events a POST's answer sent alone as JSON had: no client can ask for them. */
  onAlone?: (eventIds: readonly string[]) => void,
  /** Told what an event stream whose client fell behind lost (passOn). */
  onShed?: (shed: StreamShed) => void,
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
    await passOn(res, reader, held, onShed);
    return;
  }
  res.writeHead(response.status, head);
  const pending = reader.read().catch(() => undefined);
  // The head goes out with the first event when there is one already (one write, not two); a stream that has
  // nothing yet (a GET stream may stay silent for long) sends it at once, so the client knows it is open.
  if ((await Promise.race([pending, nextTurn()])) === NOT_YET) res.flushHeaders();
  await passOn(res, reader, { held: [], pending }, onShed);
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

const NOT_YET = Symbol('not yet');

/** Resolves NOT_YET after what is already queued has run (a read whose chunk is there resolves before it). */
function nextTurn(): Promise<typeof NOT_YET> {
  return new Promise((resolve) => setImmediate(() => resolve(NOT_YET)));
}
