import type { JsonRpcMessage } from '../framing/json-rpc.js';
import type { ContainmentKind } from '../process/containment.js';
import type { ExitInfo } from '../process/server-process.js';
import type { WriteOutcome } from './outgoing-queue.js';

/**
 * What holds a server: a containment mechanism for a process, `container` for one run by a container engine,
 * `remote` for a server reached over HTTP.
 */
export type LinkKind = ContainmentKind | 'container' | 'remote';

/** Where a link delivers what the server sends: bytes of JSON lines, and for a process its stderr. */
export interface LinkReader {
  data(chunk: Buffer): void;
  end(): void;
  stderr?(chunk: Buffer): void;
  stderrEnd?(): void;
}

/** The bound on what waits to reach the server, as the queue-full error describes it. */
export interface OutgoingFacts {
  readonly queuedBytes: number;
  readonly droppedMessages: number;
  readonly limit: number;
  readonly queuedAtFull: number;
}

/**
 * One way to reach a server — a child's stdio or a Streamable HTTP session — as `McpConnection` needs it: messages
 * out under a bound, JSON lines in (so one decoder, with its caps and flattening, reads both), and an end that is
 * always reported as data. "Stopping" a remote server ends its session; there is no process to reap.
 */
export interface ServerLink {
  readonly kind: LinkKind;
  /** The process's pid; never set for a remote server. */
  readonly pid: number | undefined;
  readonly exited: Promise<ExitInfo>;
  readonly exitInfo: ExitInfo | undefined;
  readonly outgoing: OutgoingFacts;
  /** Starts delivering incoming bytes to `reader`; called once. */
  read(reader: LinkReader): void;
  /** Backpressure from the decoder: stop (and resume) reading where the link can. */
  pause(): void;
  resume(): void;
  send(message: JsonRpcMessage): WriteOutcome;
  /**
   * Sends one request outside the link's own state and resolves its result, for the era probe where an answer
   * that is no 2026 one must leave the link as it was (HTTP: a 2025 server's HTTP error). Absent on stdio, where
   * the probe is an ordinary request.
   */
  probe?(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    stop?: AbortSignal,
  ): Promise<unknown>;
  /** The handshake agreed on a protocol version; a link that repeats it on each request (HTTP) is told. */
  negotiated(protocolVersion: string): void;
  /** Handshake done: failures from here on are disconnects, not failed connects. */
  established(): void;
  /** Hands what still waits to the server, for a close that ends the stream behind it. */
  release(): void;
  /** Ends the link (idempotent); resolves with the exit. */
  stop(reason: string, opts: { immediate?: boolean }): Promise<ExitInfo>;
}
