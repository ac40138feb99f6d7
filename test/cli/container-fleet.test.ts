import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { StatusData } from '../../src/cli/control/status-command.js';
import { SERVER_LABEL } from '../../src/container/settings.js';
import { containersLabelled, uniqueId } from '../container/boxed.js';
import { describeEngine, TEST_IMAGE } from '../container/engine-facts.js';
import { connect, serveClients } from '../gateway/serve-helpers.js';
import { ROOT } from './helpers.js';

const { cli, clients } = serveClients();

/** A config file with server-everything in a container, as a user writes one. */
function everythingConfig(dir: string, id: string, engine: string): string {
  const path = join(dir, 'fleet.yaml');
  writeFileSync(
    path,
    [
      'servers:',
      `  ${id}:`,
      '    container:',
      `      image: ${TEST_IMAGE}`,
      `      engine: ${engine}`,
      '      memory: 256MiB',
      '      cpus: 0.5',
      '      pids: 128',
      '      mounts:',
      `        - { source: ${join(ROOT, 'node_modules')}, target: /srv/node_modules, readOnly: true }`,
      `    command: ${process.execPath}`,
      '    args: [/srv/node_modules/@modelcontextprotocol/server-everything/dist/index.js, stdio]',
      '    timeouts: { startup: 30s }',
      '',
    ].join('\n'),
  );
  return path;
}

describeEngine('the CLI with a server in a container', (engine) => {
  it('serve makes server-everything in a container one MCP server for the official SDK client', async () => {
    const id = uniqueId('everything');
    const config = everythingConfig(cli.tempDir(), id, engine);
    const client = await connect(cli, clients, config);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain(`${id}.echo`);
    const answer = await client.callTool({ name: `${id}.echo`, arguments: { message: 'through serve' } });
    expect(answer.content).toEqual([{ type: 'text', text: 'Echo: through serve' }]);
    expect(await containersLabelled(engine, SERVER_LABEL, id)).toHaveLength(1);
    await client.close();
    await cli.reap();
    expect(await containersLabelled(engine, SERVER_LABEL, id)).toEqual([]);
  }, 60_000);

  it('status --json shows the container, its engine and its usage from the engine', async () => {
    const id = uniqueId('status');
    const dir = cli.tempDir();
    const state = join(dir, 'state');
    const run = cli.spawnCli(['run', everythingConfig(dir, id, engine), '--trust-all', '--state-dir', state]);
    await run.waitFor(/event=log msg=started/, 30_000);
    const r = await cli.runCli(['status', '--json', '--state-dir', state]);
    expect(r.code, r.stderr).toBe(0);
    const row = (JSON.parse(r.stdout) as StatusData).servers[0];
    expect(row).toMatchObject({ id, state: 'ready', containment: 'container', container: { engine } });
    expect(row?.pid).toBeUndefined();
    expect(await containersLabelled(engine, SERVER_LABEL, id)).toEqual([row?.container?.id]);
    expect(row?.usage).toMatchObject({ from: 'engine' });
    expect(row?.usage?.rssBytes).toBeGreaterThan(1024 * 1024);
    const table = await cli.runCli(['status', '--state-dir', state]);
    expect(table.stdout).toContain(`ctr ${row?.container?.id.slice(0, 12)}`);
  }, 60_000);
});
