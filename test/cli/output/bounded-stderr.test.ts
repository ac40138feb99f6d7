import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GROWTH_BOUND, POURED, until, watch } from '../../gateway/http/flood-client.js';
import { BIN, cliProcesses, ensureBuilt, FIXTURE, ROOT } from '../helpers.js';

// `serve` writes every server log message to its stderr. A host that does not read that pipe must not make it
// hold all a server pours: what waits for the reader is bounded, the rest dropped, and said once it catches up.
const cli = cliProcesses();
const clients: Client[] = [];
beforeAll(ensureBuilt, 120_000);
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await cli.reap();
});

describe('serve: a stderr nobody reads', () => {
  it('holds a bounded queue while a server pours log messages, and says what it dropped', async () => {
    const dir = cli.tempDir();
    const config = join(dir, 'fleet.yaml');
    writeFileSync(
      config,
      [
        'servers:',
        '  fx:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: ${JSON.stringify([FIXTURE, '--notification-flood'])}`,
        '    timeouts: { startup: 10s, call: 60s, shutdown: 1s }',
        '',
      ].join('\n'),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', config, '--trust-all'],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
      // A pipe this test does not read until the end: its buffer fills, and serve's writes wait.
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stderr-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);
    const pid = transport.pid!;
    cli.trackPid(pid);
    const rssOf = watch(pid);
    const doneFile = join(dir, 'poured');
    let answered = false;
    void client
      .callTool({ name: 'fx.flood', arguments: { bytes: POURED, kind: 'log', doneFile } }, undefined, {
        timeout: 90_000,
      })
      .then(() => {
        answered = true;
      });
    await until('the pour', 60_000, () => existsSync(doneFile), rssOf.sample);
    await until('the answer', 20_000, () => answered, rssOf.sample);
    rssOf.sample();
    expect(rssOf.growth(), rssOf.says()).toBeLessThan(GROWTH_BOUND);

    // Read at last, the queue drains, and a line says what went.
    let stderr = '';
    transport.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    await until('the dropped line', 20_000, () =>
      /event=stderr_dropped lines=\d+ bytes=\d+/.test(stderr.replaceAll(/msg="[^"]*" /g, '')),
    );
    expect(stderr).toMatch(/stderr was read slower than lines came: \d+ lines \(\d+ bytes\) were dropped/);
  }, 120_000);
});
