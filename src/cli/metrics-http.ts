import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authority, type HttpAddress, isLoopback } from '../gateway/http/address.js';
import { authenticate, type BearerVerifier } from '../gateway/http/auth.js';
import { checkHeaders, type HostGuard, hostGuard } from '../gateway/http/guard.js';
import type { SupervisorMetrics } from '../metrics/supervisor-metrics.js';
import { CliError, usageError } from './errors.js';

/** Where the metrics are served, on `run --metrics` and beside `serve --http`'s `/mcp`. */
export const METRICS_PATH = '/metrics';

export interface MetricsRoute {
  metrics: SupervisorMetrics;
  guard: HostGuard;
  /** Absent: no auth (a loopback listener, or `--metrics-public`). */
  verifier?: BearerVerifier | undefined;
  onWarn: (message: string) => void;
}

/** A request listener that answers `/metrics` itself and hands every other request to `next`. */
export function withMetrics(
  next: (req: IncomingMessage, res: ServerResponse) => void,
  route: MetricsRoute,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if ((req.url ?? '/').split('?')[0] !== METRICS_PATH) return next(req, res);
    serveMetrics(req, res, route).catch((err: unknown) => {
      route.onWarn(`http ${req.method} ${METRICS_PATH}: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('internal error\n');
      else res.destroy();
    });
  };
}

/** `/metrics`: the Host and Origin checks, GET or HEAD, the bearer token when one is configured, then the text. */
async function serveMetrics(req: IncomingMessage, res: ServerResponse, route: MetricsRoute): Promise<void> {
  const verdict = checkHeaders(req.headers, route.guard);
  if (!verdict.ok) return plain(res, 403, `forbidden: ${verdict.message}`);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return plain(res, 405, 'method not allowed');
  }
  if (route.verifier) {
    const auth = await authenticate(req.headers.authorization, route.verifier);
    if (!auth.ok) {
      res.setHeader('WWW-Authenticate', auth.wwwAuthenticate);
      return plain(res, 401, 'unauthorized');
    }
  }
  const body = await route.metrics.text();
  res.writeHead(200, { 'Content-Type': route.metrics.contentType, 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `run --metrics HOST:PORT`: a listener of its own that serves only `/metrics`. Off loopback only with
 * `--metrics-public` (there is no auth on it): anyone who reaches it reads the fleet's names and figures.
 */
export async function startMetricsServer(
  metrics: SupervisorMetrics,
  address: HttpAddress,
  opts: {
    public?: boolean | undefined;
    allowedHosts?: readonly string[] | undefined;
    onWarn: (m: string) => void;
  },
): Promise<MetricsServer> {
  if (!opts.public && !isLoopback(address.host))
    throw usageError(
      `refusing to serve metrics on ${address.host}, which is not a loopback address: anyone who reaches it ` +
        'could read them (pass --metrics-public to mean it, or bind 127.0.0.1)',
    );
  const http = createServer();
  const port = await new Promise<number>((resolve, reject) => {
    http.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          'listen_failed',
          `cannot serve metrics on ${authority(address.host, address.port)}: ${err.code ?? err.message}`,
        ),
      ),
    );
    http.listen(address.port, address.host, () => resolve((http.address() as AddressInfo).port));
  });
  const guard = hostGuard(address.host, port, { allowedHosts: opts.allowedHosts ?? [] });
  http.on(
    'request',
    withMetrics((_req, res) => plain(res, 404, 'not found: metrics are at /metrics'), {
      metrics,
      guard,
      onWarn: opts.onWarn,
    }),
  );
  let closing: Promise<void> | undefined;
  return {
    url: `http://${authority(address.host, port)}${METRICS_PATH}`,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      return closing;
    },
  };
}
