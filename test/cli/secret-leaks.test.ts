// biome-ignore-all lint/suspicious/noTemplateCurlyInString: secret references are written literally on purpose
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { raw } from '../gateway/http/helpers.js';
import { serveClients } from '../gateway/serve-helpers.js';
import { FIXTURE } from './helpers.js';

const { cli } = serveClients();

const SECRET = `tok-${Math.random().toString(36).slice(2)}-zq`;
const leaked = (text: string) =>
  text.includes(SECRET) || text.includes(Buffer.from(SECRET).toString('base64'));

/** Every file under `dir`, read as text. */
function filesUnder(dir: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // A running fleet renames its files as it writes them: one gone meanwhile was read under its new name.
    try {
      const st = statSync(path);
      if (st.isDirectory()) out.push(...filesUnder(path));
      else if (st.isFile() && !name.endsWith('.txt')) out.push({ path, text: readFileSync(path, 'utf8') });
    } catch {}
  }
  return out;
}

it('a secret the server gets appears in no output, no file of ours and no scrape', async () => {
  const dir = cli.tempDir();
  writeFileSync(join(dir, 'token.txt'), `${SECRET}\n`, { mode: 0o600 });
  const config = join(dir, 'fleet.yaml');
  // The fixture prints its flags on stderr and logs the value of --log: the server itself tells the secret.
  writeFileSync(
    config,
    [
      'servers:',
      '  fx:',
      `    command: ${process.execPath}`,
      `    args: [${FIXTURE}, "--log", "\${file:token.txt}", "--logging"]`,
      '    env: { API_TOKEN: "${file:token.txt}" }',
      'supervisor:',
      '  logs: { ring: 64KiB, files: { keep: 2, size: 64KiB } }',
      '',
    ].join('\n'),
  );
  const state = join(dir, 'state');
  const env = { MCP_SUPERVISOR_TRUST_STORE: join(dir, 'trust.json') };
  const outputs: string[] = [];
  for (const format of ['logfmt', 'json']) {
    const run = cli.spawnCli(
      [
        'run',
        config,
        '--trust-all',
        '--state-dir',
        state,
        '--metrics',
        '127.0.0.1:0',
        '--log-format',
        format,
      ],
      env,
    );
    await run.waitFor(/started/, 15_000);
    const metrics = /metrics at (http:\/\/\S+?)["\s]/.exec(run.stderr())?.[1];
    expect(metrics).toBeDefined();
    outputs.push((await raw(new URL(metrics!))).body);
    for (const args of [['status'], ['status', '--json'], ['logs', 'fx'], ['restart', 'fx']]) {
      const r = await cli.runCli([...args, '--state-dir', state], env);
      expect(r.code, r.stderr).toBe(0);
      outputs.push(r.stdout, r.stderr);
    }
    // Each of our copies of what the server wrote is in the state directory while it runs.
    for (const f of filesUnder(state)) outputs.push(f.text);
    run.child.kill('SIGTERM');
    const end = await run.exited;
    expect(end.code).toBe(0);
    outputs.push(run.stdout(), run.stderr());
  }
  for (const args of [
    ['trust', 'list'],
    ['check', config],
    ['check', config, '--json'],
  ]) {
    const r = await cli.runCli(args, env);
    outputs.push(r.stdout, r.stderr);
  }
  for (const f of filesUnder(dir)) outputs.push(f.text);
  // The test can fail: the server did tell the value (masked), and some output holds the mask.
  expect(outputs.join('\n')).toContain('***');
  for (const out of outputs) expect(leaked(out), out.slice(0, 2000)).toBe(false);
}, 90_000);
