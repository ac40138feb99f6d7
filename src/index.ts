// biome-ignore-all assist/source/organizeImports: grouped by what a host needs, not sorted by path
// The public API of mcp-supervisor: what a host needs, each export named here on purpose (no `export *`).
// Everything else under src/ is internal and may change without notice. Groups are separated by a blank line.

// The supervisor: create it from a config, start it, call tools, watch its events.
export {
  type CallOptions,
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
export type { CallToolResult } from './protocol/tool-calls.js';
// Applying a changed config to a running fleet (docs/embedding.md, "Reload").
export type { ReloadAction, ReloadOutcome, ReloadServerResult } from './supervisor/reload/reloader.js';
export { type ConfigDiff, diffConfigs, type ServerChange, type SupervisorKey } from './config/config-diff.js';
export type { ProgressUpdate } from './protocol/pending-requests.js';
// MCP 2026-07-28 on calls: input_required rounds answered by the host, and trace context passed to servers.
export type { InputRetry, TraceContext } from './protocol/call-options.js';
export type { InputRequired } from './framing/result-type.js';
export {
  type InputHandler,
  type InputRequest,
  MAX_INPUT_ROUNDS,
} from './supervisor/input-required/rounds.js';
export type { CacheHint } from './supervisor/runtime/list-hints.js';
export type { InputOptions, PromptInputOptions } from './supervisor/input-required/host-input.js';
export type { ServerIdentity } from './supervisor/runtime/identity.js';
// What servers may ask of the client side (sampling, elicitation, roots), for the servers allowed to (docs/security.md).
export type {
  ClientHandler,
  ClientHandlers,
  Root,
  RootsRequest,
  ServerRequest,
} from './supervisor/runtime/client-side.js';
// Every call's outcome as data: the text, or a failure with a string code (docs/outcomes.md).
export {
  type CallErrorCode,
  type CallFailure,
  type CallOutcome,
  OUTCOME_CODE_META_KEY,
} from './protocol/call-outcome.js';
export type { GateVerdict } from './trust/trust-gate.js';
// Resources across the fleet: listed, read and subscribed to by URI (docs/registry.md, "Resource URIs").
export type {
  FleetResource,
  FleetResourceContents,
  FleetResourceTemplate,
  ResourceErrorCode,
  ResourceFailure,
  ResourceListOutcome,
  ResourceReadOutcome,
  ResourceSubscribeOutcome,
  ResourceTemplatesOutcome,
  ResourceUpdate,
} from './supervisor/resources/outcome.js';
export { parseQualifiedUri, qualifyTemplate, qualifyUri } from './registry/resource-uri.js';
// Prompts, completion and logging across the fleet (docs/mcp-surface.md); failures as data (docs/outcomes.md).
export type { ExposedPrompt } from './registry/exposed-prompt.js';
export type { SurfaceErrorCode, SurfaceFailure, SurfaceOutcome } from './protocol/surface-outcome.js';
export type { CompleteResult, CompletionRef } from './supervisor/prompts/complete.js';
export type { GetPromptResult } from './supervisor/prompts/prompts.js';
export type { TaskMethod, TaskPage } from './supervisor/tasks/tasks.js';
export type { TaskQuestion } from './supervisor/tasks/inputs.js';
export {
  isLogLevel,
  LOG_LEVELS,
  type LogLevel,
  type SetLevelOutcome,
} from './supervisor/prompts/log-level.js';

// Config: load and check a YAML/JSON config, or build one in code with the same shapes and defaults.
export {
  type ConfigReading,
  loadConfig,
  type ParseConfigOptions,
  parseConfig,
  readConfig,
} from './config/parse-config.js';
export type {
  BackoffConfig,
  LimitConfig,
  RestartPolicyName,
  ServerConfig,
  Strategy,
  SupervisorConfig,
} from './config/types.js';
export { DEFAULT_SERVER_LIMITS, type ServerLimits } from './config/limits.js';

// Errors: each carries a string code; located problems name file, line, column and path.
export { ConfigError } from './config/config-error.js';
export { RegistryError, type RegistryErrorCode } from './registry/errors.js';
export { RemoteError, SupervisorError, type SupervisorErrorCode } from './protocol/errors.js';
export { formatProblem, type LocatedProblem } from './registry/located-yaml.js';

// The registry (the plugin-mcp-foundation API): names, manifests, scopes, ToolRegistry.
export {
  isValidBareName,
  isValidServerId,
  parseNamespacedName,
  synthesizeNamespacedName,
} from './registry/naming.js';
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
  type NormalizedMcpTool,
  normalizeMcpToolEntry,
  parseManifest,
} from './registry/manifest.js';
export { checkScopes, type ScopeCheckInput, type ScopeCheckResult, scopeGrants } from './registry/scopes.js';
export { type RegisteredTool, ToolRegistry } from './registry/tool-registry.js';
// The fleet's names for live servers' tools, built on the names above (docs/registry.md).
export { exposedName, exposedNameOwner, isValidMcpToolName } from './registry/exposed-name.js';

// Framing and flattening (the MCP-client API): stdout bytes to messages, tool results to capped text.
export { type FrameEvent, LineFramer, type LineFramerOptions } from './framing/line-framer.js';
export {
  type CappedToolResult,
  capToolResult,
  type FlattenOptions,
  flattenToolResult,
} from './framing/flatten.js';

// Processes: which containment this machine offers, why a spawn failed, and reaping on the host's way out.
export {
  availableContainment,
  type ContainmentKind,
  type ContainmentSetting,
} from './process/containment.js';
export { describeSpawnError, type SpawnError } from './process/preflight.js';
// A url server's failed or lost connection (`lastExit.linkError`), and what holds a server (`remote` for those).
export type { LinkError } from './process/server-process.js';
export type { LinkKind } from './protocol/server-link.js';
export { installReapHooks, liveGroups, reapAll } from './process/ledger.js';
// A state directory another user can write is refused (createSupervisor with `stateDir`, openControl).
export {
  StateDirUnsafeError,
  type StateDirUnsafeReason,
  secureStateDir,
} from './process/state-dir-safety.js';

// Control from another terminal: the control socket, its protocol and handlers, each server's kept logs.
export { type Control, type OpenControlOptions, openControl } from './control/open-control.js';
export {
  type ControlHandler,
  type ControlServer,
  type ControlServerOptions,
  ControlSocketError,
  type FollowAnswer,
  openControlServer,
} from './control/control-server.js';
export { type ControlTarget, controlHandlers } from './control/handlers.js';
export { type ClientResult, request as controlRequest } from './control/client.js';
export {
  type ControlAnswer,
  type ControlErrorCode,
  type ControlRequest,
  type ControlStreamLine,
  CONTROL_PROTOCOL_VERSION,
  type InstanceInfo,
} from './control/protocol.js';
export {
  LOG_ENTRY_OVERHEAD_BYTES,
  type LogEntry,
  type LogSource,
  logEntryBytes,
  ServerLogs,
} from './supervisor/observe/server-logs.js';
export { type ServerStderrLine, STDERR_EVENT_RATE } from './supervisor/observe/stderr-events.js';
export { type TreeUsage, treeUsage } from './process/tree-usage.js';

// The live inspector page, for hosts that embed it; the machines it draws.
export { startUiServer, type UiServer, type UiServerOptions, type UiSource } from './inspector/ui-server.js';
export type { FleetPhase } from './inspector/page-data.js';
export type { CallRecord } from './supervisor/calls/records.js';
export { type StatechartGraph, toStatechart } from './inspector/statechart.js';
export { serverMachine } from './machines/server.machine.js';
export { supervisorMachine } from './machines/supervisor.machine.js';

// The fleet as one MCP server, for hosts that serve it without the CLI (docs/embedding.md, "Serving the fleet").
export {
  createGateway,
  type FleetGateway,
  type ServeOptions,
} from './gateway/create-gateway.js';
export type { Fleet } from './gateway/fleet.js';
export {
  type HttpGateway,
  type HttpServeOptions,
  ListenError,
  serveHttp,
} from './gateway/http/serve-http.js';
export type { BearerVerifier, Caller } from './gateway/http/auth.js';
export type { DrainBounds, DrainPhase } from './gateway/http/drain.js';
export type { HttpAddress } from './gateway/http/address.js';
export { replicaTaskIds, type TaskIdScheme } from './supervisor/tasks/replica-ids.js';
export type { ToolSearchHit } from './search/tool-index.js';

// Metrics and traces (docs/observability.md): a fleet's Prometheus metrics in a registry of their own, and what
// they read of each server; spans go through @opentelemetry/api to whatever SDK the host registers.
export { DEFAULT_CALL_BUCKETS } from './metrics/fleet-counters.js';
export { SERVER_STATES } from './metrics/fleet-gauges.js';
export {
  METRICS_PREFIX,
  type MetricsSource,
  type SupervisorMetrics,
  type SupervisorMetricsOptions,
  supervisorMetrics,
} from './metrics/supervisor-metrics.js';
export type { ServerLoad } from './supervisor/runtime/load.js';
