// The curated public API of mcp-supervisor: every export is named here on purpose.

// Supervisor: config, the facade, its events.
export { ConfigError } from './config/config-error.js';
export { DEFAULT_SERVER_LIMITS, type ServerLimits } from './config/limits.js';
export { loadConfig, type ParseConfigOptions, parseConfig } from './config/parse-config.js';
export type { ServerConfig, Strategy, SupervisorConfig } from './config/types.js';
export { parseDuration, parseSize } from './config/units.js';
export {
  type CappedToolResult,
  capToolResult,
  type FlattenOptions,
  flattenToolResult,
} from './framing/flatten.js';
// Protocol: framing and flattening.
export { type FrameEvent, LineFramer, type LineFramerOptions } from './framing/line-framer.js';
// The live inspector page, for hosts that embed it.
export { type StatechartGraph, toStatechart } from './inspector/statechart.js';
export { startUiServer, type UiServer, type UiServerOptions, type UiSource } from './inspector/ui-server.js';
// Restart policy math.
export {
  type BackoffConfig,
  type ExitFacts,
  isFailure,
  type LimitConfig,
  RestartPolicyError,
  type RestartPolicyName,
  type RestartStrategyName,
  restartDelay,
  shouldRestart,
} from './machines/restart-policy.js';
export { serverMachine } from './machines/server.machine.js';
export { supervisorMachine } from './machines/supervisor.machine.js';
export { buildChildEnv, DEFAULT_ENV_ALLOWLIST } from './process/child-env.js';
// Containment: which mechanisms this machine offers, and why a spawn failed.
export {
  availableContainment,
  type ContainmentKind,
  type ContainmentSetting,
} from './process/containment.js';
export { installReapHooks, liveGroups, reapAll } from './process/ledger.js';
export { describeSpawnError, type SpawnError } from './process/preflight.js';
export type { ExitInfo } from './process/server-process.js';
export { RemoteError, SupervisorError, type SupervisorErrorCode } from './protocol/errors.js';
export type { CallToolResult } from './protocol/tool-calls.js';
// Registry: tool names, scopes, manifests.
export { RegistryError, type RegistryErrorCode } from './registry/errors.js';
export { exposedName, isValidMcpToolName } from './registry/exposed-name.js';
export { formatProblem, type LocatedProblem } from './registry/located-yaml.js';
export {
  type ExtendedMcpTool,
  ExtendedMcpToolSchema,
  loadManifest,
  type Manifest,
  type ManifestProvides,
  ManifestProvidesSchema,
  ManifestSchema,
  type McpToolEntry,
  McpToolEntrySchema,
  mcpToolEntryNameIssues,
  type NormalizedMcpTool,
  normalizeMcpToolEntry,
  parseManifest,
  type ToolEntryNameIssue,
} from './registry/manifest.js';
export {
  isValidBareName,
  isValidServerId,
  parseNamespacedName,
  synthesizeNamespacedName,
} from './registry/naming.js';
export { checkScopes, type ScopeCheckInput, type ScopeCheckResult, scopeGrants } from './registry/scopes.js';
export { diffTools, type ToolDiff } from './registry/tool-diff.js';
export { type RegisteredTool, ToolRegistry } from './registry/tool-registry.js';
export type { GateVerdict } from './supervisor/runtime-actors.js';
export {
  type CallOptions,
  /** @deprecated the same type as {@link CallOptions}, under its first name. */
  type CallOptions as CallOpts,
  createSupervisor,
  Supervisor,
  type SupervisorClock,
  type SupervisorLogger,
  type SupervisorOptions,
} from './supervisor/supervisor.js';
export type {
  ApprovalRequest,
  ControlOutcome,
  ExposedTool,
  LastExit,
  NoticeCode,
  ServerState,
  ServerStatus,
  SupervisorEvent,
} from './supervisor/types.js';
