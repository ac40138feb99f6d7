// Supervisor configs around the test fixture server, built in code the way a host embedding the library would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SERVER_LIMITS } from '../../src/config/limits.js';
import type { ServerConfig, SupervisorConfig } from '../../src/config/types.js';
import type { ContainmentSetting } from '../../src/process/containment.js';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { createSupervisor } from './ours.js';

/** The fixture MCP server both clients drive (plain Node, no dependencies). */
export const FIXTURE = fileURLToPath(new URL('../../test/fixtures/mcp-server.mjs', import.meta.url));

/** Per-call timeout on both sides; long enough that nothing measured here ever hits it. */
export const CALL_TIMEOUT_MS = 60_000;

/** The restart delay the restart rows subtract; no jitter, no growth, so every delay is exactly this. */
export const BACKOFF_MS = 50;

/** One fixture server with health pings off (the SDK has none) and a flat, jitter-free backoff. */
export function fixtureServer(id: string, args: string[] = []): ServerConfig {
  return {
    id,
    command: process.execPath,
    args: [FIXTURE, ...args],
    cwd: process.cwd(),
    env: {},
    inheritEnv: [],
    disabled: false,
    timeouts: { startupMs: 20_000, callMs: CALL_TIMEOUT_MS, shutdownMs: 2_000 },
    health: { intervalMs: 0, timeoutMs: 1_000, failureThreshold: 3 },
    maxResultBytes: 64 * 1024,
    limits: { ...DEFAULT_SERVER_LIMITS },
    scopesRequired: [],
    tools: [],
    restart: {
      policy: 'on-failure',
      limit: { maxRestarts: 1_000, windowMs: 60_000 },
      backoff: { initialMs: BACKOFF_MS, multiplier: 1, maxMs: BACKOFF_MS, jitter: 0, resetAfterMs: 600_000 },
    },
  };
}

/** A whole config around some servers, with a supervisor limit no benchmark reaches. */
export function fleetConfig(servers: ServerConfig[]): SupervisorConfig {
  return {
    source: '<bench>',
    supervisor: {
      strategy: 'one_for_one',
      separator: '.',
      maxResultBytes: 64 * 1024,
      limit: { maxRestarts: 10_000, windowMs: 60_000 },
    },
    servers,
  };
}

/** `store`: the shipped trust-on-first-use path (approve all into a throwaway store); `bypass`: a host gate that trusts all. */
export type TrustMode = 'store' | 'bypass';

let storeDir: string | undefined;

/** The throwaway trust store every benchmark supervisor shares, so fingerprints approved once stay trusted. */
function trustStorePath(): string {
  storeDir ??= mkdtempSync(join(tmpdir(), 'mcp-sup-bench-'));
  return join(storeDir, 'trust.json');
}

/** Removes the throwaway trust store. */
export function removeTrustStore(): void {
  if (storeDir) rmSync(storeDir, { recursive: true, force: true });
  storeDir = undefined;
}

/** A supervisor for these servers, not started yet. */
export function benchSupervisor(
  servers: ServerConfig[],
  trust: TrustMode = 'store',
  containment?: ContainmentSetting,
  stateDir?: string,
): Supervisor {
  const trustOptions =
    trust === 'store'
      ? { approve: () => true, trustStore: trustStorePath() }
      : { gate: async () => ({ ok: true }) as const };
  return createSupervisor(fleetConfig(servers), {
    stdinGraceMs: 500,
    ...trustOptions,
    ...(containment ? { containment } : {}),
    ...(stateDir ? { stateDir } : {}),
  });
}
