import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_ADDRESS, engineAnswers, skipWithoutEngine, TEST_IMAGE } from '../container/engine-here.js';
import { cliProcesses, ensureBuilt } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

const answers = await engineAnswers();

/** A loopback port nothing listens on: one just listened on and closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

function fleet(lines: string[]): string {
  const path = join(cli.tempDir(), 'fleet.yaml');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('mcp-supervisor check: a container server asks its engine', () => {
  it('names an engine that does not answer, by its address, at container.engine, and exits 1', async () => {
    const port = await closedPort();
    const inline = `    container: { image: ${TEST_IMAGE}, engine: "tcp://127.0.0.1:${port}" }`;
    const path = fleet([
      'servers:',
      '  sock:',
      '    container:',
      `      image: ${TEST_IMAGE}`,
      '      engine: unix:///nonexistent/x.sock',
      '  tcp:',
      inline,
      '    command: no-such-command-on-this-host',
    ]);
    // The column of the engine key on line 7 (1-based).
    const column = inline.indexOf('engine:') + 1;
    const r = await cli.runCli(['check', path]);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([
      `${path}:5:7 servers.sock.container.engine: no container engine answers at unix:///nonexistent/x.sock: no socket there (ENOENT)`,
      `${path}:7:${column} servers.tcp.container.engine: no container engine answers at tcp://127.0.0.1:${port}: connection refused (ECONNREFUSED)`,
      '',
    ]);
    expect(r.code).toBe(1);
  });

  it('gives the same as data with --json, coded ENGINE_UNREACHABLE', async () => {
    const path = fleet([
      'servers:',
      '  sock:',
      `    container: { image: ${TEST_IMAGE}, engine: "unix:///nonexistent/x.sock" }`,
    ]);
    const r = await cli.runCli(['check', '--json', path]);
    expect(r.code).toBe(1);
    const data = JSON.parse(r.stdout) as { ok: boolean; problems: Record<string, unknown>[] };
    expect(data.ok).toBe(false);
    expect(data.problems).toEqual([
      {
        source: path,
        line: 3,
        col: expect.any(Number),
        path: 'servers.sock.container.engine',
        message: 'no container engine answers at unix:///nonexistent/x.sock: no socket there (ENOENT)',
        code: 'ENGINE_UNREACHABLE',
      },
    ]);
  });

  it.skipIf(skipWithoutEngine(answers))(
    'names an image the engine lacks (IMAGE_MISSING) and how to get it; with pull: missing it is no problem',
    async () => {
      expect(answers, `a container engine must answer at ${ENGINE_ADDRESS} when CI=true`).toBe(true);
      const path = fleet([
        'servers:',
        '  gone:',
        `    container: { image: localhost/no-such-image:1, engine: "${ENGINE_ADDRESS}" }`,
        '  pulled:',
        `    container: { image: localhost/no-such-image:1, engine: "${ENGINE_ADDRESS}", pull: missing }`,
      ]);
      const r = await cli.runCli(['check', path]);
      expect(r.stderr.split('\n')).toEqual([
        `${path}:3:18 servers.gone.container.image: image "localhost/no-such-image:1" is not in the engine at ${ENGINE_ADDRESS}, and pull is never: pull it there (podman pull localhost/no-such-image:1, or docker pull), build or load it there, or set pull: missing`,
        '',
      ]);
      expect(r.code).toBe(1);
    },
  );

  it.skipIf(skipWithoutEngine(answers))(
    'passes a server whose engine holds its image, showing the image id and the bounds it runs within',
    async () => {
      expect(answers, `a container engine must answer at ${ENGINE_ADDRESS} when CI=true`).toBe(true);
      const path = fleet([
        'servers:',
        '  everything:',
        '    container:',
        `      image: ${TEST_IMAGE}`,
        `      engine: ${ENGINE_ADDRESS}`,
        '      memory: 256MiB',
        '      cpus: 0.5',
        '    command: node',
        '    args: [/srv/everything/dist/index.js, stdio]',
        '    cwd: /srv',
      ]);
      const r = await cli.runCli(['check', path]);
      expect(r.stderr).toBe('');
      const lines = r.stdout.split('\n');
      expect(lines[1]).toBe('  everything  node /srv/everything/dist/index.js stdio');
      expect(lines[2]).toMatch(
        new RegExp(
          `^ {14}container ${TEST_IMAGE} \\(sha256:[0-9a-f]{12}\\) at ${ENGINE_ADDRESS}; network none; ` +
            'read-only root; memory 256.0 MiB, cpus 0.5; workdir /srv$',
        ),
      );
      expect(r.code).toBe(0);
      const json = await cli.runCli(['check', '--json', path]);
      const data = JSON.parse(json.stdout) as { servers: Record<string, unknown>[] };
      expect(data.servers).toEqual([
        {
          id: 'everything',
          disabled: false,
          remote: false,
          container: {
            image: TEST_IMAGE,
            engine: ENGINE_ADDRESS,
            pull: 'never',
            imageId: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
          },
        },
      ]);
    },
  );
});
