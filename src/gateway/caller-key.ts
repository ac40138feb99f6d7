/**
 * Who a call through `serve` is made for, as `CallOptions.caller` carries it to the fleet and back on each server
 * request made meanwhile: the caller's credential (none without auth), its 2025 session (none for a 2026
 * request, which has no session), and the client's request the call serves (to relate the server's request to
 * it, so it travels on that request's stream).
 */
export interface CallerRef {
  principal: string | null;
  session: string | null;
  requestId: string | number;
}

/** The caller as one string; {@link parseCallerKey} reads it back. */
export function callerKey(ref: CallerRef): string {
  return JSON.stringify([ref.principal, ref.session, ref.requestId]);
}

/** A key {@link callerKey} made, or undefined for any other string (a host's own caller names). */
export function parseCallerKey(key: string): CallerRef | undefined {
  let value: unknown;
  try {
    value = JSON.parse(key);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const [principal, session, requestId] = value as unknown[];
  const nameOrNull = (v: unknown) => v === null || typeof v === 'string';
  if (!nameOrNull(principal) || !nameOrNull(session)) return undefined;
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
  return { principal: principal as string | null, session: session as string | null, requestId };
}
