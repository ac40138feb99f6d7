import { join } from 'node:path';
import { DEFAULT_SERVER_LIMITS } from '../../src/config/limits.js';
import type { ServerConfig, SupervisorConfig } from '../../src/config/types.js';
import {
  createSupervisor,
  type Supervisor,
  type SupervisorOptions,
} from '../../src/supervisor/supervisor.js';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { FIXTURE, tempDir } from './helpers.js';

type Over = Partial<Omit<ServerConfig, 'restart'>> & {
  restart?: Partial<Omit<ServerConfig['restart'], 'backoff'>> & {
    backoff?: Partial<ServerConfig['restart']['backoff']>;
  };
};

/** A fixture server config with short real timeouts, for fleet tests. */
export function fixtureServer(id: string, args: string[] = [], over: Over = {}): ServerConfig {
  const { restart, ...rest } = over;
  return {
    id,
    command: process.execPath,
    args: [FIXTURE, ...args],
    cwd: process.cwd(),
    env: {},
    inheritEnv: [],
    disabled: false,
    timeouts: { startupMs: 3000, callMs: 3000, shutdownMs: 300 },
    health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 3 },
    maxResultBytes: 65536,
    limits: { ...DEFAULT_SERVER_LIMITS },
    scopesRequired: [],
    tools: [],
    ...rest,
    restart: {
      policy: restart?.policy ?? 'on-failure',
      limit: restart?.limit ?? { maxRestarts: 5, windowMs: 60_000 },
      backoff: {
        initialMs: 20,
        multiplier: 2,
        maxMs: 200,
        jitter: 0,
        resetAfterMs: 60_000,
        ...restart?.backoff,
      },
    },
  };
}

/** Our 2025-11-25 tasks fixture (test/fixtures/tasks-server.mjs) as server `jobs`, allowed to ask for elicitation. */
export function jobsServer(): ServerConfig {
  return fixtureServer('jobs', [], {
    args: [join(process.cwd(), 'test', 'fixtures', 'tasks-server.mjs')],
    allow: ['elicitation'],
    timeouts: { startupMs: 10_000, callMs: 10_000, shutdownMs: 1000 },
  });
}

/** A whole config around some servers. */
export function fleetConfig(
  servers: ServerConfig[],
  supervisor: Partial<SupervisorConfig['supervisor']> = {},
): SupervisorConfig {
  return {
    source: '<test>',
    supervisor: {
      strategy: 'one_for_one',
      separator: '.',
      maxResultBytes: 65536,
      limit: { maxRestarts: 100, windowMs: 60_000 },
      ...supervisor,
    },
    servers,
  };
}

/** Creates supervisors that `reap()` stops (call it from afterEach), each with its event log. */
export function fleets() {
  const made: Supervisor[] = [];
  const stores: Array<{ cleanup(): void }> = [];
  /** By default every launch is approved into a throwaway store (the user's real store is never touched); `approve: null` turns approval off. */
  const create = (
    config: SupervisorConfig,
    {
      approve,
      ...options
    }: Omit<SupervisorOptions, 'approve'> & { approve?: SupervisorOptions['approve'] | null } = {},
  ) => {
    const store = tempDir();
    stores.push(store);
    const sup = createSupervisor(config, {
      stdinGraceMs: 100,
      trustStore: join(store.dir, 'trust.json'),
      ...options,
      ...(approve === null ? {} : { approve: approve ?? (() => true) }),
    });
    const events: SupervisorEvent[] = [];
    sup.subscribe((e) => events.push(e));
    made.push(sup);
    return { sup, events };
  };
  const reap = async () => {
    await Promise.all(made.splice(0).map((s) => s.stop()));
    for (const s of stores.splice(0)) s.cleanup();
  };
  return { create, reap };
}

/** Resolves once `pred` holds (polling), or rejects after `ms`. */
export async function eventually(pred: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The `state` transitions of one server, as `from>to` strings. */
export function transitions(events: SupervisorEvent[], server: string): string[] {
  return events.flatMap((e) => (e.type === 'state' && e.server === server ? [`${e.from}>${e.to}`] : []));
}

type Notice = Extract<SupervisorEvent, { type: 'notice' }>;

/** The notices of one code among the events. */
export const notices = (events: SupervisorEvent[], code: string): Notice[] =>
  events.filter((e): e is Notice => e.type === 'notice' && e.code === code);
