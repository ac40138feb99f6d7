import { isRecord } from '../framing/is-record.js';
import { MODERN_PROTOCOL_VERSION } from './era.js';
import { forwardedTrace } from './trace-context.js';

/** The `_meta` keys a 2026-era request names its sender with (the 2026 era has no `initialize` to say it once). */
export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';
/** The log level a request asks for: absent, the server sends no `notifications/message` for it. */
export const LOG_LEVEL_META = 'io.modelcontextprotocol/logLevel';
/** Where a 2026 server names itself on a result. */
export const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

/** What every 2026-era request carries in `_meta`. */
export interface RequestEnvelope {
  clientCapabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string };
  logLevel?: string | undefined;
}

/**
 * The params with the 2026 envelope in `_meta`: keys the caller already put there (a progress token, trace
 * context) stay, the envelope's own keys are ours.
 */
export function withEnvelope(params: unknown, envelope: RequestEnvelope): Record<string, unknown> {
  const base = isRecord(params) ? params : {};
  const meta = isRecord(base._meta) ? base._meta : {};
  return {
    ...base,
    _meta: {
      ...meta,
      [PROTOCOL_VERSION_META]: MODERN_PROTOCOL_VERSION,
      [CLIENT_CAPABILITIES_META]: envelope.clientCapabilities,
      [CLIENT_INFO_META]: envelope.clientInfo,
      ...(envelope.logLevel !== undefined ? { [LOG_LEVEL_META]: envelope.logLevel } : {}),
    },
  };
}

/**
 * The W3C trace context keys MCP reserves in a request's `_meta`: only what the W3C formats allow, bounded
 * ({@link forwardedTrace}); an invalid `traceparent` is dropped with its `tracestate`.
 */
export function traceMeta(trace: Record<string, unknown> | undefined): Record<string, string> | undefined {
  const kept = forwardedTrace(trace);
  return kept === undefined ? undefined : { ...kept };
}
