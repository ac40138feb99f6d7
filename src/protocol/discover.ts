import { isRecord } from '../framing/is-record.js';
import { METHOD_NOT_FOUND } from '../framing/json-rpc.js';
import type { InitializeResult } from './connection-types.js';
import { MODERN_PROTOCOL_VERSION } from './era.js';
import { RemoteError, SupervisorError } from './errors.js';
import { SERVER_INFO_META } from './request-meta.js';

/** The 2026 error for a protocol version the server does not speak; its data lists the ones it does. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** What one `server/discover` probe showed: a 2026 server (and what it said of itself), or not one. */
export type DiscoverVerdict =
  | { kind: 'modern'; init: InitializeResult }
  | { kind: 'legacy'; timedOut: boolean; why: string };

/** A `server/discover` result: 2026 if it is well formed and lists our version. */
export function verdictOfResult(raw: unknown): DiscoverVerdict {
  if (!isRecord(raw) || !isStringArray(raw.supportedVersions) || !isRecord(raw.capabilities)) {
    return {
      kind: 'legacy',
      timedOut: false,
      why: 'server/discover answered without supportedVersions and capabilities',
    };
  }
  if (!raw.supportedVersions.includes(MODERN_PROTOCOL_VERSION)) {
    return refuseOrFallBack(raw.supportedVersions, 'server/discover');
  }
  const meta = isRecord(raw._meta) ? raw._meta : {};
  const info = meta[SERVER_INFO_META];
  return {
    kind: 'modern',
    init: {
      protocolVersion: MODERN_PROTOCOL_VERSION,
      capabilities: raw.capabilities,
      ...(isRecord(info) ? { serverInfo: info as InitializeResult['serverInfo'] & object } : {}),
      ...(typeof raw.instructions === 'string' ? { instructions: raw.instructions } : {}),
    },
  };
}

/** A failed probe: the process's end is final, a 2026 version refusal may be, anything else means 2025. */
export function verdictOfError(err: unknown, boundMs: number): DiscoverVerdict {
  if (err instanceof RemoteError) {
    const supported = isRecord(err.data) ? err.data.supported : undefined;
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

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
