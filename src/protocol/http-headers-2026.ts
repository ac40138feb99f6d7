// The HTTP headers a 2026-07-28 request carries beside its body, taken from the body's `_meta` envelope.

import type { ParamHeaders } from './http-param-headers.js';
import { PROTOCOL_VERSION_META as VERSION_KEY } from './request-meta.js';

/**
 * A 2026-07-28 request names itself in HTTP headers too — its version, method and the tool, prompt or resource it is
 * about — so the server (or anything in between) can route it without reading the body. They are taken from the
 * body the transport posts, which carries them in its `_meta` envelope; a 2025 body gets none. A `tools/call` also
 * carries the `Mcp-Param-*` headers its tool declares (`params`).
 */
export function headers2026(init: RequestInit | undefined, params?: ParamHeaders): { headers?: Headers } {
  const body = init?.body;
  if (init?.method !== 'POST' || typeof body !== 'string' || !body.includes(VERSION_KEY)) return {};
  let message: {
    method?: unknown;
    params?: { name?: unknown; uri?: unknown; _meta?: Record<string, unknown> };
  };
  try {
    message = JSON.parse(body) as typeof message;
  } catch {
    return {};
  }
  const version = message.params?._meta?.[VERSION_KEY];
  if (typeof version !== 'string' || typeof message.method !== 'string') return {};
  const headers = new Headers(init.headers);
  headers.set('mcp-protocol-version', version);
  headers.set('mcp-method', message.method);
  const name = message.params?.name ?? message.params?.uri;
  if (typeof name === 'string') headers.set('mcp-name', name);
  for (const [header, value] of params?.headersFor(message) ?? []) headers.set(header, value);
  return { headers };
}
