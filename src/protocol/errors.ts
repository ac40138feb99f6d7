/** Codes of failures this library detects itself (kept apart from JSON-RPC errors a child sends us). */
export type SupervisorErrorCode =
  | 'SPAWN_FAILED'
  | 'HANDSHAKE_TIMEOUT'
  | 'HANDSHAKE_FAILED'
  | 'UNSUPPORTED_PROTOCOL'
  | 'SERVER_EXITED'
  | 'REQUEST_TIMEOUT'
  | 'REQUEST_CANCELLED'
  | 'WRITE_FAILED'
  /** A request JSON cannot carry (a BigInt, a cycle in its params): it was never sent. */
  | 'UNWRITABLE_REQUEST'
  | 'RESULT_TOO_LARGE'
  | 'INVALID_RESPONSE'
  /** The server stopped reading its stdin and what we queued for it passed its bound. */
  | 'QUEUE_FULL'
  /** A server reached over HTTP could not be connected to (refused, unresolved, an HTTP error to `initialize`). */
  | 'CONNECT_FAILED'
  /** A server reached over HTTP dropped the connection or lost our session. */
  | 'SERVER_DISCONNECTED'
  | 'CLOSED';

/** A local failure with a string code: the library saw it happen, no server said it. */
export class SupervisorError extends Error {
  override readonly name = 'SupervisorError';
  constructor(
    readonly code: SupervisorErrorCode,
    message: string,
    /** Facts a program may act on (for UNSUPPORTED_PROTOCOL: `{ supported, requested }`). */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A JSON-RPC error object relayed from a child, as it sent it. */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
