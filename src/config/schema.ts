// The zod schemas of a config as written (YAML keys; how one value is read: value-schemas.ts). Every default is
// filled here; build-server.ts turns the result into the runtime's shape (ms / bytes fields, absolute paths,
// merged tools).
import { z } from 'zod';
import { McpToolEntrySchema } from '../registry/manifest.js';
import { ContainerSchema } from './container-schema.js';
import { DEFAULT_SERVER_LIMITS as LIMITS, MIN_LIST_BYTES, MIN_QUEUE_BYTES } from './limits.js';
import { PROTOCOL_SETTINGS } from './protocol-setting.js';
import {
  booleanLike,
  count,
  duration,
  enumOf,
  envMap,
  envName,
  fileUri,
  httpUrl,
  kindOf,
  launchText,
  nonEmpty,
  numberLike,
  scalarString,
  scope,
  size,
} from './value-schemas.js';

// Read by importers of this file, which has always offered them.
export { configErrorMap, duration, ENV_NAME, kindOf, NUL_MESSAGE, size } from './value-schemas.js';

/** Separators a namespaced tool name may use: both keep names inside MCP's `[A-Za-z0-9_.-]` charset. */
export const ALLOWED_SEPARATORS = ['.', '__'] as const;

/**
 * The smallest result cap: below it a capped failure could lose its `ERROR: ` prefix to the truncation marker,
 * and `ERROR: ` is the only failure signal in callTool's string (callToolOutcome has the code as data).
 */
export const MIN_RESULT_BYTES = 256;

/** What a server may be allowed to ask the client (`allow:`); anything else it asks is refused. */
export const SERVER_REQUEST_KINDS = ['sampling', 'elicitation'] as const;

// A union's own message would say only "invalid input"; a list with one bad URI still reports at that item.
function rootsError(issue: { input?: unknown }): string {
  return typeof issue.input === 'string'
    ? `expected 'client' or a list of file:// URIs, received ${JSON.stringify(issue.input)}`
    : `expected 'client' or a list of file:// URIs, received ${kindOf(issue.input)}`;
}

const limit = (maxRestarts: number) =>
  z.strictObject({ maxRestarts: count(0).default(maxRestarts), window: duration(60_000) }).prefault({});

const BackoffSchema = z
  .strictObject({
    initial: duration(1000),
    multiplier: numberLike(z.number().min(1, 'must be at least 1')).default(2),
    max: duration(30_000),
    jitter: numberLike(
      z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1'),
    ).default(0.2),
    resetAfter: duration(60_000),
  })
  .refine((b) => b.max >= b.initial, { path: ['max'], message: 'must not be less than initial' })
  .prefault({});

const RestartSchema = z
  .preprocess(
    // `restart: always` is shorthand for `restart: { policy: always }` (as in docker-compose).
    (v) => (typeof v === 'string' ? { policy: v } : v),
    z.strictObject({
      policy: enumOf(['always', 'on-failure', 'never']).default('on-failure'),
      backoff: BackoffSchema,
      limit: limit(5),
    }),
  )
  .prefault({});

/** `type:` spellings of Streamable HTTP in other tools' files (Claude Code and VS Code `http`, others camel case). */
export const HTTP_TYPES = ['http', 'streamable-http', 'streamableHttp', 'streamable_http'] as const;

const TypeSchema = z.unknown().transform((v, ctx): 'stdio' | 'http' | undefined => {
  if (v === undefined || v === 'stdio') return v;
  if ((HTTP_TYPES as readonly unknown[]).includes(v)) return 'http';
  const what = typeof v === 'string' ? JSON.stringify(v) : kindOf(v);
  ctx.addIssue({
    code: 'custom',
    message:
      v === 'sse'
        ? 'the legacy HTTP+SSE transport (type "sse") is not supported: use the Streamable HTTP endpoint (type http)'
        : `expected stdio or http, received ${what}`,
  });
  return z.NEVER;
});

const LimitsSchema = z
  .strictObject({
    queue: size(MIN_QUEUE_BYTES).default(LIMITS.queueBytes),
    requests: z
      .strictObject({
        rate: numberLike(z.number().positive('must be more than 0')).default(LIMITS.requestRate),
        burst: count(1).default(LIMITS.requestBurst),
      })
      .prefault({}),
    listing: z
      .strictObject({
        bytes: size(MIN_LIST_BYTES).default(LIMITS.listBytes),
        pages: count(1).default(LIMITS.listPages),
      })
      .prefault({}),
  })
  .prefault({});

/** One server as written; the same keys are accepted in `servers:` and in the `mcpServers` shape. */
export const ServerSchema = z.strictObject({
  type: TypeSchema.optional(),
  command: launchText(nonEmpty).optional(),
  /** A Streamable HTTP server, supervised by reconnecting instead of respawning. */
  url: httpUrl.optional(),
  /** Sent with every HTTP request to a `url` server (`Authorization: Bearer ${TOKEN}`). */
  headers: z.record(z.string(), scalarString).optional(),
  /** Run in a container through a Docker-compatible engine; `command` is then optional (the image's own). */
  container: ContainerSchema.optional(),
  args: z.array(launchText(scalarString)).default([]),
  cwd: launchText(nonEmpty).optional(),
  env: envMap.default({}),
  inheritEnv: z.array(envName).default([]),
  disabled: booleanLike.default(false),
  restart: RestartSchema,
  timeouts: z
    .strictObject({ startup: duration(30_000), call: duration(60_000), shutdown: duration(5000) })
    .prefault({}),
  health: z
    .strictObject({
      interval: duration(30_000),
      timeout: duration(5000),
      failureThreshold: count(1).default(3),
    })
    .prefault({}),
  maxResultBytes: size(MIN_RESULT_BYTES).optional(),
  manifest: nonEmpty.optional(),
  scopes_required: z.array(scope).default([]),
  tools: z.array(McpToolEntrySchema).default([]),
  roots: z.union([z.literal('client'), z.array(fileUri)], { error: rootsError }).optional(),
  allow: z.array(enumOf(SERVER_REQUEST_KINDS)).default([]),
  limits: LimitsSchema,
  /** `false`: the server's tools, prompts and resources keep their own names (no `id.` prefix). */
  namespace: booleanLike.default(true),
  /** The MCP era spoken to it: `auto` asks with `server/discover` first and falls back to `initialize`. */
  protocol: z
    .preprocess(
      // A YAML date (an unquoted 2026-07-28) reads as the version it spells.
      (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v),
      enumOf(PROTOCOL_SETTINGS),
    )
    .default('auto'),
});

/** The `supervisor:` section. */
export const SupervisorSectionSchema = z
  .strictObject({
    strategy: enumOf(['one_for_one', 'one_for_all', 'rest_for_one']).default('one_for_one'),
    separator: z
      .string()
      .refine((s) => (ALLOWED_SEPARATORS as readonly string[]).includes(s), {
        message: `expected one of: ${ALLOWED_SEPARATORS.map((s) => JSON.stringify(s)).join(', ')}`,
      })
      .default('.'),
    maxResultBytes: size(MIN_RESULT_BYTES).default(65_536),
    limit: limit(20),
    containment: enumOf(['auto', 'cgroup', 'pidns', 'pgroup']).default('auto'),
    /** Each server's stderr and log messages: the ring `logs` reads, and optional size-rotated files. */
    logs: z
      .strictObject({
        ring: size(1024).default(1024 * 1024),
        files: z
          .strictObject({
            keep: numberLike(
              z
                .number()
                .int('must be a whole number')
                .min(1, 'must be at least 1')
                .max(100, 'must be at most 100'),
            ),
            size: size(1024),
          })
          .optional(),
      })
      .prefault({}),
  })
  .prefault({});

/** A bearer token `serve --http` accepts, and the scopes its caller gets. */
const TokenSchema = z.strictObject({
  token: z.string().min(16, 'a token must be at least 16 characters'),
  scopes: z.array(scope).default([]),
});

/** The `serve:` section: what the gateway does as a whole (its `--max-result-bytes` flag wins over this). */
export const ServeSectionSchema = z
  .strictObject({
    maxResultBytes: size(MIN_RESULT_BYTES).optional(),
    /** How many `serve --http` sessions and 2026 listen streams may be open at once; `--max-sessions` wins over it. */
    maxSessions: count(1).optional(),
    /** How many of those one credential may hold at once (a bearer token; without auth, everyone is one). */
    maxSessionsPerToken: count(1).optional(),
    /** Who may call `serve --http`: bearer tokens here, or in a file (one `token scope scope…` per line). */
    auth: z
      .strictObject({
        tokens: z.array(TokenSchema).default([]),
        tokensFile: nonEmpty.optional(),
      })
      .optional(),
    /**
     * 32 random bytes (64 hex digits or base64) that seal session ids, so any `serve --http` replica with the same
     * key answers any session; `"${file:…}"` or `"${env:…}"`, never the bytes themselves in a shared file.
     */
    sessionKey: nonEmpty.optional(),
    /** Host names (with port, or any port) and origins `serve --http` accepts besides loopback. */
    allowedHosts: z.array(nonEmpty).optional(),
    allowedOrigins: z.array(nonEmpty).optional(),
    /** What `serve --http` does on SIGTERM: keep serving for `delay`, then give requests in flight `timeout`. */
    drain: z.strictObject({ delay: duration(5000), timeout: duration(30_000) }).optional(),
    /** `search_tools` and `call_tool` instead of every tool in `tools/list`; `expose` keeps those named in view. */
    toolSearch: z.union([z.boolean(), z.strictObject({ expose: z.array(nonEmpty).default([]) })]).optional(),
  })
  .prefault({});

export type ParsedServer = z.output<typeof ServerSchema>;
export type ParsedSupervisorSection = z.output<typeof SupervisorSectionSchema>;

/** The whole document in our shape (VS Code's mcp.json is this shape too, with `inputs`). */
export const NativeDocumentSchema = z.strictObject({
  supervisor: SupervisorSectionSchema,
  serve: ServeSectionSchema,
  servers: z.record(z.string(), ServerSchema),
  inputs: z.array(z.unknown()).optional(),
});

/** A Claude Desktop style document: `mcpServers`; other top-level keys belong to the host app and are ignored. */
export const McpServersDocumentSchema = z.looseObject({
  supervisor: SupervisorSectionSchema,
  serve: ServeSectionSchema,
  mcpServers: z.record(z.string(), ServerSchema),
});
