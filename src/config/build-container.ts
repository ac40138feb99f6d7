// From a validated `container:` block to the runtime's ContainerSettings: the engine's address resolved, sizes in
// bytes, mount sources made absolute, and the server's `cwd:` taken as the working directory inside.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { resolveEngineAddress } from '../container/engine-address.js';
import type { ContainerSettings } from '../container/settings.js';
import type { ParsedContainer } from './container-schema.js';
import type { Env } from './interpolate.js';
import type { ProblemSink } from './problem-sink.js';

/** Where the block stands and what it is resolved against. */
export interface ContainerContext {
  /** The block's path in the document (`['servers', 'files', 'container']`). */
  path: readonly (string | number)[];
  baseDir: string;
  /** Where `DOCKER_HOST` and `XDG_RUNTIME_DIR` are read (the environment the config is read in). */
  env: Env;
  sink: ProblemSink;
  /** Whether a socket is there; the file system by default. */
  exists?: (path: string) => boolean;
}

/**
 * The settings of one block. A written engine was checked by the schema; what can still fail is a `DOCKER_HOST`
 * that is no address, a problem of the block that relies on it.
 */
export function buildContainer(
  parsed: ParsedContainer,
  workdir: string | undefined,
  ctx: ContainerContext,
): ContainerSettings {
  const engine = resolveEngineAddress(parsed.engine, ctx.env, ctx.exists ?? existsSync);
  if (!engine.ok) ctx.sink.at(ctx.path, engine.message, 'ENGINE_ADDRESS');
  const settings: ContainerSettings = {
    image: parsed.image,
    pull: parsed.pull,
    engine: engine.ok ? engine.address : '',
    network: parsed.network,
    readOnly: parsed.readOnly,
    mounts: parsed.mounts.map((m) => ({
      source: isAbsolute(m.source) ? resolve(m.source) : resolve(ctx.baseDir, m.source),
      target: m.target,
      readOnly: m.readOnly,
    })),
  };
  if (parsed.memory !== undefined) settings.memoryBytes = parsed.memory;
  if (parsed.cpus !== undefined) settings.cpus = parsed.cpus;
  if (parsed.pids !== undefined) settings.pids = parsed.pids;
  if (parsed.user !== undefined) settings.user = parsed.user;
  if (workdir !== undefined) settings.workdir = workdir;
  return settings;
}
