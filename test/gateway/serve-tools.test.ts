import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTCOME_CODE_META_KEY } from '../../src/protocol/call-outcome.js';
import { BIN, FIXTURE, ROOT } from '../cli/helpers.js';
import { serveClients } from './serve-helpers.js';

const MODULES = join(ROOT, 'node_modules/@modelcontextprotocol');
const EVERYTHING = join(MODULES, 'server-everything/dist/index.js');
const FILESYSTEM = join(MODULES, 'server-filesystem/dist/index.js');
const MiB = 1024 * 1024;
const q = (s: string) => JSON.stringify(s);

const { cli, clients } = serveClients();

/** A config of node servers, each `id: [args]`, with room for slow starts on a loaded machine. */
function writeConfig(dir: string, servers: Record<string, string[]>): string {
  const lines = ['servers:'];
  for (const [id, args] of Object.entries(servers)) {
    lines.push(
      `  ${id}:`,
      `    command: ${q(process.execPath)}`,
      `    args: [${args.map(q).join(', ')}]`,
      '    timeouts: { startup: 20s, call: 20s, shutdown: 2s }',
    );
  }
  const path = join(dir, 'fleet.yaml');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** An SDK client on `args[0]` run by node (serve, or a server directly); closed and reaped after each test. */
async function client(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'ignore',
  });
  const c = new Client({ name: 'serve-tools-test', version: '1.0.0' });
  clients.push(c);
  await c.connect(transport);
  if (transport.pid) cli.trackPid(transport.pid);
  return c;
}

function serve(config: string, flags: string[] = []): Promise<Client> {
  return client([BIN, 'serve', config, '--trust-all', ...flags], {
    MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json`,
  });
}

/** tools/list as sent, unknown fields included (the SDK's own schema would strip them). */
async function rawTools(c: Client): Promise<Array<Record<string, unknown>>> {
  const page = await c.request(
    { method: 'tools/list', params: {} },
    z.object({ tools: z.array(z.looseObject({ name: z.string() })) }),
  );
  return page.tools;
}

describe('serve: tool results within one budget', () => {
  it('a 20 MiB read through server-filesystem leaves the session alive: TOO_LARGE, then the next call works', async () => {
    const dir = cli.tempDir();
    writeFileSync(join(dir, 'big.txt'), 'y'.repeat(20 * MiB));
    const c = await serve(writeConfig(dir, { fs: [FILESYSTEM, dir] }));
    const result = await c.callTool({ name: 'fs.read_text_file', arguments: { path: join(dir, 'big.txt') } });
    expect(result.isError).toBe(true);
    expect(result._meta?.[OUTCOME_CODE_META_KEY]).toBe('TOO_LARGE');
    expect(result.structuredContent).toBeUndefined();
    const texts = (result.content as Array<{ text: string }>).map((b) => b.text);
    expect(texts[0]).toMatch(
      /^ERROR: result too large: structured content of \d+ bytes is over the result cap of 65536 bytes$/,
    );
    expect(texts[1]).toMatch(/^y+… \[truncated \d+ bytes\]$/);
    const again = await c.callTool({ name: 'fs.list_allowed_directories', arguments: {} });
    expect(again.isError).toBeFalsy();
    expect(await c.ping()).toEqual({});
  }, 90_000);

  it('--max-result-bytes caps below the server cap; structuredContent that fits is sent whole', async () => {
    const dir = cli.tempDir();
    const c = await serve(writeConfig(dir, { fx: [FIXTURE, '--rich-tools'] }), [
      '--max-result-bytes',
      '1KiB',
    ]);
    const small = await c.callTool({ name: 'fx.structured', arguments: { bytes: 100 } });
    expect(small.structuredContent).toEqual({ text: 'x'.repeat(100) });
    expect(small.isError).toBeFalsy();
    const big = await c.callTool({ name: 'fx.structured', arguments: { bytes: 5000 } });
    expect(big.isError).toBe(true);
    expect(big._meta?.[OUTCOME_CODE_META_KEY]).toBe('TOO_LARGE');
    expect((big.content as Array<{ text: string }>)[0]!.text).toBe(
      'ERROR: result too large: structured content of 5011 bytes is over the result cap of 1024 bytes',
    );
    const dropped = await c.callTool({ name: 'fx.unschemed', arguments: { bytes: 5000 } });
    expect(dropped.structuredContent).toBeUndefined();
    expect(dropped.content).toEqual([
      { type: 'text', text: 'structured' },
      { type: 'text', text: '[structured content of 5011 bytes omitted]' },
    ]);
    const text = await c.callTool({ name: 'fx.big', arguments: { bytes: 5000 } });
    expect(Buffer.byteLength((text.content as Array<{ text: string }>)[0]!.text)).toBeLessThanOrEqual(1024);
  }, 60_000);

  it('an unknown tool is the JSON-RPC error -32602, not a result', async () => {
    const dir = cli.tempDir();
    const c = await serve(writeConfig(dir, { fx: [FIXTURE] }));
    const err = await c.callTool({ name: 'fx.nope', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
    // The client's SDK puts "MCP error -32602: " in front of what came on the wire, once: the wire has no prefix.
    expect((err as McpError).message).toBe("MCP error -32602: unknown tool 'fx.nope'");
    // The session goes on.
    expect((await c.callTool({ name: 'fx.echo', arguments: { text: 'hi' } })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
  }, 60_000);
});

describe('serve: tool definitions passed through whole', () => {
  it("lists server-everything's tools as the server does, under the exposed names", async () => {
    const dir = cli.tempDir();
    const direct = await client([EVERYTHING, 'stdio']);
    const gateway = await serve(writeConfig(dir, { ev: [EVERYTHING, 'stdio'] }));
    const want = (await direct.listTools()).tools;
    const got = (await gateway.listTools()).tools;
    expect(want.length).toBeGreaterThan(5);
    // Some of its tools carry annotations, outputSchema or execution: the test would prove little otherwise.
    expect(want.some((t) => t.annotations !== undefined)).toBe(true);
    expect(want.some((t) => t.outputSchema !== undefined)).toBe(true);
    const byName = new Map(got.map((t) => [t.name, t]));
    for (const t of want)
      expect(byName.get(`ev.${t.name}`)).toEqual({ ...t, name: `ev.${t.name}` } satisfies Tool);
    expect(got).toHaveLength(want.length);
  }, 90_000);

  it('passes title, annotations, execution, icons, _meta and unknown fields; only the name changes', async () => {
    const dir = cli.tempDir();
    const direct = await client([FIXTURE, '--rich-tools']);
    const gateway = await serve(writeConfig(dir, { fx: [FIXTURE, '--rich-tools'] }));
    const want = (await rawTools(direct)).find((t) => t.name === 'annotated')!;
    const got = (await rawTools(gateway)).find((t) => t.name === 'fx.annotated');
    expect(want.futureField).toEqual({ kept: true });
    expect(got).toEqual({ ...want, name: 'fx.annotated' });
  }, 60_000);
});
