// biome-ignore-all lint/suspicious/noTemplateCurlyInString: secret references are written literally on purpose
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, FIXTURE } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

const SECRET = `tok-${Math.random().toString(36).slice(2)}-zq`;

it('secret list names each reference, where it stands and whether it can be read, never a value', async () => {
  const dir = cli.tempDir();
  writeFileSync(join(dir, 'token.txt'), SECRET, { mode: 0o600 });
  writeFileSync(join(dir, 'session.key'), randomBytes(32).toString('hex'), { mode: 0o600 });
  const config = join(dir, 'fleet.yaml');
  writeFileSync(
    config,
    [
      'serve:',
      '  auth:',
      '    tokens: [{ token: "${file:token.txt}" }]',
      '  sessionKey: "${file:session.key}"',
      'servers:',
      '  fx:',
      `    command: ${process.execPath}`,
      `    args: [${FIXTURE}, "--log", "\${file:gone.txt}"]`,
      '    env: { API_TOKEN: "Bearer ${file:token.txt}" }',
      '',
    ].join('\n'),
  );
  const r = await cli.runCli(['secret', 'list', config]);
  expect(r.code).toBe(1);
  const token = `\${file:${join(dir, 'token.txt')}}`;
  const gone = `\${file:${join(dir, 'gone.txt')}}`;
  expect(r.stdout.split('\n').map((l) => l.trimEnd().split(/\s{2,}/))).toEqual([
    ['SERVER', 'FIELD', 'REFERENCE', 'STATUS'],
    ['fx', 'args.2', gone, `file_missing: ${gone}: no file at ${join(dir, 'gone.txt')}`],
    ['fx', 'env.API_TOKEN', token, 'ok'],
    ['serve', 'serve.auth.tokens[0]', token, 'ok'],
    ['serve', 'serve.sessionKey', `\${file:${join(dir, 'session.key')}}`, 'ok'],
    [''],
  ]);
  const json = await cli.runCli(['secret', 'list', config, '--json']);
  const data = JSON.parse(json.stdout) as { secrets: Array<{ status: string }> };
  expect(data.secrets.map((s) => s.status)).toEqual(['file_missing', 'ok', 'ok', 'ok']);
  for (const out of [r.stdout, r.stderr, json.stdout, json.stderr]) expect(out).not.toContain(SECRET);
});
