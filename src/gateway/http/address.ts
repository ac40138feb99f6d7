import { isIP } from 'node:net';

/** Where `serve --http` listens. */
export interface HttpAddress {
  /** As given (`127.0.0.1`, `::1`, `localhost`, `0.0.0.0`), brackets removed; 127.0.0.1 when omitted. */
  host: string;
  /** 0 picks a free port. */
  port: number;
}

/** The host `--http :PORT` and `--http PORT` bind: loopback, so nothing outside this machine can reach it. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';

/** Whether only this machine can reach `host`: 127.0.0.0/8, ::1 and the name `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** `host:port` as a URL authority (IPv6 in brackets). */
export function authority(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}
