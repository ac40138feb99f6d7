// The handshake, tool-vetting and pinger actors of one server, and what the process actor shares with them.
import { fromCallback, fromPromise } from 'xstate';
import type { ServerConfig } from '../../config/types.js';
import { METHOD_NOT_FOUND } from '../../framing/json-rpc.js';
import type { HandshakeInput, PingerInput, VetToolsInput } from '../../machines/server.machine.js';
import type { ContainmentKind } from '../../process/containment.js';
import type { CallClock } from '../../protocol/call-clock.js';
import type { McpConnection } from '../../protocol/connection.js';
import type { ConnectionEvent } from '../../protocol/connection-types.js';
import type { EraCache } from '../../protocol/era.js';
import { RemoteError, SupervisorError } from '../../protocol/errors.js';
import type { ListedTool } from '../../protocol/tool-calls.js';
import { type ListingBounds, type ListingCut, listTools } from '../../protocol/tool-listing.js';
import type { GateVerdict } from '../../trust/trust-gate.js';
import type { FramePool } from '../../workers/frame-pool.js';
import type { SupervisorClock } from '../clock.js';
import type { ClientSide } from './client-side.js';
import type { Connections } from './connections.js';
import { eraKey } from './era-key.js';
import type { ListHints } from './list-hints.js';
import type { SecretDigests } from './secret-digests.js';

export type { GateVerdict };

export interface RuntimeDeps {
  pool: FramePool | undefined;
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** Decides whether this exact command line may run; asked before every spawn. */
  /** `asking` is called when a person is put the question (not for a launch the store already trusts). */
  gate(server: ServerConfig, asking?: () => void): Promise<GateVerdict>;
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
  /** A listing left tools out whose definitions nest too deep to hash, check or pass on (their names). */
  onToolsRefused(serverId: string, names: readonly string[]): void;
  /** A secret read for a start came from a file others may read too (it is still used). */
  onSecretWarning(serverId: string, message: string): void;
  /** The handshake of a server still running failed at `step`: why, for people (the exit keeps only a code). */
  onHandshakeFailed(serverId: string, step: 'initialize' | 'tools/list', error: unknown): void;
  /** What each server is told the client can do, and who answers its requests. */
  clientSide?: ClientSide | undefined;
  stdinGraceMs?: number | undefined;
  /** How every server is contained, and the supervisor instance whose ledger file records them. */
  containment?: ContainmentKind | undefined;
  owner?: string | undefined;
  /** Each listing's cache hint: a ttl that runs out re-lists the server (MCP 2026-07-28 `ttlMs`). */
  listHints?: ListHints | undefined;
  /** What each server's secrets were at its start (a digest), for a reload to compare. */
  secretDigests?: SecretDigests | undefined;
  /** The host's clock, when it gave one: the ttl re-list runs on it. */
  clock?: SupervisorClock | undefined;
  /** The same clock for the requests' deadlines on each connection, when the host gave one. */
  callClock?: CallClock | undefined;
  /** A health check got no answer in time (counted by metrics, logged as a notice). */
  onHealthFail?: ((serverId: string, timeoutMs: number) => void) | undefined;
}

/** The handshake actor: `initialize`, then the full tool list (none when the server offers no tools). */
export function handshakeActor(
  deps: Pick<
    RuntimeDeps,
    'connections' | 'filterTools' | 'onListingCut' | 'onToolsRefused' | 'onHandshakeFailed' | 'listHints'
  >,
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
      // The exit's reason is only the error's code; what the live server said is told once, here. A server that
      // is gone already has its exit say why.
      if (!conn.exit) deps.onHandshakeFailed(server.id, 'initialize', err);
      throw err;
    }
    if (conn.era) eras?.remember(eraKey(server), conn.era);
    if (!init.capabilities.tools) return { tools: [] };
    try {
      const listing = await listTools(conn, listingBounds(server, server.timeouts.startupMs));
      // There is no last good list yet: the server starts with the pages taken, and the cut is reported.
      if (listing.cut) deps.onListingCut(server.id, listing.cut, 'handshake');
      if (listing.refused) deps.onToolsRefused(server.id, listing.refused);
      deps.listHints?.set(server.id, input.generation, listing.hint);
      return { tools: listing.tools };
    } catch (err) {
      if (err instanceof RemoteError && err.code === METHOD_NOT_FOUND) return { tools: [] };
      if (!conn.exit) deps.onHandshakeFailed(server.id, 'tools/list', err);
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

/** Real timers that never keep the host alive on their own. */
export const unrefTimers: SupervisorClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (t) => clearTimeout(t),
};

/** The connection of this spawn; gone only if its process already exited, whose exit the machine hears of next. */
function connectionOf(connections: Connections, id: string, generation: number): McpConnection {
  const conn = connections.of(id, generation);
  if (!conn) throw new SupervisorError('SERVER_EXITED', 'the server exited before the handshake');
  return conn;
}

export function listingBounds(server: ServerConfig, timeoutMs: number): ListingBounds {
  return { timeoutMs, maxBytes: server.limits.listBytes, maxPages: server.limits.listPages };
}
