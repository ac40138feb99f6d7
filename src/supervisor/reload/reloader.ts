import { type ConfigDiff, diffConfigs, type SupervisorKey } from '../../config/config-diff.js';
import { ConfigError } from '../../config/config-error.js';
import { assertLaunchValues } from '../../config/launch-values.js';
import type { ServerConfig, SupervisorConfig } from '../../config/types.js';
import type { LocatedProblem } from '../../registry/located-yaml.js';
import type { ServerState } from '../server-state.js';
import { DOWN } from '../server-state.js';

/** What a reload did to one server. */
export type ReloadAction = 'unchanged' | 'restarted' | 'stopped' | 'started' | 'untrusted' | 'disabled';

export interface ReloadServerResult {
  id: string;
  action: ReloadAction;
  /** Where it was when the reload finished (a restarted or started server may still be starting). */
  state: ServerState | undefined;
}

/**
 * The answer of `Supervisor.reload`: what happened to each server, in the new config's order then the removed
 * ones, and which supervisor-level changes were taken over or need a restart of the program. A refusal changes
 * nothing: `NOT_STARTED` before `start()`, `STOPPED` once `stop()` was called (a stop that comes during a reload
 * ends it too, and owns every server), `INVALID_CONFIG` for a config built in code that the loader would have
 * refused (its located `problems`).
 */
export type ReloadOutcome =
  | { ok: true; servers: ReloadServerResult[]; applied: SupervisorKey[]; needsRestart: SupervisorKey[] }
  | { ok: false; code: 'NOT_STARTED' | 'STOPPED'; message: string }
  | { ok: false; code: 'INVALID_CONFIG'; message: string; problems: LocatedProblem[] };

/** What a reload works on: the facade's fleet, through the few moves it makes. */
export interface ReloadHost {
  current(): SupervisorConfig;
  started(): boolean;
  stopped(): boolean;
  /**
   * Stops a server through its machine and resolves once it is down (bounded by its shutdown time); a `replaced`
   * one's waiting calls wait for its replacement.
   */
  stopServer(server: ServerConfig, replaced: boolean): Promise<void>;
  /** True when a server's secrets read now differ from those it started with (a rotated token). */
  secretsRotated(server: ServerConfig): Promise<boolean>;
  /** Ends the hold `stopServer` put on a replaced server's waiters (the replacement will not come). */
  release(id: string): void;
  /** Takes the server's actor out of the supervisor (and the facade stops following it). */
  remove(id: string, replaced: boolean): void;
  /** Makes the new config the fleet's: the registry, prompts, resources and tasks follow its servers. */
  adopt(config: SupervisorConfig, diff: ConfigDiff): void;
  /** Adds a server's actor at its place in `order`, stopped, and follows it. */
  add(server: ServerConfig, order: readonly string[]): void;
  setPolicy(config: SupervisorConfig): void;
  /** Starts a server and resolves with its state once it settled or its start is past its bound. */
  startServer(server: ServerConfig): Promise<ServerState | undefined>;
  state(id: string): ServerState | undefined;
}

/**
 * Applies configs to a running fleet one at a time: a reload asked for while one runs waits for it (and diffs
 * against the config that one left), so two never interleave.
 */
export class Reloader {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly host: ReloadHost) {}

  reload(next: SupervisorConfig): Promise<ReloadOutcome> {
    const run = this.queue.then(() => this.run(next));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(next: SupervisorConfig): Promise<ReloadOutcome> {
    const { host } = this;
    if (host.stopped()) return { ok: false, code: 'STOPPED', message: 'supervisor is stopped' };
    if (!host.started()) return { ok: false, code: 'NOT_STARTED', message: 'reload before start()' };
    try {
      assertLaunchValues(next);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return { ok: false, code: 'INVALID_CONFIG', message: err.message, problems: err.problems };
    }
    const before = host.current();
    const diff = await withRotatedSecrets(diffConfigs(before, next), next, host);
    const change = new Map(diff.servers.map((s) => [s.id, s.change]));
    const old = new Map(before.servers.map((s) => [s.id, s]));
    // Removed and changed servers stop first, together: what replaces them must not overlap what they hold.
    const leaving = before.servers.filter(
      (s) => change.get(s.id) === 'removed' || change.get(s.id) === 'changed',
    );
    // A changed server that was not running (disabled, stopped by hand, failed) is started, not restarted.
    const wasDown = new Set(leaving.filter((s) => DOWN.has(host.state(s.id) ?? 'stopped')).map((s) => s.id));
    await Promise.all(leaving.map((s) => host.stopServer(s, change.get(s.id) === 'changed')));
    // A stop() that came meanwhile owns every server now: the reload ends here, and lets the stop hear them.
    if (host.stopped()) {
      for (const s of leaving) host.release(s.id);
      return { ok: false, code: 'STOPPED', message: 'supervisor is stopped' };
    }
    for (const s of leaving) host.remove(s.id, change.get(s.id) === 'changed');
    host.adopt(next, diff);
    if (diff.applied.includes('strategy') || diff.applied.includes('limit')) host.setPolicy(next);
    const joining = next.servers.filter(
      (s) => change.get(s.id) === 'added' || change.get(s.id) === 'changed',
    );
    for (const s of joining) host.add(s, diff.order);
    const settled = new Map<string, ServerState | undefined>();
    const enabled = joining.filter((s) => !s.disabled);
    await Promise.all(enabled.map(async (s) => settled.set(s.id, await host.startServer(s))));
    const servers = diff.servers.map(({ id, change: c }): ReloadServerResult => {
      const state = c === 'removed' ? undefined : (settled.get(id) ?? host.state(id));
      const server = next.servers.find((s) => s.id === id) ?? old.get(id)!;
      return { id, action: actionOf(c === 'changed' && wasDown.has(id) ? 'added' : c, server, state), state };
    });
    return { ok: true, servers, applied: diff.applied, needsRestart: diff.needsRestart };
  }
}

function actionOf(
  change: ConfigDiff['servers'][number]['change'],
  server: ServerConfig,
  state?: ServerState,
) {
  if (change === 'unchanged') return 'unchanged';
  if (change === 'removed') return 'stopped';
  if (server.disabled) return change === 'changed' ? 'stopped' : 'disabled';
  if (state === 'untrusted') return 'untrusted';
  return change === 'changed' ? 'restarted' : 'started';
}

/** The diff with each unchanged server whose secrets changed since its start counted as changed: it restarts. */
async function withRotatedSecrets(
  diff: ConfigDiff,
  next: SupervisorConfig,
  host: Pick<ReloadHost, 'secretsRotated'>,
): Promise<ConfigDiff> {
  const byId = new Map(next.servers.map((s) => [s.id, s]));
  const rotated = new Set<string>();
  for (const s of diff.servers) {
    const server = byId.get(s.id);
    if (s.change === 'unchanged' && server && (await host.secretsRotated(server))) rotated.add(s.id);
  }
  if (rotated.size === 0) return diff;
  return { ...diff, servers: diff.servers.map((s) => (rotated.has(s.id) ? { ...s, change: 'changed' } : s)) };
}
