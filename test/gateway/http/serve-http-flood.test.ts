import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, writeFixtureConfig } from '../../cli/helpers.js';
import { flood, GROWTH_BOUND, openSession, POURED, sockets, until, watch } from './flood-client.js';
import { type HttpServe, startHttpServe } from './helpers.js';

// A client that never reads its call's event stream while the server pours progress into it: what `serve` holds
// for it must stay bounded, and the call's answer must still reach it once it reads again.
const cli = cliProcesses();
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

describe('serve --http: a client that does not read its call stream', () => {
  let serve: HttpServe;
  let dir: string;
  let port: number;
  let inSession: Record<string, string>;

  beforeAll(async () => {
    await ensureBuilt();
    dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [
      { id: 'fx', flags: ['--notification-flood'], timeouts: '{ startup: 5s, call: 60s, shutdown: 1s }' },
    ]);
    serve = await startHttpServe(cli, config);
    port = Number(serve.url.port);
    inSession = await openSession(port);
    // A first pour read as it comes: V8 lets the heap take tens of MiB of garbage before it collects, whatever
    // the pour, and this takes that slack, so the test measures what is held for a client.
    const warm = flood(port, inSession, POURED / 2, join(dir, 'warm'));
    await until('the read-along pour', 30_000, () => warm.answered);
    warm.socket.destroy();
  }, 60_000);

  afterAll(() => cli.reap());

  it('holds a bounded queue for it while the server pours progress; the answer still comes once it reads', async () => {
    const rssOf = watch(serve.proc.child.pid!);
    // The client sends its call and reads nothing from then on.
    const doneFile = join(dir, 'poured');
    const idle = flood(port, inSession, POURED, doneFile);
    idle.socket.pause();
    // The server waits for its stdout to drain: once it wrote the last notification, serve has read all but what
    // a pipe holds.
    await until('the pour', 45_000, () => existsSync(doneFile), rssOf.sample);
    rssOf.sample();
    expect(idle.got).toBe(0);
    expect(rssOf.growth(), rssOf.says()).toBeLessThan(GROWTH_BOUND);

    // It reads again: the answer comes, behind what of the pour was kept for it.
    idle.socket.resume();
    await until('the answer', 20_000, () => idle.answered, rssOf.sample);
    expect(rssOf.growth(), rssOf.says()).toBeLessThan(GROWTH_BOUND);
    expect(idle.got).toBeLessThan(POURED / 4);
    await serve.proc.waitFor(/http POST \/mcp \(session \S+\): .*dropped \d+ notifications/, 5_000);
  }, 60_000);
});
