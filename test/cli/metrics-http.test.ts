import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpClient, raw, startHttpServe } from '../gateway/http/helpers.js';
import { serveClients } from '../gateway/serve-helpers.js';
import { parseScrape } from '../metrics/scrape.js';
import { writeFixtureConfig } from './helpers.js';

const { cli, clients } = serveClients();

const occurrences = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].length;

describe('run --metrics', () => {
  it('serves /metrics of the running fleet: states, a crash and its restart, a restart asked for', async () => {
    const dir = cli.tempDir();
    const state = join(dir, 'state');
    // fx: its first launch exits 1 at start, the second stays up.
    const config = writeFixtureConfig(dir, [
      { id: 'fx', flags: [`--state-file=${join(dir, 'fx.launches')}`, '--crash-first', '1'] },
      { id: 'fy' },
    ]);
    const p = cli.spawnCli(['run', config, '--trust-all', '--state-dir', state, '--metrics', '127.0.0.1:0']);
    await p.waitFor(/event=log msg=started/, 15_000);
    const url = new URL(/msg="metrics at (\S+)"/.exec(p.stderr())?.[1] ?? '');
    expect(url.pathname).toBe('/metrics');

    const restart = await cli.runCli(['restart', 'fy', '--state-dir', state]);
    expect(restart.code, restart.stderr).toBe(0);
    const readyAgain = /event=state server=fy from=handshaking to=ready/g;
    await p.waitFor(new RegExp(`(${readyAgain.source}[^]*){2}`), 10_000);
    expect(occurrences(p.stderr(), readyAgain)).toBe(2);

    const answer = await raw(url);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const s = parseScrape(answer.body);
    for (const server of ['fx', 'fy']) {
      expect(s.value('mcp_supervisor_server_state', { server, state: 'ready' })).toBe(1);
      expect(s.value('mcp_supervisor_server_state', { server, state: 'failed' })).toBe(0);
      expect(s.value('mcp_supervisor_server_restarts_total', { server })).toBe(1);
    }
    expect(s.value('mcp_supervisor_server_exits_total', { server: 'fx', reason: 'exited' })).toBe(1);
    expect(s.value('mcp_supervisor_server_exits_total', { server: 'fy', reason: 'restart' })).toBe(1);
    expect(s.value('mcp_supervisor_server_read_bytes_total', { server: 'fy' })).toBeGreaterThan(0);

    expect((await raw(url, { path: '/other' })).status).toBe(404);
    expect((await raw(url, { method: 'POST' })).status).toBe(405);
    // A page of another site (DNS rebinding) is refused, as on serve --http.
    expect((await raw(url, { headers: { Host: `evil.example:${url.port}` } })).status).toBe(403);

    p.child.kill('SIGTERM');
    expect((await p.exited).code).toBe(0);
  }, 40_000);

  it('refuses a non-loopback address unless --metrics-public says so', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['run', config, '--trust-all', '--metrics', '0.0.0.0:0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^mcp-supervisor: refusing to serve metrics on 0\.0\.0\.0, which is not a loopback address: .*--metrics-public/m,
    );
    expect(r.stderr).not.toMatch(/event=state/);
  }, 20_000);
});

describe('serve --http /metrics', () => {
  it('serves the fleet’s metrics on the same port, behind the same tokens: calls, a crash, its restart', async () => {
    const dir = cli.tempDir();
    const token = 'metrics-token-0123456789abcdef';
    const config = writeFixtureConfig(
      dir,
      [{ id: 'fx' }],
      `serve:\n  auth:\n    tokens: [ { token: ${token} } ]\n`,
    );
    const serve = await startHttpServe(cli, config, ['--json-response']);
    const auth = { Authorization: `Bearer ${token}` };
    const { client } = await httpClient(serve.url, clients, { headers: auth });
    await client.callTool({ name: 'fx.echo', arguments: { text: 'one' } });
    await client.callTool({ name: 'fx.fail', arguments: { message: 'two' } });

    // A crash, then its restart: the next call waits for the server to be ready again.
    const crashed = await client.callTool({ name: 'fx.crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    await client.callTool({ name: 'fx.echo', arguments: { text: 'three' } });

    const none = await raw(serve.url, { path: '/metrics' });
    expect([none.status, none.headers['www-authenticate']]).toEqual([401, 'Bearer realm="mcp-supervisor"']);
    const answer = await raw(serve.url, { path: '/metrics', headers: auth });
    expect(answer.status).toBe(200);
    const s = parseScrape(answer.body);
    expect(s.value('mcp_supervisor_calls_total', { server: 'fx', code: 'OK' })).toBe(2);
    expect(s.value('mcp_supervisor_calls_total', { server: 'fx', code: 'TOOL_ERROR' })).toBe(1);
    expect(s.value('mcp_supervisor_calls_total', { server: 'fx', code: 'SERVER_EXITED' })).toBe(1);
    expect(s.value('mcp_supervisor_call_result_bytes_total', { server: 'fx' })).toBe(3 + 5);
    expect(s.value('mcp_supervisor_server_state', { server: 'fx', state: 'ready' })).toBe(1);
    expect(s.value('mcp_supervisor_server_exits_total', { server: 'fx', reason: 'exited' })).toBe(1);
    expect(s.value('mcp_supervisor_server_restarts_total', { server: 'fx' })).toBe(1);
    expect(answer.body).toMatch(/^mcp_supervisor_call_duration_seconds_count\{server="fx"\} 4$/m);
  }, 40_000);
});
