// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are config text here, written literally on purpose
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffConfigs } from '../../src/config/config-diff.js';
import { ConfigError } from '../../src/config/config-error.js';
import { launchProblems } from '../../src/config/launch-check.js';
import { assertLaunchValues } from '../../src/config/launch-values.js';
import { parseConfig, readConfig } from '../../src/config/parse-config.js';

const ENGINE = 'unix:///srv/engine.sock';
const parse = (text: string, env: Record<string, string> = {}) =>
  parseConfig(text, { source: 'c.yaml', env, baseDir: '/base' });

function problems(text: string, env: Record<string, string> = {}): string[] {
  const r = readConfig(text, { source: 'c.yaml', env, baseDir: '/base' });
  return r.problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`);
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('container: in the config', () => {
  it('reads the whole block: sizes in bytes, mounts resolved against the config directory, cwd as the workdir', () => {
    const config = parse(
      [
        'servers:',
        '  everything:',
        '    container:',
        '      image: localhost/mcp-node:test',
        '      pull: missing',
        `      engine: ${ENGINE}`,
        '      memory: 256MiB',
        '      cpus: 0.5',
        '      pids: 128',
        '      network: bridge',
        '      readOnly: false',
        '      user: 65534:65534',
        '      mounts:',
        '        - { source: ./data, target: /data, readOnly: true }',
        '        - { source: /var/cache/x, target: /cache }',
        '    command: node',
        '    args: [/srv/everything/dist/index.js, stdio]',
        '    env: { LOG_LEVEL: info }',
        '    cwd: /srv',
        '',
      ].join('\n'),
    );
    const server = config.servers[0]!;
    expect(server).toMatchObject({ command: 'node', cwd: '/base', env: { LOG_LEVEL: 'info' } });
    expect(server.container).toEqual({
      image: 'localhost/mcp-node:test',
      pull: 'missing',
      engine: ENGINE,
      memoryBytes: 256 * 1024 * 1024,
      cpus: 0.5,
      pids: 128,
      network: 'bridge',
      readOnly: false,
      user: '65534:65534',
      mounts: [
        { source: '/base/data', target: '/data', readOnly: true },
        { source: '/var/cache/x', target: '/cache', readOnly: false },
      ],
      workdir: '/srv',
    });
  });

  it("fills the closed defaults: never pulled, no network, a read-only root, no limits, the image's command", () => {
    const server = parse(`servers:\n  s:\n    container: { image: img, engine: "${ENGINE}" }\n`).servers[0]!;
    expect(server.command).toBe('');
    expect(server.container).toEqual({
      image: 'img',
      pull: 'never',
      engine: ENGINE,
      network: 'none',
      readOnly: true,
      mounts: [],
    });
  });

  it('reads a YAML number as a user id, a numeric string as cpus, and a bare path as a unix:// engine', () => {
    const text =
      'servers:\n  s:\n    container: { image: img, user: 1000, cpus: "2", engine: /run/e.sock }\n';
    expect(parse(text).servers[0]!.container).toMatchObject({
      user: '1000',
      cpus: 2,
      engine: 'unix:///run/e.sock',
    });
  });

  it('expands ${VAR} in the image, the engine and a mount source', () => {
    const text = [
      'servers:',
      '  s:',
      '    container:',
      '      image: "registry.example/srv:${TAG}"',
      '      engine: "${ENGINE_ADDR}"',
      '      mounts: [{ source: "${DATA}/in", target: /in }]',
      '',
    ].join('\n');
    const env = { TAG: '1.2', ENGINE_ADDR: 'tcp://10.0.0.9:2375', DATA: '/srv/data' };
    expect(parse(text, env).servers[0]!.container).toMatchObject({
      image: 'registry.example/srv:1.2',
      engine: 'tcp://10.0.0.9:2375',
      mounts: [{ source: '/srv/data/in', target: '/in', readOnly: false }],
    });
  });

  it('takes the engine from DOCKER_HOST of the environment the config is read in, and locates a bad one', () => {
    const text = 'servers:\n  s:\n    container: { image: img }\n';
    const env = { DOCKER_HOST: 'tcp://10.0.0.9:2375' };
    expect(parse(text, env).servers[0]!.container?.engine).toBe('tcp://10.0.0.9:2375');
    expect(problems(text, { DOCKER_HOST: 'ssh://me@box' })).toEqual([
      '3:5 servers.s.container: DOCKER_HOST "ssh://me@box": invalid engine address "ssh://me@box": expected unix:///path/to.sock, an absolute socket path, or tcp://HOST:PORT',
    ]);
  });

  it('locates each bad value of the block at its field', () => {
    const text = [
      'servers:',
      '  s:',
      '    container:',
      '      image: "two words"',
      '      pull: sometimes',
      '      engine: http://10.0.0.9:2375',
      '      memory: 256m',
      '      cpus: 0',
      '      pids: 1.5',
      '      network: "container:other"',
      '      mounts:',
      '        - { source: ./a, target: data }',
      '        - { source: ./b, target: / }',
      '        - { source: ./c, target: /data }',
      '        - { source: ./d, target: /data/ }',
      '  t:',
      '    container: { image: img, memory: 4MiB, cpus: 2048, pids: 0, mounts: [{ target: /x }], size: 1 }',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      '4:7 servers.s.container.image: expected an image reference (name, name:tag, name@sha256:…) or an image id',
      '5:7 servers.s.container.pull: expected one of: never, missing, always',
      '6:7 servers.s.container.engine: invalid engine address "http://10.0.0.9:2375": write it as tcp://HOST:PORT (expected unix:///path/to.sock, an absolute socket path, or tcp://HOST:PORT)',
      '7:7 servers.s.container.memory: invalid size "256m": write 256MiB (sizes take B, KiB, MiB, GiB, or kB, MB, GB)',
      '8:7 servers.s.container.cpus: must be at least 0.01',
      '9:7 servers.s.container.pids: must be a whole number',
      '10:7 servers.s.container.network: expected none, bridge, or the name of a network the engine has',
      '12:26 servers.s.container.mounts[0].target: target is a path inside the container and must be absolute (/data)',
      '13:26 servers.s.container.mounts[1].target: target must not be / (the root is the image)',
      '15:26 servers.s.container.mounts[3].target: /data is mounted already (mounts[2])',
      '17:30 servers.t.container.memory: must be at least 6MiB',
      '17:44 servers.t.container.cpus: must be at most 1024',
      '17:56 servers.t.container.pids: must be at least 1',
      '17:74 servers.t.container.mounts[0].source: missing (required)',
      '17:91 servers.t.container.size: unknown key (expected one of: image, pull, engine, memory, cpus, pids, network, readOnly, user, mounts)',
    ]);
  });

  it('refuses a container beside a url, an image left out, and a cwd that is not absolute', () => {
    const text = [
      'servers:',
      '  web:',
      '    url: https://mcp.example/mcp',
      `    container: { image: img, engine: "${ENGINE}" }`,
      '  noimage:',
      '    container: { pull: never }',
      '  rel:',
      `    container: { image: img, engine: "${ENGINE}" }`,
      '    cwd: srv',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      '4:5 servers.web.container: a server has either a container or a url, not both',
      '6:5 servers.noimage.container.image: missing (required)',
      '9:5 servers.rel.cwd: with a container, cwd is the working directory inside it and must be absolute (/srv), not "srv"',
    ]);
  });

  it('asks for a command, a container or a url when a server has none', () => {
    expect(problems('servers:\n  s: { args: [x] }\n')).toEqual([
      '2:3 servers.s.command: missing (required): a command to run, a container, or a url',
    ]);
  });

  it('refuses a NUL byte in a container value of a config built in code', () => {
    const config = parse(`servers:\n  s:\n    container: { image: img, engine: "${ENGINE}" }\n`);
    config.servers[0]!.container!.mounts.push({ source: '/a\0b', target: '/x', readOnly: false });
    expect(() => assertLaunchValues(config)).toThrow(ConfigError);
    expect(() => assertLaunchValues(config)).toThrow(/servers\.s\.container\.mounts\[0\]/);
  });
});

describe('a container server on this machine (launch check) and on reload (config diff)', () => {
  it('looks up no command on the host, and locates a mount source that is not there unless the engine is remote', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-container-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'data'));
    const text = [
      'servers:',
      '  local:',
      `    container: { image: img, engine: "${ENGINE}", mounts: [{ source: ./data, target: /data }, { source: ./gone, target: /gone }] }`,
      '    command: no-such-command-on-this-host',
      '    args: [missing.js]',
      '  remote:',
      '    container: { image: img, engine: "tcp://10.0.0.9:2375", mounts: [{ source: ./gone, target: /gone }] }',
      '',
    ].join('\n');
    const reading = readConfig(text, { source: 'c.yaml', env: {}, baseDir: dir });
    expect(reading.problems).toEqual([]);
    expect(launchProblems(reading, { PATH: '' })).toEqual([
      {
        source: 'c.yaml',
        line: 3,
        col: expect.any(Number),
        path: 'servers.local.container.mounts[1].source',
        message: `mount source ${join(dir, 'gone')} does not exist`,
        code: 'MOUNT_SOURCE_MISSING',
      },
    ]);
  });

  it('a changed container block restarts the server; the image id a start pinned is no change', () => {
    const text = (memory: string) =>
      `servers:\n  s:\n    container: { image: img, engine: "${ENGINE}", memory: ${memory} }\n  t: { command: node }\n`;
    const before = parse(text('256MiB'));
    expect(diffConfigs(before, parse(text('512MiB'))).servers).toEqual([
      { id: 's', change: 'changed' },
      { id: 't', change: 'unchanged' },
    ]);
    before.servers[0]!.container!.imageId = `sha256:${'0'.repeat(64)}`;
    expect(diffConfigs(before, parse(text('256MiB'))).servers[0]).toEqual({ id: 's', change: 'unchanged' });
  });
});

describe('keys written in the wrong place', () => {
  it('points an image at container:, and compose keys inside container: at their own names', () => {
    const text = [
      'servers:',
      '  s:',
      '    image: img',
      '  t:',
      '    container: { image: img, workdir: /srv, environment: { A: "1" }, volumes: [], mem_limit: 1GiB }',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      '2:3 servers.s.command: missing (required): a command to run, a container, or a url',
      '3:5 servers.s.image: unknown key: an image is run with container: { image: … }',
      "5:30 servers.t.container.workdir: unknown key: the working directory inside is the server's cwd, beside container:",
      "5:45 servers.t.container.environment: unknown key: the variables are the server's env, beside container:",
      '5:70 servers.t.container.volumes: unknown key (did you mean "mounts"?)',
      '5:83 servers.t.container.mem_limit: unknown key (did you mean "memory"?)',
    ]);
  });
});
