/**
 * The options of one tool call: the one type for them, from a host's `callTool` down to the request on the wire.
 * The supervisor settles the rest ({@link SettledCall}) before the protocol layer sends the call.
 */
export interface CallOptions {
  /** The caller's scopes, checked against the tool's before anything is sent. */
  scopes?: readonly string[];
  /** Positive and finite, in ms; a larger figure than a timer can hold is clamped. */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/** A call ready to send: the options with the time left and the byte cap settled, and how to name the call. */
export interface SettledCall extends CallOptions {
  timeoutMs: number;
  /** The most UTF-8 bytes of result text kept (the server's `max_result_bytes`). */
  maxBytes: number;
  /** The name the caller used (the namespaced one), for error strings; default the server's own name. */
  label?: string | undefined;
  /** The id of the server that owns the tool, carried into a failed call's outcome. */
  server?: string | undefined;
  /**
   * The caller's whole timeout when `timeoutMs` is what is left of it (time spent waiting for the server to become
   * ready was taken off), so a timeout names the figure the caller gave.
   */
  budgetMs?: number | undefined;
}
