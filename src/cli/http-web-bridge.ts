import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { type HeldPost, holdPost } from './http-post-hold.js';

/** What the SDK's transport reads of a body at most (its default); a longer one is handed on for its 413. */
const MAX_BODY = 4 * 1024 * 1024;

// Headers that describe the connection or the body of the request as it came, not the request itself.
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
]);

/** A request's headers as fetch `Headers`, but those of the connection and of the body as it came. */
function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (HOP_HEADERS.has(name.toLowerCase())) continue;
    try {
      headers.append(name, req.rawHeaders[i + 1]!);
    } catch {
      // A header the fetch API will not carry is not one the transport reads.
    }
  }
  return headers;
}

/**
 * What the SDK's web-standard transport reads of a request whose body it is handed parsed: its method, its URL,
 * and its headers by name and as a whole. A fetch `Request` costs an `AbortSignal`, a header list and a body
 * state on every POST (about a twentieth of `serve --http`'s CPU per call), all unread there; this gives it
 * only what it reads. A body the transport must read itself still goes in a real `Request`.
 */
export interface TransportRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Pick<Headers, 'get' | 'entries'>;
}

/** A request as the transport reads it (see TransportRequest); header values as Node joined them, as fetch would. */
export function transportRequest(
  req: IncomingMessage,
  url: string,
  method = req.method ?? 'GET',
): TransportRequest {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method,
    url,
    headers: {
      get: (name: string) => kept[name.toLowerCase()] ?? null,
      entries: () => Object.entries(kept)[Symbol.iterator]() as HeadersIterator<[string, string]>,
    },
  };
}

/** Hands a request to the transport; the cast is the one place the light request stands in for a fetch one. */
export function handleWith(
  transport: WebStandardStreamableHTTPServerTransport,
  request: TransportRequest | Request,
  parsedBody?: unknown,
): Promise<Response> {
  return transport.handleRequest(request as Request, parsedBody !== undefined ? { parsedBody } : undefined);
}

/**
 * How long a POST's answer may be waited for before its event stream goes out. An answer that comes within this,
 * with nothing before it, is sent as one JSON body (holdPost); anything slower gets its stream's head and priming
 * event when this has passed.
 */
const HOLD_POST_MS = 50;

/**
 * Answers a session's request through the SDK's web-standard transport, without the fetch adapter its Node
 * transport puts around it (a `Request` proxy and a web body stream per request, a second stream to write the
 * answer): the body is read here and handed over parsed (an `initialize` comes already parsed as `parsed`); a
 * body that is not JSON, or longer than the transport reads, goes as it came, so the transport answers it as it
 * always did (400, 413). The answer is written as the transport makes it (status, headers, and an event stream
 * chunk by chunk as its events come), but for a POST's answer that comes alone: that goes out as one JSON body.
 */
export async function answerWeb(
  transport: WebStandardStreamableHTTPServerTransport,
  req: IncomingMessage,
  res: ServerResponse,
  parsed?: unknown,
  /** How long a POST's answer may be waited for, to be sent alone as JSON (tests lengthen it). */
  holdMs = HOLD_POST_MS,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    url = new URL(req.url ?? '/', 'http://localhost');
  }
  const method = req.method ?? 'GET';
  let parsedBody = parsed;
  let raw: Buffer | undefined;
  if (method === 'POST' && parsedBody === undefined) {
    raw = await readBody(req);
    if (raw.length <= MAX_BODY) {
      try {
        parsedBody = JSON.parse(raw.toString('utf8'));
        raw = undefined;
      } catch {
        // Not JSON: the transport reads it itself and answers its parse error.
      }
    }
  }
  const request =
    raw === undefined
      ? transportRequest(req, url.href, method)
      : new Request(url, { method, headers: webHeaders(req), body: raw.toString('utf8') });
  await sendWeb(res, await handleWith(transport, request, parsedBody), method === 'POST' ? holdMs : 0);
}

/** The body, whole up to just past MAX_BODY; the rest is read and dropped, so the connection stays usable. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    req.on('data', (c: Buffer) => {
      if (kept > MAX_BODY) return;
      chunks.push(c);
      kept += c.length;
    });
    req.on('error', reject);
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
  });
}

/**
 * Writes a fetch `Response`: a body that is not an event stream whole, with its length; an event stream as it
 * comes. A POST's stream is held up to `holdMs` (0 for a stream that is not a POST's: never held): its answer,
 * alone, goes out as a JSON body; otherwise the head and what was held go out in one write, then the rest.
 */
async function sendWeb(res: ServerResponse, response: Response, holdMs: number): Promise<void> {
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
      sendJson(res, response.status, head, held.json);
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
export function sendJson(
  res: ServerResponse,
  status: number,
  streamHead: Record<string, string | number>,
  json: string,
): void {
  const head: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(streamHead)) if (!STREAM_HEADERS.has(name)) head[name] = value;
  const body = Buffer.from(json, 'utf8');
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
