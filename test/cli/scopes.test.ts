import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { serveClients } from '../gateway/serve-helpers.js';
import { BIN, ROOT, writeFixtureConfig } from './helpers.js';

const { cli, clients } = serveClients();

const guarded = (dir: string) =>
  writeFixtureConfig(dir, [{ id: 'fx', extra: '    scopes_required: [mcp.read]' }]);

async function serve(config: string, extra: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', config, '--trust-all', ...extra],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'scopes-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  if (transport.pid) cli.trackPid(transport.pid);
  return client;
}

describe('--scopes: the caller a command acts for', () => {
  it('call refuses a guarded tool without --scopes and calls it with them', async () => {
    const config = guarded(cli.tempDir());
    const refused = await cli.runCli(['call', config, 'fx.echo', '{"text":"hi"}', '--trust-all']);
    expect(refused.stdout).toBe('ERROR: forbidden: missing scopes: mcp.read\n');
    expect(refused.code).toBe(1);
    const allowed = await cli.runCli([
      'call',
      config,
      'fx.echo',
      '{"text":"hi"}',
      '--trust-all',
      '--scopes',
      'mcp.audit,mcp.read',
    ]);
    expect(allowed.stdout).toBe('hi\n');
    expect(allowed.code).toBe(0);
  }, 30_000);

  it('serve checks every call against its --scopes', async () => {
    const config = guarded(cli.tempDir());
    const bare = await serve(config, []);
    const refused = await bare.callTool({ name: 'fx.echo', arguments: { text: 'hi' } });
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([{ type: 'text', text: 'ERROR: forbidden: missing scopes: mcp.read' }]);
    const scoped = await serve(config, ['--scopes', 'mcp.*']);
    const allowed = await scoped.callTool({ name: 'fx.echo', arguments: { text: 'hi' } });
    expect(allowed.isError).toBeFalsy();
    expect(allowed.content).toEqual([{ type: 'text', text: 'hi' }]);
  }, 30_000);

  it('refuses an empty --scopes as a usage error', async () => {
    const config = guarded(cli.tempDir());
    const r = await cli.runCli(['call', config, 'fx.echo', '--scopes', ',']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected scopes separated by commas');
  });
});
