import { ConfigError } from '../../config/config-error.js';
import { isLoopback } from '../../gateway/http/address.js';
import { tokenVerifier } from '../../gateway/http/auth.js';
import { type HttpGateway, ListenError, serveHttp } from '../../gateway/http/serve-http.js';
import { supervisorMetrics } from '../../metrics/supervisor-metrics.js';
import { replicaTaskIds } from '../../supervisor/tasks/replica-ids.js';
import { checkServerIds, readConfigFile } from '../config-file.js';
import { openFleetControl } from '../control/open.js';
import { CliError, usageError } from '../errors.js';
import { type FleetReload, fleetReload } from '../fleet-reload.js';
import { openInspector } from '../inspector-ui.js';
import { withMetrics } from '../metrics-http.js';
import { openFleet } from '../open-fleet.js';
import { lineReporter } from '../output/reporter.js';
import { handleShutdownSignals } from '../shutdown.js';
import { stateDirPath } from '../store-path.js';
import { drainLine } from './drain-lines.js';
import type { ServeFlags } from './flags.js';
import { makeRunToken, runTokenPath } from './run-token.js';
import { sessionKeyOf } from './session-key.js';
import { LiveTokens } from './token-watch.js';
import { configTokens, loadTokens } from './tokens.js';

/**
 * `serve --http`: the fleet over Streamable HTTP (src/gateway/http/), with what only the program has around it:
 * tokens read from the config and its tokens file, `/metrics` on the same port, the control socket, signals and
 * log lines. Ends (exit 0) on SIGTERM after a drain (`serve.drain`: `/readyz` 503, the delay, requests in flight
 * finished or cut), on SIGINT at once (sessions closed, calls in flight cut); then the fleet stops and the
 * listener closes.
 */
export async function serveHttpCommand(
  configPath: string,
  address: NonNullable<ServeFlags['http']>,
  flags: ServeFlags,
  version: string,
): Promise<number> {
  const config = await readConfigFile(configPath);
  if (config.serve?.authProblems) throw new ConfigError(config.serve.authProblems);
  checkServerIds(config, flags.trust, '--trust');
  const fromConfig = await configTokens(config);
  const sessionKey = await sessionKeyOf(config, flags.sessionKeyFile);
  const tokens = await loadTokens(config, fromConfig);
  if (!tokens && !isLoopback(address.host))
    throw usageError(
      `refusing to serve on ${address.host}, which is not a loopback address, without serve.auth: ` +
        'anyone who reaches it could call every tool (add serve.auth tokens, or bind 127.0.0.1)',
    );
  if (tokens && flags.auth === false)
    throw usageError('--no-auth conflicts with serve.auth: remove one of them');
  const reporter = lineReporter(flags.logFormat);
  if (tokens && flags.scopes && flags.scopes.length > 0)
    reporter.log('warn', "--scopes is ignored over HTTP with serve.auth: each token's scopes apply");
  if (flags.auth === false)
    reporter.log(
      'warn',
      'serving without authentication (--no-auth): any local user can call every tool as you',
    );
  // Many clients share the fleet over HTTP, and a 2026 one answers a task's questions by polling it: the servers
  // allowed to ask are told they may from the start, as a 2025 session's declaration would tell them.
  const sup = openFleet(config, flags, reporter, {
    declareTaskQuestions: true,
    ...(sessionKey ? { taskIds: replicaTaskIds(sessionKey) } : {}),
  });
  // (Once the fleet is made: it refuses a state directory others can write, before anything is put there.)
  // Without serve.auth, a token for this run only, in a file only this user can read: any local user can reach
  // loopback. --no-auth opts out, loudly.
  const runToken =
    tokens || flags.auth === false
      ? undefined
      : makeRunToken(stateDirPath(flags.stateDir), flags.scopes ?? []);
  const onWarn = (m: string) => reporter.log('warn', m);

  const tokensFile = config.serve?.auth?.tokensFile;
  let gateway: HttpGateway | undefined;
  // Only SIGTERM's drain is told step by step; SIGINT's has no delay and no wait to tell of.
  let graceful = false;
  // A tokens file is read again when it changes: a token added works, a token taken out ends its sessions.
  const live =
    tokens && tokensFile !== undefined
      ? new LiveTokens({
          fromConfig,
          file: tokensFile,
          initial: tokens,
          log: reporter,
          onChange: (keep) => void gateway?.revoke(keep),
        })
      : undefined;
  const metrics = supervisorMetrics(sup);
  try {
    gateway = await serveHttp(sup, {
      address,
      version,
      verifier: live ?? (tokens && tokenVerifier(tokens)) ?? (runToken && tokenVerifier([runToken.entry])),
      ...(flags.scopes ? { scopes: flags.scopes } : {}),
      ...(flags.maxResultBytes !== undefined ? { maxResultBytes: flags.maxResultBytes } : {}),
      jsonResponse: Boolean(flags.jsonResponse),
      ...(flags.toolSearch ? { toolSearch: true } : {}),
      sessionKey,
      ...(flags.sessionIdle !== undefined ? { sessionIdleMs: flags.sessionIdle } : {}),
      ...(flags.maxSessions !== undefined ? { maxSessions: flags.maxSessions } : {}),
      onWarn,
      onLog: (message, fields) => reporter.log('info', message, fields),
      onDrain: (phase) => {
        if (!graceful) return;
        const { level, msg, fields } = drainLine(phase);
        reporter.log(level, msg, fields);
      },
      // `/metrics` on the same port, behind the same Host check and tokens as `/mcp`.
      wrap: (handler, checks) => withMetrics(handler, { metrics, ...checks, onWarn }),
    });
  } catch (err) {
    runToken?.remove();
    if (err instanceof ListenError) throw new CliError('listen_failed', err.message);
    throw err;
  }
  const http = gateway;
  live?.watch();
  reporter.log('info', 'starting', { config: config.source, servers: config.servers.length });
  const reloadFleet = fleetReload(sup, configPath, reporter);
  // A reload, by signal or from another terminal, re-reads the tokens file too, as an operator would expect.
  const reload: FleetReload = async (trigger) => {
    const [outcome] = await Promise.all([reloadFleet(trigger), live?.reload(trigger)]);
    return outcome;
  };
  const closeControl = await openFleetControl(sup, configPath, flags, reporter, 'serve --http', reload);
  closeControl.publish('http', http.url);
  let stopping = false;
  let stopped = false;
  const phase = () => (stopped ? 'stopped' : stopping ? 'stopping' : 'running');
  const ui =
    flags.ui === undefined ? undefined : await openInspector(sup, flags.ui, phase, closeControl, reporter);
  process.stderr.write(`listening on ${http.url}\n`);
  if (runToken)
    process.stderr.write(
      `token in ${runTokenPath(stateDirPath(flags.stateDir))} (send it as Authorization: Bearer <token>)\n`,
    );

  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const shutdown = (why: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    reporter.log('info', 'stopping', { why });
    // SIGTERM is how an orchestrator retires an instance: its load balancer is told (`/readyz`) before anything
    // ends. SIGINT is a person at a terminal, who wants it stopped now.
    graceful = why === 'SIGTERM';
    void (async () => {
      live?.close();
      await (graceful ? http.drain() : http.drain({ delayMs: 0, timeoutMs: 0 }));
      await sup.stop();
      stopped = true;
      await closeControl();
      await ui?.close();
      await http.close();
      runToken?.remove();
      reporter.log('info', 'stopped');
      finish(0);
    })();
  };
  const removeSignals = handleShutdownSignals(
    (signal) => shutdown(signal),
    () => void reload('SIGHUP'),
  );
  try {
    await Promise.race([http.started, done]);
    if (!stopping) reporter.log('info', 'started', { tools: sup.listTools().length });
    return await done;
  } finally {
    removeSignals();
  }
}
