import type { CallOutcome, CallResultOutcome } from '../../protocol/call-outcome.js';
import type { CallToolResult } from '../../protocol/tool-calls.js';

/** One finished tool call, as `onCall` listeners hear it. */
export interface CallRecord {
  /** The server that owns the tool; absent when no server does (`UNKNOWN_TOOL`). */
  server?: string;
  /** The exposed name the caller used. */
  tool: string;
  /** When it started (the supervisor's clock) and how long it took, in wall-clock ms. */
  at: number;
  ms: number;
  /** `OK`, or the failure's code (docs/outcomes.md). */
  code: string;
  /** A successful result's size in bytes (the flattened text, an MCP result's text and binary blocks); 0 on failure. */
  bytes: number;
}

/**
 * Times each tool call and tells the listeners how it ended. With no listener it adds nothing to a call, so the
 * hot path stays as it is for hosts that never look.
 */
export class CallRecords {
  private readonly listeners = new Set<(record: CallRecord) => void>();
  /** Calls under way per server ('' for a name no server owns), kept only while someone listens. */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly serverOf: (name: string) => string | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  /** Hears every call that finishes from now on; returns the unsubscribe function. */
  on(listener: (record: CallRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls to `server` under way now, counted while a listener is attached (0 otherwise). */
  inFlight(server: string): number {
    return this.running.get(server) ?? 0;
  }

  /** One call of any decoding: its outcome says how it ended. */
  call<O extends CallOutcome | CallResultOutcome>(name: string, run: () => Promise<O>): Promise<O> {
    // no async frame when nobody listens: the call's own promise is handed back as it is
    return this.listeners.size === 0 ? run() : this.time(name, run);
  }

  private async time<O extends CallOutcome | CallResultOutcome>(
    name: string,
    run: () => Promise<O>,
  ): Promise<O> {
    const at = this.now();
    // Owned at its start: a reload that moves the name meanwhile does not move the call.
    const server = this.serverOf(name);
    const key = server ?? '';
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    const started = performance.now();
    let answer: O;
    try {
      answer = await run();
    } finally {
      this.running.set(key, (this.running.get(key) ?? 1) - 1);
    }
    const record: CallRecord = { tool: name, at, ms: performance.now() - started, ...readOutcome(answer) };
    if (server !== undefined) record.server = server;
    for (const listener of [...this.listeners]) {
      try {
        listener(record);
      } catch (err) {
        this.warn(`call listener threw: ${String(err)}`);
      }
    }
    return answer;
  }
}

function readOutcome(o: CallOutcome | CallResultOutcome): { code: string; bytes: number } {
  if (!o.ok) return { code: o.code, bytes: 0 };
  return { code: 'OK', bytes: 'text' in o ? Buffer.byteLength(o.text) : resultBytes(o.result) };
}

function resultBytes(r: CallToolResult): number {
  let bytes = 0;
  for (const block of r.content ?? []) {
    const b = block as { text?: unknown; data?: unknown };
    if (typeof b.text === 'string') bytes += Buffer.byteLength(b.text);
    else if (typeof b.data === 'string') bytes += Math.floor((b.data.length * 3) / 4);
  }
  return bytes;
}
