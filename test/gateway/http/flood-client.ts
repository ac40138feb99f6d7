import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { sleep } from '../../cli/helpers.js';
import { INITIALIZE } from './helpers.js';

// A raw HTTP/1.1 client of `serve --http` for the flood tests: it may stop reading at any moment, and keeps only
// a tail of what it reads. And the resident size of the process under test, read from /proc.

const MiB = 1024 * 1024;
/** What the server pours while its client does not read. */
export const POURED = 200 * MiB;
/** Each notification's text: under the 16 KiB a field of a server's notification may carry through `serve`. */
const EACH = 15 * 1024;
/** What `serve` may grow by meanwhile: well below what pours, well above its own bound per stream. */
export const GROWTH_BOUND = 100 * MiB;
/** What a `flood` call's answer starts with. */
const ANSWER = '"result":{"content":[{"type":"text","text":"flooded';

/** The sockets opened here; a test destroys them all in afterEach. */
export const sockets: Socket[] = [];

/** The resident size of a process, in bytes. */
function rss(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

/** Samples a process's resident size; `growth` is the most it grew by since `watch` was made. */
export function watch(pid: number) {
  const before = rss(pid);
  let peak = before;
  return {
    sample: () => {
      peak = Math.max(peak, rss(pid));
    },
    growth: () => peak - before,
    says: () => `serve grew from ${before} to ${peak} bytes`,
  };
}

/** An HTTP/1.1 POST to /mcp as bytes, on a connection of its own. */
function post(port: number, body: string, headers: Record<string, string> = {}): string {
  return [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Whether a whole response is in: a chunked body's last chunk, or as many bytes as its Content-Length says. */
function complete(text: string): boolean {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return false;
  if (text.endsWith('0\r\n\r\n')) return true;
  const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text.slice(0, split + 2));
  return length !== null && Buffer.byteLength(text.slice(split + 4)) >= Number(length[1]);
}

/**
 * Sends a POST on a raw socket and reads its whole answer (bounded). The end of the body says it is whole: the
 * SDK's stream headers keep the connection alive whatever the request asked.
 */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    sockets.push(socket);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no whole answer within 10 s: ${text}`));
    }, 10_000);
    socket.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      if (!complete(text)) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    });
    socket.on('error', reject);
  });
}

/** Opens a session (initialize, then initialized); the headers every later request of it carries. */
export async function openSession(port: number): Promise<Record<string, string>> {
  const init = await exchange(port, post(port, INITIALIZE));
  const session = /^mcp-session-id: (\S+)\r$/im.exec(init)?.[1];
  if (session === undefined) throw new Error(`no session: ${init}`);
  const headers = { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-11-25' };
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const answer = await exchange(port, post(port, initialized, headers));
  if (!answer.startsWith('HTTP/1.1 202 ')) throw new Error(`initialized not taken: ${answer}`);
  return headers;
}

/** A `flood` call on a raw socket: how much came back, and whether the answer did. */
export interface FloodCall {
  socket: Socket;
  got: number;
  answered: boolean;
}

/** Calls the fixture's `flood`: `bytes` of progress (under a progressToken) or log messages, then `doneFile`. */
export function flood(
  port: number,
  headers: Record<string, string>,
  bytes: number,
  doneFile: string,
  kind: 'progress' | 'log' = 'progress',
): FloodCall {
  const call = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: {
      name: 'fx.flood',
      arguments: { bytes, each: EACH, doneFile, kind },
      _meta: { progressToken: 'flood' },
    },
  });
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  const state: FloodCall = { socket, got: 0, answered: false };
  let tail = '';
  socket.on('data', (c: Buffer) => {
    state.got += c.length;
    tail = (tail + c.toString('latin1')).slice(-64 * 1024);
    state.answered ||= tail.includes(ANSWER);
  });
  socket.on('error', () => {});
  socket.write(post(port, call, headers));
  return state;
}

/** Opens the session's GET stream and reads its head; from then on it reads nothing until resumed. */
export async function idleGet(port: number, headers: Record<string, string>): Promise<Socket> {
  const get = connect(port, '127.0.0.1');
  sockets.push(get);
  get.on('error', () => {});
  let head = '';
  const onHead = (c: Buffer) => {
    head += c.toString('latin1');
    if (head.includes('\r\n\r\n')) get.pause();
  };
  get.on('data', onHead);
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  get.write(
    `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n${lines.join('')}\r\n`,
  );
  await until('the GET stream', 10_000, () => head.includes('\r\n\r\n'));
  if (!head.startsWith('HTTP/1.1 200 ')) throw new Error(`no GET stream: ${head}`);
  get.off('data', onHead);
  return get;
}

/** Polls `check` every 20 ms until it holds, or throws after `ms`; `each` runs at every poll. */
export async function until(what: string, ms: number, check: () => boolean, each: () => void = () => {}) {
  const end = Date.now() + ms;
  for (;;) {
    each();
    if (check()) return;
    if (Date.now() > end) throw new Error(`${what} not within ${ms} ms`);
    await sleep(20);
  }
}
