import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliProcesses, ensureBuilt } from '../helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

const NODE = process.execPath;

/** `${name}`: a variable reference, as the files hold them. */
const ref = (name: string) => `\${${name}}`;

/** The lines of stderr, without the empty one after the last newline. */
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('mcp-supervisor init: the starter config', () => {
  it('writes a commented config that check accepts as it is, private to its owner', async () => {
    const file = join(cli.tempDir(), 'fleet.yaml');
    const r = await cli.runCli(['init', file]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain(`wrote ${file}`);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# /);
    expect(text).toContain('# restart:');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const check = await cli.runCli(['check', file]);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  });

  it('never overwrites a file without --force, and says so in one line', async () => {
    const file = join(cli.tempDir(), 'fleet.yaml');
    writeFileSync(file, 'mine\n');
    const r = await cli.runCli(['init', file]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(
      `mcp-supervisor: ${file} already exists; pass --force to overwrite it, or name another file\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
    const forced = await cli.runCli(['init', file, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('servers:');
  });

  it('writes fleet.yaml in the working directory when no file is named (the name the docs use)', async () => {
    const dir = cli.tempDir();
    const r = spawnSync(process.execPath, [BIN, 'init'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(0);
    expect(readFileSync(join(dir, 'fleet.yaml'), 'utf8')).toContain('servers:');
    const help = await cli.runCli(['init', '--help']);
    expect(help.stdout).toMatch(/^ {2}file +the config to write \(default: "fleet\.yaml"\)$/m);
  });
});

describe('mcp-supervisor init --from: converting another client’s file', () => {
  it('Claude Desktop: maps command servers and url servers, moves secrets to references, turns a ms timeout into a duration, notes the rest', async () => {
    const dir = cli.tempDir();
    writeFileSync(join(dir, 'server.js'), '');
    const from = join(dir, 'claude_desktop_config.json');
    writeFileSync(
      from,
      JSON.stringify(
        {
          globalShortcut: 'Ctrl+Space',
          mcpServers: {
            GitHub: {
              command: NODE,
              args: ['server.js', '--stdio'],
              env: {
                GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
                LOG_LEVEL: 'debug',
              },
              timeout: 90000,
              autoApprove: ['search'],
            },
            'my.server': { command: NODE, args: ['server.js'], cwd: '.', disabled: true },
            'my-server': {
              type: 'http',
              url: 'https://mcp.example.com/mcp',
              headers: { 'X-Api-Key': 'k3y-Zq8Xw2Lp9Rt4Vb7N' },
            },
          },
        },
        null,
        2,
      ),
    );
    const out = join(dir, 'fleet.yaml');
    const r = await cli.runCli(['init', '--from', from, out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`wrote ${out}: 3 server(s) from ${from}`);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('ghp_0123456789');
    expect(text).not.toContain('k3y-Zq8Xw2Lp9Rt4Vb7N');
    expect(text).toContain(`GITHUB_PERSONAL_ACCESS_TOKEN: "${ref('GITHUB_PERSONAL_ACCESS_TOKEN')}"`);
    expect(text).toContain('LOG_LEVEL: "debug"');
    expect(text).toContain(`X-Api-Key: "${ref('MY_SERVER_2_X_API_KEY')}"`);
    expect(text).toContain('timeouts: {"call":"90s"}');
    expect(text).toMatch(/^ {2}# autoApprove: not converted: \["search"\]/m);
    expect(text).toMatch(/^# globalShortcut: not converted/m);
    expect(text).toMatch(/^ {2}github:$/m);
    expect(text).toMatch(/^ {2}my-server:$/m);
    expect(text).toMatch(/^ {2}my-server-2:$/m);
    // Each note is also a warning, located in the source.
    const warnings = lines(r.stderr);
    expect(warnings.every((l) => l.startsWith(`warning: ${from}:`))).toBe(true);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /:\d+:\d+ mcpServers\.GitHub\.env\.GITHUB_PERSONAL_ACCESS_TOKEN: looks like a secret and was not copied: set GITHUB_PERSONAL_ACCESS_TOKEN/,
      ),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/mcpServers\.GitHub\.timeout: 90000 \(milliseconds\) became timeouts\.call 90s$/),
    );
    expect(warnings).toContainEqual(expect.stringMatching(/mcpServers\.GitHub\.autoApprove: not converted/));
    expect(warnings).toContainEqual(expect.stringMatching(/:2:3 globalShortcut: not converted/));

    const check = await cli.runCli(['check', out], {
      GITHUB_PERSONAL_ACCESS_TOKEN: 'x',
      MY_SERVER_2_X_API_KEY: 'y',
    });
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('3 server(s)');
  });

  it('Cursor (.cursor/mcp.json, the Claude Desktop shape): converted, and check accepts it', async () => {
    const dir = cli.tempDir();
    mkdirSync(join(dir, '.cursor'));
    writeFileSync(join(dir, 'tool.mjs'), '');
    const from = join(dir, '.cursor', 'mcp.json');
    writeFileSync(
      from,
      JSON.stringify({ mcpServers: { tool: { command: NODE, args: [join(dir, 'tool.mjs')] } } }),
    );
    const out = join(dir, 'fleet.yaml');
    const r = await cli.runCli(['init', '--from', from, out]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const check = await cli.runCli(['check', out]);
    expect(check).toMatchObject({ code: 0, stderr: '' });
  });

  it('VS Code: inputs become environment references, the workspace folder its path, sse and envFile are comments; comments and trailing commas are read', async () => {
    const dir = cli.tempDir();
    mkdirSync(join(dir, '.vscode'));
    writeFileSync(join(dir, 'srv.js'), '');
    const from = join(dir, '.vscode', 'mcp.json');
    writeFileSync(
      from,
      [
        '{',
        '  // prompted for by VS Code',
        '  "inputs": [{ "type": "promptString", "id": "api-key", "description": "API key", "password": true }],',
        '  "servers": {',
        '    "Search": {',
        '      "type": "stdio",',
        `      "command": ${JSON.stringify(NODE)},`,
        `      "args": ["${ref('workspaceFolder')}/srv.js"],`,
        `      "env": { "API_KEY": "${ref('input:api-key')}" },`,
        `      "envFile": "${ref('workspaceFolder')}/.env",`,
        '    },',
        '    "legacy": { "type": "sse", "url": "https://old.example.com/sse" },',
        '  },',
        '}',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'fleet.yaml');
    const r = await cli.runCli(['init', '--from', from, out]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`args: [${JSON.stringify(`${dir}/srv.js`)}]`);
    expect(text).toContain(`API_KEY: "${ref('API_KEY')}"`);
    expect(text).toMatch(/^ {2}# envFile: not converted/m);
    expect(text).toMatch(/^ {2}# legacy:$/m);
    expect(text).toMatch(/^ {2}# {3}url: "https:\/\/old\.example\.com\/sse"$/m);
    const warnings = lines(r.stderr);
    expect(warnings).toContainEqual(
      expect.stringMatching(/:3:3 inputs: VS Code input "api-key" \(a password\)/),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/:9:\d+ servers\.Search\.env\.API_KEY: \$\{input:api-key\} became \$\{API_KEY\}/),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/:12:\d+ servers\.legacy\.type: server not converted: .*HTTP\+SSE/),
    );
    const check = await cli.runCli(['check', out], { API_KEY: 'x' });
    expect(check).toMatchObject({ code: 0, stderr: '' });
  });

  it('a bad input file is one located line and exit 1, never a stack trace or a file written', async () => {
    const dir = cli.tempDir();
    const out = join(dir, 'fleet.yaml');
    // What follows the file's path on the one line.
    const cases: [string, string, RegExp][] = [
      ['syntax.json', '{\n  "mcpServers": {\n    "a": { "command": "x" \n}', /^:\d+:\d+: /],
      ['list.json', '[1, 2]', /^:1:1: expected a JSON object with "mcpServers"/],
      [
        'none.json',
        '{ "other": {} }',
        /^:1:1: no servers: expected "mcpServers" \(Claude Desktop, Cursor\) or "servers" \(VS Code\)$/,
      ],
      [
        'entry.json',
        '{\n  "mcpServers": {\n    "a": "node x.js"\n  }\n}',
        /^:3:5 mcpServers\.a: expected a mapping with a command or a url$/,
      ],
      [
        'args.json',
        '{\n  "mcpServers": {\n    "a": { "command": "node", "args": "x.js" }\n  }\n}',
        /^:3:31 mcpServers\.a\.args: expected a list of strings$/,
      ],
      [
        'sse.json',
        '{\n  "mcpServers": {\n    "a": { "type": "sse", "url": "https://x.example/sse" }\n  }\n}',
        /^:3:12 mcpServers\.a\.type: server not converted: /,
      ],
    ];
    for (const [name, text, expected] of cases) {
      const from = join(dir, name);
      writeFileSync(from, text);
      const r = await cli.runCli(['init', '--from', from, out]);
      expect(r.code, name).toBe(1);
      expect(lines(r.stderr), name).toHaveLength(1);
      expect(r.stderr.startsWith(from), name).toBe(true);
      expect(r.stderr.slice(from.length).trimEnd(), name).toMatch(expected);
      expect(() => statSync(out), name).toThrow();
    }
    const missing = await cli.runCli(['init', '--from', join(dir, 'nope.json'), out]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: `mcp-supervisor: cannot read --from '${join(dir, 'nope.json')}': no such file\n`,
    });
  });
});
