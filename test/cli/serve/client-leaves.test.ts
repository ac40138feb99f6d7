import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { serveClients } from '../../gateway/serve-helpers.js';
import { BIN, ROOT, writeFixtureConfig } from '../helpers.js';

// A client that goes away while its server still talks (progress and log messages pouring into a call) is the
// end of serve, not a fault of it: serve stops cleanly and warns of nothing (no "Not connected").
const { cli, clients } = serveClients();

describe('a client that leaves mid-call', () => {
  it('ends serve cleanly (stopped, no warning), while its server pours notifications', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx', flags: ['--notification-flood'] }]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', config, '--trust-all'],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const client = new Client({ name: 'leaver', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);
    const pid = transport.pid!;
    cli.trackPid(pid);
    let progressed: () => void = () => {};
    const heard = new Promise<void>((r) => {
      progressed = r;
    });
    const call = client
      .callTool({ name: 'fx.flood', arguments: { bytes: 64 * 1024 * 1024 } }, undefined, {
        onprogress: () => progressed(),
      })
      .catch(() => undefined);
    await heard;
    // Gone mid-call, with the server still pouring.
    const exited = new Promise<number | null>((r) => {
      const poll = setInterval(() => {
        try {
          process.kill(pid, 0);
        } catch {
          clearInterval(poll);
          r(null);
        }
      }, 20);
    });
    await client.close();
    await call;
    await exited;
    expect(stderr).toMatch(/event=log msg=stopped/);
    expect(stderr).not.toMatch(/level=(warn|error)/);
    expect(stderr).not.toMatch(/Not connected/);
  }, 30_000);
});
