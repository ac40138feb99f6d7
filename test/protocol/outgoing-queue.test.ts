import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { SupervisorError } from '../../src/protocol/errors.js';
import { OutgoingQueue } from '../../src/protocol/outgoing-queue.js';
import { callToolText, listAllTools } from '../../src/protocol/tool-calls.js';
import { eventually } from '../supervisor/fleet.js';
import { fixtureConnections } from '../supervisor/helpers.js';

const MiB = 1024 * 1024;
const fx = fixtureConnections();
afterEach(async () => {
  await fx.reap();
  fx.events.length = 0;
});

/** A stream nobody reads, that asks writers to wait past 1 KiB. */
function unread() {
  return new PassThrough({ highWaterMark: 1024, readableHighWaterMark: 1024 });
}

/** A stream that keeps what each write() was handed, in order. */
function recorded(): { stream: PassThrough; writes: string[] } {
  const stream = new PassThrough();
  const writes: string[] = [];
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string | Buffer, cb?: (err?: Error | null) => void) => {
    writes.push(chunk.toString());
    return write(chunk, cb);
  }) as typeof stream.write;
  return { stream, writes };
}

describe('OutgoingQueue', () => {
  it('holds messages while the stream asks to wait, and hands them over on drain', async () => {
    const stream = unread();
    const q = new OutgoingQueue(stream, 64 * 1024, () => {});
    const line = `${'x'.repeat(599)}\n`;
    for (let i = 0; i < 10; i++) expect(q.write(line)).toBe('sent');
    expect(q.queuedBytes).toBeGreaterThan(0);
    const got: Buffer[] = [];
    stream.on('data', (c: Buffer) => got.push(c));
    await eventually(() => q.queuedBytes === 0, 2000, 'the queue to empty');
    expect(Buffer.concat(got).toString()).toBe(line.repeat(10));
  });

  it('on release, hands what waits for drain to the stream, so an end right after still delivers it', async () => {
    const stream = unread();
    const q = new OutgoingQueue(stream, 64 * 1024, () => {});
    const line = `${'v'.repeat(599)}\n`;
    for (let i = 0; i < 10; i++) q.write(line);
    q.release();
    stream.end();
    const got: Buffer[] = [];
    stream.on('data', (c: Buffer) => got.push(c));
    await new Promise((r) => stream.once('end', r));
    expect(Buffer.concat(got).toString()).toBe(line.repeat(10));
    expect(q.queuedBytes).toBe(0);
  });

  it('writes the lines of one tick to the stream in one write(), in order', async () => {
    const { stream, writes } = recorded();
    const q = new OutgoingQueue(stream, 64 * 1024, () => {});
    for (let i = 0; i < 64; i++) q.write(`{"id":${i}}\n`);
    await new Promise((r) => setImmediate(r));
    q.write('{"id":"next tick"}\n');
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(2);
    expect(writes[0]).toBe(Array.from({ length: 64 }, (_, i) => `{"id":${i}}\n`).join(''));
    expect(writes[1]).toBe('{"id":"next tick"}\n');
    await eventually(() => q.queuedBytes === 0, 2000, 'the queue to empty');
  });

  it('writes the lines that callbacks of one turn of the loop queued in one write(), as for POSTs read in one poll', async () => {
    const { stream, writes } = recorded();
    const q = new OutgoingQueue(stream, 64 * 1024, () => {});
    // Two callbacks that run one after the other in one phase of the loop, each queueing a line and awaiting
    // something already done, as the handlers of two sockets read in one poll do.
    const queued = ['a', 'b'].map(
      (id) =>
        new Promise<void>((resolve) =>
          setImmediate(async () => {
            q.write(`{"id":"${id}"}\n`);
            await Promise.resolve();
            resolve();
          }),
        ),
    );
    await Promise.all(queued);
    await eventually(() => q.queuedBytes === 0, 2000, 'the queue to empty');
    expect(writes).toEqual(['{"id":"a"}\n{"id":"b"}\n']);
  });

  it('refuses what would pass the bound, latches, and reports once', () => {
    const stream = unread();
    const full: number[] = [];
    const q = new OutgoingQueue(stream, 4000, (n) => full.push(n));
    const line = `${'y'.repeat(999)}\n`;
    for (let i = 0; i < 4; i++) expect(q.write(line)).toBe('sent');
    expect(q.queuedBytes).toBe(4000);
    expect(q.write('z\n')).toBe('full');
    expect(q.full).toBe(true);
    // Latched: even a message that would fit now is refused, and counted as dropped.
    expect(q.write('z\n')).toBe('full');
    expect(q.droppedMessages).toBe(2);
    expect(full).toEqual([4000]);
    // What was queued is let go with the stream.
    expect(stream.destroyed).toBe(true);
  });

  it('always takes one message into an empty queue, however large', () => {
    const q = new OutgoingQueue(unread(), 1000, () => {});
    expect(q.write(`${'w'.repeat(5000)}\n`)).toBe('sent');
    expect(q.write('more\n')).toBe('full');
  });

  it('says closed for a stream that is gone', () => {
    const stream = unread();
    const q = new OutgoingQueue(stream, 1000, () => {});
    stream.destroy();
    expect(q.write('x\n')).toBe('closed');
    expect(q.full).toBe(false);
  });
});

describe('a real server that floods requests and stops reading its stdin', () => {
  it('fails calls at once with QUEUE_FULL, drops answers, and never queues past its bound', async () => {
    const conn = fx.open(['--request-flood', 'ping', '--flood-id-bytes', '8192'], { queueBytes: MiB });
    await conn.initialize();
    const hung = conn.request('tools/call', { name: 'hang', arguments: {} }, { timeoutMs: 20_000 });
    hung.catch(() => {});
    // The fixture starts its flood once this listing is answered.
    await listAllTools(conn, 5000);
    await eventually(() => fx.events.some((e) => e.type === 'queue_full'), 10_000, 'queue_full');
    const full = fx.events.find((e) => e.type === 'queue_full');
    expect(full).toMatchObject({ limitBytes: MiB });
    await expect(hung).rejects.toMatchObject({ code: 'QUEUE_FULL' });

    // At once: refused as it is sent, before the event loop turns even once, not after any wait.
    let err: unknown;
    void conn
      .request('tools/call', { name: 'echo', arguments: { text: 'hi' } }, { timeoutMs: 20_000 })
      .catch((e: unknown) => {
        err = e;
      });
    await new Promise((r) => setImmediate(r));
    expect(err).toBeInstanceOf(SupervisorError);
    expect(err).toMatchObject({ code: 'QUEUE_FULL' });
    expect(await callToolText(conn, 'echo', { text: 'hi' }, { timeoutMs: 20_000, maxBytes: 65536 })).toMatch(
      /^ERROR: server 'fixture' stopped reading its input: [\d.]+ KiB queued for it, over its bound of 1 MiB$/,
    );

    // The flood goes on; every answer to it is dropped, and nothing more is queued.
    const dropped = conn.droppedMessages;
    await eventually(() => conn.droppedMessages >= dropped + 200, 10_000, '200 more dropped answers');
    expect(conn.queuedBytes).toBeLessThanOrEqual(MiB);
    expect(fx.events.filter((e) => e.type === 'queue_full')).toHaveLength(1);
  });
});
