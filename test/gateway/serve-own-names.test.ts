import { describe, expect, it } from 'vitest';
import { connect, directEverything, serveClients, writeConfig } from './serve-helpers.js';

const { cli, clients } = serveClients();

describe('serve: a server with namespace: false', () => {
  it('answers its tools, prompts and resources under their own names, as direct access does', async () => {
    const { config } = writeConfig(cli.tempDir(), { ev: ['namespace: false'] });
    const client = await connect(cli, clients, config);
    const own = await directEverything(cli, clients);
    expect(client.getInstructions()).toContain(
      "named '<server>.<name>', except those of ev, which keep their own names;",
    );

    const { tools: want } = await own.listTools();
    const { tools } = await client.listTools();
    // serve lists in name order; the server in its own.
    const byName = (x: { name: string }, y: { name: string }) =>
      x.name < y.name ? -1 : x.name > y.name ? 1 : 0;
    expect(tools.filter((t) => !t.name.startsWith('fx.'))).toEqual([...want].sort(byName));
    expect(tools.some((t) => t.name === 'fx.echo')).toBe(true);
    const args = { message: 'same name' };
    expect(await client.callTool({ name: 'echo', arguments: args })).toEqual(
      await own.callTool({ name: 'echo', arguments: args }),
    );

    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual((await own.listPrompts()).prompts);
    const promptArgs = { city: 'Porto' };
    expect(await client.getPrompt({ name: 'args-prompt', arguments: promptArgs })).toEqual(
      await own.getPrompt({ name: 'args-prompt', arguments: promptArgs }),
    );

    const { resources } = await own.listResources();
    const first = resources[0]!;
    expect((await client.listResources()).resources).toContainEqual(first);
    expect(await client.readResource({ uri: first.uri })).toEqual(await own.readResource({ uri: first.uri }));
  }, 60_000);
});
