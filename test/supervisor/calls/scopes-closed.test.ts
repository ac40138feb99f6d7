import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import { fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { readLog, tempDir } from '../helpers.js';

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
  expect(liveGroups()).toEqual([]);
});
const logFile = () => {
  const t = tempDir();
  dirs.push(t);
  return `${t.dir}/log`;
};

/** A server whose every tool needs `mcp.read`, and whose `echo` also needs `mcp.write`; `plain` needs nothing. */
function guardedFleet(log: string) {
  return fleetConfig([
    fixtureServer('files', ['--log', log], {
      scopesRequired: ['mcp.read'],
      tools: [{ name: 'echo', scopesRequired: ['mcp.write'] }],
    }),
    fixtureServer('declared', ['--log', `${log}.declared`], {
      tools: [{ name: 'echo', scopesRequired: ['mcp.admin'] }],
    }),
    fixtureServer('plain', []),
  ]);
}

const calls = (log: string) => readLog(log).filter((m) => m.method === 'tools/call');

describe('scopes fail closed', () => {
  it('refuses a call with no caller scopes to a tool the server or its declaration guards', async () => {
    const log = logFile();
    const { sup } = f.create(guardedFleet(log));
    await sup.start();
    expect(await sup.callTool('files.echo', { text: 'x' })).toBe(
      'ERROR: forbidden: missing scopes: mcp.read, mcp.write',
    );
    expect(await sup.callTool('files.add', { a: 1, b: 2 })).toBe(
      'ERROR: forbidden: missing scopes: mcp.read',
    );
    expect(await sup.callTool('declared.echo', { text: 'x' })).toBe(
      'ERROR: forbidden: missing scopes: mcp.admin',
    );
    expect(calls(log)).toEqual([]);
    expect(calls(`${log}.declared`)).toEqual([]);
    // Nothing guards `plain`, and granted scopes pass.
    expect(await sup.callTool('plain.echo', { text: 'free' })).toBe('free');
    expect(await sup.callTool('files.echo', { text: 'ok' }, { scopes: ['mcp.read', 'mcp.write'] })).toBe(
      'ok',
    );
    expect(calls(log)).toHaveLength(1);
  });

  it("lets a host that said scopes: 'unchecked' call without scopes, and still checks scopes it passes", async () => {
    const log = logFile();
    const { sup } = f.create(guardedFleet(log), { scopes: 'unchecked' });
    await sup.start();
    expect(await sup.callTool('files.echo', { text: 'trusted host' })).toBe('trusted host');
    expect(await sup.callTool('files.echo', { text: 'x' }, { scopes: ['mcp.read'] })).toBe(
      'ERROR: forbidden: missing scopes: mcp.write',
    );
    expect(calls(log)).toHaveLength(1);
  });

  it('refuses through callToolResult the same way, as an isError result', async () => {
    const log = logFile();
    const { sup } = f.create(guardedFleet(log));
    await sup.start();
    const result = await sup.callToolResult('files.echo', { text: 'x' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('ERROR: forbidden: missing scopes: mcp.read, mcp.write');
    expect(calls(log)).toEqual([]);
  });
});
