import type { ServerConfig } from '../../config/types.js';
import type { ContainmentKind } from '../../process/containment.js';
import type { ConnectionEvent } from '../../protocol/connection-types.js';
import type { ListedTool } from '../../protocol/tool-calls.js';
import type { ListingCut } from '../../protocol/tool-listing.js';
import type { TrustGate } from '../../trust/trust-gate.js';
import type { FramePool } from '../../workers/frame-pool.js';
import { callClockOf } from '../clock.js';
import type { SupervisorOptions } from '../options.js';
import type { SupervisorEvent } from '../types.js';
import type { RuntimeDeps } from './actors.js';
import type { ClientSide } from './client-side.js';
import type { Connections } from './connections.js';
import type { ListHints } from './list-hints.js';
import type { SecretDigests } from './secret-digests.js';
import { handshakeNotice, listingNotice, refusedToolsNotice, talkNotice } from './talk-notices.js';

/** What the runtime actors' IO is given to run on, as the supervisor built it. */
export interface RuntimeBase {
  pool: FramePool;
  hostEnv: Readonly<Record<string, string | undefined>>;
  trust: TrustGate;
  containment: ContainmentKind;
  owner: string;
  connections: Connections;
  now: () => number;
  clientSide: ClientSide;
  listHints: ListHints;
  secretDigests: SecretDigests;
  /** Each connection's events for the parts that follow them (prompts, resources, tasks). */
  onConnection: (id: string, event: ConnectionEvent) => void;
  emit: (event: SupervisorEvent) => void;
}

/** The deps of every server's process, handshake, vetting and pinger actors; events go out as the host's. */
export function runtimeDeps(base: RuntimeBase, options: SupervisorOptions): RuntimeDeps {
  const { trust, now, emit } = base;
  return {
    pool: base.pool,
    hostEnv: base.hostEnv,
    gate: options.gate ?? ((server: ServerConfig, asking?: () => void) => trust.check(server, asking)),
    filterTools: <T extends ListedTool>(server: ServerConfig, tools: T[]) =>
      options.gate ? Promise.resolve(tools) : trust.filterTools(server, tools),
    stdinGraceMs: options.stdinGraceMs,
    containment: base.containment,
    owner: base.owner,
    connections: base.connections,
    now,
    random: options.random ?? Math.random,
    clientSide: base.clientSide,
    onConnectionEvent: (id: string, event: ConnectionEvent) => {
      if (event.type === 'refused') emit({ type: 'refused', server: id, method: event.method, at: now() });
      base.onConnection(id, event);
      const notice = talkNotice(event);
      if (notice) emit({ type: 'notice', server: id, ...notice, at: now() });
    },
    listHints: base.listHints,
    secretDigests: base.secretDigests,
    clock: options.clock,
    callClock: options.clock ? callClockOf(options.clock) : undefined,
    onListingCut: (id: string, cut: ListingCut, when: 'handshake' | 'relist') =>
      emit({ type: 'notice', server: id, ...listingNotice(cut, when), at: now() }),
    onToolsRefused: (id: string, names: readonly string[]) =>
      emit({ type: 'notice', server: id, ...refusedToolsNotice(names), at: now() }),
    onSecretWarning: (id: string, message: string) =>
      emit({ type: 'notice', server: id, code: 'SECRET_SHARED', message, at: now() }),
    onHandshakeFailed: (id: string, step: string, error: unknown) =>
      emit({ type: 'notice', server: id, ...handshakeNotice(step, error), at: now() }),
    onHealthFail: (id: string, ms: number) =>
      emit({
        type: 'notice',
        server: id,
        code: 'HEALTH_FAILED',
        message: `health check got no answer within ${ms} ms`,
        at: now(),
      }),
  };
}
