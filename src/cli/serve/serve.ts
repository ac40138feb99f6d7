import { inspect } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createGateway } from '../../gateway/create-gateway.js';
import { checkServerIds, readConfigFile } from '../config-file.js';
import { openFleetControl } from '../control/open.js';
import { usageError } from '../errors.js';
import { fleetReload } from '../fleet-reload.js';
import { openInspector } from '../inspector-ui.js';
import { openFleet } from '../open-fleet.js';
import { lineReporter } from '../output/reporter.js';
import { handleShutdownSignals } from '../shutdown.js';
import type { ServeFlags } from './flags.js';

/**
 * `serve`: the fleet as one MCP server on stdio. Stdout carries the protocol and nothing else; every log line
 * goes to stderr. Ends (exit 0) when the client closes stdin, or on SIGINT/SIGTERM.
 */
export async function serveCommand(configPath: string, flags: ServeFlags, version: string): Promise<number> {
  if (flags.http)
    return (await import('./serve-http.js')).serveHttpCommand(configPath, flags.http, flags, version);
  if (flags.jsonResponse) throw usageError('--json-response needs --http');
  if (flags.sessionIdle !== undefined) throw usageError('--session-idle needs --http');
  if (flags.maxSessions !== undefined) throw usageError('--max-sessions needs --http');
  if (flags.auth === false) throw usageError('--no-auth needs --http');
  keepStdoutForProtocol();
  const config = await readConfigFile(configPath);
  checkServerIds(config, flags.trust, '--trust');
  const reporter = lineReporter(flags.logFormat);
  // stdin is the protocol, so nobody can be asked: only the flags (or the trust store) let a server start.
  const sup = openFleet(config, flags, reporter);
  const reload = fleetReload(sup, configPath, reporter);
  const closeControl = await openFleetControl(sup, configPath, flags, reporter, 'serve', reload);
  let stopping = false;
  let stopped = false;
  const phase = () => (stopped ? 'stopped' : stopping ? 'stopping' : 'running');
  const ui =
    flags.ui === undefined ? undefined : await openInspector(sup, flags.ui, phase, closeControl, reporter);
  reporter.log('info', 'starting', { config: config.source, servers: config.servers.length });
  const gateway = createGateway(sup, {
    version,
    scopes: flags.scopes ?? [],
    ...(flags.maxResultBytes !== undefined ? { maxResultBytes: flags.maxResultBytes } : {}),
    ...(flags.toolSearch ? { toolSearch: true } : {}),
    onWarn: (m) => reporter.log('warn', m),
  });

  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const shutdown = (why: string) => {
    if (stopping) return;
    stopping = true;
    reporter.log('info', 'stopping', { why });
    void (async () => {
      await gateway.close();
      await sup.stop();
      stopped = true;
      await closeControl();
      await ui?.close();
      process.stdin.destroy();
      reporter.log('info', 'stopped');
      finish(0);
    })();
  };
  // SIGHUP re-reads the config (before the first client there is no fleet running: it answers NOT_STARTED).
  const removeSignals = handleShutdownSignals(
    (signal) => shutdown(signal),
    () => void reload('SIGHUP'),
  );
  process.stdin.once('end', () => shutdown('stdin closed'));
  process.stdin.once('close', () => shutdown('stdin closed'));
  process.stdout.on('error', () => shutdown('stdout closed'));
  try {
    await gateway.connect(new StdioServerTransport(), () => shutdown('transport closed'));
    await Promise.race([gateway.started, done]);
    if (!stopping) reporter.log('info', 'started', { tools: sup.listTools().length });
    return await done;
  } finally {
    removeSignals();
  }
}

/** Anything in this process that would print to stdout (console.log in a dependency) goes to stderr instead. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.table = toStderr;
  console.dir = (item: unknown) => console.error(inspect(item));
}
