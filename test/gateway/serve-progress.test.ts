import { CallToolResultSchema, ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connect, received, serveClients, until, writeConfig } from './serve-helpers.js';

const { cli, clients } = serveClients();

describe('serve: progress and cancellation', () => {
  it('relays notifications/progress to the client under the token it chose, one call from another', async () => {
    const { config } = writeConfig(cli.tempDir());
    const client = await connect(cli, clients, config);
    const seen: Array<{ token: unknown; progress: number; total?: number }> = [];
    client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
      const { progressToken, progress, total } = n.params;
      seen.push({ token: progressToken, progress, ...(total !== undefined ? { total } : {}) });
    });
    const call = (token: string, steps: number) =>
      client.request(
        {
          method: 'tools/call',
          params: {
            name: 'ev.trigger-long-running-operation',
            arguments: { duration: 0.6, steps },
            _meta: { progressToken: token },
          },
        },
        CallToolResultSchema,
        { timeout: 20_000 },
      );
    const [a, b] = await Promise.all([call('tok-A', 2), call('tok-B', 3)]);
    expect(a.content[0]).toMatchObject({ text: expect.stringContaining('Steps: 2') });
    expect(b.content[0]).toMatchObject({ text: expect.stringContaining('Steps: 3') });
    const of = (token: string) => seen.filter((s) => s.token === token);
    expect(of('tok-A')).toEqual([1, 2].map((progress) => ({ token: 'tok-A', progress, total: 2 })));
    expect(of('tok-B')).toEqual([1, 2, 3].map((progress) => ({ token: 'tok-B', progress, total: 3 })));
    expect(seen).toHaveLength(5);
  }, 60_000);

  it('gives the server a token of its own, never the client’s', async () => {
    const { config, log } = writeConfig(cli.tempDir());
    const client = await connect(cli, clients, config);
    await client.request(
      {
        method: 'tools/call',
        params: { name: 'fx.echo', arguments: { text: 'x' }, _meta: { progressToken: 'tok-A' } },
      },
      CallToolResultSchema,
    );
    const call = received(log).find((m) => m.method === 'tools/call');
    const meta = call?.params?._meta as { progressToken?: unknown } | undefined;
    expect(meta?.progressToken).toBe(call?.id);
  }, 60_000);

  it('a client’s notifications/cancelled reaches the server as notifications/cancelled of our request', async () => {
    const { config, log } = writeConfig(cli.tempDir());
    const client = await connect(cli, clients, config);
    await expectCancelReaches(log, (signal) =>
      client.callTool({ name: 'fx.slow', arguments: { ms: 15_000 } }, undefined, { signal, timeout: 20_000 }),
    );
  }, 60_000);

  it('through call_tool with tool search on: progress under the client’s token, and its cancel reaches the server', async () => {
    const { config, log } = writeConfig(cli.tempDir(), { head: ['serve:', '  toolSearch: true'] });
    const client = await connect(cli, clients, config);
    const seen: number[] = [];
    client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
      if (n.params.progressToken === 'tok-S') seen.push(n.params.progress);
    });
    const answer = await client.request(
      {
        method: 'tools/call',
        params: {
          name: 'call_tool',
          arguments: { name: 'ev.trigger-long-running-operation', arguments: { duration: 0.4, steps: 2 } },
          _meta: { progressToken: 'tok-S' },
        },
      },
      CallToolResultSchema,
      { timeout: 20_000 },
    );
    expect(answer.content[0]).toMatchObject({ text: expect.stringContaining('Steps: 2') });
    expect(seen).toEqual([1, 2]);
    await expectCancelReaches(log, (signal) =>
      client.callTool(
        { name: 'call_tool', arguments: { name: 'fx.slow', arguments: { ms: 15_000 } } },
        undefined,
        { signal, timeout: 20_000 },
      ),
    );
  }, 60_000);
});

/** Makes a call of fx.slow, cancels it once the fixture got it, and checks the fixture was told of that request. */
async function expectCancelReaches(
  log: string,
  call: (signal: AbortSignal) => Promise<unknown>,
): Promise<void> {
  const abort = new AbortController();
  const pending = call(abort.signal);
  const sent = await until(
    () => received(log).find((m) => m.method === 'tools/call' && m.params?.name === 'slow'),
    15_000,
    'the call to reach the server',
  );
  abort.abort('user gave up');
  await expect(pending).rejects.toThrow();
  const cancelled = await until(
    () => received(log).find((m) => m.method === 'notifications/cancelled'),
    10_000,
    'notifications/cancelled at the server',
  );
  expect(cancelled.params?.requestId).toBe(sent.id);
}
