import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { Gateway } from '../gateway/gateway.js';
import { authority, type HttpAddress, isLoopback } from '../gateway/http/address.js';
import { type BearerVerifier, type Caller, tokenVerifier } from '../gateway/http/auth.js';
import { frontHandler, MCP_PATH } from '../gateway/http/front.js';
import { FrontClients } from '../gateway/http/front-clients.js';
import { hostGuard } from '../gateway/http/guard.js';
import { healthReport } from '../gateway/http/healthz.js';
import { HttpSessions } from '../gateway/http/sessions.js';
import { ModernRequests } from '../gateway/http/stateless.js';
import { DEFAULT_SERVE_RESULT_BYTES } from '../gateway/result-cap.js';
import { supervisorMetrics } from '../metrics/supervisor-metrics.js';
import { checkServerIds, readConfigFile } from './config-file.js';
import { openFleetControl } from './control-open.js';
import { CliError, usageError } from './errors.js';
import { type FleetReload, fleetReload } from './fleet-reload.js';
import { LiveTokens } from './http-token-watch.js';
import { configTokens, loadTokens } from './http-tokens.js';
import { withMetrics } from './metrics-http.js';
import { openFleet } from './open-fleet.js';
import { lineReporter } from './reporter.js';
import type { ServeFlags } from './serve.js';
import { handleShutdownSignals } from './shutdown.js';

/** How long a session may sit with no request in flight and no GET stream before it is closed. */
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Sessions open at once when neither `--max-sessions` nor `serve.maxSessions` says. */
const DEFAULT_MAX_SESSIONS = 256;

/**
 * `serve --http`: the fleet over Streamable HTTP at `http://HOST:PORT/mcp`, one Gateway per session over the one
 * supervisor. The fleet starts at the first session's `initialize` (as over stdio), so the servers' handshakes
 * declare what that client can answer. Ends (exit 0) on SIGINT/SIGTERM: sessions closed, fleet stopped, listener
 * closed.
 */
export async function serveHttpCommand(
  configPath: string,
  address: HttpAddress,
  flags: ServeFlags,
  version: string,
): Promise<number> {
  const config = await readConfigFile(configPath);
  checkServerIds(config, flags.trust, '--trust');
  const tokens = await loadTokens(config);
  if (!tokens && !isLoopback(address.host))
    throw usageError(
      `refusing to serve on ${address.host}, which is not a loopback address, without serve.auth: ` +
        'anyone who reaches it could call every tool (add serve.auth tokens, or bind 127.0.0.1)',
    );
  const reporter = lineReporter(flags.logFormat);
  if (tokens && flags.scopes && flags.scopes.length > 0)
    reporter.log('warn', "--scopes is ignored over HTTP with serve.auth: each token's scopes apply");
  // Many clients share the fleet over HTTP, and a 2026 one answers a task's questions by polling it: the servers
  // allowed to ask are told they may from the start, as a 2025 session's declaration would tell them.
  const sup = openFleet(config, flags, reporter, { declareTaskQuestions: true });
  const front = new FrontClients(sup);
  const onWarn = (m: string) => reporter.log('warn', m);

  let begin: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    begin = resolve;
  }).then(() => sup.start());
  const gatewayFor = (caller: Caller | undefined, frontClient: (server: McpServer) => void) =>
    new Gateway(sup, started, {
      name: 'mcp-supervisor',
      version,
      scopes: caller ? caller.scopes : (flags.scopes ?? []),
      // MCP binds a task to the authorization context it was made in: one token's tasks are not another's.
      ...(caller ? { taskOwner: caller.id } : {}),
      maxResultBytes: flags.maxResultBytes ?? config.serve?.maxResultBytes ?? DEFAULT_SERVE_RESULT_BYTES,
      onWarn,
      onClient: () => begin(),
      frontClient,
    });
  const sessions = new HttpSessions({
    jsonResponse: Boolean(flags.jsonResponse),
    idleMs: flags.sessionIdle ?? DEFAULT_SESSION_IDLE_MS,
    maxSessions: flags.maxSessions ?? config.serve?.maxSessions ?? DEFAULT_MAX_SESSIONS,
    maxPerCaller: config.serve?.maxSessionsPerToken,
    gateway: (caller) => gatewayFor(caller, (server) => front.add(server)),
    onOpen: (session) =>
      reporter.log('info', 'session opened', {
        session: session.id,
        ...(session.callerId !== undefined ? { caller: session.callerId } : {}),
      }),
    onEnd: (gateway, session, why) => {
      front.remove(gateway.server);
      if (session) reporter.log('info', 'session closed', { session: session.id, why });
    },
  });

  // A 2026 request's Gateway lives as long as its response; it takes no part in answering the servers' requests.
  const modern = new ModernRequests({
    jsonResponse: Boolean(flags.jsonResponse),
    inputSchemaOf: (tool) => sup.getTool(tool)?.inputSchema,
    gateway: (caller) => gatewayFor(caller, () => {}),
  });

  let stopping = false;
  const metrics = supervisorMetrics(sup);
  const http = createServer();
  const port = await listen(http, address);
  // The allowlist names the port, known only now; no request can arrive before this turn of the loop ends.
  const guard = hostGuard(address.host, port, config.serve ?? {});
  const tokensFile = config.serve?.auth?.tokensFile;
  // A tokens file is read again when it changes: a token added works, a token taken out ends its sessions.
  const live =
    tokens && tokensFile !== undefined
      ? new LiveTokens({
          fromConfig: configTokens(config),
          file: tokensFile,
          initial: tokens,
          log: reporter,
          onChange: (keep) => void sessions.revoke(keep),
        })
      : undefined;
  live?.watch();
  const verifier: BearerVerifier | undefined = live ?? (tokens && tokenVerifier(tokens));
  http.on(
    'request',
    // `/metrics` on the same port, behind the same Host check and tokens as `/mcp`.
    withMetrics(
      frontHandler({
        guard,
        verifier,
        sessions,
        modern,
        health: () => healthReport(sup.status(), stopping),
        onWarn,
      }),
      { metrics, guard, verifier, onWarn },
    ),
  );
  reporter.log('info', 'starting', { config: config.source, servers: config.servers.length });
  const reloadFleet = fleetReload(sup, configPath, reporter);
  // A reload, by signal or from another terminal, re-reads the tokens file too, as an operator would expect.
  const reload: FleetReload = async (trigger) => {
    const [outcome] = await Promise.all([reloadFleet(trigger), live?.reload(trigger)]);
    return outcome;
  };
  const closeControl = await openFleetControl(sup, configPath, flags, reporter, 'serve --http', reload);
  process.stderr.write(`listening on http://${authority(address.host, port)}${MCP_PATH}\n`);

  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const shutdown = (why: string) => {
    if (stopping) return;
    stopping = true;
    reporter.log('info', 'stopping', { why });
    void (async () => {
      live?.close();
      await sessions.close();
      await modern.close();
      await sup.stop();
      await closeControl();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      reporter.log('info', 'stopped');
      finish(0);
    })();
  };
  const removeSignals = handleShutdownSignals(
    (signal) => shutdown(signal),
    () => void reload('SIGHUP'),
  );
  try {
    await Promise.race([started, done]);
    if (!stopping) reporter.log('info', 'started', { tools: sup.listTools().length });
    return await done;
  } finally {
    removeSignals();
  }
}

/** Binds the listener; resolves the port it got (the one asked for, or a free one for 0). */
function listen(http: HttpServer, address: HttpAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          'listen_failed',
          `cannot listen on ${authority(address.host, address.port)}: ${err.code ?? err.message}`,
        ),
      );
    http.once('error', onError);
    http.listen(address.port, address.host, () => {
      http.off('error', onError);
      resolve((http.address() as AddressInfo).port);
    });
  });
}
