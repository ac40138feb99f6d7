import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../cli/helpers.js';
import { killWithHome, leftWithHome } from './helpers.js';

// The path README gives someone without the registry: pack the repository, install the tarball globally (here
// under a prefix of the test's own), and run the installed command, far from the checkout.

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

/** Scripts npm may run when a package is installed (npm help scripts); a package for others has none of them. */
const INSTALL_SCRIPTS = [
  'preinstall',
  'install',
  'postinstall',
  'preprepare',
  'prepare',
  'postprepare',
  'prepublish',
];

describe('the packed package, installed globally', () => {
  let dir: string;
  let prefix: string;
  let installed: string;
  let home: string;
  let packed: string[];
  let installLog: string;

  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'mcp-sup-install-'));
    prefix = join(dir, 'prefix');
    home = join(dir, 'home');
    mkdirSync(home);
    // Without its scripts: `prepack` would rebuild dist/ under test files running beside this one. The build it
    // would run is the one ensureBuilt just made sure of.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      timeout: 60_000,
      maxBuffer: 16 << 20,
    });
    const [entry] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    packed = entry!.files.map((f) => f.path);
    // npm's own cache, preferred to the registry: a global install into the prefix and nothing else.
    const install = await run(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        join(dir, entry!.filename),
      ],
      { cwd: dir, timeout: 150_000, maxBuffer: 16 << 20 },
    );
    installLog = install.stdout + install.stderr;
    installed = join(prefix, 'lib', 'node_modules', pkg.name);
  }, 240_000);

  afterAll(() => {
    if (home) killWithHome(home);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('carries dist/, the examples and the docs, and none of the tests or sources', () => {
    for (const file of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'dist/inspector/browser/page.js',
      'examples/demo.yaml',
      'examples/servers/notes.mjs',
      'docs/cli.md',
    ]) {
      expect(packed, file).toContain(file);
    }
    expect(packed.filter((f) => /^(src|test|bench|\.ci)\//.test(f))).toEqual([]);
  });

  it('runs no script of its own when installed', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    expect(INSTALL_SCRIPTS.filter((s) => manifest.scripts?.[s] !== undefined)).toEqual([]);
    // npm 11 names each package whose install scripts it held back; this one must not be among them.
    expect(installLog).not.toMatch(new RegExp(`${pkg.name}@${pkg.version} \\(`));
  });

  it('puts a working mcp-supervisor on the prefix bin: --version, then serve to an SDK client', async () => {
    const bin = join(prefix, 'bin', 'mcp-supervisor');
    // A HOME of its own: the trust store and the state directory land under it, and it marks every process.
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
    };
    delete env['MCP_SUPERVISOR_TRUST_STORE'];
    const version = await run(bin, ['--version'], { cwd: dir, env, timeout: 20_000 });
    expect(version.stdout.trim()).toBe(pkg.version);

    const config = join(dir, 'fleet.yaml');
    const notes = join(installed, 'examples', 'servers', 'notes.mjs');
    writeFileSync(
      config,
      `servers:\n  notes:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(notes)}]\n`,
    );
    const transport = new StdioClientTransport({
      command: bin,
      args: ['serve', config, '--trust-all'],
      cwd: dir,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'install-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'notes.add_note',
        'notes.list_notes',
        'notes.word_count',
      ]);
      const result = await client.callTool({ name: 'notes.add_note', arguments: { text: 'installed' } });
      expect(result.content).toEqual([{ type: 'text', text: 'note #1 added' }]);
    } finally {
      await client.close();
    }
    // Closing its stdin ends serve, and serve ends its server: nothing with this HOME is left.
    expect(await leftWithHome(home, 10_000)).toEqual([]);
  }, 60_000);
});
