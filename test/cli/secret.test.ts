// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${keyring:…} references are written literally on purpose
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { describeKeyring, useKeyringBus } from '../secrets/keyring-facts.js';
import { cliProcesses, ensureBuilt, FIXTURE } from './helpers.js';
import { hasScript, terminals } from './terminal.js';

const run = promisify(execFile);
const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);
const onTerminal = terminals();

/** A value no other text holds, so finding it anywhere it is not meant to be is a leak. */
const VALUE = `sk-${randomUUID()}`;

/** A stderr that is exactly one line and carries no stack frame. */
function expectOneLine(stderr: string): void {
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describeKeyring('mcp-supervisor secret', (bus) => {
  const env = { DBUS_SESSION_BUS_ADDRESS: bus };
  useKeyringBus(bus);
  const item = () => `mcp-supervisor-test-${randomUUID()}/deploy`;

  /** What secret-tool finds for the item, or undefined when it finds none. */
  async function lookup(name: string): Promise<string | undefined> {
    const [service, account] = [name.slice(0, name.indexOf('/')), name.slice(name.indexOf('/') + 1)];
    try {
      return (
        await run('secret-tool', ['lookup', 'service', service, 'username', account], {
          env: { ...process.env, ...env },
        })
      ).stdout;
    } catch {
      return undefined;
    }
  }

  async function setFromStdin(name: string, input: string, childEnv: NodeJS.ProcessEnv = env) {
    const p = cli.spawnCli(['secret', 'set', name], childEnv);
    p.child.stdin!.end(input);
    return p.exited;
  }

  it('set stores what stdin gives (one trailing newline dropped); delete removes it; neither prints the value', async () => {
    const name = item();
    const set = await setFromStdin(name, `${VALUE}\n`);
    expect(set).toMatchObject({
      code: 0,
      stdout: `stored ${name} in the OS keyring; a config reads it as \${keyring:${name}}\n`,
      stderr: '',
    });
    expect(await lookup(name)).toBe(VALUE);
    // Set again replaces the value; a second newline is part of it.
    expect((await setFromStdin(name, `${VALUE}-2\n\n`)).code).toBe(0);
    expect(await lookup(name)).toBe(`${VALUE}-2\n`);
    const del = await cli.runCli(['secret', 'delete', name], env);
    expect(del).toMatchObject({ code: 0, stdout: `deleted ${name} from the OS keyring\n`, stderr: '' });
    expect(await lookup(name)).toBeUndefined();
    for (const r of [set, del]) expect(r.stdout + r.stderr).not.toContain(VALUE);
  });

  it('delete of an item that is not there says so and exits 1', async () => {
    const name = item();
    const r = await cli.runCli(['secret', 'delete', name], env);
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mcp-supervisor: no item ${name} in the OS keyring: nothing deleted\n`,
    });
  });

  it('refuses a malformed SERVICE/ACCOUNT as a one-line usage error, before reading anything', async () => {
    for (const args of [
      ['secret', 'set', 'no-slash'],
      ['secret', 'set', '/account'],
      ['secret', 'delete', 'service/'],
      ['secret', 'set'],
    ]) {
      const r = await cli.runCli(args, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expectOneLine(r.stderr);
    }
    const r = await cli.runCli(['secret', 'set', 'no-slash'], env);
    expect(r.stderr).toBe(
      "mcp-supervisor: expected SERVICE/ACCOUNT, both non-empty (as in ${keyring:SERVICE/ACCOUNT}), got 'no-slash'\n",
    );
  });

  it('refuses an empty value and stores nothing', async () => {
    const name = item();
    for (const input of ['', '\n']) {
      const r = await setFromStdin(name, input);
      expect(r).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `mcp-supervisor: refusing to store an empty value as ${name}\n`,
      });
    }
    expect(await lookup(name)).toBeUndefined();
  });

  it('says no keyring is reachable when the bus is not there, without the value', async () => {
    const dir = cli.tempDir();
    const name = item();
    const r = await setFromStdin(name, VALUE, { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'bus')}` });
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mcp-supervisor: cannot store ${name}: no keyring reachable: cannot connect to the session bus at ${join(dir, 'bus')} (ENOENT)\n`,
    });
    // No address to probe: the library (libdbus) is asked, and its own words follow the same prefix.
    const empty = await setFromStdin(name, VALUE, { DBUS_SESSION_BUS_ADDRESS: '' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(
      new RegExp(
        `^mcp-supervisor: cannot store ${name}: no keyring reachable: Platform failure: DBus error: `,
      ),
    );
    expectOneLine(empty.stderr);
    for (const out of [r.stdout, r.stderr, empty.stdout, empty.stderr]) expect(out).not.toContain(VALUE);
  });

  it('stores what check then reads for a ${keyring:…} reference, printing no value either way', async () => {
    const name = item();
    const dir = cli.tempDir();
    const config = join(dir, 'fleet.yaml');
    writeFileSync(
      config,
      [
        'servers:',
        '  api:',
        `    command: ${process.execPath}`,
        `    args: [${FIXTURE}]`,
        `    env: { TOKEN: "Bearer \${keyring:${name}}" }`,
        '',
      ].join('\n'),
    );
    expect((await setFromStdin(name, VALUE)).code).toBe(0);
    const ok = await cli.runCli(['check', config], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await cli.runCli(['secret', 'delete', name], env)).code).toBe(0);
    const missing = await cli.runCli(['check', config], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`\${keyring:${name}}: the keyring has no item for service`);
    for (const out of [ok.stdout, ok.stderr, missing.stdout, missing.stderr])
      expect(out).not.toContain(VALUE);
  });

  it.skipIf(!hasScript)(
    'on a terminal, prompts on stderr and takes the line typed without echoing it',
    async () => {
      const name = item();
      const tty = onTerminal(['secret', 'set', name]);
      await tty.waitFor(new RegExp(`Value for ${name} \\(not shown\\): `));
      // A typo taken back with Backspace, and an arrow key that changes nothing.
      tty.type(`${VALUE}x\u007f\u001b[D`);
      tty.type('\r');
      expect(await tty.exited).toBe(0);
      expect(tty.screen()).toContain(`stored ${name} in the OS keyring`);
      expect(tty.screen()).not.toContain(VALUE);
      expect(await lookup(name)).toBe(VALUE);
      await cli.runCli(['secret', 'delete', name], env);
    },
  );
});
