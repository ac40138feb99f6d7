// biome-ignore-all lint/suspicious/noTemplateCurlyInString: secret references are written literally on purpose
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { httpClient, raw } from '../gateway/http/helpers.js';
import { serveClients } from '../gateway/serve-helpers.js';
import { FIXTURE } from './helpers.js';

const { cli, clients } = serveClients();

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

it('serve --http: a server secret, the client token and the session key appear in no log line, page or scrape', async () => {
  const dir = cli.tempDir();
  const token = `client-${Math.random().toString(36).slice(2)}-token-zq`;
  const key = randomBytes(32);
  writeFileSync(join(dir, 'token.txt'), `${SECRET}\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'client.txt'), token, { mode: 0o600 });
  writeFileSync(join(dir, 'session.txt'), key.toString('hex'), { mode: 0o600 });
  const config = join(dir, 'fleet.yaml');
  writeFileSync(
    config,
    [
      'serve:',
      '  sessionKey: "${file:session.txt}"',
      '  auth: { tokens: [ { token: "${file:client.txt}" } ] }',
      'servers:',
      '  fx:',
      `    command: ${process.execPath}`,
      `    args: [${FIXTURE}, "--log", "\${file:token.txt}", "--logging"]`,
      '    env: { API_TOKEN: "${file:token.txt}" }',
      '',
    ].join('\n'),
  );
  const values = [SECRET, token, key.toString('hex'), key.toString('base64'), key.toString('base64url')];
  const leakedAny = (text: string) =>
    values.some((v) => text.includes(v) || text.includes(Buffer.from(v).toString('base64')));
  const env = { MCP_SUPERVISOR_TRUST_STORE: join(dir, 'trust.json') };
  const outputs: string[] = [];
  for (const format of ['logfmt', 'json']) {
    const state = join(dir, `state-${format}`);
    const serve = cli.spawnCli(
      [
        'serve',
        config,
        '--http',
        '127.0.0.1:0',
        '--trust-all',
        '--ui',
        '0',
        '--state-dir',
        state,
        '--log-format',
        format,
      ],
      env,
    );
    await serve.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
    await serve.waitFor(/inspector UI at http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/);
    const mcp = new URL(/listening on (http:\/\/\S+?\/mcp)/.exec(serve.stderr())![1]!);
    const ui = new URL(
      /inspector UI at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(serve.stderr())![1]!,
    );
    const bearer = { Authorization: `Bearer ${token}` };
    const { client } = await httpClient(mcp, clients, { headers: bearer });
    expect(await client.callTool({ name: 'fx.echo', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ text: 'hi' }],
    });
    await client.close();
    const q = `?token=${ui.searchParams.get('token')}`;
    for (const path of ['/api/status', '/api/statechart'])
      outputs.push(await (await fetch(`${ui.origin}${path}${q}`)).text());
    outputs.push(await firstFrames(`${ui.origin}/events${q}`, '"tool":"fx.echo"'));
    for (const path of ['/healthz', '/readyz', '/metrics'])
      outputs.push((await raw(mcp, { path, headers: bearer })).body);
    for (const args of [
      ['status', '--json'],
      ['logs', 'fx'],
    ]) {
      const r = await cli.runCli([...args, '--state-dir', state], env);
      expect(r.code, r.stderr).toBe(0);
      outputs.push(r.stdout, r.stderr);
    }
    for (const f of filesUnder(state)) outputs.push(f.text);
    serve.child.kill('SIGTERM');
    expect((await serve.exited).code).toBe(0);
    outputs.push(serve.stdout(), serve.stderr());
  }
  for (const args of [
    ['secret', 'list', config],
    ['check', config, '--json'],
  ]) {
    const r = await cli.runCli(args, env);
    outputs.push(r.stdout, r.stderr);
  }
  for (const f of filesUnder(dir)) outputs.push(f.text);
  // The server told its secret (masked where we keep it), and the page showed the call that was made.
  expect(outputs.join('\n')).toContain('***');
  expect(outputs.join('\n')).toContain('"tool":"fx.echo"');
  for (const out of outputs) expect(leakedAny(out), out.slice(0, 2000)).toBe(false);
}, 120_000);

/** The inspector's event stream read until a frame holds `marker` (then let go); all that was read. */
async function firstFrames(url: string, marker: string): Promise<string> {
  const ctl = new AbortController();
  const res = await fetch(url, { signal: ctl.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (!text.includes(marker)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return text;
  } finally {
    ctl.abort();
  }
}
