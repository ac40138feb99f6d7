import type { ServerConfig, SupervisorConfig } from '../config/types.js';
import { describeSpawnError } from '../process/preflight.js';
import type { ExposedTool, ServerStatus } from '../supervisor/types.js';
import { checkServerIds, readConfigFile } from './config-file.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED } from './errors.js';
import type { FleetFlags } from './fleet-options.js';
import { openOneShot } from './one-shot-fleet.js';
import { describeLinkError } from './output/link-text.js';
import { renderToolsTable, type ServerTools } from './output/tools-table.js';

export interface ToolsFlags extends FleetFlags {
  json?: boolean;
  verbose?: boolean;
}

/**
 * `tools`: starts every enabled server once (no restarts: a failed start is reported, not retried) through the
 * trust gate as `call` does, lists what each exposes with the scopes each tool needs, and stops them all. Exit 0
 * when every enabled server came up; 1 when one did not (it is listed with its reason all the same).
 */
export async function toolsCommand(configPath: string, flags: ToolsFlags): Promise<number> {
  const config = await readConfigFile(configPath);
  checkServerIds(config, flags.trust, '--trust');
  const job = openOneShot(onceEach(config), flags);
  const { sup } = job;
  try {
    await sup.start();
    const servers = listing(config, sup.status(), sup.listTools());
    await sup.stop();
    if (job.interrupted()) return EXIT_INTERRUPTED;
    const out = flags.json
      ? `${JSON.stringify({ source: configPath, servers })}\n`
      : `${renderToolsTable(servers).join('\n')}\n`;
    process.stdout.write(out);
    return servers.every((s) => s.state === 'ready' || s.state === 'disabled') ? 0 : EXIT_FAILURE;
  } finally {
    await job.close();
  }
}

/** The fleet with each server started at most once: listing tools is no reason to wait out a restart loop. */
function onceEach(config: SupervisorConfig): SupervisorConfig {
  const once = (s: ServerConfig): ServerConfig => ({ ...s, restart: { ...s.restart, policy: 'never' } });
  return { ...config, servers: config.servers.map(once) };
}

/** Each server in config order, with its tools in name order, or why it has none. */
export function listing(
  config: SupervisorConfig,
  status: readonly ServerStatus[],
  tools: readonly ExposedTool[],
): ServerTools[] {
  const byId = new Map(status.map((s) => [s.id, s]));
  return config.servers.map((server): ServerTools => {
    if (server.disabled)
      return {
        id: server.id,
        state: 'disabled',
        tools: [],
        reason: 'disabled',
        message: 'disabled: not started',
      };
    const row = byId.get(server.id);
    const state = row?.state ?? 'stopped';
    const own = tools
      .filter((t) => t.server === server.id)
      .map((t) => ({ name: t.name, tool: t.tool, scopes: [...t.scopesRequired] }))
      .sort((a, b) => a.name.localeCompare(b.name));
    if (state === 'ready') return { id: server.id, state, tools: own };
    return { id: server.id, state, tools: own, ...notReady(server.id, state, row) };
  });
}

function notReady(
  id: string,
  state: string,
  row: ServerStatus | undefined,
): { reason: string; message: string } {
  if (state === 'untrusted')
    return {
      reason: 'untrusted',
      message: `not trusted: pass --trust ${id} or --trust-all, or approve it on a terminal`,
    };
  const exit = row?.lastExit;
  if (!exit) return { reason: state, message: state };
  if (exit.spawnError)
    return { reason: exit.reason, message: `spawn failed: ${describeSpawnError(exit.spawnError)}` };
  if (exit.linkError) return { reason: exit.reason, message: describeLinkError(exit.reason, exit.linkError) };
  const how = exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code ?? '?'}`;
  const last = exit.stderrTail.trimEnd().split('\n').at(-1)?.slice(0, 200);
  return { reason: exit.reason, message: `${how} (${exit.reason})${last ? `: ${last}` : ''}` };
}
