import type { ConfigDiff } from '../../config/config-diff.js';
import type { ServerConfig, SupervisorConfig } from '../../config/types.js';
import type { SupervisorMachineEvent } from '../../machines/supervisor.machine.js';
import type { FleetTools } from '../calls/tool-table.js';
import type { PromptCatalog } from '../prompts/catalog.js';
import type { FleetResources } from '../resources/resources.js';
import type { SecretDigests } from '../runtime/secret-digests.js';
import { readSecrets } from '../runtime/secret-launch.js';
import type { ServerWatch } from '../runtime/watch.js';
import { DOWN } from '../server-state.js';
import type { FleetTasks } from '../tasks/tasks.js';
import type { ServerState } from '../types.js';
import type { ReloadHost } from './reloader.js';

const SETTLED: ReadonlySet<string> = new Set(['ready', ...DOWN]);

/** The facade's parts a reload moves: the root actor and everything that keeps a list of the servers. */
export interface ReloadParts {
  /** Sends an event to the root actor (the facade is the one that does). */
  tell(event: SupervisorMachineEvent): void;
  watch: ServerWatch;
  tools: FleetTools;
  prompts: PromptCatalog;
  resources: FleetResources;
  tasks: FleetTasks;
  /** The facade's server map, shared with prompts, resources, tasks and calls: updated in place. */
  servers: Map<string, ServerConfig>;
  config(): SupervisorConfig;
  setConfig(config: SupervisorConfig): void;
  started(): boolean;
  stopped(): boolean;
  stdinGraceMs: number | undefined;
  secretDigests: SecretDigests;
}

/** The moves of a reload on a running facade, each one a machine event or a list brought up to date. */
export function reloadHost(p: ReloadParts): ReloadHost {
  return {
    current: p.config,
    started: p.started,
    stopped: p.stopped,
    async stopServer(server, replaced) {
      // Calls waiting for a server being replaced wait for its replacement, not fail on the swap.
      if (replaced) p.watch.hold(server.id);
      p.tell({ type: 'STOP', id: server.id });
      // The same bound as stop(): past it, removing the actor takes whatever is left of the process with it.
      const bound = server.timeouts.shutdownMs + (p.stdinGraceMs ?? 1000) + 2000;
      await p.watch.until(server.id, (s) => DOWN.has(s) || s === 'backoff', bound, undefined, true);
    },
    release: (id) => p.watch.release(id),
    async secretsRotated(server) {
      if (!server.secretFields?.length) return false;
      const read = await readSecrets(server);
      // One that cannot be read now is a change too: the restart says why it cannot start.
      return !read.ok || p.secretDigests.differ(server.id, read.values);
    },
    remove(id, replaced) {
      p.tell({ type: 'REMOVE_CHILD', id });
      // A replaced server keeps its row and its waiters (calls wait for it to come back); a removed one's end.
      if (!replaced) p.watch.unfollow(id);
    },
    adopt(config: SupervisorConfig, diff: ConfigDiff) {
      const changed = diff.servers.filter((s) => s.change === 'changed').map((s) => s.id);
      for (const s of diff.servers) if (s.change === 'removed') p.servers.delete(s.id);
      for (const s of config.servers) p.servers.set(s.id, s);
      p.setConfig(config);
      p.tools.reconfigure(config, changed);
      const ownNames = new Set(config.servers.filter((s) => s.namespace === false).map((s) => s.id));
      p.prompts.reconfigure(diff.order, ownNames);
      p.resources.reconfigure(config.servers);
      p.tasks.reorder(diff.order);
    },
    add(server, order) {
      p.tell({ type: 'ADD_CHILD', server, order });
      p.watch.follow(server.id);
      // A replacement that will not start (now disabled): its waiters hear that it is stopped.
      if (server.disabled) p.watch.release(server.id);
    },
    setPolicy(config) {
      p.tell({
        type: 'SET_POLICY',
        strategy: config.supervisor.strategy,
        limit: config.supervisor.limit,
      });
    },
    async startServer(server) {
      // Its row says `stopped` until the new actor moves: only a state after that one is where the start got to.
      let moved = false;
      const settled = (s: ServerState) => {
        moved ||= s !== 'stopped';
        return moved && SETTLED.has(s);
      };
      const reached = p.watch.until(server.id, settled, server.timeouts.startupMs + 5000, undefined, true);
      p.tell({ type: 'START', id: server.id });
      p.watch.release(server.id);
      // An untrusted server may wait for a person's approval: the reload reports where it got to, not forever.
      return (await reached) ?? p.watch.stateOf(server.id);
    },
    state: (id) => p.watch.stateOf(id),
  };
}
