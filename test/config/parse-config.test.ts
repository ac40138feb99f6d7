// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are the subject of these tests, written literally on purpose
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { DEFAULT_SERVER_LIMITS } from '../../src/config/limits.js';
import { type ParseConfigOptions, parseConfig } from '../../src/config/parse-config.js';
import type { ServerConfig } from '../../src/config/types.js';

/** Parses with a fixed source, an empty env and `/base` as the base directory unless told otherwise. */
function parse(text: string, opts: ParseConfigOptions = {}) {
  return parseConfig(text, { source: 'c.yaml', env: {}, baseDir: '/base', ...opts });
}

/** The formatted problems of text that must not parse (fails the test when it parses). */
function problemsOf(text: string, opts: ParseConfigOptions = {}): string[] {
  try {
    parse(text, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message.split('\n');
  }
  throw new Error('expected a ConfigError, but the config parsed');
}

/** The one server of a config with a single server. */
function onlyServer(text: string, opts: ParseConfigOptions = {}): ServerConfig {
  const { servers } = parse(text, opts);
  expect(servers).toHaveLength(1);
  return servers[0]!;
}

/** Every default of a server, for a server whose id is `id`, cwd `cwd` and command `command`. */
function defaultServer(id: string, command: string, cwd: string): ServerConfig {
  return {
    id,
    command,
    args: [],
    cwd,
    env: {},
    inheritEnv: [],
    disabled: false,
    restart: {
      policy: 'on-failure',
      backoff: { initialMs: 1000, multiplier: 2, maxMs: 30_000, jitter: 0.2, resetAfterMs: 60_000 },
      limit: { maxRestarts: 5, windowMs: 60_000 },
    },
    timeouts: { startupMs: 30_000, callMs: 60_000, shutdownMs: 5000 },
    health: { intervalMs: 30_000, timeoutMs: 5000, failureThreshold: 3 },
    maxResultBytes: 65_536,
    limits: {
      queueBytes: 16 * 1024 * 1024,
      requestRate: 100,
      requestBurst: 200,
      listBytes: 64 * 1024 * 1024,
      listPages: 1000,
    },
    scopesRequired: [],
    tools: [],
  };
}

describe('parseConfig: defaults', () => {
  it('fills every default of a minimal config', () => {
    expect(parse('servers:\n  files:\n    command: node\n')).toEqual({
      source: 'c.yaml',
      supervisor: {
        strategy: 'one_for_one',
        separator: '.',
        maxResultBytes: 65_536,
        limit: { maxRestarts: 20, windowMs: 60_000 },
        containment: 'auto',
        logs: { ring: 1_048_576 },
      },
      servers: [defaultServer('files', 'node', '/base')],
    });
  });

  it('names inline text <config> and resolves against the working directory when not told otherwise', () => {
    const config = parseConfig('servers: { a: { command: x, cwd: sub } }', { env: {} });
    expect(config.source).toBe('<config>');
    expect(config.servers[0]!.cwd).toBe(`${process.cwd()}/sub`);
  });

  it('keeps servers in file order', () => {
    const ids = parse(
      'servers:\n  zeta: { command: z }\n  alpha: { command: a }\n  mid: { command: m }\n',
    ).servers.map((s) => s.id);
    expect(ids).toEqual(['zeta', 'alpha', 'mid']);
  });

  it('gives a server the supervisor-wide maxResultBytes unless it sets its own', () => {
    const { servers } = parse(
      'supervisor: { maxResultBytes: 1MiB }\nservers:\n  a: { command: x }\n  b: { command: x, maxResultBytes: 4KiB }\n',
    );
    expect(servers.map((s) => s.maxResultBytes)).toEqual([1_048_576, 4096]);
  });

  it('reads every key, converting durations and sizes', () => {
    const server = onlyServer(
      [
        'servers:',
        '  files:',
        '    command: node',
        '    args: [server.js, --port, 8080, --verbose, true]',
        '    cwd: /srv/files',
        '    env: { PORT: 8080, DEBUG: true, NAME: files }',
        '    inheritEnv: [LANG, LC_ALL]',
        '    disabled: true',
        '    restart:',
        '      policy: always',
        '      backoff: { initial: 250ms, multiplier: 1.5, max: 1m30s, jitter: 0, resetAfter: 1h }',
        '      limit: { maxRestarts: 0, window: 10s }',
        '    timeouts: { startup: 10s, call: 2m, shutdown: 1500ms }',
        '    health: { interval: 0, timeout: 2s, failureThreshold: 1 }',
        '    maxResultBytes: 64KB',
        '    scopes_required: [mcp.read, mcp.read]',
        '    tools: [list_files, { name: write_file, description: Writes., scopes_required: [mcp.write] }]',
        '    roots: [file:///srv/data, "file:///C:/data"]',
      ].join('\n'),
    );
    expect(server).toEqual({
      id: 'files',
      command: 'node',
      args: ['server.js', '--port', '8080', '--verbose', 'true'],
      cwd: '/srv/files',
      env: { PORT: '8080', DEBUG: 'true', NAME: 'files' },
      inheritEnv: ['LANG', 'LC_ALL'],
      disabled: true,
      restart: {
        policy: 'always',
        backoff: { initialMs: 250, multiplier: 1.5, maxMs: 90_000, jitter: 0, resetAfterMs: 3_600_000 },
        limit: { maxRestarts: 0, windowMs: 10_000 },
      },
      timeouts: { startupMs: 10_000, callMs: 120_000, shutdownMs: 1500 },
      health: { intervalMs: 0, timeoutMs: 2000, failureThreshold: 1 },
      maxResultBytes: 64_000,
      scopesRequired: ['mcp.read'],
      tools: [
        { name: 'list_files', scopesRequired: [] },
        { name: 'write_file', description: 'Writes.', scopesRequired: ['mcp.write'] },
      ],
      roots: ['file:///srv/data', 'file:///C:/data'],
      limits: DEFAULT_SERVER_LIMITS,
    });
  });

  it('takes `restart: <policy>` as shorthand, with the other restart defaults', () => {
    const server = onlyServer('servers: { a: { command: x, restart: never } }');
    expect(server.restart).toEqual({ ...defaultServer('a', 'x', '/base').restart, policy: 'never' });
  });

  it('fills the rest of a partly written section', () => {
    const server = onlyServer(
      'servers: { a: { command: x, restart: { backoff: { initial: 2s } }, health: {} } }',
    );
    expect(server.restart.backoff).toEqual({
      initialMs: 2000,
      multiplier: 2,
      maxMs: 30_000,
      jitter: 0.2,
      resetAfterMs: 60_000,
    });
    expect(server.health).toEqual({ intervalMs: 30_000, timeoutMs: 5000, failureThreshold: 3 });
  });

  it('accepts `type: stdio` on a server of our own shape', () => {
    expect(onlyServer('servers: { a: { type: stdio, command: x } }')).toEqual(
      defaultServer('a', 'x', '/base'),
    );
  });

  it.each([
    ['one_for_all', '__'],
    ['rest_for_one', '.'],
  ])('accepts strategy %s with separator %j', (strategy, separator) => {
    const config = parse(
      `supervisor: { strategy: ${strategy}, separator: "${separator}" }\nservers: { a: { command: x } }`,
    );
    expect(config.supervisor.strategy).toBe(strategy);
    expect(config.supervisor.separator).toBe(separator);
  });
});

describe('parseConfig: problems', () => {
  it('locates an unknown key at the key and says which was meant', () => {
    expect(problemsOf('servers:\n  files:\n    command: node\n    restrat: always\n')).toEqual([
      'c.yaml:4:5 servers.files.restrat: unknown key (did you mean "restart"?)',
    ]);
  });

  it('rejects unknown keys at every level', () => {
    expect(
      problemsOf(
        [
          'superviser: {}',
          'supervisor: { limit: { max: 1 } }',
          'servers:',
          '  a:',
          '    command: x',
          '    restart: { backoff: { inital: 1s } }',
          '    tools: [{ name: t, scope: [x] }]',
        ].join('\n'),
      ),
    ).toEqual([
      'c.yaml:1:1 superviser: unknown key (did you mean "supervisor"?)',
      'c.yaml:2:24 supervisor.limit.max: unknown key (expected one of: maxRestarts, window)',
      'c.yaml:6:27 servers.a.restart.backoff.inital: unknown key (did you mean "initial"?)',
      'c.yaml:7:24 servers.a.tools[0].scope: unknown key (expected one of: name, description, input_schema, output_schema, scopes_required)',
    ]);
  });

  it('rejects a duplicate key at the second one', () => {
    expect(problemsOf('servers:\n  a:\n    command: x\n    command: y\n')).toEqual([
      'c.yaml:4:5: duplicate key',
    ]);
    expect(problemsOf('servers:\n  a: { command: x }\n  a: { command: y }\n')).toEqual([
      'c.yaml:3:3: duplicate key',
    ]);
  });

  it('reports every problem of several lines, each as file:line:col path: message', () => {
    const text = [
      'supervisor:',
      '  strategy: one_for_none',
      '  separator: "-"',
      'servers:',
      '  files:',
      '    command: node',
      '    env: { TOKEN: "${TOKEN}", "BAD-NAME": x }',
      '    timeouts: { startup: 5 s, call: -1, shutdown: 1x }',
      '    restart: { policy: sometimes, backoff: { jitter: 1.5, multiplier: 0.5 } }',
      '    health: { failureThreshold: 0 }',
      '    tools: [Bad, ok, ok]',
      '    inheritEnv: [LANG, "not a name"]',
      '    roots: [/srv/data]',
      '    maxResultBytes: 0',
      '  Bad.Id:',
      '    command: ""',
      '  web:',
      '    type: http',
      '    command: x',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      'c.yaml:2:3 supervisor.strategy: expected one of: one_for_one, one_for_all, rest_for_one',
      'c.yaml:3:3 supervisor.separator: expected one of: ".", "__"',
      'c.yaml:7:20 servers.files.env.TOKEN: environment variable TOKEN is not set (write ${TOKEN:-value} to give a default)',
      'c.yaml:7:31 servers.files.env.BAD-NAME: not an environment variable name: "BAD-NAME"',
      'c.yaml:8:17 servers.files.timeouts.startup: invalid duration "5 s": expected a number with a unit (250ms, 5s, 1m, 1h, 1m30s)',
      'c.yaml:8:31 servers.files.timeouts.call: invalid duration -1: must not be negative',
      'c.yaml:8:41 servers.files.timeouts.shutdown: invalid duration "1x": expected a number with a unit (250ms, 5s, 1m, 1h, 1m30s)',
      'c.yaml:9:16 servers.files.restart.policy: expected one of: always, on-failure, never',
      'c.yaml:9:46 servers.files.restart.backoff.jitter: must be between 0 and 1',
      'c.yaml:9:59 servers.files.restart.backoff.multiplier: must be at least 1',
      'c.yaml:10:15 servers.files.health.failureThreshold: must be at least 1',
      'c.yaml:11:13 servers.files.tools[0]: invalid tool name "Bad": expected dot-separated segments of [a-z][a-z0-9_]*',
      'c.yaml:11:22 servers.files.tools[2]: duplicate tool "ok" (first declared at line 11)',
      'c.yaml:12:24 servers.files.inheritEnv[1]: not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)',
      'c.yaml:13:13 servers.files.roots[0]: expected a file:// URI (file:///abs/path)',
      'c.yaml:14:5 servers.files.maxResultBytes: must be at least 256',
      'c.yaml:15:3 servers.Bad.Id: invalid server id "Bad.Id": expected [a-z][a-z0-9_-]* (lower-case letters, digits, _ and -, starting with a letter)',
      'c.yaml:16:5 servers.Bad.Id.command: must not be empty',
      'c.yaml:17:3 servers.web.url: missing (required for type http)',
    ]);
  });

  it('names a missing command and mismatched types plainly', () => {
    expect(
      problemsOf(
        'servers:\n  a:\n    args: [x, [y]]\n  b:\n    command: [node]\n    env: [A]\n    disabled: maybe\n',
      ),
    ).toEqual([
      'c.yaml:2:3 servers.a.command: missing (required): a command to run, a container, or a url',
      'c.yaml:3:15 servers.a.args[1]: expected a string, received a list',
      'c.yaml:5:5 servers.b.command: expected a string, received a list',
      'c.yaml:6:5 servers.b.env: expected a mapping, received a list',
      'c.yaml:7:5 servers.b.disabled: expected true or false',
    ]);
  });

  it('refuses a backoff whose max is below its initial delay', () => {
    expect(
      problemsOf('servers: { a: { command: x, restart: { backoff: { initial: 1m, max: 5s } } } }'),
    ).toEqual(['c.yaml:1:64 servers.a.restart.backoff.max: must not be less than initial']);
  });

  it.each([
    ['', 'c.yaml:1:1: the config is empty: expected a mapping with a "servers" key'],
    ['\n\n   \n', 'c.yaml:1:1: the config is empty: expected a mapping with a "servers" key'],
    ['# nothing here\n', 'c.yaml:1:1: the config is empty: expected a mapping with a "servers" key'],
    ['- a\n- b\n', 'c.yaml:1:1: the top level must be a mapping with a "servers" key, not a list'],
    ['just text', 'c.yaml:1:1: the top level must be a mapping with a "servers" key, not string'],
    ['supervisor: {}\n', 'c.yaml:1:1: no servers: expected a "servers" mapping of server id to server'],
    ['servers: {}\n', 'c.yaml:1:1 servers: no servers configured'],
    ['servers:\n', 'c.yaml:1:1 servers: expected a mapping of server id to server, not null'],
    ['servers: [a, b]\n', 'c.yaml:1:1 servers: expected a mapping of server id to server, not a list'],
    ['servers: { a: x }\n', 'c.yaml:1:12 servers.a: expected a mapping, received string'],
    [
      'servers: { a: { command: x }\n',
      'c.yaml:2:1: Flow map in block collection must be sufficiently indented and end with a }',
    ],
    [
      'servers: a\n---\nb: 1\n',
      'c.yaml:2:1: Source contains multiple documents; please use YAML.parseAllDocuments()',
    ],
  ])('explains %j', (text, problem) => {
    expect(problemsOf(text)).toEqual([problem]);
  });

  it('turns an alias bomb into a problem, not a crash', () => {
    let text = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 8; i++)
      text += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`;
    expect(problemsOf(`${text}servers: { x: { command: a } }`)).toEqual([
      'c.yaml:1:1: cannot read the YAML: Excessive alias count indicates a resource exhaustion attack',
    ]);
  });

  it('reports a value that contains itself', () => {
    expect(problemsOf('servers:\n  x:\n    command: a\n    args: &x [a, *x]\n')).toEqual([
      'c.yaml:4:18 servers.x.args[1]: recursive alias: this value contains itself',
    ]);
  });

  it('throws a ConfigError whose message lists the problems and whose stack is no trace', () => {
    let error: unknown;
    try {
      parse('servers:\n  a: { command: "" }\n  b: { cmd: x }\n');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const e = error as ConfigError;
    expect(e.code).toBe('invalid_config');
    expect(e.name).toBe('ConfigError');
    expect(e.problems).toEqual([
      { source: 'c.yaml', line: 2, col: 8, path: 'servers.a.command', message: 'must not be empty' },
      {
        source: 'c.yaml',
        line: 3,
        col: 3,
        path: 'servers.b.command',
        message: 'missing (required): a command to run, a container, or a url',
      },
      {
        source: 'c.yaml',
        line: 3,
        col: 8,
        path: 'servers.b.cmd',
        message: 'unknown key (did you mean "command"?)',
      },
    ]);
    expect(e.message.split('\n')).toHaveLength(3);
    expect(e.stack).toBe(`ConfigError: ${e.message}`);
  });
});

describe('parseConfig: separators and ids', () => {
  it('refuses, under separator "__", server ids that would not split back', () => {
    expect(
      problemsOf(
        'supervisor: { separator: "__" }\nservers:\n  my__srv: { command: x }\n  ok_1: { command: x }\n',
      ),
    ).toEqual([
      'c.yaml:3:3 servers.my__srv: server id "my__srv" cannot be used with separator "__": it contains "__" or ends in "_", so its tool names would not split back',
    ]);
  });

  it.each(['-', '', '/', ':', '_', '..'])('refuses separator %j', (separator) => {
    expect(problemsOf(`supervisor: { separator: "${separator}" }\nservers: { a: { command: x } }`)).toEqual([
      'c.yaml:1:15 supervisor.separator: expected one of: ".", "__"',
    ]);
  });
});

describe('parseConfig: interpolation', () => {
  const env = { TOKEN: 's3cret', HOME: '/home/me', EMPTY: '', STARTUP: '15s', RESTARTS: '7', OFF: 'true' };

  it('expands ${VAR}, ${VAR:-default} and $$ in every string scalar', () => {
    const server = onlyServer(
      [
        'servers:',
        '  a:',
        '    command: "${HOME}/bin/server"',
        '    args: ["--token=${TOKEN}", "${MISSING:-fallback}", "$$literal", "${EMPTY:-was-empty}"]',
        '    cwd: ${HOME}/work',
        '    env: { TOKEN: "${TOKEN}", MODE: "${MODE:-dev}", PRICE: "$$5" }',
        '    timeouts: { startup: "${STARTUP}" }',
        '    restart: { limit: { maxRestarts: "${RESTARTS}" } }',
        '    disabled: ${OFF}',
      ].join('\n'),
      { env },
    );
    expect(server.command).toBe('/home/me/bin/server');
    expect(server.args).toEqual(['--token=s3cret', 'fallback', '$literal', 'was-empty']);
    expect(server.cwd).toBe('/home/me/work');
    expect(server.timeouts.startupMs).toBe(15_000);
    expect(server.restart.limit.maxRestarts).toBe(7);
    expect(server.disabled).toBe(true);
    // Keys are not interpolated: "${TOKEN}" is a (bad) env name, reported as such.
    expect(() => parse('servers: { a: { command: x, env: { "${TOKEN}": kept } } }', { env })).toThrow(
      'c.yaml:1:36 servers.a.env.${TOKEN}: not an environment variable name: "${TOKEN}"',
    );
    expect(server.env).toEqual({ TOKEN: 's3cret', MODE: 'dev', PRICE: '$5' });
  });

  it('reports an unset variable by name at the reference itself, once per reference', () => {
    expect(
      problemsOf(
        'servers:\n  a:\n    command: "${CMD}"\n    args:\n      - --x\n      - "--token=${TOKEN} ${OTHER}"\n',
        {
          env: { OTHER: 'o' },
        },
      ),
    ).toEqual([
      'c.yaml:3:15 servers.a.command: environment variable CMD is not set (write ${CMD:-value} to give a default)',
      'c.yaml:6:18 servers.a.args[1]: environment variable TOKEN is not set (write ${TOKEN:-value} to give a default)',
    ]);
  });

  it('refuses VS Code input variables, naming them', () => {
    expect(problemsOf('servers:\n  a: { command: x, env: { KEY: "${input:api-key}" } }\n')).toEqual([
      'c.yaml:2:33 servers.a.env.KEY: ${input:api-key}: VS Code input variables are not supported; write the value here or use ${VAR} from the environment',
    ]);
  });

  it('uses process.env when no env is given', () => {
    const name = 'MCP_SUPERVISOR_CONFIG_TEST_VAR';
    process.env[name] = 'from-process';
    try {
      const config = parseConfig(`servers: { a: { command: "\${${name}}" } }`);
      expect(config.servers[0]!.command).toBe('from-process');
    } finally {
      delete process.env[name];
    }
  });
});

describe('parseConfig: Claude Desktop and VS Code shapes', () => {
  it('loads an mcpServers file with defaults, ignoring the host app keys', () => {
    const text = JSON.stringify({
      globalShortcut: 'Ctrl+Space',
      mcpServers: {
        GitHub: { command: 'npx', args: ['-y', 'gh'], env: { T: '${GH}' } },
        'my.server': { command: 'node', cwd: 'srv' },
      },
    });
    const config = parse(text, { source: 'claude.json', env: { GH: 'tok' } });
    expect(config.servers).toEqual([
      { ...defaultServer('github', 'npx', '/base'), args: ['-y', 'gh'], env: { T: 'tok' } },
      defaultServer('my-server', 'node', '/base/srv'),
    ]);
  });

  it('still validates the server entries of an mcpServers file, at their own keys', () => {
    const text =
      '{\n  "mcpServers": {\n    "Web": { "url": "https://x" },\n    "web": { "command": "y" }\n  }\n}\n';
    expect(problemsOf(text, { source: 'claude.json' })).toEqual([
      'claude.json:4:5 mcpServers.web: server id "web" is already used by "Web"; rename one of them',
    ]);
  });

  it('does not interpolate the host app keys it ignores', () => {
    const text = '{"theme": "${UNSET}", "mcpServers": {"a": {"command": "x"}}}';
    expect(parse(text).servers.map((s) => s.id)).toEqual(['a']);
  });

  it('refuses a file with both servers and mcpServers', () => {
    expect(problemsOf('servers: { a: { command: x } }\nmcpServers: { b: { command: y } }\n')).toEqual([
      'c.yaml:1:1 servers: use either "servers" or "mcpServers", not both',
    ]);
  });

  it('loads the VS Code shape: inputs, type stdio, ${env:VAR}, JSON comments', () => {
    const text = [
      '{',
      '  // workspace servers',
      '  "inputs": [{ "type": "promptString", "id": "key" }],',
      '  "servers": {',
      '    "Fetch Server": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"], "env": { "K": "${env:K}" } },',
      '  }',
      '}',
    ].join('\n');
    const config = parse(text, { source: 'mcp.json', env: { K: 'v' } });
    expect(config.servers).toEqual([
      { ...defaultServer('fetch-server', 'uvx', '/base'), args: ['mcp-server-fetch'], env: { K: 'v' } },
    ]);
  });

  it('normalizes a `type:` entry id even in our own shape, but not a plain one', () => {
    expect(parse('servers:\n  GitHub: { type: stdio, command: x }\n').servers[0]!.id).toBe('github');
    expect(problemsOf('servers:\n  GitHub: { command: x }\n')).toEqual([
      'c.yaml:2:3 servers.GitHub: invalid server id "GitHub": expected [a-z][a-z0-9_-]* (lower-case letters, digits, _ and -, starting with a letter)',
    ]);
  });

  it('refuses a non-list inputs', () => {
    expect(problemsOf('inputs: {}\nservers: { a: { command: x } }\n')).toEqual([
      'c.yaml:1:1 inputs: expected a list, not a mapping',
    ]);
  });
});

describe('parseConfig: limits', () => {
  it('reads the queue and listing sizes, the request rate and the page bound', () => {
    const server = onlyServer(
      [
        'servers:',
        '  a:',
        '    command: x',
        '    limits: { queue: 1MiB, requests: { rate: 2.5, burst: 10 }, listing: { bytes: 4MiB, pages: 50 } }',
      ].join('\n'),
    );
    expect(server.limits).toEqual({
      queueBytes: 1_048_576,
      requestRate: 2.5,
      requestBurst: 10,
      listBytes: 4_194_304,
      listPages: 50,
    });
  });

  it('locates a bad bound at its field', () => {
    expect(
      problemsOf(
        [
          'servers:',
          '  a:',
          '    command: x',
          '    limits: { queue: 1KiB, requests: { rate: 0, burst: 0 }, listing: { pages: 0, rows: 1 } }',
        ].join('\n'),
      ),
    ).toEqual([
      'c.yaml:4:15 servers.a.limits.queue: must be at least 65536',
      'c.yaml:4:40 servers.a.limits.requests.rate: must be more than 0',
      'c.yaml:4:49 servers.a.limits.requests.burst: must be at least 1',
      'c.yaml:4:72 servers.a.limits.listing.pages: must be at least 1',
      'c.yaml:4:82 servers.a.limits.listing.rows: unknown key (expected one of: bytes, pages)',
    ]);
  });
});
