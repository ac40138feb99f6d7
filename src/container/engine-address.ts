// Where the container engine listens: the address written in the config, else the one the environment names, else
// the first socket of the usual places that exists. Pure (the file system is asked through `exists`), so the
// order can be tested without an engine.
import { isAbsolute, join } from 'node:path';

/** The outcome of reading an address: its one spelling (`unix:///path` or `tcp://host:port`), or why not. */
export type EngineAddressResult = { ok: true; address: string } | { ok: false; message: string };

/** What a client dials: a local socket, or a host and port over plain HTTP. */
export type EngineConnection = { socketPath: string } | { host: string; port: number };

/** Docker's socket, then Podman's rootless and rootful ones: the places an engine's socket usually is. */
const DOCKER_SOCKET = '/var/run/docker.sock';
const PODMAN_ROOTFUL_SOCKET = '/run/podman/podman.sock';

const EXPECTED = 'expected unix:///path/to.sock, an absolute socket path, or tcp://HOST:PORT';

/**
 * The engine's address: `written` when given (refused when it is no address we can dial), else `DOCKER_HOST`,
 * else `/var/run/docker.sock`, `$XDG_RUNTIME_DIR/podman/podman.sock` if either exists, else
 * `unix:///run/podman/podman.sock`, whether it exists or not: a start then fails naming the engine unreachable.
 */
export function resolveEngineAddress(
  written: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  exists: (path: string) => boolean,
): EngineAddressResult {
  if (written !== undefined) return readEngineAddress(written);
  const fromEnv = env['DOCKER_HOST'];
  if (fromEnv !== undefined && fromEnv !== '') {
    const read = readEngineAddress(fromEnv);
    return read.ok ? read : { ok: false, message: `DOCKER_HOST ${JSON.stringify(fromEnv)}: ${read.message}` };
  }
  const runtimeDir = env['XDG_RUNTIME_DIR'];
  const candidates = [DOCKER_SOCKET];
  if (runtimeDir !== undefined && isAbsolute(runtimeDir))
    candidates.push(join(runtimeDir, 'podman', 'podman.sock'));
  const found = candidates.find((path) => exists(path)) ?? PODMAN_ROOTFUL_SOCKET;
  return { ok: true, address: `unix://${found}` };
}

/** Reads one written address into its one spelling; `tcp://` needs a host and a port, and nothing after them. */
export function readEngineAddress(text: string): EngineAddressResult {
  if (text.startsWith('/')) return unixAddress(text);
  if (text.startsWith('unix://')) {
    const path = text.slice('unix://'.length);
    if (!path.startsWith('/'))
      return refuse(text, 'a unix:// address names an absolute path (unix:///run/docker.sock)');
    return unixAddress(path);
  }
  if (text.startsWith('tcp://')) return tcpAddress(text);
  if (/^https?:\/\//.test(text)) return refuse(text, `write it as tcp://HOST:PORT (${EXPECTED})`);
  return refuse(text, EXPECTED);
}

/** What a client dials for an address {@link readEngineAddress} gave; throws on any other text. */
export function engineConnection(address: string): EngineConnection {
  if (address.startsWith('unix://')) return { socketPath: address.slice('unix://'.length) };
  const url = tcpUrl(address);
  if (!url) throw new Error(`not an engine address: ${address}`);
  // The URL keeps an IPv6 host in brackets; a socket connect wants it bare.
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) };
}

function unixAddress(path: string): EngineAddressResult {
  if (path.includes('\0')) return refuse(path, 'a socket path cannot hold a NUL byte');
  return { ok: true, address: `unix://${path}` };
}

function tcpAddress(text: string): EngineAddressResult {
  const url = tcpUrl(text);
  if (!url) return refuse(text, 'expected tcp://HOST:PORT with a port from 1 to 65535');
  return { ok: true, address: `tcp://${url.host}` };
}

function tcpUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const bare = url.pathname === '' || url.pathname === '/';
  const plain = url.username === '' && url.password === '' && url.search === '' && url.hash === '';
  if (url.protocol !== 'tcp:' || url.hostname === '' || url.port === '' || !bare || !plain) return undefined;
  const port = Number(url.port);
  return port >= 1 && port <= 65_535 ? url : undefined;
}

function refuse(text: string, why: string): EngineAddressResult {
  return { ok: false, message: `invalid engine address ${JSON.stringify(text)}: ${why}` };
}
