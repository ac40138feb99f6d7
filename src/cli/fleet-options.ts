import { InvalidArgumentError } from 'commander';
import type { LogFormat } from './output/logfmt.js';

/** The flags `run`, `serve` and `call` share. */
export interface FleetFlags {
  trust: string[];
  trustAll?: boolean;
  store?: string;
  stateDir?: string;
  logFormat: LogFormat;
}

/** The env var that points every command at another trust store (tests, CI, per-project stores). */
export const STORE_ENV = 'MCP_SUPERVISOR_TRUST_STORE';

/** Commander collector for a repeatable `--trust <id>` that also takes `a,b`. */
export function collectIds(value: string, previous: string[]): string[] {
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) throw new InvalidArgumentError('expected a server id');
  return [...previous, ...ids];
}

/** Commander collector for a repeatable `--scopes a,b`: the scopes of the caller a command acts for. */
export function collectScopes(value: string, previous: string[]): string[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (scopes.length === 0 || scopes.some((s) => /\s/.test(s)))
    throw new InvalidArgumentError('expected scopes separated by commas, like mcp.read.files,mcp.write.*');
  return [...new Set([...previous, ...scopes])];
}

/** Commander parser of a TCP port (0 picks a free one). */
export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65_535) throw new InvalidArgumentError('expected a port number 0-65535');
  return n;
}

/** Commander parser of `--log-format`. */
export function parseLogFormat(value: string): LogFormat {
  if (value !== 'logfmt' && value !== 'json') throw new InvalidArgumentError("expected 'logfmt' or 'json'");
  return value;
}
