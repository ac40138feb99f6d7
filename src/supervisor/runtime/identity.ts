import type { InitializeResult } from '../../protocol/connection-types.js';

/** Instructions longer than this are cut: the text comes from the server and ends up in every client's context. */
export const MAX_INSTRUCTIONS_BYTES = 16 * 1024;

/** What a server said of itself in its `initialize` answer, as a `status()` row carries it. */
export interface ServerIdentity {
  protocolVersion: string;
  /** Its `serverInfo`: only the fields MCP names, and only when they are strings. */
  info: { name?: string; version?: string; title?: string; websiteUrl?: string };
  /** Its capabilities as it declared them (which requests and notifications it handles). */
  capabilities: Record<string, unknown>;
  /** Its `instructions`, cut at {@link MAX_INSTRUCTIONS_BYTES}. */
  instructions?: string;
}

/** The identity of a server whose handshake is done; nothing before that. */
export function identityOf(init: InitializeResult | undefined): ServerIdentity | undefined {
  if (!init) return undefined;
  const raw = (init.serverInfo ?? {}) as Record<string, unknown>;
  const info: ServerIdentity['info'] = {};
  for (const key of ['name', 'version', 'title', 'websiteUrl'] as const) {
    const value = raw[key];
    if (typeof value === 'string') info[key] = value;
  }
  const identity: ServerIdentity = {
    protocolVersion: init.protocolVersion,
    info,
    capabilities: init.capabilities,
  };
  if (init.instructions !== undefined) identity.instructions = cut(init.instructions);
  return identity;
}

function cut(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_INSTRUCTIONS_BYTES) return text;
  // Cut on a character boundary: a half character would decode to U+FFFD.
  let end = MAX_INSTRUCTIONS_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}\n[instructions cut at ${MAX_INSTRUCTIONS_BYTES} bytes]`;
}

/** The `server` field of a status row: present once the connection's handshake is done. */
export function identityRow(conn: { serverInit: InitializeResult | undefined } | undefined): {
  server?: ServerIdentity;
} {
  const server = identityOf(conn?.serverInit);
  return server ? { server } : {};
}

/** A `state` event entering `ready` names the protocol version agreed, so a host sees each server's era. */
export function withProtocolVersion<E extends { to: string }>(
  event: E,
  conn: { serverInit: InitializeResult | undefined } | undefined,
): E & { protocolVersion?: string } {
  const version = event.to === 'ready' ? conn?.serverInit?.protocolVersion : undefined;
  return version === undefined ? event : { ...event, protocolVersion: version };
}
