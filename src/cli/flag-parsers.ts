import { isIP } from 'node:net';
import { InvalidArgumentError } from 'commander';
import { MIN_RESULT_BYTES } from '../config/schema.js';
import { parseDuration, parseSize } from '../config/units.js';
import { DEFAULT_HTTP_HOST, type HttpAddress } from '../gateway/http/address.js';

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

/** Commander parser of `--max-result-bytes`: a size as the config writes one (`1MiB`, `65536`). */
export function parseResultCap(value: string): number {
  const size = parseSize(value);
  if (!size.ok) throw new InvalidArgumentError(size.message);
  if (size.value < MIN_RESULT_BYTES)
    throw new InvalidArgumentError(`must be at least ${MIN_RESULT_BYTES} bytes`);
  return size.value;
}
