// biome-ignore-all lint/suspicious/noTemplateCurlyInString: secret references are written literally on purpose
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, FIXTURE } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

const SECRET = `tok-${Math.random().toString(36).slice(2)}-zq`;
const leaks = (text: string) =>
  text.includes(SECRET) || text.includes(Buffer.from(SECRET).toString('base64'));

function fleet(dir: string, lines: string[]): string {
  const path = join(dir, 'fleet.yaml');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('mcp-supervisor check: secrets', () => {
  it('reads each secret as a start would, prints no value, and locates one that cannot be read at its ${', async () => {
    const dir = cli.tempDir();
    writeFileSync(join(dir, 'token.txt'), `${SECRET}\n`, { mode: 0o600 });
    const path = fleet(dir, [
      'servers:',
      '  good:',
      `    command: ${process.execPath}`,
      `    args: [${FIXTURE}]`,
      '    env: { TOKEN: "${file:token.txt}" }',
      '  bad:',
      `    command: ${process.execPath}`,
      `    args: [${FIXTURE}]`,
      '    env: { TOKEN: "Bearer ${file:nowhere.txt}" }',
    ]);
    const text = await cli.runCli(['check', path]);
    expect(text.code).toBe(1);
    expect(text.stderr.split('\n')[0]).toBe(
      `${path}:9:27 servers.bad.env.TOKEN: \${file:${join(dir, 'nowhere.txt')}}: no file at ${join(dir, 'nowhere.txt')}`,
    );
    const json = await cli.runCli(['check', path, '--json']);
    const data = JSON.parse(json.stdout) as { problems: Array<{ code: string; line: number; col: number }> };
    expect(data.problems).toMatchObject([{ code: 'SECRET_UNAVAILABLE', line: 9, col: 27 }]);
    for (const out of [text.stdout, text.stderr, json.stdout, json.stderr]) expect(leaks(out)).toBe(false);
  });

  it('passes when every secret can be read, and still prints no value', async () => {
    const dir = cli.tempDir();
    writeFileSync(join(dir, 'token.txt'), SECRET, { mode: 0o600 });
    const path = fleet(dir, [
      'servers:',
      '  good:',
      `    command: ${process.execPath}`,
      `    args: [${FIXTURE}, "--log", "\${file:token.txt}"]`,
    ]);
    const r = await cli.runCli(['check', path]);
    expect(r.code, r.stderr).toBe(0);
    expect(leaks(r.stdout + r.stderr)).toBe(false);
    const json = await cli.runCli(['check', path, '--json']);
    expect(leaks(json.stdout)).toBe(false);
  });

  it('refuses a secret where none is read, and a malformed keyring reference, at their lines', async () => {
    const dir = cli.tempDir();
    const path = fleet(dir, [
      'servers:',
      '  odd:',
      '    command: "${file:cmd.txt}"',
      '    env: { T: "${keyring:no-slash}" }',
    ]);
    const r = await cli.runCli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /fleet\.yaml:3:\d+ servers\.odd\.command: a \$\{file:…\} or \$\{keyring:…\} secret is read only in env, args, headers and url/,
    );
    expect(r.stderr).toMatch(
      /fleet\.yaml:4:\d+ servers\.odd\.env\.T: \$\{keyring:no-slash\}: expected \$\{keyring:SERVICE\/ACCOUNT\}/,
    );
  });

  it("reads serve's token and session key references too, and checks the key it reads is one", async () => {
    const dir = cli.tempDir();
    writeFileSync(join(dir, 'short.key'), SECRET, { mode: 0o600 });
    const path = fleet(dir, [
      'serve:',
      '  sessionKey: "${file:short.key}"',
      '  auth:',
      '    tokens: [{ token: "${file:no-token.txt}" }]',
      'servers:',
      '  good:',
      `    command: ${process.execPath}`,
      `    args: [${FIXTURE}]`,
    ]);
    const r = await cli.runCli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /fleet\.yaml:2:16 serve\.sessionKey: what the reference holds is not a key: expected 32 random bytes/,
    );
    expect(r.stderr).toContain(
      `fleet.yaml:4:24 serve.auth.tokens[0].token: \${file:${join(dir, 'no-token.txt')}}: no file at`,
    );
    const json = await cli.runCli(['check', path, '--json']);
    const data = JSON.parse(json.stdout) as { problems: Array<{ code: string }> };
    expect(data.problems.map((p) => p.code)).toEqual(['SECRET_UNAVAILABLE', 'SECRET_UNAVAILABLE']);
    for (const out of [r.stdout, r.stderr, json.stdout, json.stderr]) expect(leaks(out)).toBe(false);
  });
});
