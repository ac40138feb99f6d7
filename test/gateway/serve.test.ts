import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { allGone, BIN, pidOf, ROOT, sleep, writeFixtureConfig } from '../cli/helpers.js';
import { serveClients } from './serve-helpers.js';

const { cli, clients } = serveClients();

/** An SDK client connected to `mcp-supervisor serve` over stdio. */
async function connect(config: string, extra: string[] = ['--trust-all']) {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', config, ...extra],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (c: Buffer) => stderr.push(c.toString()));
  const client = new Client({ name: 'cli-test', version: '1.0.0' });
  clients.push(client);
  const changed: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changed.push(Date.now());
  });
  await client.connect(transport);
  if (transport.pid) cli.trackPid(transport.pid);
  return { client, transport, changed, stderr: () => stderr.join('') };
}

async function until(pred: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe('mcp-supervisor serve', () => {
  it('lists every fixture tool under its namespaced name, with schemas', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }, { id: 'other', flags: ['--tools', '2'] }]);
    const { client } = await connect(config);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['fx.echo', 'fx.add', 'fx.crash', 'other.echo', 'other.tool_1', 'other.tool_2']),
    );
    expect(names.every((n) => n.startsWith('fx.') || n.startsWith('other.'))).toBe(true);
    const mixed = tools.find((t) => t.name === 'fx.mixed')!;
    expect(mixed.inputSchema.type).toBe('object');
    expect(mixed.outputSchema?.type).toBe('object');
  });

  it('routes calls and returns the content blocks; a failed tool keeps isError', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const { client } = await connect(config);
    const ok = await client.callTool({ name: 'fx.echo', arguments: { text: 'hi' } });
    expect(ok.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(ok.isError).toBeFalsy();
    const image = await client.callTool({ name: 'fx.image', arguments: { bytes: 64 } });
    expect(image.content).toEqual([expect.objectContaining({ type: 'image', mimeType: 'image/png' })]);
    const failed = await client.callTool({ name: 'fx.fail', arguments: { message: 'nope' } });
    expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'nope' }] });
    // An unknown tool is a JSON-RPC error (−32602), as the spec asks: see serve-tools.test.ts.
    await expect(client.callTool({ name: 'fx.missing', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    // The code travels to the front client beside the text.
    expect(failed._meta).toEqual({ 'mcp-supervisor/code': 'TOOL_ERROR' });
    expect(ok._meta).toBeUndefined();
  });

  it('sends tools/list_changed when a child crashes and comes back, and lists it again', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const { client, changed } = await connect(config);
    await client.listTools();
    const firstPid = await pidOf(dir, 'fx');
    const crashed = await client.callTool({ name: 'fx.crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    await until(() => changed.length >= 1, 5000, 'a list_changed notification');
    await until(
      async () => {
        const names = (await client.listTools()).tools.map((t) => t.name);
        return names.includes('fx.echo') && (await pidOf(dir, 'fx')) !== firstPid;
      },
      5000,
      'the restarted server to list its tools',
    );
    expect(changed.length).toBeGreaterThanOrEqual(1);
    const again = await client.callTool({ name: 'fx.echo', arguments: { text: 'back' } });
    expect(again.content).toEqual([{ type: 'text', text: 'back' }]);
  });

  it('answers ping', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const { client } = await connect(config);
    await expect(client.ping()).resolves.toEqual({});
  });

  it('stops the fleet and exits 0 when the client closes stdin', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const p = cli.spawnCli(['serve', config, '--trust-all']);
    const send = (m: object) => p.child.stdin!.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await p.waitFor(/"id":0/, 10_000, 'stdout');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await p.waitFor(/"id":1/, 10_000, 'stdout');
    const pid = await pidOf(dir, 'fx');
    p.child.stdin!.end();
    const r = await p.exited;
    expect(r.code).toBe(0);
    expect(await allGone([pid])).toBe(true);
    expect(r.stderr).toMatch(/event=log msg=stopping why="stdin closed"/);
  });

  it('keeps stdout for the protocol: only JSON-RPC lines, even with a noisy child', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx', flags: ['--noise'] }]);
    const p = cli.spawnCli(['serve', config, '--trust-all']);
    const send = (m: object) => p.child.stdin!.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'fx.echo', arguments: { text: 'x' } },
    });
    await p.waitFor(/"id":2/, 10_000, 'stdout');
    // initialize is answered once the fleet's first start settled (its instructions name the servers): it may
    // come after the call's answer.
    await p.waitFor(/"id":1/, 10_000, 'stdout');
    p.child.stdin!.end();
    const r = await p.exited;
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(r.stderr).toMatch(/event=state server=fx from=handshaking to=ready/);
  });

  it('without --trust, never spawns an untrusted server (nobody can be asked) and lists none of its tools', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }, { id: 'fy' }]);
    const { client, stderr } = await connect(config, ['--trust', 'fy']);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('fy.echo');
    expect(names.some((n) => n.startsWith('fx.'))).toBe(false);
    const call = await client.callTool({ name: 'fx.echo', arguments: { text: 'x' } });
    expect(call.isError).toBe(true);
    expect(existsSync(join(dir, 'fx.pid.json'))).toBe(false);
    await until(() => /event=untrusted server=fx/.test(stderr()), 3000, 'the untrusted line');
    expect(stderr()).toMatch(/not trusted; pass --trust fx or --trust-all/);
  });
});
