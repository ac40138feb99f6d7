import type { ServerConfig } from '../../config/types.js';
import { failedStartExit } from '../../process/failed-start.js';
import type { ExitInfo } from '../../process/server-process.js';
import { secretMask } from '../../secrets/mask.js';
import { readSecret } from '../../secrets/read.js';
import type { SecretFailure } from '../../secrets/reference.js';
import { resolveText } from '../../secrets/resolve.js';

/**
 * A server's launch with its secrets read in, at its start and only for it: the config keeps the references, this
 * copy goes to the spawn and nowhere else. A secret that cannot be read is the start's failure, naming the
 * reference, never a value.
 */
export async function readSecrets(server: ServerConfig): Promise<
  | {
      ok: true;
      server: ServerConfig;
      warnings: string[];
      /** The values read, in field order: what a reload compares (never kept but as a digest). */
      values: string[];
      mask?: ((text: string) => string) | undefined;
    }
  | { ok: false; exit: ExitInfo }
> {
  const fields = server.secretFields;
  if (!fields || fields.length === 0) return { ok: true, server, warnings: [], values: [] };
  const launch = structuredClone(server);
  const warnings: string[] = [];
  const values: string[] = [];
  for (const field of fields) {
    const path = field.split('.');
    const text = getAt(launch, path);
    if (typeof text !== 'string') continue;
    const got = await resolveText(text, readSecret);
    if (!got.ok) return { ok: false, exit: secretExit(server, got.failure) };
    warnings.push(...got.warnings);
    values.push(...got.secrets);
    setAt(launch, path, got.value);
  }
  return { ok: true, server: launch, warnings, values, mask: secretMask(values) };
}

function secretExit(server: ServerConfig, failure: SecretFailure): ExitInfo {
  return failedStartExit({
    code: failure.code,
    command: server.command,
    cwd: server.cwd,
    detail: failure.detail,
  });
}

// A field is `env.NAME`, `args.2` or `remote.headers.NAME`: only the first dot splits (a header or env name has none).
function getAt(root: unknown, path: readonly string[]): unknown {
  let at: unknown = root;
  for (const key of splitPath(path)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function setAt(root: unknown, path: readonly string[], value: string): void {
  const keys = splitPath(path);
  let at = root as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys[keys.length - 1] as string] = value;
}

/** `remote.headers.X-Api.Key` → remote, headers, `X-Api.Key`: the last part keeps any dots it has. */
function splitPath(path: readonly string[]): string[] {
  const head = path[0] === 'remote' && path[1] === 'headers' ? 2 : 1;
  return [...path.slice(0, head), path.slice(head).join('.')].filter((k) => k !== '');
}
