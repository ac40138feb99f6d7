import type { ContainerSettings } from '../container/settings.js';
import type {
  BackoffConfig,
  LimitConfig,
  RestartPolicyName,
  RestartStrategyName,
} from '../machines/restart-policy.js';
import type { ContainmentSetting } from '../process/containment.js';
import type { LocatedProblem } from '../registry/located-yaml.js';
import type { NormalizedMcpTool } from '../registry/manifest.js';
import type { ServerLimits } from './limits.js';
import type { PinnedProtocol } from './protocol-setting.js';

export type { BackoffConfig, LimitConfig, RestartPolicyName, ServerLimits };

/** How the supervisor's children are restarted together (OTP strategies). */
export type Strategy = RestartStrategyName;

/** A server reached over Streamable HTTP instead of spawned: its endpoint and the headers sent with each request. */
export interface RemoteEndpoint {
  url: string;
  /** Interpolated values (`${TOKEN}` expanded). */
  headers: Record<string, string>;
  /** `headers` as written, `${VAR}` unexpanded; present only when one was expanded (as `argsAsWritten`). */
  headersAsWritten?: Record<string, string>;
}

/** How much of each server's stderr and log messages is kept: a ring of `ring` bytes, and files when `files` is set. */
export interface ServerLogsConfig {
  ring: number;
  files?: { keep: number; size: number } | undefined;
}

/** One supervised server with every default filled, durations in ms and sizes in bytes. */
export interface ServerConfig {
  /** `[a-z][a-z0-9_-]*`; ids of Claude Desktop / VS Code files are normalized into this form. */
  id: string;
  /**
   * The program to run; empty for a `remote` server. With a `container`, the program inside it, and empty for the
   * image's own entrypoint and command.
   */
  command: string;
  args: string[];
  /**
   * `args` as the config wrote them, `${VAR}` references unexpanded; present only when one was expanded. The trust
   * store keeps this form, so a secret that arrives through the environment is never written down.
   */
  argsAsWritten?: string[];
  /**
   * Absolute; defaults to the config file's directory (the base directory for inline text). With a `container`
   * it stays that directory, unused by the launch: the `cwd:` written is the working directory inside
   * (`container.workdir`).
   */
  cwd: string;
  /**
   * Interpolated values, passed to the child on top of the allowlist and `inheritEnv`. Into a container only
   * these and `inheritEnv` go, never the host's allowlist (the image keeps its own PATH and HOME).
   */
  env: Record<string, string>;
  inheritEnv: string[];
  disabled: boolean;
  restart: { policy: RestartPolicyName; backoff: BackoffConfig; limit: LimitConfig };
  timeouts: { startupMs: number; callMs: number; shutdownMs: number };
  /** `intervalMs` 0 turns health pings off. */
  health: { intervalMs: number; timeoutMs: number; failureThreshold: number };
  maxResultBytes: number;
  /** What the server may cost the host by talking (queue, request rate, listing size). */
  limits: ServerLimits;
  /** Absolute path of the plugin manifest, when one is configured. */
  manifest?: string;
  /** Plugin-wide scopes: the server's `scopes_required`, then the manifest's, deduplicated. */
  scopesRequired: string[];
  /** Declared tools: the manifest's `provides.mcp_tools`, then `tools:`; a later entry replaces an earlier one. */
  tools: NormalizedMcpTool[];
  /**
   * `file://` URIs answered to `roots/list`; `client`: the host's roots (in `serve`, the front client's) and their
   * `list_changed`; absent means `roots/list` is refused.
   */
  roots?: string[] | 'client';
  /** Server→client requests it may make (sampling, elicitation); absent or empty: all refused. */
  allow?: ServerRequestKind[];
  /** Present for a `url:` server: it is connected to, not spawned (`command`, `args`, `cwd`, `env` are unused). */
  remote?: RemoteEndpoint;
  /**
   * The fields that hold a `${file:…}` or `${keyring:…}` secret, kept as start-time text and read only when the
   * server starts (`env.TOKEN`, `args.2`, `remote.headers.Authorization`, `remote.url`); the config never holds
   * the value.
   */
  secretFields?: string[];
  /** Present for a server run in a container (`command` may then be empty: the image's entrypoint runs). */
  container?: ContainerSettings;
  /** `false`: its tools, prompts and resources are exposed under their own names; absent means namespaced. */
  namespace?: false;
  /** A pinned MCP era (`2025-11-25` or `2026-07-28`); absent means `auto`. */
  protocol?: PinnedProtocol;
}

/** A bearer token `serve --http` accepts and the scopes its caller gets. */
export interface ServeToken {
  /** The token, or (with `secret`) start-time text naming where it is kept. */
  token: string;
  scopes: string[];
  /** `token` names a `${file:…}` or `${keyring:…}` secret, read when `serve --http` starts. */
  secret?: true;
}

/** A server→client request a server may be allowed (`allow:`). */
export type ServerRequestKind = 'sampling' | 'elicitation';

/** A whole validated config. */
export interface SupervisorConfig {
  /** The file path, or the source name given for inline text. */
  source: string;
  /**
   * The config file's absolute path, when it was read from one (`loadConfig`): approvals in the trust store are
   * kept per file and server id, so another project's server of the same id is asked about on its own.
   */
  file?: string;
  supervisor: {
    strategy: Strategy;
    separator: string;
    maxResultBytes: number;
    limit: LimitConfig;
    /** How servers are contained (`auto`: cgroup, else pid namespace, else process group); absent means `auto`. */
    containment?: ContainmentSetting;
    /** Per server: the bytes of stderr and log messages kept for `logs`, and size-rotated files (`keep` of `size`). */
    logs?: ServerLogsConfig;
  };
  /** The `serve:` section; absent in a config built by hand. */
  serve?: {
    /** The cap on every tool result `serve` sends; `--max-result-bytes` wins over it. */
    maxResultBytes?: number;
    /** How many `serve --http` sessions and 2026 listen streams may be open at once; `--max-sessions` wins over it. */
    maxSessions?: number;
    /** How many of those one credential may hold at once; absent: no bound below `maxSessions`. */
    maxSessionsPerToken?: number;
    /** Who may call `serve --http`; absent: no auth, which only a loopback address allows. */
    auth?: { tokens: ServeToken[] /** Absolute path. */; tokensFile?: string };
    /**
     * Why `serve.auth` could not be read (an unset `${VAR}`): only `serve --http` reads it, so only it fails on
     * them; everything else runs the file as if `serve.auth` were absent.
     */
    authProblems?: LocatedProblem[];
    /** The session key as written (start-time text when `sessionKeySecret`), checked by `serve --http`. */
    sessionKey?: string;
    /** `sessionKey` names a `${file:…}` or `${keyring:…}` secret, read when `serve --http` starts. */
    sessionKeySecret?: true;
    /** Hosts and origins `serve --http` accepts besides its own loopback address. */
    allowedHosts?: string[];
    allowedOrigins?: string[];
    /**
     * `serve --http` on SIGTERM: how long it keeps serving once `/readyz` says 503 (a load balancer takes that long
     * to notice), then how long requests in flight get before they are cut. Absent: 5 s and 30 s.
     */
    drain?: { delayMs: number; timeoutMs: number };
    /** Tool search: `tools/list` shows `search_tools`, `call_tool` and the tools named in `expose` (`--tool-search`). */
    toolSearch?: { expose: string[] };
  };
  /** In file order. */
  servers: ServerConfig[];
}
