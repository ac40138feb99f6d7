import { type CallErrorCode, type CallFailure, callFailure, failureFromError } from './call-outcome.js';
import type { McpConnection } from './connection.js';

/** Why a request beyond tools failed: the call codes, plus what only names and references can get wrong. */
export type SurfaceErrorCode =
  | CallErrorCode
  /** No ready server exposes a prompt by that name. */
  | 'UNKNOWN_PROMPT'
  /** No ready server owns the reference (a prompt or resource template) a completion names. */
  | 'UNKNOWN_REF'
  /** No task of the fleet has that id. */
  | 'UNKNOWN_TASK'
  /** A list cursor the fleet did not hand out, or one naming a server no longer in it. */
  | 'INVALID_CURSOR'
  /** The task was made by another replica of `serve --http` (one with the same session key): ask that one. */
  | 'TASK_ELSEWHERE'
  /** The task's server restarted or stopped since it created the task: that run, and its tasks, are gone. */
  | 'TASK_LOST'
  /** The server (or no server of the fleet) declares the capability the request needs. */
  | 'NOT_SUPPORTED';

export type SurfaceFailure = Omit<CallFailure, 'code'> & { code: SurfaceErrorCode };

/** The answer of a request beyond tools: the server's result as sent, or a failure with its code. */
export type SurfaceOutcome<T> = { ok: true; server: string; result: T } | SurfaceFailure;

export function surfaceFailure(code: SurfaceErrorCode, message: string, server?: string): SurfaceFailure {
  return { ...callFailure('INTERNAL', message, server !== undefined ? { server } : {}), code };
}

/**
 * Sends one request to one server; never rejects: a refusal, a timeout or an exit is a failure with its code.
 * `capabilities` are declared beside the connection's on this request (to a 2026 server, what the caller can answer).
 */
export async function requestOutcome<T>(
  conn: McpConnection,
  server: string,
  method: string,
  params: unknown,
  timeoutMs: number,
  capabilities?: Record<string, unknown>,
  /** Who the request is made for (`CallOptions.caller`): the server's requests meanwhile are told of it. */
  caller?: string,
): Promise<SurfaceOutcome<T>> {
  try {
    const result = await conn.request(method, params, {
      timeoutMs,
      ...(capabilities ? { capabilities } : {}),
      ...(caller !== undefined ? { caller } : {}),
    });
    if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      return surfaceFailure(
        'INVALID_RESULT',
        `server '${server}' answered ${method} with a non-object`,
        server,
      );
    }
    return { ok: true, server, result: result as T };
  } catch (err) {
    return failureFromError(err, { server });
  }
}
