import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeEngine } from '../../src/container/engine-probe.js';
import { ENGINE_ADDRESS, engineAnswers, skipWithoutEngine, TEST_IMAGE } from './engine-here.js';

const answers = await engineAnswers();

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** Listens on a free loopback port with `server`; resolves to the port. */
async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

/** A loopback port nothing listens on: one just listened on and closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  servers.pop();
  await new Promise((r) => server.close(r));
  return port;
}

describe('probeEngine', () => {
  it('names a socket that is not there, and a port that refuses, as ENGINE_UNREACHABLE', async () => {
    expect(await probeEngine('unix:///nonexistent/x.sock', TEST_IMAGE, 3000)).toEqual({
      ok: false,
      code: 'ENGINE_UNREACHABLE',
      detail: 'no socket there (ENOENT)',
    });
    const port = await closedPort();
    expect(await probeEngine(`tcp://127.0.0.1:${port}`, TEST_IMAGE, 3000)).toEqual({
      ok: false,
      code: 'ENGINE_UNREACHABLE',
      detail: 'connection refused (ECONNREFUSED)',
    });
  });

  it('gives up on an engine that accepts and never answers, at its bound', async () => {
    const port = await listen(createServer((s) => sockets.push(s)));
    const started = Date.now();
    const probe = await probeEngine(`tcp://127.0.0.1:${port}`, TEST_IMAGE, 300);
    expect(probe).toEqual({ ok: false, code: 'ENGINE_UNREACHABLE', detail: 'no answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('takes an HTTP server that is no engine for an unreachable one, with the status it gave', async () => {
    const http = createHttpServer((_, res) => res.writeHead(404).end('not here'));
    const port = await listen(http);
    expect(await probeEngine(`tcp://127.0.0.1:${port}`, TEST_IMAGE, 3000)).toEqual({
      ok: false,
      code: 'ENGINE_UNREACHABLE',
      detail: 'it answered HTTP 404 to /_ping',
    });
  });

  it.skipIf(skipWithoutEngine(answers))(
    'finds the test image by its id, and names one the engine lacks',
    async () => {
      expect(answers, `a container engine must answer at ${ENGINE_ADDRESS} when CI=true`).toBe(true);
      const found = await probeEngine(ENGINE_ADDRESS, TEST_IMAGE, 3000);
      expect(found).toEqual({ ok: true, imageId: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
      expect(await probeEngine(ENGINE_ADDRESS, 'localhost/no-such-image:1', 3000)).toEqual({
        ok: false,
        code: 'IMAGE_MISSING',
        detail: 'no such image',
      });
    },
  );
});
