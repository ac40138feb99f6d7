import { isIP } from 'node:net';
import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../../config/units.js';

/** Where `serve --http` listens. */
export interface HttpAddress {
  /** As given (`127.0.0.1`, `::1`, `localhost`, `0.0.0.0`), brackets removed; 127.0.0.1 when omitted. */
  host: string;
  /** 0 picks a free port. */
  port: number;
}

/** The host `--http :PORT` and `--http PORT` bind: loopback, so nothing outside this machine can reach it. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';

/**
 * Commander parser of `--http`: `HOST:PORT`, `[IPv6]:PORT`, `:PORT` or `PORT` (the last two bind 127.0.0.1).
 */
export function parseHttpAddress(value: string): HttpAddress {
  const m = /^(?:(\[[^\]]+\]|[^:[\]]*):)?(\d+)$/.exec(value.trim());
  const port = Number(m?.[2]);
  if (!m || port > 65_535)
    throw new InvalidArgumentError('expected HOST:PORT, :PORT or PORT (port 0-65535; 0 picks one)');
  const raw = m[1] ?? '';
  const host = raw.startsWith('[') ? raw.slice(1, -1) : raw;
  if (host === '') return { host: DEFAULT_HTTP_HOST, port };
  if (raw.startsWith('[') && isIP(host) !== 6)
    throw new InvalidArgumentError(`'${host}' is not an IPv6 address`);
  if (!isIP(host) && !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(host))
    throw new InvalidArgumentError(`'${host}' is not a host name or address`);
  return { host, port };
}

/** Whether only this machine can reach `host`: 127.0.0.0/8, ::1 and the name `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** `host:port` as a URL authority (IPv6 in brackets). */
export function authority(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/** Commander parser of `--session-idle`: a duration (`90s`, `30m`, ms), 0 for never. */
export function parseIdle(value: string): number {
  const parsed = parseDuration(value);
  if (!parsed.ok) throw new InvalidArgumentError(parsed.message);
  return parsed.value;
}

/** Commander parser of `--max-sessions`: a whole number, at least 1. */
export function parseMaxSessions(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError('expected a whole number, at least 1');
  return n;
}
