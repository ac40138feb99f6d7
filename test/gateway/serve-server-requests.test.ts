import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connect, received, serveClients, until, writeConfig } from './serve-helpers.js';

const { cli, clients } = serveClients();

const REPLY = {
  role: 'assistant',
  content: { type: 'text', text: 'hi from the client' },
  model: 'front-model',
};
const ALLOWED = {
  ev: ['allow: [sampling]', 'roots: client'],
  fx: ['allow: [sampling, elicitation]', 'roots: client'],
};

/** A client that declares sampling, elicitation and roots, answering each; `asked` records the methods. */
async function capableClient(config: string, roots: Array<{ uri: string; name: string }>) {
  const asked: string[] = [];
  const client = await connect(
    cli,
    clients,
    config,
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
    (c) => {
      c.setRequestHandler(CreateMessageRequestSchema, async (r) => {
        asked.push(r.method);
        return REPLY;
      });
      c.setRequestHandler(ElicitRequestSchema, async (r) => {
        asked.push(r.method);
        return { action: 'accept', content: { name: 'Ada' } };
      });
      c.setRequestHandler(ListRootsRequestSchema, async (r) => {
        asked.push(r.method);
        return { roots };
      });
    },
  );
  return { client, asked };
}

/** The text a fixture tool returned: the JSON of the answer its request got. */
async function answerOf(client: Client, tool: string) {
  const r = await client.callTool({ name: `fx.${tool}`, arguments: {} });
  const block = (r.content as Array<{ type: string; text?: string }>)[0];
  return JSON.parse(block?.text ?? 'null') as { result?: unknown; error?: { code: number } };
}

function declaredTo(log: string) {
  const init = received(log).find((m) => m.method === 'initialize');
  return (init?.params as { capabilities?: unknown } | undefined)?.capabilities;
}

describe('serve: servers’ requests go to the front client', () => {
  it('forwards sampling, elicitation and roots of an allowed server to a client that declared them', async () => {
    const { config, log } = writeConfig(cli.tempDir(), ALLOWED);
    const roots = [{ uri: 'file:///srv/project-a', name: 'a' }];
    const { client, asked } = await capableClient(config, roots);
    expect(declaredTo(log)).toEqual({ sampling: {}, elicitation: {}, roots: { listChanged: true } });
    expect(await answerOf(client, 'sample')).toEqual({ result: REPLY });
    expect(await answerOf(client, 'elicit')).toEqual({
      result: { action: 'accept', content: { name: 'Ada' } },
    });
    expect(await answerOf(client, 'roots')).toEqual({ result: { roots } });
    expect(asked).toEqual(
      expect.arrayContaining(['sampling/createMessage', 'elicitation/create', 'roots/list']),
    );
    await client.sendRootsListChanged();
    await until(
      () => received(log).find((m) => m.method === 'notifications/roots/list_changed'),
      10_000,
      'roots/list_changed at the server',
    );
  }, 60_000);

  it('the official server gets sampling only when allowed and the client declared it', async () => {
    const { config } = writeConfig(cli.tempDir(), ALLOWED);
    const { client, asked } = await capableClient(config, []);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('ev.trigger-sampling-request');
    // Not allowed elicitation: the server was not told, so it offers no elicitation tool.
    expect(names).not.toContain('ev.trigger-elicitation-request');
    const r = await client.callTool({
      name: 'ev.trigger-sampling-request',
      arguments: { prompt: 'hello', maxTokens: 20 },
    });
    expect(r.isError).toBeFalsy();
    expect(JSON.stringify(r.content)).toContain('hi from the client');
    expect(asked).toContain('sampling/createMessage');
  }, 60_000);

  it('refuses (-32601) what the client did not declare, even for an allowed server, and declares nothing', async () => {
    const { config, log } = writeConfig(cli.tempDir(), ALLOWED);
    const client = await connect(cli, clients, config);
    const stderr: string[] = [];
    (client.transport as StdioClientTransport).stderr?.on('data', (c: Buffer) => stderr.push(c.toString()));
    expect(declaredTo(log)).toEqual({});
    expect((await answerOf(client, 'sample')).error?.code).toBe(-32601);
    expect((await answerOf(client, 'elicit')).error?.code).toBe(-32601);
    expect((await answerOf(client, 'roots')).error?.code).toBe(-32601);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('ev.trigger-sampling-request');
    // Each refusal is a `refused` event, in serve's log on stderr.
    await until(
      () => (/event=refused server=fx method=roots\/list/.test(stderr.join('')) ? true : undefined),
      5000,
      'the refused events on stderr',
    );
    expect(stderr.join('')).toMatch(/event=refused server=fx method=sampling\/createMessage/);
    expect(stderr.join('')).toMatch(/event=refused server=fx method=elicitation\/create/);
  }, 60_000);

  it('refuses a server that is not allowed, whatever the client declared', async () => {
    const { config, log } = writeConfig(cli.tempDir());
    const { client, asked } = await capableClient(config, []);
    expect(declaredTo(log)).toEqual({});
    expect((await answerOf(client, 'sample')).error?.code).toBe(-32601);
    expect((await answerOf(client, 'roots')).error?.code).toBe(-32601);
    expect(asked).toEqual([]);
  }, 60_000);

  it('the official server lists the client’s roots, and again after the client says they changed', async () => {
    const { config } = writeConfig(cli.tempDir(), ALLOWED);
    const roots = [{ uri: 'file:///srv/project-a', name: 'a' }];
    const { client } = await capableClient(config, roots);
    const listed = async () => {
      const r = await client.callTool({ name: 'ev.get-roots-list', arguments: {} });
      return JSON.stringify(r.content);
    };
    await until(
      async () => ((await listed()).includes('file:///srv/project-a') ? true : undefined),
      10_000,
      'the first roots at the server',
    );
    roots.splice(0, 1, { uri: 'file:///srv/project-b', name: 'b' });
    await client.sendRootsListChanged();
    await until(
      async () => ((await listed()).includes('file:///srv/project-b') ? true : undefined),
      10_000,
      'the changed roots at the server',
    );
  }, 60_000);
});
