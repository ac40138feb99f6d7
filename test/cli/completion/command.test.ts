import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';
import { cliProcesses, ensureBuilt } from '../helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

/** Whether a shell can be run here. */
function has(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}

/** Every command path of the program as its definitions say: `run`, `trust add`, … */
function commandPaths(): string[] {
  const out: string[] = [];
  const walk = (cmd: ReturnType<typeof buildProgram>, path: string[]) => {
    for (const sub of cmd.commands) {
      out.push([...path, sub.name()].join(' '));
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(
    buildProgram('0.0.0', () => {}),
    [],
  );
  return out;
}

async function script(shell: string): Promise<string> {
  const r = await cli.runCli(['completion', shell]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return r.stdout;
}

/** What the bash script offers after `words` (the last one being completed). */
function bashComplete(file: string, words: string[]): string[] {
  const out = execFileSync(
    'bash',
    [
      '-c',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
      'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mcp_supervisor; printf "%s\\n" "${COMPREPLY[@]}"',
      '_',
      file,
      'mcp-supervisor',
      ...words,
    ],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter(Boolean);
}

describe('mcp-supervisor completion', () => {
  it('bash: the script parses (bash -n), names every command, and completes commands, subcommands, flags and choices', async () => {
    const text = await script('bash');
    const file = join(cli.tempDir(), 'mcp-supervisor.bash');
    writeFileSync(file, text);
    expect(spawnSync('bash', ['-n', file], { encoding: 'utf8' })).toMatchObject({ status: 0, stderr: '' });
    for (const path of commandPaths()) expect(text).toContain(`'${path}')`);
    expect(bashComplete(file, [''])).toEqual(
      expect.arrayContaining(['run', 'serve', 'call', 'check', 'trust', 'secret', 'completion']),
    );
    expect(bashComplete(file, ['secret', ''])).toEqual(expect.arrayContaining(['set', 'delete']));
    expect(bashComplete(file, ['tr'])).toEqual(['trust']);
    expect(bashComplete(file, ['trust', ''])).toEqual(expect.arrayContaining(['list', 'add', 'revoke']));
    expect(bashComplete(file, ['call', 'fleet.yaml', '--t'])).toEqual([
      '--trust',
      '--trust-all',
      '--timeout',
    ]);
    expect(bashComplete(file, ['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    // A flag's value is left to file-name completion, and does not count as a command.
    expect(bashComplete(file, ['run', '--store', ''])).toEqual([]);
    expect(bashComplete(file, ['trust', 'add', '--store', 'list', '--'])).toEqual(['--store', '--help']);
  });

  for (const shell of ['zsh', 'fish'] as const) {
    it(`${shell}: the script names every command and every flag`, async () => {
      const text = await script(shell);
      for (const path of commandPaths()) expect(text).toContain(path.split(' ').at(-1));
      for (const flag of ['--trust-all', '--max-result-bytes', '--follow', '--json']) {
        expect(text).toContain(shell === 'fish' ? `-l ${flag.slice(2)}` : `'${flag}:`);
      }
    });

    it(`${shell}: the script parses (${shell} -n)`, async (ctx) => {
      if (!has(shell)) {
        // .ci/run installs both shells: under CI a missing one is a failure, never a silent skip.
        if (process.env['CI'] === 'true')
          throw new Error(`${shell} is missing under CI: .ci/run installs it`);
        ctx.skip(`${shell} is not installed here: only the content of its script was checked`);
        return;
      }
      const file = join(cli.tempDir(), `mcp-supervisor.${shell}`);
      writeFileSync(file, await script(shell));
      expect(spawnSync(shell, ['-n', file], { encoding: 'utf8' })).toMatchObject({ status: 0, stderr: '' });
    });
  }

  it('refuses another shell as a usage error, in one line', async () => {
    const r = await cli.runCli(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^mcp-supervisor: command-argument value 'powershell' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish\.\n$/,
    );
  });
});
