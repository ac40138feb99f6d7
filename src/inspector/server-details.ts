import type { CallRecord } from '../supervisor/calls/records.js';
import { type LogEntry, ServerLogs } from '../supervisor/observe/server-logs.js';
import type { ServerStderrLine } from '../supervisor/observe/stderr-events.js';
import type { ExposedTool, SupervisorEvent } from '../supervisor/types.js';
import { type PageEvent, pageEvent } from './page-data.js';

/** What the detail pane shows of one server; sent whole, so a page that reconnects is never half up to date. */
export interface ServerDetail {
  server: string;
  /** The newest calls, oldest first. */
  calls: CallRecord[];
  /** The tail of its log ring (stderr lines and log messages), oldest first, long lines cut. */
  logs: LogEntry[];
  tools: Array<{ name: string; title?: string; description?: string }>;
  /** Its exits and the states it went to after them, oldest first: the restart timeline. */
  restarts: PageEvent[];
}

/** Where the details come from: the fleet's events, and, when the host has them, calls, tools and a log ring. */
export interface DetailSource {
  subscribe(listener: (e: SupervisorEvent) => void): () => void;
  listTools?(): ExposedTool[];
  onCall?(listener: (record: CallRecord) => void): () => void;
  /** The log ring to read tails from (the control socket's); without one the inspector keeps a small ring. */
  logs?: { entries(server: string): LogEntry[] };
  /** Every stderr line (`Supervisor.onStderr`), for that small ring: without it the ring has only the rate-limited events. */
  onStderr?(listener: (line: ServerStderrLine) => void): () => void;
}

const CALLS = 20;
const LOG_TAIL = 60;
const LINE_CHARS = 400;
const RESTARTS = 30;
const DESCRIPTION_CHARS = 160;
// Enough for the tail the page shows when the host has no ring of its own to lend.
const OWN_RING_BYTES = 64 * 1024;
// The states that close a restart: the server is back, or the supervisor gave up on it.
const AFTER_EXIT = new Set(['ready', 'backoff', 'failed', 'stopped', 'untrusted']);

/**
 * Keeps, per server, what the page's detail pane shows, and which servers changed since the page was last told
 * (so the hub sends only those).
 */
export class ServerDetails {
  private readonly calls = new Map<string, CallRecord[]>();
  private readonly restarts = new Map<string, PageEvent[]>();
  private readonly changed = new Set<string>();
  private readonly logs: { entries(server: string): LogEntry[] };
  private readonly ownLogs: ServerLogs | undefined;
  private readonly unsubscribe: Array<() => void> = [];
  private closed = false;

  constructor(private readonly source: DetailSource) {
    if (source.logs) {
      this.logs = source.logs;
    } else {
      this.ownLogs = new ServerLogs(source, { ring: OWN_RING_BYTES });
      this.logs = this.ownLogs;
    }
    this.unsubscribe.push(source.subscribe((e) => this.onEvent(e)));
    if (source.onCall) this.unsubscribe.push(source.onCall((r) => this.onCall(r)));
  }

  /** Takes the ids of the servers whose detail changed since the last call. */
  takeChanged(): string[] {
    const ids = [...this.changed];
    this.changed.clear();
    return ids;
  }

  /** The detail of one server, as the page gets it. */
  detail(server: string): ServerDetail {
    return {
      server,
      calls: [...(this.calls.get(server) ?? [])],
      logs: this.logs
        .entries(server)
        .slice(-LOG_TAIL)
        .map((e) => (e.source === 'stderr' && e.line.length > LINE_CHARS ? { ...e, line: cut(e.line) } : e)),
      tools: this.toolsOf(server),
      restarts: [...(this.restarts.get(server) ?? [])],
    };
  }

  /** Stops listening; idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const u of this.unsubscribe.splice(0)) u();
    this.ownLogs?.close();
  }

  private onEvent(e: SupervisorEvent): void {
    if (this.closed || !('server' in e) || e.server === null) return;
    if (e.type === 'exit' || (e.type === 'state' && AFTER_EXIT.has(e.to))) {
      const list = this.restarts.get(e.server) ?? [];
      // A state change counts only on the way back from an exit (through backoff): startup's ready is not one.
      const last = list.at(-1);
      const after = last?.type === 'exit' || (last?.type === 'state' && last.to === 'backoff');
      if (e.type === 'exit' || after) {
        push(list, pageEvent(e), RESTARTS);
        this.changed.add(e.server);
      }
      this.restarts.set(e.server, list);
    }
    if (e.type === 'stderr' || e.type === 'log' || e.type === 'exit' || e.type === 'tools')
      this.changed.add(e.server);
    if (e.type === 'state' && (e.to === 'ready' || e.from === 'ready')) this.changed.add(e.server);
  }

  private onCall(record: CallRecord): void {
    if (this.closed || record.server === undefined) return;
    const list = this.calls.get(record.server) ?? [];
    push(list, record, CALLS);
    this.calls.set(record.server, list);
    this.changed.add(record.server);
  }

  private toolsOf(server: string): ServerDetail['tools'] {
    let tools: ExposedTool[];
    try {
      tools = this.source.listTools?.() ?? [];
    } catch {
      return [];
    }
    return tools
      .filter((t) => t.server === server)
      .map((t) => ({
        name: t.name,
        ...(t.title ? { title: t.title } : {}),
        ...(t.description ? { description: cut(t.description, DESCRIPTION_CHARS) } : {}),
      }));
  }
}

function push<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

function cut(s: string, n = LINE_CHARS): string {
  return s.length > n ? `${s.slice(0, n - 1)}\u2026` : s;
}
