import { createHash, timingSafeEqual } from 'node:crypto';

/** Who a request comes from, once its credentials were checked. */
export interface Caller {
  /** Names the credential without revealing it (`serve.auth.tokens[0]`, `tokens.txt:3`); a session is bound to it. */
  id: string;
  /** The caller's scopes: every tool call of its sessions is checked against them. */
  scopes: readonly string[];
}

/**
 * Checks a bearer token. Static tokens implement it today; an OAuth 2.1 resource server (a JWT or introspection
 * check against an authorization server) is another implementation of the same interface.
 */
export interface BearerVerifier {
  verify(token: string): Promise<Caller | undefined>;
}

/** A token as configured, and where it was written. */
export interface TokenEntry {
  token: string;
  scopes: readonly string[];
  id: string;
}

/**
 * Static bearer tokens. Every configured token is compared on each check, through SHA-256 digests of equal length
 * with `timingSafeEqual`: the time taken says nothing about how much of a token matched, or which one.
 */
export function tokenVerifier(entries: readonly TokenEntry[]): BearerVerifier {
  const known = entries.map((e) => ({
    digest: digest(e.token),
    caller: { id: e.id, scopes: [...e.scopes] },
  }));
  return {
    async verify(token) {
      const given = digest(token);
      let found: Caller | undefined;
      for (const k of known) if (timingSafeEqual(k.digest, given) && !found) found = k.caller;
      return found;
    },
  };
}

export type AuthVerdict =
  | { ok: true; caller: Caller }
  | { ok: false; code: 'NO_TOKEN' | 'INVALID_TOKEN'; wwwAuthenticate: string };

const REALM = 'Bearer realm="mcp-supervisor"';

/** The caller of a request from its `Authorization` header, or the 401 challenge to send (RFC 6750). */
export async function authenticate(
  header: string | undefined,
  verifier: BearerVerifier,
): Promise<AuthVerdict> {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  if (!m?.[1]) return { ok: false, code: 'NO_TOKEN', wwwAuthenticate: REALM };
  const caller = await verifier.verify(m[1]);
  if (caller) return { ok: true, caller };
  return { ok: false, code: 'INVALID_TOKEN', wwwAuthenticate: `${REALM}, error="invalid_token"` };
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
