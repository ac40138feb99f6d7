import { join } from 'node:path';
import Docker from 'dockerode';
import type { ServerConfig } from '../../src/config/types.js';
import type { ContainerSettings } from '../../src/container/settings.js';
import { fixtureServer } from '../supervisor/fleet.js';
import { TEST_IMAGE } from './engine-facts.js';

export const FIXTURES = join(process.cwd(), 'test', 'fixtures');

/** Our fixture server in the test image, its folder mounted read-only at /srv/fixtures; safe defaults as config fills them. */
export function boxedServer(
  id: string,
  engine: string,
  args: string[] = [],
  container: Partial<ContainerSettings> = {},
  over: Partial<ServerConfig> = {},
): ServerConfig {
  return fixtureServer(id, [], {
    command: process.execPath,
    args: ['/srv/fixtures/mcp-server.mjs', ...args],
    timeouts: { startupMs: 20_000, callMs: 10_000, shutdownMs: 2000 },
    container: {
      image: TEST_IMAGE,
      pull: 'never',
      engine,
      network: 'none',
      readOnly: true,
      mounts: [{ source: FIXTURES, target: '/srv/fixtures', readOnly: true }],
      ...container,
    },
    ...over,
  });
}

/** The engine's own view, for asserting on what exists there (never used by the code under test). */
export function engineView(engine: string): Docker {
  return new Docker({ socketPath: engine.replace(/^unix:\/\//, '') });
}

/** The ids of every container (running or not) that carries one label, `mcp-supervisor.server=<id>` say. */
export async function containersLabelled(engine: string, label: string, value: string): Promise<string[]> {
  const list = await engineView(engine).listContainers({
    all: true,
    filters: { label: [`${label}=${value}`] },
  });
  return list.filter((c) => c.Labels?.[label] === value).map((c) => c.Id);
}

/** A server id no other test uses, so what the engine holds can be told apart by its label. */
export function uniqueId(base: string): string {
  return `${base}-${Math.random().toString(36).slice(2, 8)}`;
}

/** server-everything in the test image, its packages mounted read-only (the image holds only node). */
export function everythingServer(id: string, engine: string): ServerConfig {
  return boxedServer(
    id,
    engine,
    [],
    {
      mounts: [{ source: join(process.cwd(), 'node_modules'), target: '/srv/node_modules', readOnly: true }],
    },
    { args: ['/srv/node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'] },
  );
}
