// The curated public API of mcp-supervisor: every export is named here on purpose.

// The live inspector page, for hosts that embed it.
export { type StatechartGraph, toStatechart } from './cli/ui/statechart.js';
export { startUiServer, type UiServer, type UiServerOptions, type UiSource } from './cli/ui/ui-server.js';
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
// Containment: which mechanisms this machine offers, and why a spawn failed.
export {
  availableContainment,
  type ContainmentKind,
  type ContainmentSetting,
} from './process/containment.js';
export { describeSpawnError, type SpawnError } from './process/preflight.js';
// Registry: tool names, scopes, manifests.
export { RegistryError, type RegistryErrorCode } from './registry/errors.js';
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
export { type RegisteredTool, ToolRegistry } from './registry/tool-registry.js';
export { buildChildEnv, DEFAULT_ENV_ALLOWLIST } from './supervisor/child-env.js';
// Supervisor: config, the facade, its events.
export { ConfigError } from './supervisor/config/config-error.js';
export { DEFAULT_SERVER_LIMITS, type ServerLimits } from './supervisor/config/limits.js';
export { loadConfig, type ParseConfigOptions, parseConfig } from './supervisor/config/parse-config.js';
export type { ServerConfig, Strategy, SupervisorConfig } from './supervisor/config/types.js';
export { parseDuration, parseSize } from './supervisor/config/units.js';
export { RemoteError, SupervisorError, type SupervisorErrorCode } from './supervisor/errors.js';
export { exposedName, isValidMcpToolName } from './supervisor/namespace/exposed-name.js';
export { diffTools, type ToolDiff } from './supervisor/namespace/tool-diff.js';
export { installReapHooks, liveGroups, reapAll } from './supervisor/process-ledger.js';
export type { GateVerdict } from './supervisor/runtime-actors.js';
export type { ExitInfo } from './supervisor/server-process.js';
export {
  type CallOpts,
  createSupervisor,
  Supervisor,
  type SupervisorClock,
  type SupervisorLogger,
  type SupervisorOptions,
} from './supervisor/supervisor.js';
export type { CallToolResult } from './supervisor/tool-calls.js';
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
export {
  type CappedToolResult,
  capToolResult,
  type FlattenOptions,
  flattenToolResult,
} from './workers/flatten.js';
// Protocol: framing and flattening.
export { type FrameEvent, LineFramer, type LineFramerOptions } from './workers/line-framer.js';
