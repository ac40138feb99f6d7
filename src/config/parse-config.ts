// parseConfig / loadConfig: text → one validated SupervisorConfig, or a ConfigError listing every problem.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { isRecord } from '../framing/is-record.js';
import { type LocatedDocument, type LocatedProblem, parseLocatedYaml } from '../registry/located-yaml.js';
import { mcpToolEntryNameIssues } from '../registry/manifest.js';
import { buildServer } from './build-server.js';
import { ConfigError } from './config-error.js';
import { type Env, interpolateTree } from './interpolate.js';
import { blankJsonComments, isJsonSource } from './jsonc.js';
import { readReason } from './load-manifest.js';
import { ProblemSink } from './problem-sink.js';
import {
  configErrorMap,
  ENV_NAME,
  kindOf,
  McpServersDocumentSchema,
  NativeDocumentSchema,
  ServerSchema,
  ServeSectionSchema,
  SupervisorSectionSchema,
} from './schema.js';
import { assignServerIds } from './server-ids.js';
import { parseSessionKey } from './session-key.js';
import { transportProblems } from './transport-keys.js';

type ParsedServe = Partial<z.output<typeof ServeSectionSchema>>;

import type { ServerConfig, SupervisorConfig } from './types.js';

/** Options of {@link parseConfig}. */
export interface ParseConfigOptions {
  /** The name problems carry (a file path); `<config>` by default. A `.json`/`.jsonc` name allows comments. */
  source?: string;
  /** Where `${VAR}` values (and a container's `DOCKER_HOST`) come from; `process.env` by default. */
  env?: Env;
  /** What relative `cwd`, `manifest` and mount `source` paths are resolved against; `process.cwd()` by default. */
  baseDir?: string;
}

/** Parses config text (YAML or JSON) into a SupervisorConfig with every default filled; throws ConfigError. */
export function parseConfig(text: string, opts: ParseConfigOptions = {}): SupervisorConfig {
  const reading = readConfig(text, opts);
  if (reading.problems.length > 0 || !reading.config) throw new ConfigError(reading.problems);
  return reading.config;
}

/**
 * One reading of a config, whatever it holds: every problem, and the config as far as it could be built (the
 * servers whose entries are valid), so that `check` can go on to look at those servers' launches.
 */
export interface ConfigReading {
  /** Undefined when the text is no usable document (bad YAML, not a mapping). */
  config: SupervisorConfig | undefined;
  /** Where each of `config.servers` stands in the document (`['servers', 'files']`), in the same order. */
  serverPaths: (readonly string[])[];
  /** Every problem, this file's first, then other files' (manifests), each in order of line. */
  problems: LocatedProblem[];
  /** Where a path of the document stands in the text. */
  locate: LocatedDocument['locate'];
}

/** Reads config text like {@link parseConfig}, returning its problems instead of throwing them. */
export function readConfig(text: string, opts: ParseConfigOptions = {}): ConfigReading {
  const source = opts.source ?? '<config>';
  try {
    return parse(text, source, opts.env ?? process.env, resolve(opts.baseDir ?? process.cwd()));
  } catch (err) {
    const failed = { config: undefined, serverPaths: [], locate: () => ({ line: 1, col: 1 }) };
    if (err instanceof ConfigError) return { ...failed, problems: err.problems };
    // Whatever else goes wrong, the caller still gets the one error type it prints (a bug, but a readable one).
    const message = err instanceof Error ? err.message : String(err);
    return {
      ...failed,
      problems: [
        { source, line: 1, col: 1, path: '', message: `internal error while reading the config: ${message}` },
      ],
    };
  }
}

/** Reads and parses a config file; relative paths in it are resolved against the file's directory. */
export async function loadConfig(path: string, opts: { env?: Env } = {}): Promise<SupervisorConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError([
      { source: path, line: 1, col: 1, path: '', message: `cannot read config: ${readReason(err)}` },
    ]);
  }
  const parseOpts: ParseConfigOptions = { source: path, baseDir: dirname(resolve(path)) };
  if (opts.env) parseOpts.env = opts.env;
  return { ...parseConfig(text, parseOpts), file: resolve(path) };
}

function parse(text: string, source: string, env: Env, baseDir: string): ConfigReading {
  const body = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  const doc = readYaml(isJsonSource(source) ? blankJsonComments(body) : body, source);
  // Duplicate keys leave a readable document (see parseLocatedYaml): the rest of the file is checked as well.
  if (doc.value === undefined && doc.problems.length > 0) throw new ConfigError(doc.problems);
  const top = doc.value;
  const fail = (message: string) => new ConfigError([{ source, ...doc.locate([]), path: '', message }]);
  if (top === null || top === undefined)
    throw fail('the config is empty: expected a mapping with a "servers" key');
  if (!isRecord(top)) throw fail(`the top level must be a mapping with a "servers" key, not ${kindOf(top)}`);

  const container = 'mcpServers' in top ? 'mcpServers' : 'servers';
  const rootSchema = container === 'mcpServers' ? McpServersDocumentSchema : NativeDocumentSchema;
  const sink = new ProblemSink(doc, text, source, rootSchema);
  sink.addForeign(doc.problems);
  if (container === 'mcpServers' && 'servers' in top)
    sink.at(['servers'], 'use either "servers" or "mcpServers", not both');
  if (container === 'servers') {
    for (const key of Object.keys(top))
      if (!Object.hasOwn(NativeDocumentSchema.shape, key)) sink.unknownKey([], key);
    if (top['inputs'] !== undefined && !Array.isArray(top['inputs']))
      sink.at(['inputs'], `expected a list, not ${kindOf(top['inputs'])}`);
  }

  // Only the parts we read are interpolated: the rest of a Claude Desktop file is the host app's business.
  const deferred: (string | number)[][] = [];
  const section = (key: string): unknown => {
    const r = interpolateTree(top[key], env, [key], baseDir);
    for (const issue of r.issues) sink.atRef(issue.path, issue.ref, issue.message);
    deferred.push(...r.deferred);
    return r.value;
  };
  const supResult = SupervisorSectionSchema.safeParse(section('supervisor'), { error: configErrorMap });
  if (!supResult.success) sink.zod(supResult.error.issues, ['supervisor']);
  const supervisor = supResult.success ? supResult.data : SupervisorSectionSchema.parse(undefined);
  // `serve.auth` is read by `serve --http` alone: an unset `${GATEWAY_TOKEN}` there is that command's problem,
  // so the same file still serves a stdio client, runs and checks.
  const authSink = new ProblemSink(doc, text, source, rootSchema);
  const serveValue = interpolateTree(top['serve'], env, ['serve'], baseDir);
  for (const issue of serveValue.issues)
    (issue.path[1] === 'auth' ? authSink : sink).atRef(issue.path, issue.ref, issue.message);
  if (authSink.size > 0 && isRecord(serveValue.value)) delete serveValue.value['auth'];
  const serveResult = ServeSectionSchema.safeParse(serveValue.value, { error: configErrorMap });
  if (!serveResult.success) sink.zod(serveResult.error.issues, ['serve']);
  const serve: ParsedServe = serveResult.success ? serveResult.data : {};
  const keyText = serve.sessionKey;
  if (keyText !== undefined && !serveValue.deferred.some((at) => at[1] === 'sessionKey')) {
    const key = parseSessionKey(keyText);
    if (!key.ok) sink.at(['serve', 'sessionKey'], key.message);
  }

  const serversValue = section(container);
  const entries = listServers(serversValue, container, sink);
  const foreignFile = container === 'mcpServers' || 'inputs' in top;
  const { ids, problems } = assignServerIds(
    entries.map(([key, raw]) => ({ key, foreign: foreignFile || (isRecord(raw) && 'type' in raw) })),
    supervisor.separator,
  );
  for (const p of problems) sink.at([container, entries[p.index]![0]], p.message);

  const servers: ServerConfig[] = [];
  const serverPaths: string[][] = [];
  for (const [i, [key, raw]] of entries.entries()) {
    const path = [container, key];
    checkRaw(raw, path, sink, doc.locate);
    const result = ServerSchema.safeParse(raw, { error: configErrorMap });
    const id = ids[i];
    if (!result.success) sink.zod(result.error.issues, path);
    else if (id !== undefined) {
      const ctx = { id, path, baseDir, defaultMaxResultBytes: supervisor.maxResultBytes, env, sink };
      const server = buildServer(result.data, ctx);
      const written = writtenArgs(top[container], key);
      if (written?.some((arg, i) => arg !== server.args[i])) server.argsAsWritten = written;
      const headers = writtenHeaders(top[container], key);
      if (
        server.remote &&
        headers &&
        Object.entries(headers).some(([k, v]) => server.remote?.headers[k] !== v)
      )
        server.remote.headersAsWritten = headers;
      const secrets = secretFields(deferred, path, sink);
      if (secrets.length > 0) server.secretFields = secrets;
      servers.push(server);
      serverPaths.push(path);
    }
  }

  const config: SupervisorConfig = {
    source,
    supervisor: {
      strategy: supervisor.strategy,
      separator: supervisor.separator,
      maxResultBytes: supervisor.maxResultBytes,
      limit: { maxRestarts: supervisor.limit.maxRestarts, windowMs: supervisor.limit.window },
      containment: supervisor.containment,
      logs: supervisor.logs,
    },
    ...serveSection(serve, baseDir, authSink.sorted(), serveSecretPlaces(serveValue.deferred, sink)),
    servers,
  };
  return { config, serverPaths, problems: sink.sorted(), locate: doc.locate };
}

function serveSection(
  serve: ParsedServe,
  baseDir: string,
  authProblems: LocatedProblem[],
  secrets: { tokens: ReadonlySet<number>; sessionKey: boolean },
): Pick<SupervisorConfig, 'serve'> {
  const out: NonNullable<SupervisorConfig['serve']> = {};
  if (authProblems.length > 0) out.authProblems = authProblems;
  if (serve.maxResultBytes !== undefined) out.maxResultBytes = serve.maxResultBytes;
  if (serve.maxSessions !== undefined) out.maxSessions = serve.maxSessions;
  if (serve.maxSessionsPerToken !== undefined) out.maxSessionsPerToken = serve.maxSessionsPerToken;
  if (serve.auth) {
    out.auth = {
      tokens: serve.auth.tokens.map((t, i) => (secrets.tokens.has(i) ? { ...t, secret: true } : t)),
    };
    if (serve.auth.tokensFile !== undefined) out.auth.tokensFile = resolve(baseDir, serve.auth.tokensFile);
  }
  if (serve.sessionKey !== undefined) {
    out.sessionKey = serve.sessionKey;
    if (secrets.sessionKey) out.sessionKeySecret = true;
  }
  if (serve.allowedHosts) out.allowedHosts = serve.allowedHosts;
  if (serve.allowedOrigins) out.allowedOrigins = serve.allowedOrigins;
  if (serve.drain) out.drain = { delayMs: serve.drain.delay, timeoutMs: serve.drain.timeout };
  if (serve.toolSearch) out.toolSearch = { expose: serve.toolSearch === true ? [] : serve.toolSearch.expose };
  return Object.keys(out).length > 0 ? { serve: out } : {};
}

/**
 * Which `serve` values hold a secret read when `serve --http` starts (a token of `serve.auth.tokens`, the
 * `sessionKey`); one elsewhere in `serve` is a problem.
 */
function serveSecretPlaces(
  deferred: readonly (string | number)[][],
  sink: ProblemSink,
): { tokens: Set<number>; sessionKey: boolean } {
  const out = { tokens: new Set<number>(), sessionKey: false };
  for (const at of deferred) {
    if (at.length === 5 && at[1] === 'auth' && at[2] === 'tokens' && at[4] === 'token')
      out.tokens.add(at[3] as number);
    else if (at.length === 2 && at[1] === 'sessionKey') out.sessionKey = true;
    else
      sink.at(
        at,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the message names the reference syntax
        'a ${file:…} or ${keyring:…} secret is read in serve only as a token of serve.auth.tokens or as sessionKey',
        'SECRET_PLACE',
      );
  }
  return out;
}

/** Where a server may name a secret read at its start, as the config writes it → as ServerConfig holds it. */
const SECRET_PLACES: Record<string, (rest: readonly (string | number)[]) => string | undefined> = {
  env: (rest) => (rest.length === 1 ? `env.${rest[0]}` : undefined),
  args: (rest) => (rest.length === 1 ? `args.${rest[0]}` : undefined),
  headers: (rest) => (rest.length === 1 ? `remote.headers.${rest[0]}` : undefined),
  url: (rest) => (rest.length === 0 ? 'remote.url' : undefined),
};

/**
 * The fields of one server that hold start-time text (a `${file:…}` or `${keyring:…}` secret), as paths into its
 * ServerConfig (`env.TOKEN`, `args.2`, `remote.headers.Authorization`); one anywhere else is a located problem.
 */
function secretFields(
  deferred: readonly (string | number)[][],
  server: readonly string[],
  sink: ProblemSink,
): string[] {
  const out: string[] = [];
  for (const at of deferred) {
    if (at.length < 3 || at[0] !== server[0] || at[1] !== server[1]) continue;
    const [key, ...rest] = at.slice(2);
    const field = SECRET_PLACES[String(key)]?.(rest);
    if (field !== undefined) out.push(field);
    else
      sink.at(
        at,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the message names the reference syntax
        'a ${file:…} or ${keyring:…} secret is read only in env, args, headers and url (write the value, or use ${VAR})',
        'SECRET_PLACE',
      );
  }
  return out;
}

/** A url server's headers before interpolation (what the trust store and approval requests show). */
function writtenHeaders(servers: unknown, key: string): Record<string, string> | undefined {
  const entry = isRecord(servers) && Object.hasOwn(servers, key) ? servers[key] : undefined;
  const headers = isRecord(entry) ? entry['headers'] : undefined;
  if (!isRecord(headers)) return undefined;
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
}

/** A server's args before interpolation, each scalar as its text (what the trust store may keep). */
function writtenArgs(servers: unknown, key: string): string[] | undefined {
  const entry = isRecord(servers) && Object.hasOwn(servers, key) ? servers[key] : undefined;
  const args = isRecord(entry) ? entry['args'] : undefined;
  if (!Array.isArray(args) || !args.every((a) => ['string', 'number', 'boolean'].includes(typeof a)))
    return undefined;
  return args.map(String);
}

function readYaml(text: string, source: string): LocatedDocument {
  try {
    return parseLocatedYaml(text, source);
  } catch (err) {
    // The parser itself refuses some documents by throwing (an alias bomb): still a problem of the file.
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new ConfigError([
      { source, line: 1, col: 1, path: '', message: `cannot read the YAML: ${message}` },
    ]);
  }
}

function listServers(value: unknown, container: string, sink: ProblemSink): [string, unknown][] {
  if (value === undefined) {
    sink.at([], `no servers: expected a "${container}" mapping of server id to server`);
    return [];
  }
  if (!isRecord(value)) {
    sink.at([container], `expected a mapping of server id to server, not ${kindOf(value)}`);
    return [];
  }
  const entries = Object.entries(value);
  if (entries.length === 0) sink.at([container], 'no servers configured');
  return entries;
}

/** Checks zod cannot make on the parsed value: env key names, declared tool names and duplicates. */
function checkRaw(
  raw: unknown,
  path: (string | number)[],
  sink: ProblemSink,
  locate: (p: readonly PropertyKey[]) => { line: number },
): void {
  if (!isRecord(raw)) return;
  for (const p of transportProblems(raw)) sink.at([...path, p.key], p.message);
  const env = raw['env'];
  if (isRecord(env)) {
    for (const key of Object.keys(env)) {
      if (!ENV_NAME.test(key) || key === '__proto__') {
        sink.at([...path, 'env', key], `not an environment variable name: ${JSON.stringify(key)}`);
      }
    }
  }
  const base = [...path, 'tools'];
  for (const issue of mcpToolEntryNameIssues(raw['tools'])) {
    const first = issue.firstPath
      ? ` (first declared at line ${locate([...base, ...issue.firstPath]).line})`
      : '';
    sink.at([...base, ...issue.path], issue.message + first);
  }
}
