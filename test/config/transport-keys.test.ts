// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are written literally on purpose
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';

function problems(text: string): string[] {
  try {
    parseConfig(text, { source: 'c.yaml', env: {} });
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`);
  }
  return [];
}

describe('url servers in the config', () => {
  it('reads url and headers, keeping the headers as written when a variable was expanded', () => {
    const config = parseConfig(
      'servers:\n  web: { url: "https://h.example/mcp", headers: { Authorization: "Bearer ${TOK}", X-A: 1 } }\n',
      { env: { TOK: 'secret' } },
    );
    expect(config.servers[0]).toMatchObject({
      id: 'web',
      command: '',
      remote: {
        url: 'https://h.example/mcp',
        headers: { Authorization: 'Bearer secret', 'X-A': '1' },
        headersAsWritten: { Authorization: 'Bearer ${TOK}', 'X-A': '1' },
      },
    });
  });

  it('loads the http shapes of Claude Code, VS Code and Cursor files', () => {
    const text = JSON.stringify({
      mcpServers: {
        claude: { type: 'http', url: 'https://a/mcp', headers: { 'X-Key': 'k' } },
        vscode: { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp' },
        cursor: { url: 'https://c/mcp' },
      },
    });
    const servers = parseConfig(text, { source: 'mcp.json' }).servers;
    expect(servers.map((s) => [s.id, s.remote?.url])).toEqual([
      ['claude', 'https://a/mcp'],
      ['vscode', 'http://127.0.0.1:9/mcp'],
      ['cursor', 'https://c/mcp'],
    ]);
  });

  it('names every mismatched launch key at its line, beside the entry’s other problems', () => {
    const text = [
      'servers:',
      '  a: { url: "ftp://x", args: [1], cwd: /tmp, restart: sometimes }',
      '  b: { type: http }',
      '  c: { type: sse, url: "http://x" }',
      '  d: { args: [x] }',
      '  e: { command: x, headers: { a: b } }',
      '  f: { command: x, url: "http://x" }',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      '2:8 servers.a.url: expected an http:// or https:// URL',
      '2:24 servers.a.args: args applies only to a command server, not to a url server',
      '2:35 servers.a.cwd: cwd applies only to a command server, not to a url server',
      '2:46 servers.a.restart.policy: expected one of: always, on-failure, never',
      '3:3 servers.b.url: missing (required for type http)',
      '4:8 servers.c.type: the legacy HTTP+SSE transport (type "sse") is not supported: use the Streamable HTTP endpoint (type http)',
      '5:3 servers.d.command: missing (required): a command to run, a container, or a url',
      '6:20 servers.e.headers: headers apply only to a url server',
      '7:20 servers.f.url: a server has either a command or a url, not both',
    ]);
  });
});

describe('namespace', () => {
  it('is namespaced unless false', () => {
    const servers = parseConfig(
      'servers:\n  a: { command: x }\n  b: { command: y, namespace: false }\n',
    ).servers;
    expect(servers.map((s) => s.namespace)).toEqual([undefined, false]);
  });
});

describe('serve.auth and allowed hosts', () => {
  it('reads tokens with their scopes and resolves the tokens file against the config', () => {
    const text = [
      'serve:',
      '  auth: { tokens: [ { token: "${T}", scopes: [read] } ], tokensFile: tokens.txt }',
      '  allowedHosts: [gw.internal]',
      'servers: { a: { command: x } }',
      '',
    ].join('\n');
    const config = parseConfig(text, { env: { T: 'a'.repeat(32) }, baseDir: '/etc/fleet' });
    expect(config.serve).toEqual({
      auth: { tokens: [{ token: 'a'.repeat(32), scopes: ['read'] }], tokensFile: '/etc/fleet/tokens.txt' },
      allowedHosts: ['gw.internal'],
    });
  });

  it('refuses a short token at its line', () => {
    expect(
      problems('serve: { auth: { tokens: [ { token: short } ] } }\nservers: { a: { command: x } }\n'),
    ).toEqual(['1:30 serve.auth.tokens[0].token: a token must be at least 16 characters']);
  });
});
