import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  InitializeResult,
  JSONRPCMessage,
  MessageExtraInfo,
  ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isRecord } from '../framing/is-record.js';
import { TASKS_EXTENSION } from '../supervisor/tasks/tasks.js';
import {
  type Envelope,
  envelopeOf,
  invalidEnvelope,
  MODERN_METHODS,
  MODERN_VERSIONS,
  methodNotFound,
  SERVER_INFO_KEY,
  SUPPORTED_VERSIONS,
  unsupportedVersion,
} from './era.js';

const DiscoverRequestSchema = z.object({
  method: z.literal('server/discover'),
  params: z.optional(z.looseObject({})),
});

export interface DiscoverSource {
  info: { name: string; version: string };
  capabilities: ServerCapabilities;
  /** The fleet's instructions, once its first start settled (bounded). */
  compose: () => Promise<string | undefined>;
  /** The same trimming the `initialize` answer gets (kinds no server offers are left out). */
  adjust: (result: InitializeResult) => InitializeResult;
}

/**
 * Makes `server` answer the 2026 `server/discover` with what a 2025 client learns from `initialize`: the same
 * capabilities (trimmed the same way), the same instructions, the server info under its `_meta` key, and every
 * revision `serve` speaks.
 */
export function answerDiscover(server: Server, source: DiscoverSource): void {
  server.setRequestHandler(DiscoverRequestSchema, async () => {
    const instructions = await source.compose();
    const trimmed = source.adjust({
      protocolVersion: MODERN_VERSIONS[0]!,
      capabilities: source.capabilities,
      serverInfo: source.info,
    });
    // 2026 has no `tasks` capability: tasks are an extension there, offered when some server of the fleet has them.
    const { tasks, ...rest } = trimmed.capabilities;
    const capabilities = tasks ? { ...rest, extensions: { [TASKS_EXTENSION]: {} } } : rest;
    return {
      supportedVersions: [...SUPPORTED_VERSIONS],
      capabilities,
      ...(instructions !== undefined ? { instructions } : {}),
      _meta: { [SERVER_INFO_KEY]: source.info },
    } as never;
  });
}

/**
 * A transport as the SDK v1 `Server` sees it, with the 2026 era checked in front: a request whose `_meta` names a
 * revision `serve` does not speak is answered here with the 2026 error (the `Server` would answer it as if it
 * were 2025 traffic), and every supported 2026 message tells `on2026` what its client can do. 2025 traffic
 * passes untouched.
 */
export class EraTransport implements Transport {
  /** The method of each 2026 request in flight, by id: its answer gets what 2026 requires of results. */
  private readonly modern = new Map<string | number, string>();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly on2026: (envelope: Envelope) => void,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.receive(message, extra);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = 'id' in message && !('method' in message) ? message.id : undefined;
    const method = id === undefined ? undefined : this.modern.get(id);
    if (id !== undefined && method !== undefined) {
      this.modern.delete(id);
      if ('result' in message)
        return this.inner.send({ ...message, result: result2026(method, message.result) }, options);
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const envelope = envelopeOf(message);
    if (envelope) {
      const request = 'id' in message && 'method' in message ? message : undefined;
      const refusal = !request
        ? undefined
        : envelope.missing.length > 0
          ? invalidEnvelope(request.id, envelope.missing)
          : !MODERN_VERSIONS.includes(envelope.version)
            ? unsupportedVersion(request.id, envelope.version)
            : !MODERN_METHODS.has(request.method)
              ? methodNotFound(request.id, request.method)
              : undefined;
      if (refusal) {
        void this.inner.send(refusal).catch(() => {});
        return;
      }
      if (envelope.missing.length > 0 || !MODERN_VERSIONS.includes(envelope.version)) return;
      this.on2026(envelope);
      // A 2025 client's `task` hint on a 2026 call is tolerated and ignored: serve decides (tasks extension).
      if (request?.method === 'tools/call' && isRecord(request.params) && 'task' in request.params) {
        const { task: _hint, ...params } = request.params;
        message = { ...request, params } as JSONRPCMessage;
      }
      if ('id' in message && 'method' in message) this.modern.set(message.id, message.method);
    }
    this.onmessage?.(message, extra);
  }
}

/** The 2026 list and read results that carry cache hints. */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * A result as 2026 requires it: `resultType` always (a result the handlers made is complete), and cache hints on
 * lists and reads. Hints the fleet gave are kept; absent ones say "do not cache" (ttl 0, private), the only
 * safe default for a fleet whose lists change as servers come and go.
 */
function result2026(method: string, result: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { resultType: 'complete', ...result };
  // A read that asks for input is no answer to keep.
  if (CACHEABLE.has(method) && out.resultType === 'complete') {
    if (out.ttlMs === undefined) out.ttlMs = 0;
    if (out.cacheScope === undefined) out.cacheScope = 'private';
  }
  return out;
}
