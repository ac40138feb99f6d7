import { readFileSync } from 'node:fs';
import { Argument, Command, CommanderError, Option } from 'commander';
import type { CallFlags } from './call.js';
import type { LogsFlags } from './control/logs-command.js';
import type { TargetFlags } from './control/target.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE } from './errors.js';
import { parseHttpAddress, parseIdle, parseMaxSessions, parseResultCap } from './flag-parsers.js';
import { collectIds, collectScopes, parseLogFormat, parsePort, STORE_ENV } from './fleet-options.js';
import type { InitFlags } from './init/command.js';
import type { RunFlags } from './run.js';
import { declareSecretCommands } from './secret/declare.js';
import type { ServeFlags } from './serve/flags.js';
import type { ToolsFlags } from './tools.js';

/** The package version, read from the package.json next to `dist/` (and `src/`). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/**
 * Builds the commander program; each action stores its exit code through `setCode`. Command modules are
 * imported when their command runs, so `--help` and `--version` do not load the whole runtime.
 */
export function buildProgram(version: string, setCode: (code: number) => void): Command {
  const program = new Command('mcp-supervisor')
    .description('Supervise a fleet of MCP servers: restarts, one namespaced tool registry, a trust gate.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(oneLine(str)) })
    .showHelpAfterError(false);
  program.addHelpText(
    'after',
    `\nExit codes: 0 ok, 1 failure (bad config, ERROR: result), 2 usage error, 130 forced by a second Ctrl-C.\nTrust store: --store <path>, else $${STORE_ENV}, else ~/.config/mcp-supervisor/trust.json.`,
  );

  fleetOptions(program.command('run'))
    .description('run the fleet in the foreground (live table on a terminal, log lines on stderr otherwise)')
    .argument('<config>', 'fleet config (YAML, or JSON with mcpServers)')
    .option('--ui [port]', 'serve the live inspector on 127.0.0.1 (a free port unless given)', parsePort)
    .option(
      '--stately [port]',
      'send inspection events to @statelyai/inspect (opt-in; default port 8080)',
      parsePort,
    )
    .option('--watch', 'reload when the config file or a manifest it names changes (as SIGHUP does)')
    .option(
      '--metrics <host:port>',
      'serve Prometheus metrics at http://HOST:PORT/metrics (:PORT or PORT bind 127.0.0.1; port 0 picks one)',
      parseHttpAddress,
    )
    .option('--metrics-public', 'with --metrics: allow a non-loopback address (metrics have no auth)')
    .action(async (config: string, flags: RunFlags) =>
      setCode(await (await import('./run.js')).runCommand(config, flags)),
    );

  fleetOptions(program.command('serve'))
    .description('expose the whole fleet as one MCP server on stdio (stdout is protocol only), or over HTTP')
    .argument('<config>', 'fleet config')
    .option(...SCOPES_OPTION)
    .option(
      '--http <host:port>',
      'serve Streamable HTTP at http://HOST:PORT/mcp (and metrics at /metrics) instead of stdio (:PORT or PORT bind 127.0.0.1; port 0 picks one)',
      parseHttpAddress,
    )
    .option('--json-response', 'with --http: answer each POST with one JSON body, not an SSE stream')
    .option(
      '--tool-search',
      'list search_tools and call_tool instead of every tool (and the tools serve.toolSearch.expose names)',
    )
    .option(
      '--ui [port]',
      'serve the live inspector on 127.0.0.1, with the calls clients make (a free port unless given)',
      parsePort,
    )
    .option(
      '--no-auth',
      'with --http on loopback and no serve.auth: serve without the per-run token (any local user could then call every tool as you)',
    )
    .option(
      '--session-key-file <file>',
      'with --http: seal session ids with the 32-byte key in FILE (hex or base64), so replicas sharing it answer any session; wins over serve.sessionKey',
    )
    .option(
      '--session-idle <duration>',
      'with --http: close a session without a request or GET stream for this long (default 30m; 0 never)',
      parseIdle,
    )
    .option(
      '--max-sessions <n>',
      "with --http: how many sessions and 2026 listen streams may be open at once; past it `initialize` and `subscriptions/listen` get 503 (default the config's serve.maxSessions, else 256)",
      parseMaxSessions,
    )
    .option(
      '--max-result-bytes <size>',
      "cap on every tool result sent (e.g. 1MiB), below each server's maxResultBytes; default the config's serve.maxResultBytes, else 4MiB",
      parseResultCap,
    )
    .action(async (config: string, flags: ServeFlags) =>
      setCode(await (await import('./serve/serve.js')).serveCommand(config, flags, version)),
    );

  fleetOptions(program.command('call'))
    .description(
      'start only the server that owns the tool (worked out from the config), call the tool once, print the flattened result, stop that server',
    )
    .argument('<config>', 'fleet config')
    .argument('<tool>', 'namespaced tool name, e.g. notes.add_note')
    .argument('[json-args]', 'arguments as a JSON object')
    .option('--timeout <duration>', "call timeout (ms, or 5s, 1m); default: the server's timeouts.call")
    .option('-v, --verbose', 'log every transition on stderr, not only warnings')
    .option(...SCOPES_OPTION)
    .action(async (config: string, tool: string, args: string | undefined, flags: CallFlags) =>
      setCode(await (await import('./call.js')).callCommand(config, tool, args, flags)),
    );

  program
    .command('check')
    .description('validate a config without starting anything')
    .argument('<config>', 'fleet config')
    .option('--json', 'print the outcome (every problem with its code) as JSON on stdout instead of text')
    .action(async (config: string, flags: { json?: boolean }) =>
      setCode(await (await import('./check.js')).checkCommand(config, flags)),
    );

  program
    .command('init')
    .description(
      'write a commented starter config, or convert a Claude Desktop, VS Code or Cursor file (--from)',
    )
    .argument('[file]', 'the config to write', 'fleet.yaml')
    .option(
      '--from <path>',
      "a client's MCP config to convert (claude_desktop_config.json, .vscode/mcp.json, .cursor/mcp.json)",
    )
    .option('--force', 'overwrite the file when it exists')
    .action(async (file: string, flags: InitFlags) =>
      setCode(await (await import('./init/command.js')).initCommand(file, flags)),
    );

  fleetOptions(program.command('tools'))
    .description('start each server once, list the tools it exposes and the scopes each needs, stop them all')
    .argument('<config>', 'fleet config')
    .option('--json', 'print the listing as JSON on stdout instead of a table')
    .option('-v, --verbose', 'log every transition on stderr, not only warnings')
    .action(async (config: string, flags: ToolsFlags) =>
      setCode(await (await import('./tools.js')).toolsCommand(config, flags)),
    );

  controlOptions(program.command('status'))
    .description('show the running fleet: state, pid, restarts, uptime, tools, CPU and RSS per server')
    .action(async (flags: TargetFlags) =>
      setCode(await (await import('./control/status-command.js')).statusCommand(flags)),
    );
  for (const [verb, what] of [
    ['restart', 'restart one server of the running fleet now'],
    ['stop', 'stop one server of the running fleet'],
    ['start', 'start one server of the running fleet (also a stopped, failed or disabled one)'],
  ] as const)
    controlOptions(program.command(verb))
      .description(what)
      .argument('<id>', 'server id')
      .action(async (id: string, flags: TargetFlags) =>
        setCode(await (await import('./control/commands.js')).serverVerbCommand(verb, id, flags)),
      );
  controlOptions(program.command('logs'))
    .description("print a server's recent stderr lines and log messages from the running fleet")
    .argument('<id>', 'server id')
    .option('-f, --follow', 'then print new ones until Ctrl-C or the fleet stops')
    .action(async (id: string, flags: LogsFlags) =>
      setCode(await (await import('./control/logs-command.js')).logsCommand(id, flags)),
    );
  controlOptions(program.command('reload'))
    .description('re-read the config in the running fleet')
    .action(async (flags: TargetFlags) =>
      setCode(await (await import('./control/commands.js')).reloadCommand(flags)),
    );

  const trust = program
    .command('trust')
    .description('manage the trust store (approved server command lines)');
  trust
    .command('list')
    .description('list trusted servers')
    .option('--store <path>', 'trust store file')
    .action(async (flags: { store?: string }) =>
      setCode(await (await import('./trust.js')).trustListCommand(flags.store)),
    );
  trust
    .command('add')
    .description("trust a server's current command line without starting it")
    .argument('<config>', 'fleet config')
    .argument('<id>', 'server id')
    .option('--store <path>', 'trust store file')
    .action(async (config: string, id: string, flags: { store?: string }) =>
      setCode(await (await import('./trust.js')).trustAddCommand(config, id, flags.store)),
    );
  trust
    .command('revoke')
    .description('forget a server, so its next start asks again')
    .argument('<id>', 'server id')
    .option('--store <path>', 'trust store file')
    .option('--config <path>', 'the config file the approval is for (when the id is trusted for several)')
    .action(async (id: string, flags: { store?: string; config?: string }) =>
      setCode(await (await import('./trust.js')).trustRevokeCommand(id, flags.store, flags.config)),
    );
  declareSecretCommands(program, setCode);
  program
    .command('completion')
    .description(
      'print a shell completion script for every command and flag (source <(mcp-supervisor completion bash))',
    )
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') =>
      setCode((await import('./completion/command.js')).completionCommand(shell, program)),
    );
  return program;
}

// A tool whose server or declaration requires scopes is refused to a caller without them.
const SCOPES_OPTION = [
  '--scopes <list>',
  'the scopes of the caller this command acts for (a,b; repeatable); tools that require scopes need them',
  collectScopes,
  [] as string[],
] as const;

/** How a control command finds its fleet: the state directory it runs with, and its config when several do. */
function controlOptions(cmd: Command): Command {
  return cmd
    .option('--state-dir <dir>', "the running fleet's state directory (default as for run)")
    .option('--config <path>', "the running fleet's config file, when several run with one state directory")
    .option('--json', 'print data (JSON) on stdout instead of text')
    .addOption(
      new Option(
        '--log-format <format>',
        'what it reports on stderr (logs: the entries) as structured lines: logfmt or json',
      ).argParser(parseLogFormat),
    );
}

function fleetOptions(cmd: Command): Command {
  return cmd
    .option(
      '--trust <id>',
      'start this server without asking (repeatable, or a,b)',
      collectIds,
      [] as string[],
    )
    .option('--trust-all', 'start every server without asking (and remember them)')
    .option(
      '--store <path>',
      `trust store file (default $${STORE_ENV} or ~/.config/mcp-supervisor/trust.json)`,
    )
    .option(
      '--state-dir <dir>',
      'where the process ledger survives a host crash (default $XDG_STATE_HOME/mcp-supervisor or ~/.local/state/mcp-supervisor)',
    )
    .addOption(
      new Option('--log-format <format>', 'log lines on stderr: logfmt or json')
        .default('logfmt')
        .argParser(parseLogFormat),
    );
}

/**
 * Runs the program on `argv` and resolves its exit code. Every failure becomes one line on stderr (a config's
 * located problems, one per line) and exit 1; a wrong command line exits 2. Never prints a stack trace.
 */
export async function main(argv: readonly string[]): Promise<number> {
  let code = 0;
  const program = buildProgram(packageVersion(), (c) => {
    code = c;
  });
  if (argv.length <= 2) {
    process.stderr.write(program.helpInformation());
    return EXIT_USAGE;
  }
  try {
    await program.parseAsync([...argv]);
    return code;
  } catch (err) {
    return await report(err, jsonLogs(argv));
  }
}

/** Whether the command line asked for JSON log lines: then its last words are one too. */
function jsonLogs(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === '--log-format=json' || (a === '--log-format' && argv[i + 1] === 'json'));
}

async function report(err: unknown, json: boolean): Promise<number> {
  if (json && !(err instanceof CommanderError)) return (await import('./output/error-log.js')).logError(err);
  if (err instanceof CommanderError) {
    // Commander already printed its line; asked-for help and version succeed, help for a bare group is usage.
    const ok = err.code === 'commander.helpDisplayed' || err.code === 'commander.version';
    return ok ? 0 : EXIT_USAGE;
  }
  const { ConfigError } = await import('../config/config-error.js');
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    return EXIT_FAILURE;
  }
  if (err instanceof CliError) {
    process.stderr.write(`mcp-supervisor: ${err.message}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`mcp-supervisor: internal error: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  if (process.env['MCP_SUPERVISOR_DEBUG'] && err instanceof Error && err.stack)
    process.stderr.write(`${err.stack}\n`);
  return EXIT_FAILURE;
}

/** Commander's messages (`error: …\n(Did you mean …?)`) folded into one line with the program's prefix. */
function oneLine(text: string): string {
  return `mcp-supervisor: ${text
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim()}\n`;
}
