import type { ProgressUpdate } from './pending-requests.js';

/** A call that reports progress may run at most this many times its timeout, unless the caller says otherwise. */
export const MAX_TOTAL_FACTOR = 10;

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
  /**
   * Asks the server for progress. Each update restarts the call's timeout (`timeoutMs` is then the longest
   * silence allowed), up to `maxTotalTimeoutMs` from the call's start.
   */
  onProgress?: ((update: ProgressUpdate) => void) | undefined;
  /** The hard bound on a call that keeps reporting progress; default 10 × its timeout. */
  maxTotalTimeoutMs?: number;
  /** A byte cap on the result below the server's own `maxResultBytes` (a gateway's, for its clients). */
  maxResultBytes?: number;
  /** W3C trace context for the request to the server, sent in its `_meta` as the spec reserves the keys. */
  trace?: TraceContext | undefined;
  /**
   * This call retries an `input_required` answer: the caller's answers and the server's `requestState`, sent as
   * given (a gateway passes its client's retry on).
   */
  retry?: InputRetry | undefined;
  /**
   * An `input_required` answer is handed back as it came (`callToolResult` resolves with the InputRequiredResult)
   * instead of being answered by `onInputRequired`: for gateways, whose own client answers it.
   */
  passInputRequired?: boolean | undefined;
  /**
   * What the caller can answer when a server asks for input (`elicitation`, `sampling`, `roots`), declared to a
   * 2026 server in this request's client capabilities: a server must not ask for what is not declared.
   */
  inputCapabilities?: Record<string, unknown> | undefined;
  /**
   * A task this call creates holds what its server asks (elicitation, sampling, roots) for the caller to poll
   * (`taskQuestions`) and answer (`answerTaskQuestions`), instead of handing it to the host's handlers: for a
   * gateway whose 2026 client answers through the tasks extension's `tasks/get` and `tasks/update`.
   */
  pollTaskQuestions?: boolean | undefined;
  /**
   * The authorization context (a credential's name, a user) a task this call creates is bound to, as MCP's tasks
   * require when there is one: only requests with the same `owner` reach it (`taskRequest`, `taskQuestions`,
   * `listTasks`), and only its status is told to them.
   */
  taskOwner?: string | undefined;
  /**
   * Who the call is made for, as the host names its clients (a gateway's session): a server's own requests
   * (sampling, elicitation, roots) while the call is in flight are handed to the host's handlers with it
   * (`ServerRequest.callers`), so they can be put to that client and to no other.
   */
  caller?: string | undefined;
}

/** The `_meta` keys MCP reserves for W3C Trace Context and Baggage; each a header value as the W3C formats say. */
export interface TraceContext {
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
}

/** What a retry of an `input_required` round carries besides the original request's params. */
export interface InputRetry {
  /** Keyed as the server's `inputRequests`; each value the result of that request (ElicitResult, …). */
  inputResponses?: Record<string, unknown>;
  /** Exactly as the server gave it; absent when it gave none. */
  requestState?: string;
}

/** A call ready to send: the options with the time left and the byte cap settled, and how to name the call. */
export interface SettledCall extends CallOptions {
  timeoutMs: number;
  /** The most bytes of result kept (the server's `maxResultBytes`, or the caller's smaller cap). */
  maxBytes: number;
  /** The tool declares an outputSchema, so its structuredContent may not be dropped (see CapOptions). */
  structuredRequired?: boolean | undefined;
  /** The name the caller used (the namespaced one), for error strings; default the server's own name. */
  label?: string | undefined;
  /** The id of the server that owns the tool, carried into a failed call's outcome. */
  server?: string | undefined;
  /**
   * The caller's whole timeout when `timeoutMs` is what is left of it (time spent waiting for the server to become
   * ready was taken off), so a timeout names the figure the caller gave.
   */
  budgetMs?: number | undefined;
  /** With `onProgress`: what is left of the hard bound, in ms. */
  maxTotalMs?: number | undefined;
}
