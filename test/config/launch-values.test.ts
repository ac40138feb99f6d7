// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are written literally on purpose
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { createSupervisor } from '../../src/supervisor/supervisor.js';
import { fixtureServer, fleetConfig } from '../supervisor/fleet.js';

const NUL = 'contains a NUL byte (\\0), which no command line, environment or path can hold';

function problemsOf(text: string, env: Record<string, string> = {}): string[] {
  try {
    parseConfig(text, { source: 'c.yaml', env, baseDir: '/base' });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message.split('\n');
  }
  throw new Error('expected a ConfigError, but the config parsed');
}

describe('parseConfig: values a process launch cannot carry', () => {
  it('spawn itself throws on a NUL byte, which is why the config must refuse it first', () => {
    expect(() => spawn('node\0x', [])).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }));
  });

  it('locates a NUL byte in command, args, env values and cwd, each at its field', () => {
    const text = [
      'servers:',
      '  a:',
      '    command: "node\\0x"',
      '    args: [ok, "b\\0d"]',
      '    env: { GOOD: "1", BAD: "x\\0y" }',
      '    cwd: "/tmp\\0/x"',
      '',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      `c.yaml:3:5 servers.a.command: ${NUL}`,
      `c.yaml:4:16 servers.a.args[1]: ${NUL}`,
      `c.yaml:5:23 servers.a.env.BAD: ${NUL}`,
      `c.yaml:6:5 servers.a.cwd: ${NUL}`,
    ]);
  });

  it('refuses a NUL byte in an env name as a name that is not one', () => {
    expect(problemsOf('servers:\n  a:\n    command: x\n    env: { "A\\0B": "1" }\n')).toEqual([
      'c.yaml:4:12 servers.a.env.A\0B: not an environment variable name: "A\\u0000B"',
    ]);
  });

  it('finds a NUL byte that arrives through ${VAR} and in a JSON (mcpServers) file', () => {
    expect(problemsOf('servers:\n  a:\n    command: x\n    args: ["${ARG}"]\n', { ARG: 'a\0b' })).toEqual([
      `c.yaml:4:12 servers.a.args[0]: ${NUL}`,
    ]);
    const json = '{ "mcpServers": { "a": { "command": "x", "args": ["--k=\\u0000"] } } }';
    expect(problemsOf(json)).toEqual([`c.yaml:1:51 mcpServers.a.args[0]: ${NUL}`]);
  });
});

describe('a config built in code', () => {
  it('is refused by createSupervisor, naming each field with a NUL byte, before anything could spawn', () => {
    const config = fleetConfig([
      fixtureServer('n', ['--log', 'a\0b'], { env: { OK: 'x', BAD: '\0' } }),
      fixtureServer('fine'),
    ]);
    let error: unknown;
    try {
      createSupervisor(config);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message.split('\n')).toEqual([
      `<test>:1:1 servers.n.args[2]: ${NUL}`,
      `<test>:1:1 servers.n.env.BAD: ${NUL}`,
    ]);
  });
});
