import {
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { writeFixtureConfig } from '../cli/helpers.js';
import { connect, directEverything, serveClients, until, writeConfig } from './serve-helpers.js';

const { cli, clients } = serveClients();

async function rejection(p: Promise<unknown>): Promise<McpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

describe('serve: prompts', () => {
  it('lists and gets prompts as direct access does, under namespaced names; an unknown one is -32602', async () => {
    const { config } = writeConfig(cli.tempDir());
    const client = await connect(cli, clients, config);
    expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: true });
    const own = await directEverything(cli, clients);
    const { prompts: want } = await own.listPrompts();
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual(want.map((p) => ({ ...p, name: `ev.${p.name}` })));
    const args = { city: 'Porto' };
    expect(await client.getPrompt({ name: 'ev.args-prompt', arguments: args })).toEqual(
      await own.getPrompt({ name: 'args-prompt', arguments: args }),
    );
    const unknown = await rejection(client.getPrompt({ name: 'ev.nope' }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.data).toEqual({ 'mcp-supervisor/code': 'UNKNOWN_PROMPT' });
    // The server's own refusal (a required argument missing) keeps its code.
    const refused = await rejection(client.getPrompt({ name: 'ev.args-prompt', arguments: {} }));
    expect(refused.code).toBe(-32602);
    expect(refused.data).toMatchObject({ 'mcp-supervisor/code': 'REMOTE_ERROR', server: 'ev' });
  }, 60_000);

  it("sends prompts/list_changed when a server's prompts change, and lists the new one", async () => {
    const config = writeFixtureConfig(cli.tempDir(), [
      { id: 'fx', flags: ['--prompts', '1', '--prompts-changed-after', '500'] },
    ]);
    let changed = 0;
    // Set before the handshake: the change may come as soon as the session is up.
    const connected = await connect(cli, clients, config, undefined, (c) =>
      c.setNotificationHandler(PromptListChangedNotificationSchema, async () => {
        changed++;
      }),
    );
    // The server may still be starting when the session is up: its first prompts come with a list_changed too.
    const first = await until(
      async () => {
        const listed = await connected.listPrompts();
        return listed.prompts.length > 0 ? listed : undefined;
      },
      10_000,
      'the first prompts',
    );
    const seen = changed;
    // The added prompt is listed only after a list_changed that came since the first prompts were seen.
    const { prompts } = await until(
      async () => {
        if (changed === seen) return undefined;
        const listed = await connected.listPrompts();
        return listed.prompts.some((p) => p.name === 'fx.added_prompt') ? listed : undefined;
      },
      10_000,
      'prompts/list_changed and the added prompt',
    );
    expect(prompts.map((p) => p.name)).toEqual([...first.prompts.map((p) => p.name), 'fx.added_prompt']);
    expect(prompts[0]).toMatchObject({
      name: 'fx.prompt_1',
      title: 'Title of prompt_1',
      _meta: { 'fixture/kind': 'prompt' },
    });
  }, 60_000);

  it('declares no prompts, completions or logging when no server offers them', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }]);
    const client = await connect(cli, clients, config);
    const caps = client.getServerCapabilities();
    expect(caps?.tools).toEqual({ listChanged: true });
    expect(caps?.prompts).toBeUndefined();
    expect(caps?.completions).toBeUndefined();
    expect(caps?.logging).toBeUndefined();
  }, 60_000);
});

describe('serve: completion', () => {
  it('completes prompt arguments and resource template arguments as direct access does', async () => {
    const { config } = writeConfig(cli.tempDir());
    const client = await connect(cli, clients, config);
    expect(client.getServerCapabilities()?.completions).toEqual({});
    const own = await directEverything(cli, clients);
    const argument = { name: 'name', value: '' };
    const context = { arguments: { department: 'Support' } };
    const got = await client.complete({
      ref: { type: 'ref/prompt', name: 'ev.completable-prompt' },
      argument,
      context,
    });
    expect(got).toEqual(
      await own.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument, context }),
    );
    expect(got.completion.values).toEqual(['John', 'Kim', 'Lee']);
    const { resourceTemplates } = await own.listResourceTemplates();
    const uri = resourceTemplates[0]!.uriTemplate;
    const forTemplate = await client.complete({
      ref: { type: 'ref/resource', uri },
      argument: { name: 'resourceId', value: '3' },
    });
    expect(forTemplate.completion.values).toEqual(['3']);
    const unknown = await rejection(
      client.complete({ ref: { type: 'ref/prompt', name: 'fx.none' }, argument: { name: 'a', value: '' } }),
    );
    expect(unknown.code).toBe(-32602);
  }, 60_000);
});

describe('serve: logging', () => {
  it("fans setLevel out and forwards each server's log messages tagged with the server", async () => {
    const { config } = writeConfig(cli.tempDir());
    const client = await connect(cli, clients, config);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const logs: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      logs.push(n.params);
    });
    await client.setLoggingLevel('debug');
    const started = await client.callTool({ name: 'ev.toggle-simulated-logging', arguments: {} });
    expect(started.isError).toBeFalsy();
    const log = await until(() => logs[0], 10_000, 'a forwarded log message');
    expect(log.logger).toBe('ev');
    expect(String(log.data)).toMatch(/-level message|level-message/);
    await client.callTool({ name: 'ev.toggle-simulated-logging', arguments: {} });
  }, 60_000);

  it("names a message's own logger after its server: '<server>/<logger>'", async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx', flags: ['--logging'] }]);
    const logs: LoggingMessageNotification['params'][] = [];
    const client = await connect(cli, clients, config, undefined, (c) =>
      c.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
        logs.push(n.params);
      }),
    );
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await client.setLoggingLevel('error');
    const log = await until(() => logs[0], 10_000, 'the fixture message');
    expect(log).toMatchObject({ level: 'warning', logger: 'fx/fixture' });
    expect(String(log.data)).toMatch(/^level set to error in \d+$/);
  }, 60_000);
});
