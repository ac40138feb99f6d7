// From a validated server entry to the runtime's ServerConfig: ms/bytes fields, absolute paths, the manifest's
// tools and scopes merged in.
import { isAbsolute, resolve } from 'node:path';
import { type NormalizedMcpTool, normalizeMcpToolEntry } from '../registry/manifest.js';
import { buildContainer } from './build-container.js';
import type { Env } from './interpolate.js';
import { loadManifestSync } from './load-manifest.js';
import type { ProblemSink } from './problem-sink.js';
import type { ParsedServer } from './schema.js';
import type { ServerConfig } from './types.js';

/** Where a server entry stands and what it inherits. */
export interface BuildContext {
  id: string;
  /** The entry's path in the document (`['servers', 'files']`), for locating manifest read errors. */
  path: readonly (string | number)[];
  baseDir: string;
  defaultMaxResultBytes: number;
  /** The environment the config is read in: where a container's engine is looked up (`DOCKER_HOST`). */
  env: Env;
  sink: ProblemSink;
}

/** Builds one ServerConfig; manifest problems go to the sink (the result is then not used). */
export function buildServer(parsed: ParsedServer, ctx: BuildContext): ServerConfig {
  const { restart, timeouts, health } = parsed;
  const server: ServerConfig = {
    id: ctx.id,
    command: parsed.command ?? '',
    args: parsed.args,
    // A container's `cwd:` is a path inside it (container.workdir); the host side keeps the config's directory.
    cwd: parsed.cwd === undefined || parsed.container ? ctx.baseDir : absolute(parsed.cwd, ctx.baseDir),
    env: parsed.env,
    inheritEnv: parsed.inheritEnv,
    disabled: parsed.disabled,
    restart: {
      policy: restart.policy,
      backoff: {
        initialMs: restart.backoff.initial,
        multiplier: restart.backoff.multiplier,
        maxMs: restart.backoff.max,
        jitter: restart.backoff.jitter,
        resetAfterMs: restart.backoff.resetAfter,
      },
      limit: { maxRestarts: restart.limit.maxRestarts, windowMs: restart.limit.window },
    },
    timeouts: { startupMs: timeouts.startup, callMs: timeouts.call, shutdownMs: timeouts.shutdown },
    health: {
      intervalMs: health.interval,
      timeoutMs: health.timeout,
      failureThreshold: health.failureThreshold,
    },
    maxResultBytes: parsed.maxResultBytes ?? ctx.defaultMaxResultBytes,
    limits: {
      queueBytes: parsed.limits.queue,
      requestRate: parsed.limits.requests.rate,
      requestBurst: parsed.limits.requests.burst,
      listBytes: parsed.limits.listing.bytes,
      listPages: parsed.limits.listing.pages,
    },
    scopesRequired: unique(parsed.scopes_required),
    tools: mergeTools(parsed.tools.map(normalizeMcpToolEntry)),
  };
  if (parsed.url !== undefined) server.remote = { url: parsed.url, headers: parsed.headers ?? {} };
  if (parsed.container) {
    const at = { path: [...ctx.path, 'container'], baseDir: ctx.baseDir, env: ctx.env, sink: ctx.sink };
    server.container = buildContainer(parsed.container, parsed.cwd, at);
  }
  if (!parsed.namespace) server.namespace = false;
  if (parsed.protocol !== 'auto') server.protocol = parsed.protocol;
  if (parsed.roots !== undefined) server.roots = parsed.roots;
  if (parsed.allow.length > 0) server.allow = [...new Set(parsed.allow)];
  if (parsed.manifest !== undefined) {
    const file = absolute(parsed.manifest, ctx.baseDir);
    server.manifest = file;
    const load = loadManifestSync(file);
    if (load.ok) {
      const { mcp_tools, scopes_required } = load.manifest.provides;
      server.scopesRequired = unique([...server.scopesRequired, ...scopes_required]);
      server.tools = mergeTools([...mcp_tools.map(normalizeMcpToolEntry), ...server.tools]);
    } else if ('readError' in load) {
      ctx.sink.at([...ctx.path, 'manifest'], load.readError, 'MANIFEST_UNREADABLE');
    } else {
      ctx.sink.addForeign(load.problems.map((p) => ({ ...p, code: 'MANIFEST_INVALID' })));
    }
  }
  return server;
}

function absolute(path: string, baseDir: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(baseDir, path);
}

/** Later entries replace earlier ones of the same name, in the earlier one's place. */
function mergeTools(tools: readonly NormalizedMcpTool[]): NormalizedMcpTool[] {
  const out: NormalizedMcpTool[] = [];
  const at = new Map<string, number>();
  for (const tool of tools) {
    const i = at.get(tool.name);
    if (i === undefined) {
      at.set(tool.name, out.length);
      out.push(tool);
    } else {
      out[i] = tool;
    }
  }
  return out;
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
