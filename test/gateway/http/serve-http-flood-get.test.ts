import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allGone } from '../../cli/helpers.js';
import { flood, GROWTH_BOUND, idleGet, openSession, POURED, sockets, until, watch } from './flood-client.js';

// A session's GET stream that nobody reads while a server pours log messages: what the gateway holds for it must
// stay bounded. The gateway runs through the library (serveHttp) in a host process of its own: the CLI writes
// every server log message to its stderr as well, which would measure that pipe instead.
const HOST = fileURLToPath(new URL('../../fixtures/http-host.ts', import.meta.url));
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

describe('serveHttp: a GET stream nobody reads', () => {
  let host: ChildProcess;
  let stderr = '';
  let dir: string;
  let port: number;
  let inSession: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sup-flood-'));
    host = spawn(
      process.execPath,
      ['--import', 'tsx', HOST, join(dir, 'trust.json'), '--notification-flood', '--logging'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    host.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    await until('the listener', 20_000, () => /^listening on /m.test(stderr) || host.exitCode !== null);
    port = Number(/^listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp$/m.exec(stderr)?.[1]);
    expect(port, stderr).toBeGreaterThan(0);
    inSession = await openSession(port);
    // A first pour read as it comes takes V8's heap slack, so the test measures what is held for a client.
    const warm = flood(port, inSession, POURED / 2, join(dir, 'warm'));
    await until('the read-along pour', 30_000, () => warm.answered);
    warm.socket.destroy();
  }, 60_000);

  afterAll(async () => {
    const pid = host?.pid;
    if (pid !== undefined && host.exitCode === null) {
      host.kill('SIGTERM');
      if (!(await allGone([pid], 5000))) host.kill('SIGKILL');
      await allGone([pid], 2000);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds a bounded queue for it while the server pours log messages, and says what it dropped', async () => {
    const rssOf = watch(host.pid!);
    const get = await idleGet(port, inSession);
    // Log messages go to the GET stream; the call itself, read, gets its answer alone.
    const doneFile = join(dir, 'poured');
    const call = flood(port, inSession, POURED, doneFile, 'log');
    await until('the pour', 45_000, () => existsSync(doneFile), rssOf.sample);
    rssOf.sample();
    expect(rssOf.growth(), rssOf.says()).toBeLessThan(GROWTH_BOUND);
    await until('the answer', 20_000, () => call.answered, rssOf.sample);
    expect(rssOf.growth(), rssOf.says()).toBeLessThan(GROWTH_BOUND);

    // Read again, the GET stream drains, and says what it dropped.
    get.on('data', () => {});
    get.resume();
    await until('the warning', 10_000, () =>
      /^warn: http GET \/mcp \(session \S+\): .*dropped \d+ notifications/m.test(stderr),
    );
  }, 60_000);
});
