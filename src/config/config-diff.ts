import { canonicalJson } from '../registry/canonical-json.js';
import type { ServerConfig, SupervisorConfig } from './types.js';

/** What a reload does to one server, decided from the two configs alone. */
export type ServerChange = 'unchanged' | 'changed' | 'added' | 'removed';

/** A supervisor-level key a reload can take over while running, or one only a restart of the program applies. */
export type SupervisorKey =
  | 'strategy'
  | 'limit'
  | 'maxResultBytes'
  | 'separator'
  | 'containment'
  | 'logs'
  | 'serve';

export interface ConfigDiff {
  /** Every server of either config with its change: the new config's in its order, then the removed ones. */
  servers: Array<{ id: string; change: ServerChange }>;
  /** The new config's server order. */
  order: string[];
  /** Changed supervisor-level keys the running fleet takes over (the restart strategy and limit). */
  applied: SupervisorKey[];
  /** Changed keys that only a restart of the program applies: exposed names, containment, logs, `serve:`. */
  needsRestart: SupervisorKey[];
}

/**
 * Keys whose change the fleet takes in place. `maxResultBytes` is only the servers' default: its effect is in each
 * server's own definition, which restarts that server if it changed.
 */
const APPLIED: readonly SupervisorKey[] = ['strategy', 'limit', 'maxResultBytes'];
const NEEDS_RESTART: readonly SupervisorKey[] = ['separator', 'containment', 'logs'];

/**
 * Compares two configs by each server's effective definition: everything the loader filled in (command, args as
 * expanded and as written, cwd, env, restart policy, timeouts, health, limits, declared tools, trust-relevant
 * fields) counts, so a server is `unchanged` only when nothing that decides what runs or how it is supervised moved.
 * A server's position alone is not a change. Pure.
 */
export function diffConfigs(before: SupervisorConfig, after: SupervisorConfig): ConfigDiff {
  const old = new Map(before.servers.map((s) => [s.id, s]));
  const next = new Set(after.servers.map((s) => s.id));
  const servers: ConfigDiff['servers'] = after.servers.map((s) => {
    const was = old.get(s.id);
    if (!was) return { id: s.id, change: 'added' };
    return { id: s.id, change: sameDefinition(was, s) ? 'unchanged' : 'changed' };
  });
  for (const s of before.servers) if (!next.has(s.id)) servers.push({ id: s.id, change: 'removed' });
  const differs = (key: SupervisorKey) =>
    key === 'serve'
      ? canonicalJson(before.serve) !== canonicalJson(after.serve)
      : canonicalJson(before.supervisor[key]) !== canonicalJson(after.supervisor[key]);
  return {
    servers,
    order: after.servers.map((s) => s.id),
    applied: APPLIED.filter(differs),
    needsRestart: [...NEEDS_RESTART, 'serve' as const].filter(differs),
  };
}

/**
 * Whether two definitions of one server would run and be supervised the same way. A container block counts
 * whole (image, engine, limits, mounts, workdir), except the image id a start pins: that is what the image was,
 * not what the file says.
 */
export function sameDefinition(a: ServerConfig, b: ServerConfig): boolean {
  return canonicalJson(written(a)) === canonicalJson(written(b));
}

function written(server: ServerConfig): ServerConfig {
  if (server.container?.imageId === undefined) return server;
  const { imageId: _pinned, ...container } = server.container;
  return { ...server, container };
}
