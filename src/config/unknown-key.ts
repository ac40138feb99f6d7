// An unknown key is almost always a typo (`restrat:`) or a key of another tool's format (`url`, `envFile`), so
// the message says which key was meant, or what is accepted there.
import type { z } from 'zod';
import { ExtendedMcpToolSchema, McpToolEntrySchema } from '../registry/manifest.js';

interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  out?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  element?: z.core.$ZodType;
}

const FOREIGN_SERVER_KEYS: Record<string, string> = {
  envFile: 'envFile is not supported; list the variables under env',
  image: 'an image is run with container: { image: … }',
};

// docker-compose keys written inside `container:` whose meaning is a key of the server itself.
const SERVER_SIDE = "is the server's own key, beside container:";
const FOREIGN_CONTAINER_KEYS: Record<string, string> = {
  command: `command ${SERVER_SIDE}`,
  entrypoint: `the program to run is the server's command, beside container:`,
  args: `args ${SERVER_SIDE}`,
  env: `env ${SERVER_SIDE}`,
  environment: `the variables are the server's env, beside container:`,
  cwd: `the working directory inside is the server's cwd, beside container:`,
  workdir: `the working directory inside is the server's cwd, beside container:`,
  working_dir: `the working directory inside is the server's cwd, beside container:`,
};

// Spellings of other tools (docker-compose, systemd, VS Code) for keys we name differently.
const ALIASES: Record<string, string> = {
  cmd: 'command',
  argv: 'args',
  arguments: 'args',
  environment: 'env',
  dir: 'cwd',
  workdir: 'cwd',
  working_dir: 'cwd',
  workingDirectory: 'cwd',
  enabled: 'disabled',
  scopes: 'scopes_required',
  volumes: 'mounts',
  binds: 'mounts',
  mem_limit: 'memory',
  pids_limit: 'pids',
  network_mode: 'network',
  read_only: 'readOnly',
};

/** The message for an unknown `key` met where `schema` (followed along `path`) expects its keys. */
export function unknownKeyMessage(
  schema: z.core.$ZodType,
  path: readonly PropertyKey[],
  key: string,
): string {
  const known = knownKeysAt(schema, path);
  if (!known) return 'unknown key';
  const foreign = known.includes('command')
    ? own(FOREIGN_SERVER_KEYS, key)
    : known.includes('image')
      ? own(FOREIGN_CONTAINER_KEYS, key)
      : undefined;
  if (foreign) return `unknown key: ${foreign}`;
  const alias = own(ALIASES, key);
  const near = alias !== undefined && known.includes(alias) ? alias : closest(key, known);
  if (near) return `unknown key (did you mean ${JSON.stringify(near)}?)`;
  return `unknown key (expected one of: ${known.join(', ')})`;
}

/** The keys the object schema found at `path` accepts, or `undefined` when no object schema is there. */
export function knownKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let node: z.core.$ZodType | undefined = schema;
  let i = 0;
  while (node) {
    if (node === McpToolEntrySchema) node = ExtendedMcpToolSchema;
    const def: Def = node._zod.def as unknown as Def;
    if (def.innerType) {
      node = def.innerType;
    } else if (def.type === 'pipe') {
      node = objectish(def.out) ? def.out : def.in;
    } else if (i === path.length) {
      return def.type === 'object' && def.shape ? Object.keys(def.shape) : undefined;
    } else {
      const step = path[i++];
      if (def.type === 'object' && def.shape) node = def.shape[String(step)];
      else if (def.type === 'record') node = def.valueType;
      else if (def.type === 'array') node = def.element;
      else return undefined;
    }
  }
  return undefined;
}

function own(table: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function objectish(s: z.core.$ZodType | undefined): boolean {
  const type = s ? (s._zod.def as unknown as Def).type : '';
  return type !== 'transform' && type !== 'unknown' && type !== '';
}

function closest(key: string, known: readonly string[]): string | undefined {
  const flat = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    if (flat(candidate) === flat(key)) return candidate;
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= (key.length >= 5 ? 2 : 1) ? best : undefined;
}

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment). */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
