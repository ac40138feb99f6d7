import type { IncomingHttpHeaders } from 'node:http';
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import { authority, isLoopback } from './address.js';

/** Which `Host` and `Origin` headers `serve --http` answers; anything else is DNS rebinding or a foreign page. */
export interface HostGuard {
  /** `host:port`, lower case: exact matches. */
  readonly hosts: ReadonlySet<string>;
  /** Host names accepted on any port (`serve.allowedHosts` entries written without a port). */
  readonly anyPort: ReadonlySet<string>;
  /** Serialized origins (`http://127.0.0.1:8080`). */
  readonly origins: ReadonlySet<string>;
}

export type GuardVerdict =
  | { ok: true }
  | { ok: false; code: 'HOST_NOT_ALLOWED' | 'ORIGIN_NOT_ALLOWED'; message: string };

/**
 * The allowlist of a listener bound to `host`:`port`: that authority, every loopback name of the port when the
 * host is loopback, every address of this machine when it is `0.0.0.0` or `::`, and the config's `allowedHosts` (`name` for any port, `name:port` for one). Origins: the same
 * loopback authorities over http, and the config's `allowedOrigins`.
 */
export function hostGuard(
  host: string,
  port: number,
  extra: { allowedHosts?: readonly string[]; allowedOrigins?: readonly string[] } = {},
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): HostGuard {
  const own = [authority(host, port)];
  if (isLoopback(host)) own.push(...['127.0.0.1', 'localhost', '::1'].map((h) => authority(h, port)));
  // Bound to every interface: each of this machine's addresses is the listener too. An IP literal in Host is no
  // rebinding risk (the attack needs a name of the attacker's); other names go in `allowedHosts`.
  if (host === '0.0.0.0' || host === '::') {
    own.push(authority('localhost', port));
    for (const address of Object.values(interfaces).flat())
      if (address && (host === '::' || address.family === 'IPv4')) own.push(authority(address.address, port));
  }
  const hosts = new Set(own.map((a) => a.toLowerCase()));
  const anyPort = new Set<string>();
  for (const entry of extra.allowedHosts ?? []) {
    const { name, port: p } = splitHost(entry.toLowerCase());
    if (p === undefined) anyPort.add(name);
    else hosts.add(`${name}:${p}`);
  }
  const origins = new Set(own.map((a) => `http://${a.toLowerCase()}`));
  for (const o of extra.allowedOrigins ?? []) origins.add(normalOrigin(o) ?? o.toLowerCase());
  return { hosts, anyPort, origins };
}

/** Checks a request's `Host` (required) and `Origin` (when sent) against the allowlist. */
export function checkHeaders(headers: IncomingHttpHeaders, guard: HostGuard): GuardVerdict {
  const host = headers.host?.toLowerCase() ?? '';
  const { name, port } = splitHost(host);
  const hostOk = host !== '' && (guard.hosts.has(`${name}:${port ?? 80}`) || guard.anyPort.has(name));
  if (!hostOk) return { ok: false, code: 'HOST_NOT_ALLOWED', message: `Host '${host}' is not allowed` };
  const origin = headers.origin;
  if (origin === undefined) return { ok: true };
  const normal = normalOrigin(origin);
  if (normal === undefined || !guard.origins.has(normal))
    return { ok: false, code: 'ORIGIN_NOT_ALLOWED', message: `Origin '${origin}' is not allowed` };
  return { ok: true };
}

/** `name` and `port` of `name:port`, `[v6]:port`, `name` or `[v6]` (the brackets kept, as Host writes them). */
function splitHost(value: string): { name: string; port: string | undefined } {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(value);
  if (!m) return { name: value, port: undefined };
  return { name: m[1] ?? '', port: m[2] };
}

/** `scheme://host[:port]` as browsers send it (default ports dropped, lower case); undefined for `null` or junk. */
function normalOrigin(value: string): string | undefined {
  try {
    const o = new URL(value).origin;
    return o === 'null' ? undefined : o.toLowerCase();
  } catch {
    return undefined;
  }
}
