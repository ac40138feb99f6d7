import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, writeFixtureConfig } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

describe('mcp-supervisor trust', () => {
  it('add trusts the exact launch the gate checks; list shows it; revoke makes the next run refuse it', async () => {
    const dir = cli.tempDir();
    const store = join(dir, 'store.json');
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);

    const empty = await cli.runCli(['trust', 'list', '--store', store]);
    expect(empty).toMatchObject({ code: 0, stdout: `no trusted servers in ${store}\n` });

    const added = await cli.runCli(['trust', 'add', config, 'fx', '--store', store]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^trusted 'fx' \([0-9a-f]{12}\): \S*node \S*mcp-server\.mjs/);
    expect(existsSync(join(dir, 'fx.pid.json'))).toBe(false);

    const listed = await cli.runCli(['trust', 'list', '--store', store]);
    expect(listed.code).toBe(0);
    const [header, row, scope, footer] = listed.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID +FINGERPRINT +APPROVED +TOOLS +COMMAND$/);
    expect(row).toMatch(/^fx +[0-9a-f]{12} +\d{4}-\d\d-\d\dT\S+ +- +\S*node /);
    expect(scope).toBe(`    for ${config}`);
    expect(footer).toBe(`(1 in ${store})`);

    const trusted = cli.spawnCli(['run', config, '--store', store]);
    await trusted.waitFor(/event=log msg=started/);
    expect(trusted.stderr()).toMatch(/event=state server=fx from=handshaking to=ready/);
    trusted.child.kill('SIGINT');
    expect((await trusted.exited).code).toBe(0);

    const revoked = await cli.runCli(['trust', 'revoke', 'fx', '--store', store]);
    expect(revoked).toMatchObject({ code: 0, stdout: "revoked 'fx'\n" });
    const refused = cli.spawnCli(['run', config, '--store', store]);
    await refused.waitFor(/event=log msg=started/);
    expect(refused.stderr()).toMatch(/event=state server=fx from=\w+ to=untrusted/);
  });

  it('keeps an approval per config file: another project’s server of the same id is asked about on its own', async () => {
    const store = join(cli.tempDir(), 'store.json');
    const one = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }]);
    const two = writeFixtureConfig(cli.tempDir(), [{ id: 'fx', flags: ['--tools=2'] }]);
    expect((await cli.runCli(['trust', 'add', one, 'fx', '--store', store])).code).toBe(0);
    // The second project's fx is not the first's: it is not trusted by the first one's approval...
    const asked = cli.spawnCli(['run', two, '--store', store]);
    await asked.waitFor(/event=log msg=started/);
    expect(asked.stderr()).toMatch(/event=state server=fx from=\w+ to=untrusted/);
    asked.child.kill('SIGINT');
    expect((await asked.exited).code).toBe(0);
    // ...and approving it leaves the first one's approval as it was: both start without asking.
    expect((await cli.runCli(['trust', 'add', two, 'fx', '--store', store])).code).toBe(0);
    for (const config of [one, two]) {
      const run = cli.spawnCli(['run', config, '--store', store]);
      await run.waitFor(/event=log msg=started/);
      expect(run.stderr(), config).toMatch(/event=state server=fx from=handshaking to=ready/);
      run.child.kill('SIGINT');
      expect((await run.exited).code).toBe(0);
    }
    // Revoking needs to know which, then takes only that one.
    const which = await cli.runCli(['trust', 'revoke', 'fx', '--store', store]);
    expect(which.code).toBe(1);
    expect(which.stderr).toBe(
      `mcp-supervisor: 'fx' is trusted for 2 configs; say which with --config <path>: ${[one, two].sort().join(', ')}\n`,
    );
    const revoked = await cli.runCli(['trust', 'revoke', 'fx', '--config', two, '--store', store]);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked 'fx' for ${two}\n` });
    const left = await cli.runCli(['trust', 'list', '--store', store]);
    expect(left.stdout).toContain(`for ${one}\n`);
    expect(left.stdout).not.toContain(`for ${two}\n`);
  }, 60_000);

  it('uses $MCP_SUPERVISOR_TRUST_STORE when --store is absent', async () => {
    const dir = cli.tempDir();
    const store = join(dir, 'env-store.json');
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const added = await cli.runCli(['trust', 'add', config, 'fx'], { MCP_SUPERVISOR_TRUST_STORE: store });
    expect(added.code).toBe(0);
    expect(existsSync(store)).toBe(true);
    const listed = await cli.runCli(['trust', 'list'], { MCP_SUPERVISOR_TRUST_STORE: store });
    expect(listed.stdout).toMatch(/^fx /m);
  });

  it('fails in one line: revoking an unknown id (1), adding an id the config lacks (2), a corrupt store (1)', async () => {
    const dir = cli.tempDir();
    const store = join(dir, 'store.json');
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const unknown = await cli.runCli(['trust', 'revoke', 'nope', '--store', store]);
    expect(unknown).toMatchObject({
      code: 1,
      stderr: `mcp-supervisor: 'nope' is not in the trust store ${store}\n`,
    });
    const missing = await cli.runCli(['trust', 'add', config, 'fz', '--store', store]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: "mcp-supervisor: trust add names unknown server 'fz' (servers: fx)\n",
    });
    writeFileSync(store, '{ not json');
    const corrupt = await cli.runCli(['trust', 'list', '--store', store]);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toMatch(new RegExp(`^mcp-supervisor: trust store ${store}: [^\\n]+\\n$`));
  });
});
