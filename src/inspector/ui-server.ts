import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { layoutChart } from './chart-layout.js';
import { chartSvg } from './chart-svg.js';
import { type InspectorPage, inspectorPage, loadBrowserModules } from './page.js';
import { pageStatus } from './page-data.js';
import { send, sendJson } from './reply.js';
import { type DetailSource, ServerDetails } from './server-details.js';
import { type HubSource, SseHub } from './sse-hub.js';
import type { StatechartGraph } from './statechart.js';

/**
 * What the inspector shows: the fleet's status and events, the server machine's chart, and, when the host has
 * them (a `Supervisor` has all but `logs` and `phase`), each server's calls, tools and log ring, and whether the
 * fleet runs.
 */
export interface UiSource extends HubSource, DetailSource {
  statechart: StatechartGraph;
}

export interface UiServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback only: '127.0.0.1' (default), '::1' or 'localhost'. */
  host?: string;
  /** The access token; a fresh random one by default (given, it lets a restarted inspector keep its open pages). */
  token?: string;
}

/** A running inspector. */
export interface UiServer {
  /** The page's address, token included (`http://127.0.0.1:<port>/?token=…`): what a person opens. */
  url: string;
  /**
   * Every request must carry it as `?token=`, or gets 403: the page shows stderr tails and command lines, which
   * can hold secrets, and any local user or program can reach a loopback port.
   */
  token: string;
  port: number;
  close(): Promise<void>;
}

export type UiServerErrorCode =
  | 'ui_host_not_loopback'
  | 'ui_bad_port'
  | 'ui_port_in_use'
  | 'ui_listen_failed'
  | 'ui_page_missing';

/** Why the inspector could not start. */
export class UiServerError extends Error {
  readonly code: UiServerErrorCode;
  constructor(code: UiServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UiServerError';
    this.code = code;
  }
}

// The page shows stderr tails and argv, so it never listens beyond this machine.
const BIND: Record<string, string> = { '127.0.0.1': '127.0.0.1', localhost: '127.0.0.1', '::1': '::1' };
// Host header names accepted: anything else is a DNS-rebinding page trying to read the inspector.
const HOST_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Starts the live inspector (page, JSON API, event stream) on a loopback port. */
export async function startUiServer(source: UiSource, opts: UiServerOptions = {}): Promise<UiServer> {
  const host = opts.host ?? '127.0.0.1';
  const bindHost = BIND[host];
  if (bindHost === undefined) {
    throw new UiServerError(
      'ui_host_not_loopback',
      `UI host must be loopback (127.0.0.1, ::1, localhost), got "${host}"`,
    );
  }
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UiServerError('ui_bad_port', `UI port must be an integer 0-65535, got ${String(port)}`);
  }

  const modules = await loadBrowserModules();
  if (!(modules instanceof Map)) {
    throw new UiServerError('ui_page_missing', `the inspector page's file ${modules.missing} is missing`);
  }
  const token = opts.token ?? randomBytes(24).toString('base64url');
  // Laid out once, here: the browser gets the chart as positioned SVG and only lights its states.
  const chart = chartSvg(layoutChart(source.statechart));
  const details = new ServerDetails(source);
  const hub = new SseHub(source, { details });
  const site: Site = { source, hub, token, page: inspectorPage(token, chart), modules };
  const server = createServer((req, res) => handle(req, res, site));
  server.keepAliveTimeout = 1000;
  try {
    await listen(server, port, bindHost);
  } catch (err) {
    hub.close();
    details.close();
    throw err;
  }
  const bound = (server.address() as AddressInfo).port;
  const url = `http://${bindHost.includes(':') ? `[${bindHost}]` : bindHost}:${bound}/?token=${token}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= hub.close().then(
      () =>
        new Promise<void>((resolve) => {
          details.close();
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    return closing;
  };
  return { url, token, port: bound, close };
}

function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.close();
      if (err.code === 'EADDRINUSE') {
        reject(new UiServerError('ui_port_in_use', `UI port ${port} on ${host} is in use`, { cause: err }));
      } else {
        reject(
          new UiServerError('ui_listen_failed', `UI server could not listen: ${err.message}`, { cause: err }),
        );
      }
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** What one inspector serves. */
interface Site {
  source: UiSource;
  hub: SseHub;
  token: string;
  page: InspectorPage;
  /** The browser modules' bytes by path. */
  modules: Map<string, Buffer>;
}

function handle(req: IncomingMessage, res: ServerResponse, site: Site): void {
  const { source, hub, token } = site;
  const hostName = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  if (!HOST_NAMES.has(hostName)) {
    send(res, 403, 'text/plain', 'forbidden host\n');
    return;
  }
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const module = site.modules.get(path);
  const known =
    path === '/' ||
    path === '/api/status' ||
    path === '/api/statechart' ||
    path === '/events' ||
    module !== undefined;
  if (!known) {
    send(res, 404, 'text/plain', 'not found\n');
    return;
  }
  if (!tokenMatches(req.url ?? '/', token)) {
    send(res, 403, 'text/plain', 'forbidden: open the URL the supervisor printed, with its token\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    send(res, 405, 'text/plain', 'method not allowed\n');
    return;
  }
  if (module !== undefined) {
    send(res, 200, 'text/javascript; charset=utf-8', module);
    return;
  }
  switch (path) {
    case '/':
      res.setHeader('content-security-policy', site.page.csp);
      send(res, 200, 'text/html; charset=utf-8', site.page.html);
      return;
    case '/api/status':
      sendJson(res, () => pageStatus(source.status(), source.phase?.()));
      return;
    case '/api/statechart':
      sendJson(res, () => source.statechart);
      return;
    default: {
      const last = req.headers['last-event-id'];
      hub.attach(res, typeof last === 'string' ? last : undefined);
      return;
    }
  }
}

function tokenMatches(url: string, token: string): boolean {
  let given: Buffer;
  try {
    given = Buffer.from(new URL(url, 'http://x').searchParams.get('token') ?? '', 'utf8');
  } catch {
    return false;
  }
  const wanted = Buffer.from(token, 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
