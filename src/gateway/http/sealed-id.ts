import { openJson, sealJson } from '../seal/seal.js';

/** What a sealed `Mcp-Session-Id` carries: enough for any replica with the key to take the session up. */
export interface SealedSession {
  /** The protocol version the initialize negotiated. */
  v: string;
  /** The client's `initialize` params: its capabilities and clientInfo, as it sent them. */
  caps: Record<string, unknown>;
  info: Record<string, unknown>;
  /** The caller the session is bound to (the bearer token's id); absent without auth. */
  caller?: string;
  /** ms since the epoch after which no replica accepts it. */
  exp: number;
}

/** Marks the format, so a later one can be told apart (and an unsealed UUID is never mistaken for one). */
const PREFIX = 's1.';

/** Seals a session under the key (see seal.ts). */
export function sealSession(key: Buffer, session: SealedSession): string {
  return sealJson(key, PREFIX, session);
}

/**
 * The session an id seals under this key, or undefined for anything else: another key's, altered, made up, not
 * sealed at all, or expired at `now`. Every such id is the same answer (404), so nothing is learnt from it.
 */
export function openSession(key: Buffer, id: string, now: number): SealedSession | undefined {
  const session = openJson(key, PREFIX, id) as SealedSession | undefined;
  if (typeof session !== 'object' || session === null) return undefined;
  if (typeof session.exp !== 'number' || session.exp <= now || typeof session.v !== 'string')
    return undefined;
  return session;
}
