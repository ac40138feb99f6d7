import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { describeEngineFailure } from '../container/engine-errors.js';
import { resolveImage } from '../container/image.js';
import type { ContainerSettings } from '../container/settings.js';
import { regularFile, resolveExecutable, sha256File } from '../process/resolve-executable.js';
import { canonicalJson } from '../registry/canonical-json.js';
import { isNodeCommand, nodeCodeFiles } from './node-entry.js';

/** How many leading args are checked for script files (`node server.js`, `python -m x run.py`). */
export const SCRIPT_ARGS_CHECKED = 8;
/** The largest script file hashed; a bigger one is recorded with a null hash, to bound the cost of a start. */
export const SCRIPT_MAX_BYTES = 64 * 1024 * 1024;

/** A leading arg that names a regular file (a `node server.js` script): its content is part of the fingerprint. */
export interface ScriptFact {
  /** Position in `args`. */
  index: number;
  arg: string;
  /** Real path of the file. */
  path: string;
  /** null when the file is over {@link SCRIPT_MAX_BYTES} or could not be read. */
  sha256: string | null;
}

/** What a fingerprint was computed from, kept in the trust store; never holds an env value, only its hash. */
export interface FingerprintFacts {
  id: string;
  command: string;
  /** Real path of the file the command runs; null when it resolves to nothing. */
  executable: string | null;
  executableSha256: string | null;
  /** As the config wrote them: `${VAR}` references stay unexpanded, so no secret from the environment is kept. */
  args: string[];
  /**
   * Salted sha256 of the expanded args (see {@link argValuesHash}), present when some arg had a reference:
   * a changed value behind `${VAR}` still changes the fingerprint.
   */
  argValues?: string;
  cwd: string;
  /** Env name → salted sha256 of its value (see {@link envValueHash}). */
  env: Record<string, string>;
  /** Host variables passed through by name (sorted, unique); their values are the host's, not the config's. */
  inheritEnv: string[];
  scripts: ScriptFact[];
  /** A url server's endpoint: nothing runs here, so no executable or script is part of it. */
  remote?: RemoteFacts;
  /**
   * A container server's image (its id: the same tag on other content is another launch), engine and every
   * setting; what runs is in the image, so no host executable or script is part of it.
   */
  container?: ContainerFacts;
}

/** Every container setting, with the image's id (`sha256:…`) beside the reference the config wrote. */
export type ContainerFacts = Omit<ContainerSettings, 'imageId'> & { imageId: string };

/** What a url server's fingerprint covers: the URL, and each header's name with its value hashed. */
export interface RemoteFacts {
  url: string;
  /** Header name (lower case) → salted sha256 of its value (see {@link headerValueHash}). */
  headers: Record<string, string>;
  /** The headers as the config wrote them (`${VAR}` unexpanded), kept when one was expanded, as args are. */
  headersAsWritten?: Record<string, string>;
}

/** The parts of a server's config the fingerprint covers (a `ServerConfig` fits). */
export interface FingerprintInput {
  id: string;
  command: string;
  /** The expanded args, as the child gets them. */
  args: readonly string[];
  /** The args as written (`${VAR}` unexpanded), when they differ; what the store keeps and people are shown. */
  argsAsWritten?: readonly string[] | undefined;
  cwd: string;
  /** The configured env with its real (interpolated) values. */
  env: Readonly<Record<string, string>>;
  inheritEnv?: readonly string[];
  /** Present for a url server: its URL and headers (values expanded; as written beside them when they differ). */
  remote?:
    | {
        url: string;
        headers: Readonly<Record<string, string>>;
        headersAsWritten?: Readonly<Record<string, string>> | undefined;
      }
    | undefined;
  /** Present for a container server; `imageId` filled when the launch was pinned, else read from the engine. */
  container?: ContainerSettings | undefined;
}

export interface FingerprintOptions {
  /** The child's PATH, used to resolve a bare command; default `env.PATH`, then the host's PATH. */
  pathEnv?: string;
}

/** Computes the trust fingerprint of one server's launch and the facts it was computed from. */
export async function computeFingerprint(
  server: FingerprintInput,
  opts: FingerprintOptions = {},
): Promise<{ fingerprint: string; facts: FingerprintFacts }> {
  if (server.remote) return remoteFingerprint(server, server.remote);
  if (server.container) return containerFingerprint(server, server.container);
  const cwd = resolve(server.cwd);
  const pathEnv = opts.pathEnv ?? server.env['PATH'] ?? process.env['PATH'] ?? '';
  const executable = await resolveExecutable(server.command, cwd, pathEnv);
  const env = hashedEnv(server);
  const facts: FingerprintFacts = {
    id: server.id,
    command: server.command,
    executable,
    executableSha256: executable === null ? null : await sha256File(executable),
    args: [...(server.argsAsWritten ?? server.args)],
    cwd,
    env,
    inheritEnv: [...new Set(server.inheritEnv ?? [])].sort(),
    scripts: await scriptFacts(server.command, executable, server.args, cwd, server.argsAsWritten),
  };
  if (server.argsAsWritten !== undefined) facts.argValues = argValuesHash(server.id, server.args);
  return { fingerprint: fingerprintOfFacts(facts), facts };
}

/** Each env name with its value hashed (see {@link envValueHash}), in name order. */
function hashedEnv(server: FingerprintInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of Object.keys(server.env).sort())
    env[name] = envValueHash(server.id, name, server.env[name] ?? '');
  return env;
}

/** A container server's fingerprint: the image by id, the engine and the settings; never a host executable. */
async function containerFingerprint(
  server: FingerprintInput,
  settings: ContainerSettings,
): Promise<{ fingerprint: string; facts: FingerprintFacts }> {
  let imageId = settings.imageId;
  if (imageId === undefined) {
    const found = await resolveImage({ ...settings, pull: 'never' });
    if (!found.ok) throw new Error(describeEngineFailure(found.failure));
    imageId = found.imageId;
  }
  const env = hashedEnv(server);
  const facts: FingerprintFacts = {
    id: server.id,
    command: server.command,
    executable: null,
    executableSha256: null,
    args: [...(server.argsAsWritten ?? server.args)],
    cwd: settings.workdir ?? '',
    env,
    inheritEnv: [...new Set(server.inheritEnv ?? [])].sort(),
    scripts: [],
    container: { ...settings, imageId, mounts: settings.mounts.map((m) => ({ ...m })) },
  };
  if (server.argsAsWritten !== undefined) facts.argValues = argValuesHash(server.id, server.args);
  return { fingerprint: fingerprintOfFacts(facts), facts };
}

/** A url server's fingerprint: never resolves an executable, and holds no header value, only its hash. */
function remoteFingerprint(
  server: FingerprintInput,
  remote: NonNullable<FingerprintInput['remote']>,
): { fingerprint: string; facts: FingerprintFacts } {
  const headers: Record<string, string> = {};
  const byName = new Map(Object.entries(remote.headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const name of [...byName.keys()].sort()) {
    headers[name] = headerValueHash(server.id, name, byName.get(name) ?? '');
  }
  const facts: FingerprintFacts = {
    id: server.id,
    command: '',
    executable: null,
    executableSha256: null,
    args: [],
    cwd: '',
    env: {},
    inheritEnv: [],
    scripts: [],
    remote: {
      url: remote.url,
      headers,
      ...(remote.headersAsWritten ? { headersAsWritten: { ...remote.headersAsWritten } } : {}),
    },
  };
  return { fingerprint: fingerprintOfFacts(facts), facts };
}

/** Hash of one header value as the store keeps it, salted like {@link envValueHash}. */
export function headerValueHash(serverId: string, name: string, value: string): string {
  return sha256Hex(`mcp-supervisor/header\0${serverId}\0${name}\0${value}`);
}

/** The fingerprint (sha256 hex) of a set of facts; the format tag changes if what is hashed ever changes. */
export function fingerprintOfFacts(facts: FingerprintFacts): string {
  return sha256Hex(canonicalJson({ format: 'mcp-supervisor/fingerprint/1', facts }));
}

/**
 * Hash of one env value as the store keeps it. Salted with the server id and the name so that equal secrets
 * do not look equal across entries and no precomputed table applies; a weak value can still be guessed by
 * whoever reads the store, which is why the file is private (0600).
 */
export function envValueHash(serverId: string, name: string, value: string): string {
  return sha256Hex(`mcp-supervisor/env\0${serverId}\0${name}\0${value}`);
}

/** Hash of a server's expanded args as the store keeps it, salted like {@link envValueHash}. */
export function argValuesHash(serverId: string, args: readonly string[]): string {
  return sha256Hex(`mcp-supervisor/args\0${serverId}\0${JSON.stringify(args)}`);
}

/**
 * Files an interpreter runs. Only the first argument (`node server.js`, `python -m`'s target aside) and arguments
 * with a code extension are hashed: a data file the server itself writes (`--pid-file x.json`, `--log out.txt`)
 * must not make its own next launch look changed.
 */
const CODE_EXTENSION =
  /\.(?:[cm]?[jt]sx?|py|pyc|rb|pl|php|sh|bash|zsh|lua|jar|wasm|exs?|dart|swift|kts?|groovy|r)$/i;

async function scriptFacts(
  command: string,
  executable: string | null,
  args: readonly string[],
  cwd: string,
  written: readonly string[] | undefined,
): Promise<ScriptFact[]> {
  const found: Array<{ index: number; path: string }> = [];
  for (const [index, arg] of args.slice(0, SCRIPT_ARGS_CHECKED).entries()) {
    if (arg === '' || (index > 0 && !CODE_EXTENSION.test(arg))) continue;
    const file = await regularFile(resolve(cwd, arg));
    if (file !== null) found.push({ index, path: file.path });
  }
  // Node's own reading of its command line: preloads, and an entry without an extension or given as a directory.
  if (isNodeCommand(command, executable)) {
    for (const f of await nodeCodeFiles(args, cwd)) {
      if (!found.some((s) => s.index === f.index && s.path === f.file))
        found.push({ index: f.index, path: f.file });
    }
  }
  found.sort((a, b) => a.index - b.index);
  const out: ScriptFact[] = [];
  for (const { index, path } of found) {
    const file = await regularFile(path);
    if (file === null) continue;
    const sha256 = file.size > SCRIPT_MAX_BYTES ? null : await sha256File(file.path);
    out.push({ index, arg: written?.[index] ?? args[index] ?? '', path: file.path, sha256 });
  }
  return out;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
