import type { InputRequired } from '../../framing/result-type.js';
import { type CallErrorCode, failureFromError } from '../../protocol/call-outcome.js';
import { RemoteError } from '../../protocol/errors.js';

/** Why a resource request failed, as data (docs/outcomes.md). */
export type ResourceErrorCode =
  /** No server offers that URI (nor a template matching it), or the server said it has no such resource. */
  | 'UNKNOWN_RESOURCE'
  /** The owning server does not declare what was asked (e.g. `resources.subscribe`). */
  | 'NOT_SUPPORTED'
  /** A `listResources` cursor this supervisor did not hand out. */
  | 'INVALID_CURSOR'
  /**
   * The call codes a request to a server can end with (INVALID_CALL: a URI that is not a string, a listener that
   * is not a function); only what is about running a tool is left out.
   */
  | Exclude<CallErrorCode, 'UNKNOWN_TOOL' | 'FORBIDDEN' | 'TASK_REQUIRED' | 'TOOL_ERROR'>;

export interface ResourceFailure {
  ok: false;
  code: ResourceErrorCode;
  message: string;
  server?: string;
  /** The URI the caller used. */
  uri?: string;
  /** The JSON-RPC error code, for `REMOTE_ERROR` and a server's own `UNKNOWN_RESOURCE`. */
  rpcCode?: number;
  /** The server's error `data`, as it sent it, when it sent any. */
  rpcData?: unknown;
  /** For `INPUT_REQUIRED` and `INPUT_ROUNDS`: what the server asked and the `requestState` a retry must carry. */
  input?: InputRequired;
}

/** A resource as a server lists it; every field it sent is kept, `uri` is the fleet's. */
export interface FleetResource {
  uri: string;
  name: string;
  [field: string]: unknown;
}

/** A resource template as a server lists it, `uriTemplate` the fleet's. */
export interface FleetResourceTemplate {
  uriTemplate: string;
  name: string;
  [field: string]: unknown;
}

/** One item of a `resources/read` result (`text` or `blob`), `uri` the fleet's. */
export interface FleetResourceContents {
  uri: string;
  [field: string]: unknown;
}

export type ResourceListOutcome =
  | { ok: true; resources: FleetResource[]; nextCursor?: string }
  | ResourceFailure;
export type ResourceTemplatesOutcome =
  | { ok: true; resourceTemplates: FleetResourceTemplate[] }
  | ResourceFailure;
export type ResourceReadOutcome =
  | { ok: true; server: string; contents: FleetResourceContents[]; _meta?: Record<string, unknown> }
  | ResourceFailure;
/** `unsubscribe` is idempotent and resolves once the server was told (or could not be). */
export type ResourceSubscribeOutcome =
  | { ok: true; server: string; unsubscribe: () => Promise<void> }
  | ResourceFailure;

/** What a subscriber hears: the URI it subscribed with, and the server that said the resource changed. */
export interface ResourceUpdate {
  uri: string;
  server: string;
}

/** JSON-RPC "resource not found" (MCP). */
export const RESOURCE_NOT_FOUND = -32002;

export function resourceFailure(
  code: ResourceErrorCode,
  message: string,
  where: { server?: string | undefined; uri?: string | undefined } = {},
): ResourceFailure {
  const out: ResourceFailure = { ok: false, code, message };
  if (where.server !== undefined) out.server = where.server;
  if (where.uri !== undefined) out.uri = where.uri;
  return out;
}

/** A rejection of a request to a server as a failure; the server's "not found" is `UNKNOWN_RESOURCE`. */
export function resourceFailureFromError(
  err: unknown,
  where: { server?: string | undefined; uri?: string | undefined },
): ResourceFailure {
  const f = failureFromError(err);
  const code: ResourceErrorCode =
    err instanceof RemoteError && err.code === RESOURCE_NOT_FOUND
      ? 'UNKNOWN_RESOURCE'
      : f.code === 'UNKNOWN_TOOL' ||
          f.code === 'TOOL_ERROR' ||
          f.code === 'FORBIDDEN' ||
          f.code === 'TASK_REQUIRED'
        ? 'INTERNAL'
        : f.code;
  const out = resourceFailure(code, f.message, where);
  if (f.rpcCode !== undefined) out.rpcCode = f.rpcCode;
  if (f.rpcData !== undefined) out.rpcData = f.rpcData;
  return out;
}
