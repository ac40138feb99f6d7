// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are written literally on purpose
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

const SHOWN = '"--api-key=***" -p "***" "postgres://app:***@db/x" --aws "***"';
const SECRETS = ['sk-live-0123456789abcdef', 'hunter2', 'lit3ral-pw', 'AKIAIOSFODNN7EXAMPLE'];

describe('secrets in args stay hidden from check, trust add and trust list', () => {
  it('shows every command line masked and stores ${VAR} unexpanded', async () => {
    const dir = cli.tempDir();
    const config = join(dir, 'fleet.yaml');
    writeFileSync(
      config,
      [
        'servers:',
        '  api:',
        `    command: ${JSON.stringify(process.execPath)}`,
        '    args: [-e, "0", "--api-key=${API_KEY}", -p, lit3ral-pw, "postgres://app:hunter2@db/x", --aws, AKIAIOSFODNN7EXAMPLE]',
        '',
      ].join('\n'),
    );
    const env = { API_KEY: 'sk-live-0123456789abcdef' };
    const check = await cli.runCli(['check', config], env);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(SHOWN);

    const store = join(dir, 'trust.json');
    const add = await cli.runCli(['trust', 'add', config, 'api', '--store', store], env);
    expect(add.code).toBe(0);
    const list = await cli.runCli(['trust', 'list', '--store', store], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(SHOWN);
    expect(add.stdout).toContain(SHOWN);
    const stored = readFileSync(store, 'utf8');
    expect(stored).toContain('--api-key=${API_KEY}');
    expect(stored).not.toContain(env.API_KEY);
    for (const out of [check.stdout, add.stdout, list.stdout, check.stderr, list.stderr])
      for (const secret of SECRETS) expect(out).not.toContain(secret);
  });
});
