import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import {
  type Envelope,
  HEADER_MISMATCH,
  invalidEnvelope,
  MODERN_METHODS,
  MODERN_VERSIONS,
  methodNotFound,
  unsupportedVersion,
} from '../era.js';
import type { Gateway } from '../gateway.js';
import type { Caller } from './auth.js';
import { answerDeferred } from './deferred.js';
import { GatewayPool } from './gateway-pool.js';
import { isListen, ListenStreams } from './listen-streams.js';
import { decodeParam, paramHeaderProblem } from './param-headers.js';
import type { StreamShed } from './pass-on.js';
import type { Places } from './places.js';

/** The methods whose `Mcp-Name` header mirrors a field of the body, and which field. */
const NAME_SOURCE: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

export interface StatelessOptions {
  /** A Gateway for one request, checking calls against `caller`'s scopes. */
  gateway: (caller: Caller | undefined) => Gateway;
  jsonResponse: boolean;
  /** The input schema of an exposed tool (its `x-mcp-header` parameters are checked against their headers). */
  inputSchemaOf?: (tool: string) => unknown;
  /** The places the 2025 sessions hold too: an open `subscriptions/listen` stream holds one. */
  places: Places;
  /** A request's event stream lost what its client fell behind by (passOn). */
  onShed?: (shed: StreamShed) => void;
}

/** Why a 2026 POST is refused before it reaches a Gateway: the HTTP status and the JSON-RPC error body. */
export interface Refusal {
  status: number;
  body: unknown;
}

/**
 * 2026 requests over HTTP: no session, so each POST gets its own Gateway over the shared fleet and a stateless
 * SDK transport, closed when the response ends (its head held back until the first message: deferred.ts);
 * the Gateway of a `tools/call` answered whole is kept for the next one (gateway-pool.ts).
 * Nothing of a client is kept between its requests, so any `serve --http` replica over the same config answers
 * any of them.
 */
export class StatelessRequests {
  private readonly pool: GatewayPool;
  private readonly listens: ListenStreams;

  constructor(private readonly opts: StatelessOptions) {
    this.pool = new GatewayPool(opts.gateway);
    this.listens = new ListenStreams(opts.places);
  }

  /** Ends the listen streams of every credential `keep` refuses (a token taken out of the tokens file). */
  revoke(keep: (callerId: string | undefined) => boolean): Promise<void> {
    return this.listens.revoke(keep);
  }

  /** Ends the listen streams (a drain); requests in flight go on. */
  endListens(): Promise<void> {
    return this.listens.close();
  }

  /** Ends the listen streams and closes the Gateways kept for reuse; idempotent. */
  async close(): Promise<void> {
    await Promise.all([this.listens.close(), this.pool.close()]);
  }

  async handle(
    caller: Caller | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    envelope: Envelope | undefined,
  ): Promise<void> {
    const refused = check2026(req.headers, body, envelope, this.opts.inputSchemaOf);
    if (refused) {
      res.writeHead(refused.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(refused.body));
      return;
    }
    // The SDK v1 transport knows only the 2025 revisions and refuses any other in this header; the body's
    // envelope, checked above, is what this request is answered by.
    // (It reads the raw header list.)
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      if (req.rawHeaders[i]!.toLowerCase() === 'mcp-protocol-version')
        req.rawHeaders[i + 1] = LATEST_PROTOCOL_VERSION;
    req.headers['mcp-protocol-version'] = LATEST_PROTOCOL_VERSION;
    const reusable = isPlainToolCall(body);
    const gateway = isListen(body)
      ? this.listens.admit(caller?.id, res, body, () => this.opts.gateway(caller))
      : reusable
        ? this.pool.take(caller)
        : this.opts.gateway(caller);
    if (gateway === undefined) return;
    // No session id generator: the SDK transport is then stateless (no Mcp-Session-Id, no initialize needed).
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: this.opts.jsonResponse,
    });
    let answered = false;
    res.once('close', () => {
      // Not answered whole (the client went away mid-call, or a failure): its handler may still be at work.
      if (!reusable || !answered || !res.writableFinished) return void gateway.close();
      transport.close().then(
        () => this.pool.give(caller, gateway),
        () => void gateway.close(),
      );
    });
    await gateway.connect(transport);
    // The head waits for the first message, so an error the revision gives a status to (a server's −32021) gets it.
    await answerDeferred(transport, req, res, body, this.opts.onShed);
    answered = true;
  }
}

/**
 * The 2026 checks on a POST's headers against its body: `MCP-Protocol-Version` names the envelope's revision,
 * which `serve` must speak; `Mcp-Method` names the body's method; `Mcp-Name` the tool, prompt, resource or task
 * the body names (the tool's exposed, namespaced name). Notifications need no headers.
 */
export function check2026(
  headers: IncomingMessage['headers'],
  body: unknown,
  envelope: Envelope | undefined,
  /** The input schema of an exposed tool, for its `x-mcp-header` parameters. */
  inputSchemaOf: (tool: string) => unknown = () => undefined,
): Refusal | undefined {
  const msg = body as { id?: string | number; method?: string; params?: Record<string, unknown> };
  const isRequest = msg.id !== undefined && typeof msg.method === 'string';
  const id = isRequest ? msg.id! : null;
  const mismatch = (message: string): Refusal => ({
    status: 400,
    body: { jsonrpc: '2.0', id, error: { code: HEADER_MISMATCH, message } },
  });
  if (envelope === undefined || envelope.missing.length > 0)
    return { status: 400, body: invalidEnvelope(id, envelope?.missing ?? []) };
  const version = header(headers, 'mcp-protocol-version');
  if (version !== undefined && version !== envelope.version)
    return mismatch(
      `Header mismatch: MCP-Protocol-Version is ${version}, the request's _meta says ${envelope.version}`,
    );
  if (!MODERN_VERSIONS.includes(envelope.version))
    return { status: 400, body: unsupportedVersion(id, envelope.version) };
  if (!isRequest) return undefined;
  if (version === undefined) return mismatch('Header mismatch: MCP-Protocol-Version header is required');
  const method = header(headers, 'mcp-method');
  if (method === undefined) return mismatch('Header mismatch: Mcp-Method header is required');
  if (method !== msg.method)
    return mismatch(`Header mismatch: Mcp-Method is ${method}, the body's method is ${msg.method}`);
  // Before any Gateway is made: the 2025-only methods are unknown here, and HTTP says so with 404.
  if (!MODERN_METHODS.has(msg.method!)) return { status: 404, body: methodNotFound(id, msg.method!) };
  const field = NAME_SOURCE[msg.method!];
  const value = field === undefined ? undefined : msg.params?.[field];
  if (typeof value !== 'string') return undefined;
  const name = header(headers, 'mcp-name');
  if (name === undefined) return mismatch('Header mismatch: Mcp-Name header is required');
  const decoded = decodeParam(name);
  if (decoded !== value)
    return mismatch(`Header mismatch: Mcp-Name is ${name}, the body's params.${field} is ${value}`);
  if (msg.method !== 'tools/call') return undefined;
  const args = msg.params?.arguments;
  const problem = paramHeaderProblem(
    headers,
    inputSchemaOf(value),
    typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : undefined,
  );
  return problem === undefined ? undefined : mismatch(problem);
}

/** A `tools/call` that asks for no task: the one kind of request that leaves nothing in its Gateway. */
function isPlainToolCall(body: unknown): boolean {
  const msg = body as { method?: unknown; params?: { task?: unknown } };
  return msg.method === 'tools/call' && msg.params?.task === undefined;
}

function header(headers: IncomingMessage['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
