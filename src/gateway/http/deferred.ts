import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { passOn, type StreamShed } from './pass-on.js';
import { holdPost, jsonObject } from './post-hold.js';
import { sendJsonBody } from './web-answer.js';
import { handleWith, transportRequest } from './web-bridge.js';

/**
 * The HTTP status 2026-07-28 ties to a JSON-RPC error over Streamable HTTP: 400 for a header mismatch (−32020), a
 * missing required client capability (−32021) and an unsupported protocol version (−32022); 404 for a method the
 * server does not implement (−32601). Any other error is answered with 200, as a result is.
 */
export function statusOfError(code: unknown): number | undefined {
  if (code === -32020 || code === -32021 || code === -32022) return 400;
  if (code === -32601) return 404;
  return undefined;
}

/**
 * Hands one 2026 POST (its body already read and checked) to the SDK's web-standard transport and writes the
 * answer, holding the response back until the stream shows what it is (holdPost). The transport opens a 200 event
 * stream at once; when the answer comes alone it is sent as one JSON body instead, and an error HTTP gives a
 * status to gets that status (the error may come from a server of the fleet, long after the POST arrived). Once
 * anything else comes first — a progress or log notification, or the transport's keep-alive comment after 15 s of
 * silence — the stream goes out as it is, with 200.
 */
export async function answerDeferred(
  transport: WebStandardStreamableHTTPServerTransport,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  /** Told what the event stream lost when its client fell behind (passOn). */
  onShed?: (shed: StreamShed) => void,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost').href;
  const response = await handleWith(transport, transportRequest(req, url, 'POST'), body);
  const head = Object.fromEntries(response.headers);
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  if (!response.body || !type.startsWith('text/event-stream')) {
    const text = await response.text();
    const status = response.status === 200 ? (errorStatusOf(text) ?? 200) : response.status;
    res.writeHead(status, head).end(text);
    return;
  }

  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  const held = await holdPost(reader, undefined);
  if (held.kind === 'answer') {
    const status = response.status === 200 ? (errorStatusOf(held.json) ?? 200) : response.status;
    sendJsonBody(res, status, head, held.json);
    return;
  }
  if (res.destroyed) return;
  res.writeHead(response.status, head);
  await passOn(res, reader, held, onShed);
}

/** The status of a body that is one JSON-RPC error response HTTP gives a status to; undefined for anything else. */
function errorStatusOf(text: string | Buffer): number | undefined {
  // The SDK wrote it with JSON.stringify, so an error member is spelled so: a result (nearly every answer) is not
  // parsed a second time.
  if (!text.includes('"error"')) return undefined;
  const m = jsonObject(text.toString()) as { method?: unknown; error?: { code?: unknown } } | undefined;
  if (m === undefined || m.method !== undefined || typeof m.error !== 'object' || m.error === null)
    return undefined;
  return statusOfError(m.error.code);
}
