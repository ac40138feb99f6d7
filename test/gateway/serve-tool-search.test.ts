import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/gateway/gateway.js';
import { ROOT } from '../cli/helpers.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { ENVELOPE_2026 as envelope, rawFront } from './raw-front.js';

// serve with tool search on, over a real fleet: two tools listed, the fleet found through one and called through
// the other with every rule of a direct call. Raw JSON-RPC through an in-memory front end, both eras.
const f = fleets();
let send: Awaited<ReturnType<typeof rawFront>>;
let gateway: Gateway;
const TASKS = join(ROOT, 'test', 'fixtures', 'tasks-server.mjs');

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };
const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  send('tools/call', {
    name: 'call_tool',
    arguments: { name, arguments: args },
    ...extra,
  }) as Promise<Answer>;
const search = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  send('tools/call', { name: 'search_tools', arguments: args, ...extra }) as Promise<Answer>;
const text = (a: Answer) => (a.result?.content as Array<{ text: string }> | undefined)?.[0]?.text;

beforeAll(async () => {
  const { sup } = f.create(
    fleetConfig([
      { ...fixtureServer('a', ['--input-required', '1']), allow: ['elicitation'] },
      { ...fixtureServer('locked'), scopesRequired: ['mcp.admin'] },
      fixtureServer('jobs', [], { args: [TASKS] }),
    ]),
  );
  const started = sup.start();
  await started;
  gateway = new Gateway(sup, started, {
    name: 'gw',
    version: '1',
    toolSearch: { expose: ['a.echo', 'a.nowhere'] },
  });
  send = await rawFront(gateway);
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  await f.reap();
});

describe('serve with tool search', () => {
  it('lists search_tools, call_tool and the exposed tools that exist, in both eras, and says how in its instructions', async () => {
    for (const meta of [{}, { _meta: envelope }]) {
      const listed = (await send('tools/list', meta)) as Answer;
      const tools = listed.result?.tools as Array<{ name: string; inputSchema: object }>;
      expect(tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'a.echo']);
    }
    const init = (await send('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    })) as Answer;
    expect(init.result?.instructions).toMatch(/^Tool search is on: .*search_tools.*call_tool/s);
  });

  it('answers search_tools with the best tools as structured content and the same as text', async () => {
    const found = await search({ query: 'add two numbers', limit: 3 });
    const tools = (found.result!.structuredContent as { tools: Array<{ name: string; score: number }> })
      .tools;
    expect(tools[0]).toMatchObject({ name: 'a.add', description: 'Returns the sum of a and b.' });
    expect(tools.length).toBeLessThanOrEqual(3);
    expect(JSON.parse(text(found)!)).toEqual({ tools });
    const nothing = await search({ query: 'xylophone' });
    expect(nothing.result?.structuredContent).toEqual({ tools: [] });
    expect(text(nothing)).toMatch(/^No tool matches "xylophone"/);
    for (const bad of [
      {},
      { query: '' },
      { query: 'x', limit: 0 },
      { query: 'x', limit: 51 },
      { query: 'x', limit: 2.5 },
    ])
      expect((await search(bad)).result).toMatchObject({
        isError: true,
        _meta: { 'mcp-supervisor/code': 'INVALID_CALL' },
      });
  });

  it('calls through call_tool with the rules of a direct call: answers, scopes, unknown names with the nearest', async () => {
    expect(text(await call('a.echo', { text: 'hi' }))).toBe('hi');
    // A server whose tools need a scope this client lacks: refused as a direct call would be.
    expect((await call('locked.echo', { text: 'hi' })).result).toMatchObject({
      isError: true,
      _meta: { 'mcp-supervisor/code': 'FORBIDDEN' },
    });
    const unknown = await call('a.ech', {});
    expect(unknown.result).toMatchObject({ isError: true, _meta: { 'mcp-supervisor/code': 'UNKNOWN_TOOL' } });
    expect(text(unknown)).toMatch(/^no tool is named 'a\.ech'; the nearest: a\.echo/);
    expect(
      (await send('tools/call', {
        name: 'call_tool',
        arguments: { name: 'a.echo', arguments: 3 },
      })) as Answer,
    ).toMatchObject({
      result: { isError: true, _meta: { 'mcp-supervisor/code': 'INVALID_CALL' } },
    });
    // A tool not listed may still be called by its own name.
    expect(text((await send('tools/call', { name: 'a.add', arguments: { a: 2, b: 3 } })) as Answer)).toBe(
      '5',
    );
  });

  it("runs a 2026 client's input round through call_tool: its retry carries the sealed state back", async () => {
    const round = await call('a.ask_first', { text: 'ship' }, { _meta: envelope });
    expect(round.result).toMatchObject({
      resultType: 'input_required',
      requestState: expect.stringMatching(/^r1\./),
    });
    const done = await call(
      'a.ask_first',
      { text: 'ship' },
      {
        _meta: envelope,
        inputResponses: { confirm_1: { action: 'accept', content: { name: 'ada' } } },
        requestState: round.result?.requestState,
      },
    );
    expect(text(done)).toMatch(/^ship confirmed by ada after 1 rounds/);
  });

  it('makes a task through call_tool, as params.task asks', async () => {
    const made = await call('jobs.slow_compute', { seconds: 0.2, label: 's' }, { task: { ttl: 60_000 } });
    const taskId = (made.result?.task as { taskId?: string } | undefined)?.taskId;
    expect(taskId).toMatch(/^jobs\./);
    const result = (await send('tasks/result', { taskId })) as Answer;
    expect(result.result?.content).toEqual([{ type: 'text', text: 'computed s' }]);
  });
});
