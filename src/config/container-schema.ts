// The `container:` block of a server as written: the image it runs from, the engine that runs it, and the limits
// and mounts it gets. Defaults are the closed ones (no network, a read-only root, never pulled); build-server.ts
// resolves the engine's address and the mounts' sources.
import { posix } from 'node:path';
import { z } from 'zod';
import { readEngineAddress } from '../container/engine-address.js';
import { parseSize } from './units.js';
import {
  booleanLike,
  count,
  enumOf,
  launchText,
  nonEmpty,
  numberLike,
  scalarString,
  size,
} from './value-schemas.js';

/** The smallest memory limit: Docker refuses less than 6 MiB. */
export const MIN_CONTAINER_MEMORY = 6 * 1024 * 1024;

/** Docker's own bounds: a CPU share below 0.01 is refused by the engine, and 1024 is far past any machine. */
const MIN_CPUS = 0.01;
const MAX_CPUS = 1024;

/** A name, a tag, a digest or an image id: nothing that could change the request's path (no `?`, `#`, space). */
const IMAGE_REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/;

/** A network name as Docker allows one (`none`, `bridge`, `host`, or one the engine has). */
const NETWORK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** `256m`, `1g`: Docker's spelling of a size, which means MiB and GiB there. */
const ENGINE_SIZE = /^(\d+(?:\.\d+)?)([kmg])b?$/i;
const ENGINE_UNITS: Record<string, string> = { k: 'KiB', m: 'MiB', g: 'GiB' };

/** A memory limit: a size like any other, and Docker's `256m` answered with the spelling meant. */
const memory = z.unknown().superRefine((v, ctx) => {
  if (parseSize(v).ok || typeof v !== 'string') return;
  const m = ENGINE_SIZE.exec(v);
  if (m)
    ctx.addIssue({
      code: 'custom',
      message: `invalid size ${JSON.stringify(v)}: write ${m[1]}${ENGINE_UNITS[m[2]!.toLowerCase()]} (sizes take B, KiB, MiB, GiB, or kB, MB, GB)`,
      abort: true,
    });
});

const absoluteInside = (what: string) =>
  launchText(nonEmpty).refine(
    (p) => posix.isAbsolute(p),
    `${what} is a path inside the container and must be absolute (/data)`,
  );

const MountSchema = z.strictObject({
  /** On the engine's host; relative to the config file's directory. */
  source: launchText(nonEmpty),
  target: absoluteInside('target').refine(
    (p) => posix.normalize(p) !== '/',
    'target must not be / (the root is the image)',
  ),
  readOnly: booleanLike.default(false),
});

/** Two mounts at one target: the engine refuses the container, so the file is told where the first one is. */
function duplicateTargets(mounts: readonly { target: string }[], ctx: z.RefinementCtx): void {
  const first = new Map<string, number>();
  for (const [i, m] of mounts.entries()) {
    const target = posix.normalize(m.target).replace(/(.)\/$/, '$1');
    const at = first.get(target);
    if (at === undefined) first.set(target, i);
    else
      ctx.addIssue({
        code: 'custom',
        path: [i, 'target'],
        message: `${target} is mounted already (mounts[${at}])`,
      });
  }
}

/** The `container:` block: `image` is required, every other key has its closed default or none. */
export const ContainerSchema = z.strictObject({
  image: launchText(nonEmpty).refine(
    (s) => IMAGE_REFERENCE.test(s),
    'expected an image reference (name, name:tag, name@sha256:…) or an image id',
  ),
  pull: enumOf(['never', 'missing', 'always']).default('never'),
  /** Checked for its form here, so it shows with the block's other problems; resolved in build-container.ts. */
  engine: launchText(nonEmpty)
    .superRefine((text, ctx) => {
      const read = readEngineAddress(text);
      if (!read.ok) ctx.addIssue({ code: 'custom', message: read.message });
    })
    .optional(),
  memory: memory.pipe(size(MIN_CONTAINER_MEMORY, '6MiB')).optional(),
  cpus: numberLike(
    z.number().min(MIN_CPUS, `must be at least ${MIN_CPUS}`).max(MAX_CPUS, `must be at most ${MAX_CPUS}`),
  ).optional(),
  pids: count(1).optional(),
  network: nonEmpty
    .regex(NETWORK_NAME, 'expected none, bridge, or the name of a network the engine has')
    .default('none'),
  readOnly: booleanLike.default(true),
  user: launchText(scalarString.pipe(nonEmpty))
    .refine((s) => !/\s/.test(s), 'expected uid, uid:gid, or a user name the image knows')
    .optional(),
  mounts: z.array(MountSchema).superRefine(duplicateTargets).default([]),
});

export type ParsedContainer = z.output<typeof ContainerSchema>;
