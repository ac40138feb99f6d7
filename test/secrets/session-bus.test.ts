import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dialsOf, probeSessionBus } from '../../src/secrets/session-bus.js';

describe('the sockets a D-Bus address names', () => {
  it('reads unix paths, abstract names and tcp ports, unescaped, in order', () => {
    expect(dialsOf('unix:path=/run/user/1000/bus')).toEqual([
      { shown: '/run/user/1000/bus', path: '/run/user/1000/bus' },
    ]);
    expect(dialsOf('unix:abstract=/tmp/dbus-x,guid=ab12;tcp:host=127.0.0.1,port=5555')).toEqual([
      { shown: '@/tmp/dbus-x', path: '\0/tmp/dbus-x' },
      { shown: '127.0.0.1:5555', host: '127.0.0.1', port: 5555 },
    ]);
    expect(dialsOf('unix:path=/tmp/with%20space')).toEqual([
      { shown: '/tmp/with space', path: '/tmp/with space' },
    ]);
  });

  it('names nothing to dial for transports Node cannot reach, or for no address', () => {
    expect(dialsOf('autolaunch:')).toEqual([]);
    expect(dialsOf('launchd:env=DBUS_LAUNCHD_SESSION_BUS_SOCKET')).toEqual([]);
    expect(dialsOf('nonsense')).toEqual([]);
    expect(dialsOf('')).toEqual([]);
  });
});

describe('probing the session bus', () => {
  const dirs: string[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  /** A socket whose server does `onLine` with the first bytes it is sent; its path. */
  async function bus(answer: (socket: import('node:net').Socket) => void): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-probe-'));
    dirs.push(dir);
    const server = createServer((socket) => socket.once('data', () => answer(socket)));
    servers.push(server);
    await new Promise<void>((r) => server.listen(join(dir, 'bus'), r));
    return join(dir, 'bus');
  }

  it('takes any line back as a living bus', async () => {
    const path = await bus((s) => s.end('REJECTED EXTERNAL\r\n'));
    expect(await probeSessionBus(`unix:path=${path}`, 2000)).toEqual({ ok: true });
  });

  it('says when the bus hangs up without a word', async () => {
    const path = await bus((s) => s.destroy());
    expect(await probeSessionBus(`unix:path=${path}`, 2000)).toEqual({
      ok: false,
      words: `the session bus at ${path} closed the connection without answering`,
    });
  });

  it('tries each address until one answers, and reports the first failure when none does', async () => {
    const path = await bus((s) => s.end('REJECTED EXTERNAL\r\n'));
    expect(await probeSessionBus(`unix:path=${path}-gone;unix:path=${path}`, 2000)).toEqual({ ok: true });
    expect(await probeSessionBus(`unix:path=${path}-gone;unix:path=${path}-also-gone`, 2000)).toEqual({
      ok: false,
      words: `cannot connect to the session bus at ${path}-gone (ENOENT)`,
    });
  });

  it('leaves an address it cannot dial to the library', async () => {
    expect(await probeSessionBus(undefined, 100)).toEqual({ ok: true });
    expect(await probeSessionBus('autolaunch:', 100)).toEqual({ ok: true });
  });
});
