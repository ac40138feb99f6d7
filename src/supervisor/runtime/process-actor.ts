// The actor that spawns one server's process (or opens its remote link) and owns it until the actor stops.
import { fromCallback } from 'xstate';
import type { ServerConfig } from '../../config/types.js';
import type { ProcessActorInput } from '../../machines/server.machine.js';
import { McpConnection } from '../../protocol/connection.js';
import type { EraCache } from '../../protocol/era.js';
import { listTools } from '../../protocol/tool-listing.js';
import { listingBounds, type RuntimeDeps, unrefTimers } from './actors.js';
import { containerOf } from './container-launch.js';
import { eraKey } from './era-key.js';
import { launchEnv, prepareLaunch } from './launch-steps.js';

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
        if (listing.refused && !ended) deps.onToolsRefused(server.id, listing.refused);
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
      const decided = await prepareLaunch(
        input.server as ServerConfig,
        deps,
        () => {
          if (!ended) sendBack({ type: 'PROC.ASKING', generation });
        },
        () => ended,
        () => pendingStop !== undefined,
      );
      if (decided.kind === 'gone') return;
      if (decided.kind === 'exit') {
        sendBack({ type: 'PROC.EXIT', generation, exit: decided.exit, at: deps.now(), draw: deps.random() });
        return;
      }
      if (decided.kind === 'untrusted') {
        sendBack({ type: 'PROC.UNTRUSTED', generation, fingerprint: decided.fingerprint });
        return;
      }
      const server = decided.server;
      const c = new McpConnection({
        serverId: server.id,
        command: server.command,
        args: server.args,
        cwd: server.cwd,
        env: launchEnv(server, deps.hostEnv),
        remote: server.remote,
        container: server.container,
        roots: Array.isArray(server.roots) ? server.roots : undefined,
        mask: decided.mask,
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
        clock: deps.callClock,
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
      const container = containerOf(c);
      // A container is spawned once created, attached and started: what `spawning` covers for it.
      if (container)
        void container.started.then((ref) => {
          if (ref && !ended) sendBack({ type: 'PROC.SPAWNED', generation });
        });
      else if (c.pid !== undefined) sendBack({ type: 'PROC.SPAWNED', generation, pid: c.pid });
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
