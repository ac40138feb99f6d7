import { readFileSync, statSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, writeFixtureConfig } from '../../cli/helpers.js';
import { httpClient, raw } from './helpers.js';

// Loopback is no boundary on a shared machine: without serve.auth, `serve --http` makes a token for the run and
// writes it where only its user can read it; `--no-auth` opts out, loudly.

const cli = cliProcesses();
const clients: Client[] = [];
beforeAll(ensureBuilt, 120_000);
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await cli.reap();
});

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const POST = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

describe('serve --http without serve.auth', () => {
  it('asks for the per-run token from a file only its user can read', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }]);
    const serve = cli.spawnCli(['serve', config, '--http', '127.0.0.1:0', '--trust-all']);
    await serve.waitFor(/^token in (\S+) \(send it as Authorization: Bearer <token>\)$/m, 15_000);
    const url = new URL(/^listening on (\S+)$/m.exec(serve.stderr())?.[1] ?? '');
    const file = /^token in (\S+) /m.exec(serve.stderr())?.[1] ?? '';
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readFileSync(file, 'utf8').trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const without = await raw(url, { method: 'POST', headers: POST, body: INIT });
    expect(without.status).toBe(401);
    const { client } = await httpClient(url, clients, { headers: { Authorization: `Bearer ${token}` } });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('fx.echo');
    // The file is the run's: it goes when the run stops.
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toMatchObject({ code: 0 });
    expect(() => statSync(file)).toThrow();
  });

  it('--no-auth serves without it, and says so', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }]);
    const serve = cli.spawnCli(['serve', config, '--http', '127.0.0.1:0', '--trust-all', '--no-auth']);
    await serve.waitFor(/^listening on /m, 15_000);
    expect(serve.stderr()).toMatch(/serving without authentication \(--no-auth\)/);
    expect(serve.stderr()).not.toMatch(/^token in /m);
    const url = new URL(/^listening on (\S+)$/m.exec(serve.stderr())?.[1] ?? '');
    const open = await raw(url, { method: 'POST', headers: POST, body: INIT });
    expect(open.status).toBe(200);
  });

  it('--no-auth with serve.auth, or without --http, is a usage error', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(
      dir,
      [{ id: 'fx' }],
      'serve: { auth: { tokens: [ { token: "t-0123456789abcdef" } ] } }\n',
    );
    const both = await cli.runCli(['serve', config, '--http', '127.0.0.1:0', '--no-auth']);
    expect([both.code, both.stderr]).toEqual([
      2,
      'mcp-supervisor: --no-auth conflicts with serve.auth: remove one of them\n',
    ]);
    const stdio = await cli.runCli(['serve', config, '--no-auth']);
    expect([stdio.code, stdio.stderr]).toEqual([2, 'mcp-supervisor: --no-auth needs --http\n']);
  });
});
