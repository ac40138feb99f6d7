import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { SessionEventStore } from './event-store.js';
import type { StreamShed } from './pass-on.js';
import { sendWeb } from './web-answer.js';

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

export interface AnswerOptions {
  /** The body, already parsed (an `initialize`); read here otherwise. */
  parsed?: unknown;
  /** How long a POST's answer may be waited for, to be sent alone as JSON (tests lengthen it). */
  holdMs?: number;
  /** The session's event store: the events of an answer sent alone as JSON are dropped from it. */
  store?: SessionEventStore;
  /** Told what an event stream lost when its client fell behind (passOn). */
  onShed?: (shed: StreamShed) => void;
}

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
  opts: AnswerOptions = {},
): Promise<void> {
  const { parsed, holdMs = HOLD_POST_MS, store, onShed } = opts;
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
  const forget = store ? (ids: readonly string[]) => store.forget(ids) : undefined;
  await sendWeb(
    res,
    await handleWith(transport, request, parsedBody),
    method === 'POST' ? holdMs : 0,
    forget,
    onShed,
  );
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
