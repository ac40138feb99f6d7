import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { DEFAULT_SERVER_LIMITS } from '../../src/config/limits.js';
import { loadConfig } from '../../src/config/parse-config.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-config-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = join(dir, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return (err as ConfigError).message.split('\n');
}

describe('loadConfig: files and paths', () => {
  it('resolves relative cwd and manifest against the config file, not the working directory', async () => {
    write('conf/files.manifest.yaml', 'provides: { mcp_tools: [read_file] }\n');
    const file = write(
      'conf/supervisor.yaml',
      'servers:\n  a: { command: node, cwd: ./servers, manifest: files.manifest.yaml }\n  b: { command: node }\n  c: { command: node, cwd: /abs/../abs/x }\n',
    );
    const config = await loadConfig(file, { env: {} });
    expect(config.source).toBe(file);
    expect(config.servers.map((s) => s.cwd)).toEqual([
      join(dir, 'conf/servers'),
      join(dir, 'conf'),
      '/abs/x',
    ]);
    expect(config.servers[0]!.manifest).toBe(join(dir, 'conf/files.manifest.yaml'));
    expect(config.servers[0]!.tools).toEqual([{ name: 'read_file', scopesRequired: [] }]);
  });

  it('reports a missing file as path:1:1: cannot read config', async () => {
    const file = join(dir, 'nope.yaml');
    expect(await problemsOf(loadConfig(file))).toEqual([
      `${file}:1:1: cannot read config: ENOENT: no such file or directory`,
    ]);
  });

  it('reports a directory as unreadable', async () => {
    expect(await problemsOf(loadConfig(dir))).toEqual([
      `${dir}:1:1: cannot read config: EISDIR: illegal operation on a directory, read`,
    ]);
  });

  it('names the file in every problem', async () => {
    const file = write('bad.yaml', 'servers:\n  a:\n    command: x\n    restrat: never\n');
    expect(await problemsOf(loadConfig(file))).toEqual([
      `${file}:4:5 servers.a.restrat: unknown key (did you mean "restart"?)`,
    ]);
  });

  it('reads a BOM-prefixed file with its positions intact', async () => {
    const file = write('bom.yaml', '\uFEFFservers:\n  a: { command: x, bogus: 1 }\n');
    expect(await problemsOf(loadConfig(file))).toEqual([
      `${file}:2:20 servers.a.bogus: unknown key (expected one of: type, command, url, headers, container, args, cwd, env, inheritEnv, disabled, restart, timeouts, health, maxResultBytes, manifest, scopes_required, tools, roots, allow, limits, namespace, protocol)`,
    ]);
  });
});

describe('loadConfig: manifests', () => {
  it('merges the manifest: its tools first, then tools:, a name in both taken from tools:; scopes united', async () => {
    write(
      'm.yaml',
      [
        'name: files',
        'provides:',
        '  scopes_required: [mcp.files, mcp.read]',
        '  mcp_tools:',
        '    - read_file',
        '    - name: write_file',
        '      description: manifest version',
        '      input_schema: { type: object }',
      ].join('\n'),
    );
    const file = write(
      'c.yaml',
      [
        'servers:',
        '  files:',
        '    command: node',
        '    manifest: m.yaml',
        '    scopes_required: [mcp.read, mcp.base]',
        '    tools:',
        '      - list_files',
        '      - { name: write_file, description: config version, scopes_required: [mcp.write] }',
      ].join('\n'),
    );
    const [server] = (await loadConfig(file, { env: {} })).servers;
    expect(server!.scopesRequired).toEqual(['mcp.read', 'mcp.base', 'mcp.files']);
    expect(server!.tools).toEqual([
      { name: 'read_file', scopesRequired: [] },
      { name: 'write_file', description: 'config version', scopesRequired: ['mcp.write'] },
      { name: 'list_files', scopesRequired: [] },
    ]);
  });

  it("reports a manifest's problems at the manifest's own file:line:col, after the config's", async () => {
    const manifest = write(
      'bad.manifest.yaml',
      'provides:\n  mcp_tools:\n    - Bad-Name\n    - { name: ok, scopes: [x] }\n  scopes_requird: [a]\n',
    );
    const file = write(
      'c.yaml',
      'servers:\n  a: { command: x, manifest: bad.manifest.yaml }\n  b: { command: x, restart: { policy: sometimes } }\n',
    );
    expect(await problemsOf(loadConfig(file, { env: {} }))).toEqual([
      `${file}:3:31 servers.b.restart.policy: expected one of: always, on-failure, never`,
      `${manifest}:3:7 provides.mcp_tools[0]: invalid tool name "Bad-Name": expected dot-separated segments of [a-z][a-z0-9_]*`,
      `${manifest}:4:19 provides.mcp_tools[1].scopes: unknown key`,
      `${manifest}:5:3 provides.scopes_requird: unknown key`,
    ]);
  });

  it('reports a manifest that cannot be read at the config line naming it', async () => {
    const file = write('c.yaml', 'servers:\n  a:\n    command: x\n    manifest: ./missing.yaml\n');
    expect(await problemsOf(loadConfig(file, { env: {} }))).toEqual([
      `${file}:4:5 servers.a.manifest: cannot read manifest ${join(dir, 'missing.yaml')}: ENOENT: no such file or directory`,
    ]);
  });
});

describe('loadConfig: fixtures', () => {
  it('loads a Claude Desktop config', async () => {
    const config = await loadConfig(join(FIXTURES, 'claude_desktop_config.json'), {
      env: { GITHUB_TOKEN: 'ghp_x', HOME: '/home/me' },
    });
    expect(config.supervisor.separator).toBe('.');
    expect(config.servers.map((s) => [s.id, s.command, s.cwd])).toEqual([
      ['filesystem', 'npx', FIXTURES],
      ['github', 'docker', FIXTURES],
      ['my-memory', 'node', join(FIXTURES, 'servers')],
    ]);
    expect(config.servers[1]!.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_x' });
    expect(config.servers[2]!.env).toEqual({ MEMORY_FILE_PATH: '/home/me/memory.json', DEBUG: '0' });
    expect(config.servers[2]!.restart.policy).toBe('on-failure');
  });

  it('names the unset variable of a Claude Desktop config at its line', async () => {
    const file = join(FIXTURES, 'claude_desktop_config.json');
    expect(await problemsOf(loadConfig(file, { env: { HOME: '/h' } }))).toEqual([
      `${file}:11:49 mcpServers.GitHub.env.GITHUB_PERSONAL_ACCESS_TOKEN: environment variable GITHUB_TOKEN is not set (write \${GITHUB_TOKEN:-value} to give a default)`,
    ]);
  });

  it('loads a VS Code mcp.json with comments and a trailing comma', async () => {
    const config = await loadConfig(join(FIXTURES, 'vscode-mcp.json'), { env: { PERPLEXITY_API_KEY: 'pk' } });
    expect(config.servers.map((s) => [s.id, s.command, s.args, s.env])).toEqual([
      ['perplexity', 'npx', ['-y', 'server-perplexity-ask'], { PERPLEXITY_API_KEY: 'pk' }],
      ['fetch', 'uvx', ['mcp-server-fetch'], {}],
    ]);
  });

  it('refuses VS Code inputs, saying why, and reads its http servers', async () => {
    const file = join(FIXTURES, 'vscode-inputs.json');
    expect(await problemsOf(loadConfig(file, { env: {} }))).toEqual([
      `${file}:7:28 servers.search.env.API_KEY: \${input:api-key}: VS Code input variables are not supported; write the value here or use \${VAR} from the environment`,
    ]);
  });

  it('loads the full example with every key set', async () => {
    const config = await loadConfig(join(FIXTURES, 'full.yaml'), { env: { TOKEN: 't0k' } });
    expect(config).toEqual({
      source: join(FIXTURES, 'full.yaml'),
      file: join(FIXTURES, 'full.yaml'),
      supervisor: {
        strategy: 'rest_for_one',
        separator: '__',
        maxResultBytes: 1_048_576,
        limit: { maxRestarts: 10, windowMs: 120_000 },
        containment: 'pgroup',
        logs: { ring: 262_144, files: { keep: 4, size: 8_388_608 } },
      },
      servers: [
        {
          id: 'files',
          command: 'node',
          args: ['server.js', '--root', '.', '--port', '8080'],
          cwd: join(FIXTURES, 'servers'),
          env: { TOKEN: 't0k', MODE: 'dev', PRICE: '$5' },
          inheritEnv: ['LANG'],
          disabled: false,
          restart: {
            policy: 'always',
            backoff: { initialMs: 250, multiplier: 1.5, maxMs: 90_000, jitter: 0, resetAfterMs: 3_600_000 },
            limit: { maxRestarts: 3, windowMs: 10_000 },
          },
          timeouts: { startupMs: 10_000, callMs: 120_000, shutdownMs: 1500 },
          health: { intervalMs: 0, timeoutMs: 2000, failureThreshold: 5 },
          maxResultBytes: 64_000,
          manifest: join(FIXTURES, 'files.manifest.yaml'),
          scopesRequired: ['mcp.read.files', 'mcp.files'],
          tools: [
            { name: 'read_file', scopesRequired: [] },
            { name: 'write_file', scopesRequired: ['mcp.write.files'] },
            { name: 'list_files', scopesRequired: [] },
          ],
          roots: ['file:///srv/data'],
          limits: {
            queueBytes: 4 * 1024 * 1024,
            requestRate: 20,
            requestBurst: 40,
            listBytes: 8 * 1024 * 1024,
            listPages: 100,
          },
        },
        {
          id: 'notes',
          command: '/usr/bin/notes-server',
          args: [],
          cwd: FIXTURES,
          env: {},
          inheritEnv: [],
          disabled: true,
          restart: {
            policy: 'never',
            backoff: { initialMs: 1000, multiplier: 2, maxMs: 30_000, jitter: 0.2, resetAfterMs: 60_000 },
            limit: { maxRestarts: 5, windowMs: 60_000 },
          },
          timeouts: { startupMs: 30_000, callMs: 60_000, shutdownMs: 5000 },
          health: { intervalMs: 30_000, timeoutMs: 5000, failureThreshold: 3 },
          maxResultBytes: 1_048_576,
          limits: DEFAULT_SERVER_LIMITS,
          scopesRequired: [],
          tools: [],
        },
      ],
    });
  });
});
