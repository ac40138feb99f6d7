import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../../src/control/client.js';
import { type ControlServer, openControlServer } from '../../src/control/control-server.js';
import { answerOk, MAX_REQUEST_BYTES } from '../../src/control/protocol.js';
import { socketFiles } from '../../src/control/socket-dir.js';

const dirs: string[] = [];
const servers: ControlServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-ctl-'));
  dirs.push(dir);
  return join(dir, 'state');
}

async function open(dir: string, requestTimeoutMs?: number): Promise<ControlServer> {
  const followers = new Set<(entry: unknown) => void>();
  const s = await openControlServer({
    dir,
    ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
    handlers: {
      hello: () => answerOk({ pid: process.pid }),
      boom: () => {
        throw new Error('handler bug');
      },
      tail: () => ({
        answer: answerOk('following'),
        follow: (send) => {
          followers.add(send);
          send('first');
          return () => followers.delete(send);
        },
      }),
    },
  });
  servers.push(s);
  return s;
}

/** Writes raw bytes and collects every line until the server closes the connection. */
function raw(path: string, bytes: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      text += c;
    });
    socket.on('error', reject);
    socket.on('close', () =>
      resolve(
        text
          .trimEnd()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      ),
    );
    socket.on('connect', () => {
      if (bytes) socket.write(bytes);
    });
  });
}

describe('the control socket', () => {
  it('is a 0600 socket in a 0700 directory, answers requests, and is gone after close', async () => {
    const dir = tempDir();
    const s = await open(dir);
    expect(statSync(s.path).isSocket()).toBe(true);
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const r = await request(s.path, { cmd: 'hello' });
    expect(r).toEqual({ ok: true, answer: { v: 1, ok: true, data: { pid: process.pid } } });
    await s.close();
    await s.close();
    expect(existsSync(s.path)).toBe(false);
  });

  it('answers every bad request with a code and goes on serving', async () => {
    const s = await open(tempDir(), 300);
    const codeOf = async (bytes: string) => ((await raw(s.path, bytes))[0] as { code: string }).code;
    expect(await codeOf('not json\n')).toBe('BAD_REQUEST');
    expect(await codeOf('[1]\n')).toBe('BAD_REQUEST');
    expect(await codeOf('{"v":2,"cmd":"hello"}\n')).toBe('UNSUPPORTED_VERSION');
    expect(await codeOf('{"v":1,"cmd":"nope"}\n')).toBe('UNKNOWN_COMMAND');
    expect(await codeOf('{"v":1,"cmd":"toString"}\n')).toBe('UNKNOWN_COMMAND');
    expect(await codeOf('{"v":1,"cmd":"hello","server":3}\n')).toBe('BAD_REQUEST');
    expect(await codeOf('{"v":1,"cmd":"boom"}\n')).toBe('INTERNAL');
    expect(await codeOf(`{"v":1,"cmd":"${'x'.repeat(MAX_REQUEST_BYTES)}`)).toBe('TOO_LARGE');
    // Nothing sent: answered when the request's time is up, not held open.
    expect(await codeOf('')).toBe('TIMEOUT');
    expect((await request(s.path, { cmd: 'hello' })).ok).toBe(true);
  });

  it('streams after a follow answer and ends the stream with FLEET_STOPPED on close', async () => {
    const s = await open(tempDir());
    const lines: unknown[] = [];
    const done = request(s.path, { cmd: 'tail' }, { onLine: (l) => lines.push(l) });
    const end = Date.now() + 5000;
    while (lines.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    await s.close();
    const r = await done;
    expect(r).toEqual({ ok: true, answer: { v: 1, ok: true, data: 'following' } });
    expect(lines).toEqual([
      { v: 1, entry: 'first' },
      { v: 1, end: 'FLEET_STOPPED' },
    ]);
  });

  it("replaces a dead host's socket that nobody listens on, and leaves a live one", async () => {
    const dir = tempDir();
    const live = await open(dir);
    // A real process listens, then dies by SIGKILL: its socket file stays behind with no listener.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const p=require('path').join(${JSON.stringify(dir)},'ctl-'+process.pid+'-0badc0de.sock');
         require('net').createServer().listen(p,()=>console.log(p));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const stale = await new Promise<string>((resolve) =>
        child.stdout!.once('data', (c: Buffer) => resolve(c.toString().trim())),
      );
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      expect(existsSync(stale)).toBe(true);
      const next = await open(dir);
      expect(existsSync(stale)).toBe(false);
      expect(socketFiles(dir).sort()).toEqual([live.path, next.path].sort());
      expect((await request(live.path, { cmd: 'hello' })).ok).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('reports a connection failure as data', async () => {
    const r = await request(join(tempDir(), 'none.sock'), { cmd: 'hello' });
    expect(r).toMatchObject({ ok: false, failure: { code: 'CONNECT_FAILED', detail: 'ENOENT' } });
  });
});
