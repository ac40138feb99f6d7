import type { ContainerSettings } from '../container/settings.js';
import type { MessageCut } from '../framing/stream-decoder.js';
import type { ContainmentKind } from '../process/containment.js';
import type { ExitInfo } from '../process/server-process.js';
import type { FramePool } from '../workers/frame-pool.js';
import type { CallClock } from './call-clock.js';
import type { Era, ProtocolSetting } from './era.js';
import type { ProgressRequest, ResultMode } from './pending-requests.js';
import type { Forward } from './server-requests.js';

export interface ConnectionOptions {
  serverId: string;
  command: string;
  args: readonly string[];
  cwd: string;
  /** The child's whole environment (built with buildChildEnv). */
  env: Record<string, string>;
  /** A server reached over Streamable HTTP instead: `command`, `args`, `cwd` and `env` are then unused. */
  remote?: { url: string; headers: Record<string, string> } | undefined;
  /** Stars out this start's secret values in what the server writes to stderr (lines and an exit's tail). */
  mask?: ((text: string) => string) | undefined;
  /** A server run in a container: `command` (when not empty) and `args` are its launch inside, `cwd` is unused. */
  container?: ContainerSettings | undefined;
  roots?: readonly string[] | undefined;
  /** Client capabilities declared beside `roots` (sampling, elicitation, roots from the host). */
  capabilities?: Record<string, unknown> | undefined;
  /** Answers the server's requests the host takes (sampling, elicitation, roots); others are refused. */
  forward?: Forward | undefined;
  startupMs: number;
  shutdownMs: number;
  stdinGraceMs?: number;
  /** How the process is contained (default: the strongest available) and which supervisor's ledger holds it. */
  containment?: ContainmentKind | undefined;
  owner?: string | undefined;
  pool?: FramePool | undefined;
  maxLineBytes?: number;
  clientInfo?: { name: string; version: string };
  /** The MCP era to speak (default `auto`: `server/discover` first, `initialize` if that is not answered as 2026). */
  protocol?: ProtocolSetting | undefined;
  /** The era this configuration spoke before: `legacy` skips the probe, `modern` waits the whole startup for it. */
  eraHint?: Era | undefined;
  /** Bytes queued for the server's stdin before it counts as not reading (default 16 MiB). */
  queueBytes?: number;
  /** Server→client requests answered per second, and the burst allowed (default 100/s, 200). */
  requestRate?: { perSecond: number; burst: number };
  /** The clock, in ms, the request rate runs on (default `performance.now`). */
  now?: () => number;
  /** What the requests' deadlines run on (default the real clock; a test may drive one). */
  clock?: CallClock | undefined;
  onEvent?: (event: ConnectionEvent) => void;
}

/** What a connection tells its owner besides call results. */
export type ConnectionEvent =
  | { type: 'tools_changed' }
  | { type: 'resources_changed' }
  /** `notifications/resources/updated`: a resource this connection subscribed to changed. */
  | { type: 'resource_updated'; uri: string }
  | { type: 'prompts_changed' }
  /** `notifications/subscriptions/acknowledged` (2026): its params as sent (the filter honoured, in `notifications`). */
  | { type: 'listen_acknowledged'; params: Record<string, unknown> }
  /** One line the server wrote to stderr (cut at 4 KiB): every line, as a store keeps them; not rate-limited. */
  | { type: 'stderr'; line: string }
  /** A `notifications/message` from the server: its params as sent (level, logger?, data). */
  | { type: 'log'; params: Record<string, unknown> }
  | { type: 'refused'; method: string }
  /** `notifications/tasks/status`: its params as sent (a Task: taskId, status, …). */
  | { type: 'task_status'; params: Record<string, unknown> }
  | { type: 'call_timeout'; method: string }
  /** The server answered a request of ours (a result, an error or an oversize line): it is alive. */
  | { type: 'call_ok'; method: string }
  | { type: 'oversize'; bytes: number }
  /** A large notification or list page arrived cut to its caps (see line-summary.ts): what was left out. */
  | { type: 'message_cut'; cut: MessageCut }
  /** The server stopped reading: `queuedBytes` waited for it, over the bound. It is to be treated as wedged. */
  | { type: 'queue_full'; queuedBytes: number; limitBytes: number }
  /** Requests beyond the server's rate get an error from now on; reported once per run of refusals. */
  | { type: 'rate_limited'; method: string }
  | { type: 'exit'; exit: ExitInfo };

export interface InitializeResult {
  protocolVersion: string;
  serverInfo?: { name?: string; version?: string };
  capabilities: Record<string, unknown>;
  instructions?: string;
}

export interface RequestOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  result?: { mode: ResultMode; maxBytes: number; structuredRequired?: boolean } | undefined;
  /** Asks the server for progress on this request (our id is the token); each update restarts the timeout. */
  progress?: ProgressRequest | undefined;
  /**
   * Client capabilities this one request declares beside the connection's (to a 2026 server, which is told per
   * request): what the caller can answer if the server asks for input (elicitation, sampling, roots).
   */
  capabilities?: Record<string, unknown> | undefined;
  /**
   * Told, before the request settles, when its answer arrived cut to the caps (a list page over its cap): what
   * was left out. A lister needs it, since such a page ends without its cursor.
   */
  onCut?: ((cut: MessageCut) => void) | undefined;
  /** Who the request is made for (see `CallOptions.caller`): the server's requests meanwhile are told of it. */
  caller?: string | undefined;
}
