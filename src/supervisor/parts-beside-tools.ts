import type { ServerConfig, SupervisorConfig } from '../config/types.js';
import type { McpConnection } from '../protocol/connection.js';
import { clampTimeout } from './calls/call-check.js';
import { HeldNotices } from './held-notices.js';
import type { SupervisorOptions } from './options.js';
import { FleetPrompts } from './prompts/prompts.js';
import { FleetResources } from './resources/resources.js';
import { FleetTasks } from './tasks/tasks.js';
import type { SupervisorEvent } from './types.js';

/** What the fleet's prompts, tasks and resources are built on. */
export interface BesideToolsBase {
  servers: Map<string, ServerConfig>;
  connection: (id: string) => McpConnection | undefined;
  now: () => number;
  emit: (event: SupervisorEvent) => void;
  /** Resolves true once the server is ready, false if it went down or the time passed. */
  ready: (id: string, timeoutMs: number) => Promise<boolean>;
  stopped: () => boolean;
}

/** The fleet's prompts (with completion and logging), tasks and resources, beside its tools. */
export function buildBesideTools(
  config: SupervisorConfig,
  options: SupervisorOptions,
  base: BesideToolsBase,
) {
  const { servers, connection, now, emit } = base;
  // Prompts and reads may ask for input as tools do: the same handler answers, declaring the same kinds.
  const hostInput = {
    handler: options.onInputRequired,
    capabilities: options.inputCapabilities ?? { elicitation: {} },
  };
  const prompts = new FleetPrompts(
    servers,
    config.supervisor.separator,
    connection,
    emit,
    now,
    hostInput,
    options.clock,
  );
  const tasks = new FleetTasks(
    config.servers.map((s) => s.id),
    config.supervisor.separator,
    connection,
    (id) => clampTimeout(servers.get(id)?.timeouts.callMs ?? 60_000),
    now,
    (id) => servers.get(id)?.maxResultBytes ?? Number.POSITIVE_INFINITY,
    options.taskIds,
  );
  const resources = new FleetResources({
    servers: config.servers,
    connection,
    ready: base.ready,
    stopped: base.stopped,
    changed: (server) => emit({ type: 'resources', server, at: now() }),
    warn: (message) => options.logger?.warn?.(message),
    notice: (server, code, message) => emit({ type: 'notice', server, code, message, at: now() }),
    held: new HeldNotices((e) => emit({ ...e, at: now() })).of('resource'),
    input: hostInput,
    clock: options.clock,
  });
  return { prompts, tasks, resources };
}
