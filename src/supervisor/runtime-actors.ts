import { fromCallback, fromPromise } from 'xstate';
import type { ServerConfig } from '../config/types.js';
import { METHOD_NOT_FOUND } from '../framing/json-rpc.js';
import type {
  HandshakeInput,
  PingerInput,
  ProcessActorInput,
  VetToolsInput,
} from '../machines/server.machine.js';
import { buildChildEnv } from '../process/child-env.js';
import type { ContainmentKind } from '../process/containment.js';
import { McpConnection } from '../protocol/connection.js';
import type { ConnectionEvent } from '../protocol/connection-types.js';
import type { EraCache } from '../protocol/era.js';
import { RemoteError, SupervisorError } from '../protocol/errors.js';
import type { ListedTool } from '../protocol/tool-calls.js';
import { type ListingBounds, type ListingCut, listTools } from '../protocol/tool-listing.js';
import type { GateVerdict } from '../trust/trust-gate.js';
import type { FramePool } from '../workers/frame-pool.js';
import type { ClientSide } from './client-side.js';
import type { Connections } from './connections.js';
import { eraKey } from './era-key.js';
import type { ListHints } from './list-hints.js';
import type { SupervisorClock } from './supervisor-options.js';

export type { GateVerdict };

export interface RuntimeDeps {
  pool: FramePool | undefined;
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** Decides whether this exact command line may run; asked before every spawn. */
  gate(server: ServerConfig): Promise<GateVerdict>;
  /** The tools a server may expose (tool pinning holds changed ones back). */
  filterTools(server: ServerConfig, tools: ListedTool[]): Promise<ListedTool[]>;
  /** Where each spawn's connection is kept, for the handshake, the pinger and the facade. */
  connections: Connections;
  /** The runtime's clock and random source: an exit is stamped with both, since the machines read neither. */
  now(): number;
  random(): number;
  /** Events of the connection the facade reports (refusals, noise, oversize). */
  onConnectionEvent(serverId: string, event: ConnectionEvent): void;
  /** A tool listing hit one of its bounds: at a re-list the last good tools stay, at the handshake the pages seen do. */
  onListingCut(serverId: string, cut: ListingCut, when: 'handshake' | 'relist'): void;
  /** What each server is told the client can do, and who answers its requests. */
  clientSide?: ClientSide | undefined;
  stdinGraceMs?: number | undefined;
  /** How every server is contained, and the supervisor instance whose ledger file records them. */
  containment?: ContainmentKind | undefined;
  owner?: string | undefined;
  /** Each listing's cache hint: a ttl that runs out re-lists the server (MCP 2026-07-28 `ttlMs`). */
  listHints?: ListHints | undefined;
  /** The host's clock, when it gave one: the ttl re-list runs on it. */
  clock?: SupervisorClock | undefined;
  /** A health check got no answer in time (counted by metrics, logged as a notice). */
  onHealthFail?: ((serverId: string, timeoutMs: number) => void) | undefined;
}

type ProcessCommand = { type: 'STOP'; reason: string; immediate: boolean };

/** The process actor: trust gate, spawn, exit as data, re-list on `list_changed`, teardown when the actor stops. */
export function processActor(deps: RuntimeDeps, eras?: EraCache) {
  return fromCallback<ProcessCommand, ProcessActorInput>(({ input, sendBack, receive }) => {
    const server = input.server as ServerConfig;
    const { generation } = input;
    let conn: McpConnection | undefined;
    let ended = false;
    let pendingStop: ProcessCommand | undefined;
    /** Whether the server machine has call timeouts on its count that an answer should clear. */
    let timeoutsCounted = false;
    const relist = coalesced(async () => {
      if (!conn || ended) return;
      try {
        const listing = await listTools(conn, listingBounds(server, server.timeouts.callMs));
        if (listing.cut) {
          // A cut list would drop tools the server still has: keep the last good one and say why.
          if (!ended) deps.onListingCut(server.id, listing.cut, 'relist');
          return;
        }
        deps.listHints?.set(server.id, generation, listing.hint);
        const tools = await deps.filterTools(server, listing.tools);
        if (!ended) sendBack({ type: 'PROC.TOOLS', generation, tools });
      } catch {
        // A failed re-list keeps the last good list; the next list_changed tries again.
      }
    });
    const stale = staleTimer(deps, () => relist());
    const unwatch = deps.listHints?.watch(server.id, generation, (hint) => stale.arm(hint?.ttlMs));
    const begin = async () => {
      const verdict = await deps.gate(server);
      if (ended) return;
      if (!verdict.ok) {
        sendBack({ type: 'PROC.UNTRUSTED', generation, fingerprint: verdict.fingerprint });
        return;
      }
      if (pendingStop) return;
      const c = new McpConnection({
        serverId: server.id,
        command: server.command,
        args: server.args,
        cwd: server.cwd,
        env: server.remote ? {} : buildChildEnv(deps.hostEnv, server.inheritEnv, server.env),
        remote: server.remote,
        roots: Array.isArray(server.roots) ? server.roots : undefined,
        capabilities: deps.clientSide?.capabilities(server),
        forward: deps.clientSide?.forwarder(server),
        startupMs: server.timeouts.startupMs,
        shutdownMs: server.timeouts.shutdownMs,
        ...(deps.stdinGraceMs !== undefined ? { stdinGraceMs: deps.stdinGraceMs } : {}),
        containment: deps.containment,
        owner: deps.owner,
        pool: deps.pool,
        queueBytes: server.limits.queueBytes,
        requestRate: { perSecond: server.limits.requestRate, burst: server.limits.requestBurst },
        protocol: server.protocol,
        eraHint: eras?.get(eraKey(server)),
        onEvent: (event) => {
          if (ended) return;
          if (event.type === 'call_ok') {
            // An XState step per call is not free: only an answer after a counted timeout resets the count.
            if (timeoutsCounted && event.method === 'tools/call') {
              timeoutsCounted = false;
              sendBack({ type: 'CALL.OK' });
            }
            return;
          }
          deps.onConnectionEvent(server.id, event);
          if (event.type === 'queue_full')
            sendBack({ type: 'PROC.WEDGED', generation, reason: 'queue_full' });
          if (event.type === 'tools_changed') relist();
          if (event.type === 'call_timeout' && event.method === 'tools/call') {
            timeoutsCounted = true;
            sendBack({ type: 'CALL.TIMEOUT' });
          }
        },
      });
      conn = c;
      deps.connections.add(server.id, generation, c);
      void c.exited.then((exit) => {
        if (!ended) sendBack({ type: 'PROC.EXIT', generation, exit, at: deps.now(), draw: deps.random() });
      });
      if (c.pid !== undefined) sendBack({ type: 'PROC.SPAWNED', generation, pid: c.pid });
      // A remote server has nothing to spawn: the handshake is what connects (or fails to).
      else if (server.remote) sendBack({ type: 'PROC.SPAWNED', generation });
    };
    void begin();
    receive((command) => {
      if (command.type !== 'STOP') return;
      if (conn) {
        void conn.close(command.reason, { immediate: command.immediate });
      } else if (!pendingStop) {
        // Stopped while the trust gate is still deciding (a person may never answer): nothing runs, so it ends now.
        pendingStop = command;
        const exit = synthesizedExit(command.reason);
        sendBack({ type: 'PROC.EXIT', generation, exit, at: deps.now(), draw: deps.random() });
      }
    });
    return () => {
      ended = true;
      unwatch?.();
      stale.clear();
      // Whatever state the machine is in, an actor that stops takes its process group with it.
      void conn?.close('stopped');
    };
  });
}

/** The handshake actor: `initialize`, then the full tool list (none when the server offers no tools). */
export function handshakeActor(
  deps: Pick<RuntimeDeps, 'connections' | 'filterTools' | 'onListingCut' | 'listHints'>,
  eras?: EraCache,
) {
  return fromPromise<{ tools: unknown[] }, HandshakeInput>(async ({ input }) => {
    const server = input.server as ServerConfig;
    const conn = connectionOf(deps.connections, server.id, input.generation);
    let init: Awaited<ReturnType<McpConnection['initialize']>>;
    try {
      init = await conn.initialize();
    } catch (err) {
      // A server that dies of the probe is a 2025 one that cannot bear unknown requests: its restart skips it.
      if (conn.probeLost) eras?.remember(eraKey(server), 'legacy');
      throw err;
    }
    if (conn.era) eras?.remember(eraKey(server), conn.era);
    if (!init.capabilities.tools) return { tools: [] };
    try {
      const listing = await listTools(conn, listingBounds(server, server.timeouts.startupMs));
      // There is no last good list yet: the server starts with the whole pages seen, and the cut is reported.
      if (listing.cut) deps.onListingCut(server.id, listing.cut, 'handshake');
      deps.listHints?.set(server.id, input.generation, listing.hint);
      return { tools: listing.tools };
    } catch (err) {
      if (err instanceof RemoteError && err.code === METHOD_NOT_FOUND) return { tools: [] };
      throw err;
    }
  });
}

/** The vetting actor: the listed tools the trust gate lets through; it may ask a person, so no budget runs here. */
export function vetToolsActor(deps: Pick<RuntimeDeps, 'filterTools'>) {
  return fromPromise<{ tools: unknown[] }, VetToolsInput>(async ({ input }) => ({
    tools: await deps.filterTools(input.server as ServerConfig, input.tools as ListedTool[]),
  }));
}

/**
 * The health actor: a health check every `health.interval` (a 2025 `ping`, a 2026 `server/discover`), one at a
 * time, reporting each outcome. The interval runs on the host's clock when it gave one, like the machines' timers.
 */
export function pingerActor(
  deps: Pick<RuntimeDeps, 'connections' | 'onHealthFail'>,
  clock?: SupervisorClock,
) {
  return fromCallback<{ type: 'noop' }, PingerInput>(({ input, sendBack }) => {
    const { intervalMs, timeoutMs } = input.server.health;
    if (intervalMs <= 0) return () => {};
    const conn = deps.connections.of(input.server.id, input.generation);
    if (!conn) return () => {};
    const timers = clock ?? unrefTimers;
    let busy = false;
    let ended = false;
    let timer: unknown;
    const tick = () => {
      if (ended) return;
      timer = timers.setTimeout(tick, intervalMs);
      if (busy) return;
      busy = true;
      void conn.ping(timeoutMs).then((ok) => {
        busy = false;
        if (ended) return;
        if (!ok) deps.onHealthFail?.(input.server.id, timeoutMs);
        sendBack({ type: ok ? 'HEALTH.OK' : 'HEALTH.FAIL' });
      });
    };
    timer = timers.setTimeout(tick, intervalMs);
    return () => {
      ended = true;
      timers.clearTimeout(timer);
    };
  });
}

/** A list is kept no shorter than this, whatever ttl a server gives: a tiny one must not become a busy loop. */
const MIN_TTL_MS = 1000;
/** The longest delay a Node timer keeps (a longer one fires at once). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The re-list a listing's ttl asks for: armed by each listing (a `list_changed` re-list re-arms it, so nothing
 * re-lists before the ttl but a change), off for a ttl of 0 (kept for no time: nothing to wait for) or none.
 */
function staleTimer(deps: Pick<RuntimeDeps, 'clock'>, relist: () => void) {
  const timers = deps.clock ?? unrefTimers;
  let timer: unknown;
  let armed = false;
  const clear = () => {
    if (armed) timers.clearTimeout(timer);
    armed = false;
  };
  return {
    arm(ttlMs: number | undefined) {
      clear();
      if (ttlMs === undefined || ttlMs <= 0) return;
      armed = true;
      timer = timers.setTimeout(
        () => {
          armed = false;
          relist();
        },
        Math.min(MAX_TIMER_MS, Math.max(MIN_TTL_MS, ttlMs)),
      );
    },
    clear,
  };
}

/** Real timers that never keep the host alive on their own. */
const unrefTimers: SupervisorClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (t) => clearTimeout(t),
};

/** The connection of this spawn; gone only if its process already exited, whose exit the machine hears of next. */
function connectionOf(connections: Connections, id: string, generation: number): McpConnection {
  const conn = connections.of(id, generation);
  if (!conn) throw new SupervisorError('SERVER_EXITED', 'the server exited before the handshake');
  return conn;
}

function listingBounds(server: ServerConfig, timeoutMs: number): ListingBounds {
  return { timeoutMs, maxBytes: server.limits.listBytes, maxPages: server.limits.listPages };
}

function synthesizedExit(reason: string) {
  return {
    code: null,
    signal: null,
    reason,
    requested: true,
    timedOut: false,
    forced: false,
    stderrTail: '',
  };
}

/** Runs `fn` now, or once more right after the run in progress: a list_changed storm costs at most two lists. */
function coalesced(fn: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    running = true;
    do {
      again = false;
      await fn();
    } while (again);
    running = false;
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}
