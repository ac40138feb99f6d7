import { createServer, type Server as HttpServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { passOn, STREAM_HARD_BYTES, type StreamShed } from '../../../src/gateway/http/pass-on.js';
import { sleep } from '../../cli/helpers.js';

const open: HttpServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const http of open.splice(0)) {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
  }
});

const encoder = new TextEncoder();
const KiB = 1024;
let seq = 0;
/** One event as the SDK's transport makes it: one chunk, `event`, `id` and one `data` line. */
const event = (message: object) => `event: message\nid: ${++seq}\ndata: ${JSON.stringify(message)}\n\n`;
const note = (n: number) =>
  event({
    method: 'notifications/progress',
    params: { progressToken: 't', progress: n, message: 'p'.repeat(64 * KiB) },
    jsonrpc: '2.0',
  });
const ask = (n: number) =>
  event({
    method: 'sampling/createMessage',
    params: { pad: 'q'.repeat(64 * KiB) },
    jsonrpc: '2.0',
    id: `ask-${n}`,
  });
const ANSWER = event({ result: { content: [{ type: 'text', text: 'the answer' }] }, jsonrpc: '2.0', id: 2 });

/**
 * An HTTP server whose every response is an event stream carrying `chunks` (all there at once, as the SDK's
 * transport enqueues them), passed on by passOn; what it told is collected in `shed`.
 */
async function streaming(chunks: string[]): Promise<{ port: number; shed: StreamShed[] }> {
  const shed: StreamShed[] = [];
  const http = createServer((_req, res) => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(encoder.encode(c));
        controller.close();
      },
    });
    const reader = stream.getReader();
    res.once('close', () => void reader.cancel().catch(() => {}));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    void passOn(res, reader, { held: [], pending: reader.read() }, (s) => shed.push(s));
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  open.push(http);
  return { port: (http.address() as { port: number }).port, shed };
}

/** A GET on a raw socket that reads nothing until resumed; what came, and whether the server ended or cut it. */
function idleClient(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.pause();
  const got: Buffer[] = [];
  socket.on('data', (c: Buffer) => got.push(c));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  return { socket, text: () => Buffer.concat(got).toString('utf8'), closed };
}

async function until(what: string, ms: number, check: () => boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what} not within ${ms} ms`);
    await sleep(10);
  }
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('passOn: a client that does not read', () => {
  it('drops notifications past the bound, keeps a request and the answer, and tells once how many it dropped', async () => {
    const notes = Array.from({ length: 400 }, (_, i) => note(i));
    const { port, shed } = await streaming([...notes, ask(1), ANSWER]);
    const client = idleClient(port);
    // Told as soon as the stream ended: nothing more can be dropped.
    await until('what was dropped', 10_000, () => shed.length > 0);
    expect(shed[0]!.code).toBe('NOTIFICATIONS_DROPPED');
    expect(shed[0]!.dropped).toBeGreaterThan(100);

    client.socket.resume();
    await until('the end of the stream', 10_000, () => client.text().endsWith('0\r\n\r\n'));
    const text = client.text();
    expect(count(text, '"sampling/createMessage"')).toBe(1);
    expect(count(text, '"the answer"')).toBe(1);
    expect(count(text, 'notifications/progress') + shed[0]!.dropped).toBe(400);
    expect(shed).toHaveLength(1);
  }, 20_000);

  it('ends the stream when what may not be dropped outgrows the hard bound', async () => {
    const asks = Array.from({ length: Math.ceil((STREAM_HARD_BYTES * 2) / (64 * KiB)) }, (_, i) => ask(i));
    const { port, shed } = await streaming([...asks, ANSWER]);
    const client = idleClient(port);
    await until('the stream ended', 10_000, () => shed.length > 0);
    expect(shed).toEqual([{ code: 'STREAM_ENDED', dropped: 0, droppedBytes: 0 }]);
    client.socket.resume();
    await client.closed;
    // Cut, not ended: the client can tell it lost the rest, and reconnect for it.
    expect(client.text().endsWith('0\r\n\r\n')).toBe(false);
    expect(count(client.text(), '"the answer"')).toBe(0);
  }, 20_000);

  it('drops nothing and tells nothing while the stream stays under its bound', async () => {
    const notes = Array.from({ length: 40 }, (_, i) => note(i));
    const { port, shed } = await streaming([...notes, ANSWER]);
    const client = idleClient(port);
    client.socket.resume();
    await until('the end of the stream', 10_000, () => client.text().endsWith('0\r\n\r\n'));
    expect(count(client.text(), 'notifications/progress')).toBe(40);
    expect(shed).toEqual([]);
  }, 20_000);
});
