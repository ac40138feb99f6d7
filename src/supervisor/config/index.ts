// The config loader's public surface.
export { ConfigError } from './config-error.js';
export { loadConfig, type ParseConfigOptions, parseConfig } from './parse-config.js';
export type {
  BackoffConfig,
  LimitConfig,
  RestartPolicyName,
  ServerConfig,
  Strategy,
  SupervisorConfig,
} from './types.js';
export { parseDuration, parseSize, type UnitResult } from './units.js';
