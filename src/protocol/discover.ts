import { METHOD_NOT_FOUND } from '../framing/json-rpc.js';
import type { InitializeResult } from './connection.js';
import { type Era, MODERN_PROTOCOL_VERSION, probeBoundMs } from './era.js';
import { RemoteError, SupervisorError } from './errors.js';
import { SERVER_INFO_META } from './request-meta.js';

/** The 2026 error for a protocol version the server does not speak; its data lists the ones it does. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** What one `server/discover` probe showed: a 2026 server (and what it said of itself), or not one. */
export type DiscoverVerdict =
  | { kind: 'modern'; init: InitializeResult }
  | { kind: 'legacy'; timedOut: boolean; why: string };

export interface NegotiateInput {
  /** A `protocol:` pin, else the era this configuration spoke last time (a hint: a wrong one still falls back). */
  pinned: Era | undefined;
  hint: Era | undefined;
  startupMs: number;
  /** Sends `server/discover` (with the 2026 envelope) before any handshake, within `timeoutMs`. */
  discover(timeoutMs: number): Promise<unknown>;
  /** The 2025 handshake: `initialize`, version check, `notifications/initialized`. */
  initialize(timeoutMs: number): Promise<InitializeResult>;
  /** The process ended while an unpinned probe waited (some 2025 servers exit on a request they do not know). */
  onProbeLost?(): void;
}

/**
 * Picks the era on the process already running: `server/discover` first (unless the era is known to be 2025), and
 * `initialize` after any answer that is not a 2026 one, or none within the probe's bound. Only a 2026 server that
 * names other 2026 versions than ours fails here (UNSUPPORTED_PROTOCOL); a pinned 2026 fails on any non-2026 answer.
 */
export async function negotiate(p: NegotiateInput): Promise<{ era: Era; init: InitializeResult }> {
  const expected = p.pinned ?? p.hint;
  if (expected === 'legacy') return { era: 'legacy', init: await p.initialize(p.startupMs) };
  const bound = expected === 'modern' ? p.startupMs : probeBoundMs(p.startupMs);
  let verdict: DiscoverVerdict;
  try {
    verdict = verdictOfResult(await p.discover(bound));
  } catch (err) {
    try {
      verdict = verdictOfError(err, bound);
    } catch (fatal) {
      if (p.pinned === undefined) p.onProbeLost?.();
      throw fatal;
    }
  }
  if (verdict.kind === 'modern') return { era: 'modern', init: verdict.init };
  if (p.pinned === 'modern') {
    if (verdict.timedOut) {
      throw new SupervisorError('HANDSHAKE_TIMEOUT', `no answer to server/discover within ${bound} ms`);
    }
    throw new SupervisorError(
      'UNSUPPORTED_PROTOCOL',
      `server does not speak ${MODERN_PROTOCOL_VERSION} (protocol is pinned to it): ${verdict.why}`,
      { requested: MODERN_PROTOCOL_VERSION },
    );
  }
  // The whole startup budget again, not what the probe left of it: the supervisor's own budget (its machine's
  // timer, started before the probe) is the one that ends a slow start, as `startup_timeout`; this bound only backs
  // it up, so the two must never race.
  return { era: 'legacy', init: await p.initialize(p.startupMs) };
}

/** A `server/discover` result: 2026 if it is well formed and lists our version. */
export function verdictOfResult(raw: unknown): DiscoverVerdict {
  if (!isObject(raw) || !isStringArray(raw.supportedVersions) || !isObject(raw.capabilities)) {
    return {
      kind: 'legacy',
      timedOut: false,
      why: 'server/discover answered without supportedVersions and capabilities',
    };
  }
  if (!raw.supportedVersions.includes(MODERN_PROTOCOL_VERSION)) {
    return refuseOrFallBack(raw.supportedVersions, 'server/discover');
  }
  const meta = isObject(raw._meta) ? raw._meta : {};
  const info = meta[SERVER_INFO_META];
  return {
    kind: 'modern',
    init: {
      protocolVersion: MODERN_PROTOCOL_VERSION,
      capabilities: raw.capabilities,
      ...(isObject(info) ? { serverInfo: info as InitializeResult['serverInfo'] & object } : {}),
      ...(typeof raw.instructions === 'string' ? { instructions: raw.instructions } : {}),
    },
  };
}

/** A failed probe: the process's end is final, a 2026 version refusal may be, anything else means 2025. */
export function verdictOfError(err: unknown, boundMs: number): DiscoverVerdict {
  if (err instanceof RemoteError) {
    const supported = isObject(err.data) ? err.data.supported : undefined;
    if (err.code === UNSUPPORTED_PROTOCOL_VERSION && isStringArray(supported)) {
      return refuseOrFallBack(supported, 'its version error');
    }
    const what = err.code === METHOD_NOT_FOUND ? 'method not found' : `error ${err.code}`;
    return { kind: 'legacy', timedOut: false, why: `server/discover answered ${what}` };
  }
  if (err instanceof SupervisorError && err.code === 'REQUEST_TIMEOUT') {
    return { kind: 'legacy', timedOut: true, why: `no answer to server/discover within ${boundMs} ms` };
  }
  if (
    err instanceof SupervisorError &&
    (err.code === 'RESULT_TOO_LARGE' || err.code === 'INVALID_RESPONSE')
  ) {
    return { kind: 'legacy', timedOut: false, why: `server/discover failed: ${err.code}` };
  }
  // The server exited, the queue filled, the connection closed: there is no process left to fall back on.
  throw err;
}

/** Versions a server named that are not ours: only other 2026-era ones are a refusal, 2025 ones mean fall back. */
function refuseOrFallBack(supported: string[], where: string): DiscoverVerdict {
  const modern = supported.filter((v) => v >= MODERN_PROTOCOL_VERSION);
  if (modern.length === 0) {
    return { kind: 'legacy', timedOut: false, why: `${where} offers no 2026 version` };
  }
  throw new SupervisorError(
    'UNSUPPORTED_PROTOCOL',
    `server speaks protocol ${modern.map((v) => JSON.stringify(v)).join(', ')}, which this client does not support`,
    { supported, requested: MODERN_PROTOCOL_VERSION },
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
